"""The coach's findings as values: a player's setting of a finished game (a ``Way``) beside the
best setting of the same cards, and what differed.

Each game's rules object makes them (``GameRules.review``: tables/rules/pyramid_review.py and
house_review.py); the coach's service (tables/coach.py) finds the game, runs the review in the
worker pool and keeps what it made; the cogs draw and word them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.stakes import SurrenderCost
from engine.text import Text
from tables.events import SeatResult, Wager
from tables.setting import Hand


@dataclass(frozen=True, slots=True)
class Way:
    """One way to set the cards, and what it scored and was worth."""

    hands: tuple[Hand, ...]
    labels: tuple[str, ...]
    automatic: str | None = None
    #: Pyramid games: points against the hands actually played, hand by hand.
    per_hand: tuple[int, ...] = ()
    #: House games: each wager against the dealer's hand that was played.
    wagers: tuple[Wager, ...] = ()
    #: Chips against the hands actually played (the points' chips in the Pyramid games, before
    #: any surrender, pot or table stakes).
    at_table: int = 0
    #: Pyramid games: the points against the hands actually played.
    points: int = 0
    #: Chips expected before anyone's hands were seen (against the field, or a random dealer).
    expected: float = 0.0


@dataclass(frozen=True, slots=True)
class Difference:
    """A hand (or a wager) the two ways played differently: what each made of it. Its words are
    texts in no language yet where the rules word them (``i18n.localize`` reads them; ``str``
    gives the English)."""

    #: The hand's position, weakest first (house games: the wager's place).
    position: int
    #: The wager's name in the house games ("main bet"); empty for a hand.
    wager: Text | str
    #: What each way made of it: the hand's name, or how the wager ended.
    yours: Text | str
    yours_points: int
    best: Text | str
    best_points: int


@dataclass(frozen=True, slots=True)
class Review:
    """A player's review of one game."""

    game_id: int
    game: str
    user: int
    #: The player's setting; None when they surrendered before setting one.
    yours: Way | None
    #: The best setting of the same cards (of the cards held then, for a surrender).
    best: Way | None
    #: The declaration (0-based) at which the player surrendered, if they did.
    surrendered_at: int | None = None
    #: What the surrender moved (or would have moved at the last declaration, the others
    #: declaring as they did), as the settlement moves it; None: the game has no surrender.
    surrender: SurrenderCost | None = None
    #: With hindsight of all the cards: surrendering was worth more than the best setting.
    fold_better: bool = False
    #: Chips playing on was expected to be worth when the player surrendered.
    playing_on: float | None = None
    differences: tuple[Difference, ...] = ()
    #: The dealer's (or banker's) hands, in the games against the house.
    dealer: Way | None = None
    #: False when the solver's time ran out before it proved its setting best.
    exact: bool = True
    #: The player's part of the showdown as it was settled: the chips and how they came about.
    seat: SeatResult | None = None

    @property
    def surrender_cost(self) -> int | None:
        """Chips the surrender moved beyond those the player had staked already."""
        return None if self.surrender is None else self.surrender.paid

    @property
    def same(self) -> bool:
        """The player set their cards as the best way does."""
        if self.yours is None or self.best is None:
            return False
        return self.yours.automatic == self.best.automatic and _same_hands(
            self.yours.hands, self.best.hands
        )


def _same_hands(a: Sequence[Hand], b: Sequence[Hand]) -> bool:
    def codes(hands: Sequence[Hand]) -> list[list[int]]:
        return [sorted(card.code for card in hand) for hand in hands]

    return codes(a) == codes(b)
