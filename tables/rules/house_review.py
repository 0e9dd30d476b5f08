"""The coach's review of a game against the house: every legal setting of the player's cards.

Each setting is weighed against the same few hundred dealer hands drawn from what the shoe may
still hold (the dealer sets them by its house way), and scored against the dealer's hand that was
played.
"""

from __future__ import annotations

import functools
import itertools
import random
import statistics
from collections.abc import Sequence
from typing import Final, Protocol

from engine import paigow, three_card
from engine.cards import AnyCard, card_from_code
from engine.errors import GameError
from engine.payouts import Payout
from engine.text import Text, english, tr
from tables.events import SeatResult, ShowdownSettled, Wager
from tables.review import Difference, Review, Way
from tables.rules import wager_chips
from tables.setting import Setting, SlotShape
from tables.spec import GameSpec

#: Dealer hands a house game's settings are weighed against (the same hands for every setting).
DEALER_SAMPLES: Final = 600
#: The house games' wagers in a player's words (an older event keeps the English name).
WAGER_WORDS: Final = {
    "main bet": tr("main bet"),
    "3-card bonus": tr("3-card bonus"),
    "6-card bonus": tr("6-card bonus"),
    "bet": tr("bet"),
}


#: The same, as a line begins with them (a picture's line: "Main bet +5").
WAGER_TITLES: Final = {
    "main bet": tr("Main bet"),
    "3-card bonus": tr("3-card bonus"),
    "6-card bonus": tr("6-card bonus"),
    "bet": tr("Bet"),
}


def wager_title(name: str | Text) -> Text | str:
    """A wager's name (its English, or its text) as a line begins with it ("Main bet"); a name it
    does not know, as it is."""
    if isinstance(name, Text):
        return WAGER_TITLES.get(name.msgid, name)
    return WAGER_TITLES.get(name, name)


def wager_words(name: str | Text) -> Text | str:
    """A wager's name as a text to translate ("main bet"); a text, or a name it does not know,
    as it is."""
    return name if isinstance(name, Text) else WAGER_WORDS.get(name, name)


@functools.cache
def _reasons() -> dict[str, Text]:
    texts = (*three_card.reasons(), *paigow.REASONS)
    # An event stored before English grouped its thousands says "pays 1000 to 1".
    found = {_ungrouped(text): text for text in texts}
    found.update((str(text), text) for text in texts)
    return found


def _ungrouped(text: Text) -> str:
    values = text.params.items()
    return text.msgid.format(
        **{name: str(value) if isinstance(value, int) else english(value) for name, value in values}
    )


def reason_words(reason: str | Text) -> Text | str:
    """Why a wager ended, as a text to translate: a text as it is; a reason an older event kept
    in English read back into its text ("Pair pays 1 to 1"); one it does not know, as it is."""
    if isinstance(reason, Text):
        return reason
    return _reasons().get(reason, reason)


class HouseGame(Protocol):
    """What a review asks of a house game's rules (``HouseRules`` answers it)."""

    @property
    def spec(self) -> GameSpec:
        """The game as the table played it."""

    def shape(self) -> tuple[SlotShape, ...]:
        """The low hand, then the high hand."""

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """Raise ``GameError`` unless the setting is legal for these cards (a foul is not)."""

    def house_way(self, held: Sequence[AnyCard], *, banker: bool = False) -> Setting:
        """The house way's setting of these cards."""

    def labels(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[str, ...]:
        """Each hand's name."""

    def wagers(self, mine: Setting, dealer: Setting) -> tuple[tuple[str, Payout], ...]:
        """Each wager's name and how it ended against the dealer's setting."""

    def shoe_codes(self) -> tuple[int, ...]:
        """The codes of every card in the game's shoe."""


def review_house(
    rules: HouseGame,
    ante: int,
    event: ShowdownSettled,
    seat: SeatResult,
    held: tuple[AnyCard, ...],
) -> Review:
    """A house game player's setting beside the one worth most against the dealer's hands."""
    spec = rules.spec
    dealer = Setting(event.dealer_hands)
    settings = _house_settings(rules, held)
    dealers = [rules.house_way(hand, banker=True) for hand in _dealer_hands(rules, event, held)]

    def worth(setting: Setting) -> float:
        return statistics.fmean(
            sum(wager_chips(payout, ante) for _, payout in rules.wagers(setting, other))
            for other in dealers
        )

    def way(setting: Setting) -> Way:
        wagers = tuple(
            Wager(wager_words(name), wager_chips(payout, ante), payout.text)
            for name, payout in rules.wagers(setting, dealer)
        )
        return Way(
            setting.hands,
            rules.labels(setting.hands),
            wagers=wagers,
            at_table=sum(w.chips for w in wagers),
            expected=worth(setting),
        )

    mine = Setting(seat.hands) if seat.hands else None
    house_way = rules.house_way(held)
    # The best by expectation; a tie goes to the player's own setting, then to the house way.
    order = [s for s in (mine, house_way) if s is not None] + settings
    best_setting = max(order, key=worth)
    yours = None if mine is None else way(mine)
    best = way(best_setting)
    differences: tuple[Difference, ...] = ()
    if yours is not None:
        differences = tuple(
            Difference(i, wager_words(a.name), a.reason, a.chips, b.reason, b.chips)
            for i, (a, b) in enumerate(zip(yours.wagers, best.wagers, strict=True))
            if a.chips != b.chips
        )
    return Review(
        event.game_id,
        spec.name,
        seat.user,
        yours,
        best,
        surrendered_at=seat.surrendered_at,
        differences=differences,
        dealer=Way(
            event.dealer_hands,
            tuple(str(label) for label in event.dealer_labels),
            at_table=0 if yours is None else -yours.at_table,
        ),
    )


def _house_settings(rules: HouseGame, held: Sequence[AnyCard]) -> list[Setting]:
    """Every legal low/high setting of a house game's cards."""
    low_size = rules.shape()[0].sizes[0]
    found = []
    for low in itertools.combinations(range(len(held)), low_size):
        setting = Setting(
            (
                tuple(held[i] for i in low),
                tuple(card for i, card in enumerate(held) if i not in low),
            )
        )
        try:
            rules.check(held, setting)
        except GameError:
            continue  # a foul
        found.append(setting)
    return found


def _dealer_hands(
    rules: HouseGame, event: ShowdownSettled, held: Sequence[AnyCard]
) -> list[list[AnyCard]]:
    """Dealer hands the shoe could hold, as far as the player knew (their own cards out)."""
    codes = list(rules.shoe_codes())
    for card in held:
        codes.remove(card.code)
    rng = random.Random(f"review:{event.game_id}:{[card.code for card in held]}")
    size = rules.spec.dealer_cards
    return [
        [card_from_code(code) for code in rng.sample(codes, size)] for _ in range(DEALER_SAMPLES)
    ]
