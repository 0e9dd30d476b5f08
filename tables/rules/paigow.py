"""Pai Gow poker (seed 003, RULINGS §6): two cards low, five high, one bet against the banker
less the commission, and the table's option (its wheel)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Final

from engine.cards import AnyCard
from engine.errors import GameError
from engine.evaluate import PAI_GOW_RULES, HandRules, WheelMode, evaluate
from engine.paigow import DECK_CODES, PaiGowSetting, PaiGowVariant, Role
from engine.paigow import is_foul as pai_gow_fouls
from engine.paigow import settle as settle_pai_gow
from engine.paigow import verify_setting as verify_pai_gow
from engine.paigow_house_way import house_way as pai_gow_house_way
from engine.payouts import Payout
from engine.text import Text, tr
from tables.options import Option, Options, option
from tables.rules import RulesCard
from tables.rules.house import HouseRules, two_card_words
from tables.rules.paigow_pages import pai_gow_card
from tables.setting import Setting
from tables.spec import GameSpec

#: RULINGS §6: Nevada ranks A-2-3-4-5 second-highest, California lowest.
WHEELS: Final = {"nevada": WheelMode.SECOND, "california": WheelMode.LOW}
#: The wheels by name, in a sentence.
WHEEL_NAMES: Final = {"nevada": tr("Nevada"), "california": tr("California")}
WHEEL: Final = Option(
    "wheel",
    "nevada",
    "where A-2-3-4-5 ranks",
    choices=tuple(WHEELS),
    choice_words=tuple(WHEEL_NAMES.values()),
    explain="Nevada: second-highest; California: lowest",
    refusal=tr("The wheel is {choices}, not {value!r}."),
    shown=lambda wheel: tr("the **{wheel}** wheel", wheel=WHEEL_NAMES.get(wheel, wheel)),
)


@dataclass(frozen=True, slots=True)
class PaiGowOptions(Options):
    """Pai Gow's table: its wheel beside every game's options."""

    wheel: str = option(WHEEL)

    def game(self, spec: GameSpec) -> GameSpec:
        """The game with this wheel."""
        return _pai_gow_at(spec, self.wheel)


@functools.cache
def _pai_gow_at(spec: GameSpec, wheel: str) -> GameSpec:
    return replace(spec, numbers=PaiGowVariant(wheel=WHEELS[wheel]))


@dataclass(frozen=True, slots=True)
class PaiGowRules(HouseRules):
    """Pai Gow poker: two cards low, five high, one bet less the commission (RULINGS §6)."""

    CALLED: ClassVar[Text] = tr("Pai Gow")
    HAND_RULES: ClassVar[HandRules] = PAI_GOW_RULES

    @property
    def variant(self) -> PaiGowVariant:
        """The game's numbers at this table (its wheel)."""
        assert isinstance(self.spec.numbers, PaiGowVariant)
        return self.spec.numbers

    def shoe_codes(self) -> tuple[int, ...]:
        """One deck and the joker."""
        return DECK_CODES

    def _setting(self, setting: Setting) -> PaiGowSetting:
        low, high = setting.hands
        return PaiGowSetting(high=high, low=low)

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """The seven cards dealt, and a high hand that beats the low one."""
        self.verify_form(setting)
        pai_gow = self._setting(setting)
        verify_pai_gow(held, pai_gow)
        if pai_gow_fouls(pai_gow, self.variant):
            raise GameError(tr("That fouls: your five-card hand must beat your two-card hand."))

    def house_way(self, held: Sequence[AnyCard], *, banker: bool = False) -> Setting:
        """Seed 003's strong house way, as the banker or as advice to a player."""
        role = Role.BANKER if banker else Role.PLAYER
        pai_gow = pai_gow_house_way(held, role=role, variant=self.variant)
        return Setting((pai_gow.low, pai_gow.high))

    def label_words(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[Text | str, ...]:
        """ "Pair of nines" or "Ace-seven", then the five-card hand's name (the engine's)."""
        low, high = hands
        return (two_card_words(low), evaluate(high, self.variant.rules).label)

    def wagers(self, mine: Setting, dealer: Setting) -> tuple[tuple[str, Payout], ...]:
        """The one bet against the banker."""
        payout = settle_pai_gow(self._setting(mine), self._setting(dealer), self.variant)
        return (("bet", payout),)

    def card(self) -> RulesCard:
        """The game's rules card, written from its variant (tables/rules/paigow_pages.py)."""
        return pai_gow_card(self.spec)

    def warm_up(self) -> None:
        """Pai Gow's hand keys for this table's wheel."""
        assert self.variant.keys is not None
