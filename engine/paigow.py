"""Pai Gow poker (seed 003): seven cards set as a 5-card high and a 2-card low hand, vs the banker.

Hands compare by ranks only (suits never break a tie) and the joker is the bug (RULINGS §6).
Functions ending in ``_codes`` work on card codes (``Card.code``, the joker is 0): they are the
simulator's fast path; the others take and return cards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Final

from engine.cards import JOKER_CODE, AnyCard, card_from_code
from engine.errors import GameError
from engine.evaluate import ACE, PAI_GOW_RULES, PAIR, Evaluator, HandRules, WheelMode, evaluator
from engine.payouts import Payout, loss, push, win
from engine.text import tr

#: The deck: 52 cards and one joker (seed 003, "a standard 52-card deck, plus a single joker").
DECK_CODES: Final = (JOKER_CODE, *range(8, 60))


class Role(Enum):
    """Who sets a hand: the sheet sets four aces differently for the banker (seed 003)."""

    PLAYER = "player"
    BANKER = "banker"


@dataclass(frozen=True, slots=True)
class PaiGowVariant:
    """Every number of the game in one place (RULINGS §6); a table's host chooses the wheel."""

    #: "a 5% commission (usually known as the rake)" on a player's win (seed 003).
    commission: Fraction = Fraction(5, 100)
    #: Nevada (the wheel second-highest) by default; California plays it lowest.
    wheel: WheelMode = WheelMode.SECOND

    @property
    def rules(self) -> HandRules:
        """The hand rules of this variant."""
        return dataclasses.replace(PAI_GOW_RULES, wheel=self.wheel)

    @property
    def keys(self) -> PaiGowKeys:
        """The shared hand keys of this variant's hand rules."""
        return pai_gow_keys(self.rules)


@dataclass(frozen=True, slots=True)
class PaiGowSetting:
    """Seven cards set as a 5-card high hand ("behind") and a 2-card low hand ("in front")."""

    high: tuple[AnyCard, ...]
    low: tuple[AnyCard, ...]

    @property
    def cards(self) -> tuple[AnyCard, ...]:
        """All seven cards, high hand first."""
        return (*self.high, *self.low)

    @classmethod
    def from_codes(cls, high: Sequence[int], low: Sequence[int]) -> PaiGowSetting:
        """A setting from card codes."""
        return cls(
            high=tuple(card_from_code(c) for c in high), low=tuple(card_from_code(c) for c in low)
        )

    @property
    def codes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The high and the low hand as card codes."""
        return tuple(c.code for c in self.high), tuple(c.code for c in self.low)


def low_key_codes(codes: Sequence[int]) -> tuple[int, ...]:
    """Rank key of a 2-card hand: in the low hand the joker is always an ace (seed 003)."""
    a, b = (ACE if c == JOKER_CODE else c >> 2 for c in codes)
    if a == b:
        return (PAIR, a, 0)
    return (0, a, b, 0) if a > b else (0, b, a, 0)


class PaiGowKeys:
    """Rank keys (the evaluator's key without suits) of Pai Gow hands under one set of rules.

    A 5-card hand's rank key depends only on its ranks and on whether its real cards share a
    suit (the bug fills a straight or a flush from ranks alone): the evaluator's lookups give
    it without a sort.
    """

    __slots__ = ("evaluator", "high")

    def __init__(self, rules: HandRules) -> None:
        self.evaluator: Evaluator = evaluator(rules)
        #: Rank key of a 5-card hand on the one ladder (RULINGS §1.5), suits dropped.
        self.high: Callable[[Sequence[int]], tuple[int, ...]] = self.evaluator.rank_part

    @staticmethod
    def low(codes: Sequence[int]) -> tuple[int, ...]:
        """Rank key of a 2-card hand (see ``low_key_codes``)."""
        return low_key_codes(codes)

    def is_foul(self, high: Sequence[int], low: Sequence[int]) -> bool:
        """The high hand must beat the low hand (seed 003, "Object of the game")."""
        return not self.high(high) > low_key_codes(low)


@cache
def pai_gow_keys(rules: HandRules = PAI_GOW_RULES) -> PaiGowKeys:
    """The shared keys of a set of Pai Gow hand rules."""
    return PaiGowKeys(rules)


def verify_setting(cards: Sequence[AnyCard], setting: PaiGowSetting) -> None:
    """Raise ``GameError`` unless the setting is the seven cards dealt, five high and two low."""
    if len(setting.high) != 5 or len(setting.low) != 2:
        raise GameError(tr("Set five cards in the high hand and two in the low hand."))
    if sorted(c.code for c in setting.cards) != sorted(c.code for c in cards):
        raise GameError(tr("Set exactly the seven cards you were dealt."))


def is_foul(setting: PaiGowSetting, variant: PaiGowVariant | None = None) -> bool:
    """True if the low hand is not beaten by the high hand (a foul)."""
    high, low = setting.codes
    return (variant or PaiGowVariant()).keys.is_foul(high, low)


def settle_codes(
    player: tuple[Sequence[int], Sequence[int]],
    banker: tuple[Sequence[int], Sequence[int]],
    keys: PaiGowKeys,
) -> int:
    """1 if the player wins both hands, -1 if neither, else 0; ties go to the banker."""
    won_high = keys.high(player[0]) > keys.high(banker[0])
    won_low = low_key_codes(player[1]) > low_key_codes(banker[1])
    return won_high + won_low - 1


#: Every reason the bet may end for: a reason stored in English reads back into its text by them.
REASONS: Final = (
    tr("Won both hands (less the commission)"),
    tr("Did not beat the banker's hands (ties go to the banker)"),
    tr("Won one hand and lost the other"),
)


def settle(
    player: PaiGowSetting, banker: PaiGowSetting, variant: PaiGowVariant | None = None
) -> Payout:
    """The player's bet against the banker (seed 003, "Determining a win"); both must be legal."""
    variant = variant or PaiGowVariant()
    for setting in (player, banker):
        if is_foul(setting, variant):
            raise GameError(tr("A fouled hand must be re-set before it is settled."))
    result = settle_codes(player.codes, banker.codes, variant.keys)
    won, lost, pushed = REASONS
    if result > 0:
        return win(1 - variant.commission, won)
    if result < 0:
        return loss(lost)
    return push(pushed)
