"""One rules object per game family: everything a table asks of its game, asked the same way.

A table never switches on the family. It asks ``rules_of(spec)`` (tables/games.py) to read a
player's setting, suggest one, set the house's, name the hands, play a finished game out as
transfers and review a player's part in it; the pictures ask it how hands are read and named
and whether a game scores hand by hand. The Pyramid games, the three-card game and Pai Gow each
answer in their own module, below this protocol, beside the table options they take
(tables/options.py); the rules never hold a table, only the values they are given
(``FinishedGame``). Each also writes its game's rules card for players (``card``): a few
short pages, with charts the bot draws as pictures.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.cards import AnyCard
from engine.evaluate import HandRules
from engine.payouts import Outcome, Payout
from engine.settlement import Party, Transfer
from engine.text import Text
from tables.events import SeatResult, ShowdownSettled, Wager
from tables.review import Review
from tables.rules.pages import Words, read
from tables.setting import Setting, SlotShape, Suggestion

#: How long the solver may think for a player who let the deadline pass, or for the Casino
#: dealer (Showdown's 25 cards).
SOLVER_BUDGET_S = 1.5


@dataclass(frozen=True, slots=True)
class PlayedSeat:
    """One seat of a finished game, as its rules play it out."""

    user: int
    held: tuple[AnyCard, ...]
    setting: Setting | None
    #: The declaration (0-based) at which the player surrendered; None: played on to the end.
    surrendered_at: int | None = None

    @property
    def is_active(self) -> bool:
        """Still in the game at its end: did not surrender or fold."""
        return self.surrendered_at is None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What the rules need of a table whose hands are all in: its seats in order (a value, so
    the rules never hold the table itself), the dealer's cards, the ante and the button."""

    seats: tuple[PlayedSeat, ...]
    dealer_cards: tuple[AnyCard, ...] = ()
    ante: int = 0
    #: The seat index of the dealer button (who takes the pot's odd chip, RULINGS §2).
    button: int = 0

    @property
    def active(self) -> tuple[PlayedSeat, ...]:
        """The seats still in the game at its end."""
        return tuple(seat for seat in self.seats if seat.is_active)


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game before table stakes: its transfers and what its showdown shows."""

    transfers: tuple[Transfer, ...]
    #: Seed 000's Scoring Card among the players who played on (rows and columns in order).
    matrix: tuple[tuple[int, ...], ...] = ()
    matrix_players: tuple[int, ...] = ()
    #: Per player, the points won (+) or lost (-) at each position against the field.
    per_hand: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    #: Per player, each wager against the house (the house games).
    wagers: Mapping[int, tuple[Wager, ...]] = field(default_factory=dict)
    #: The dealer's (or banker's) setting, and its points per hand (Casino Version).
    dealer: Setting | None = None
    dealer_per_hand: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Chart:
    """A table of words and numbers that a rules page shows as a picture: one row per line,
    the first column naming the row. Its words are in no language yet (``read`` gives them in
    one)."""

    title: Words
    #: The columns' headings, the naming column's first.
    headings: tuple[Words, ...]
    rows: tuple[tuple[Words, ...], ...]
    #: A heading over every column but the first ("Hand", over "6", "5", "4").
    over: Words = ""
    #: A line under the table.
    note: Words = ""

    def read(self, say: Callable[[Text], str]) -> ReadChart:
        """The chart with every text read by ``say`` (a language's, or ``str`` for English)."""
        return ReadChart(
            read(self.title, say),
            tuple(read(heading, say) for heading in self.headings),
            tuple(tuple(read(cell, say) for cell in row) for row in self.rows),
            over=read(self.over, say),
            note=read(self.note, say),
        )


@dataclass(frozen=True, slots=True)
class ReadChart:
    """A chart with its words in one language, as the picture draws it (render/rules.py)."""

    title: str
    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    over: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class RulesPage:
    """One page of a rules card: its name (a button's label), its text (an embed's
    description) and the charts drawn under it."""

    name: Text
    text: Words
    charts: tuple[Chart, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesCard:
    """A game's rules for players, page by page (``/rules``)."""

    title: str
    pages: tuple[RulesPage, ...]


class GameRules(Protocol):
    """What a table asks of its game; ``rules_of`` gives the object for a game."""

    def shape(self) -> tuple[SlotShape, ...]:
        """The hands a player sets, weakest first (names and sizes)."""

    def read(self, held: Sequence[AnyCard], text: str, automatic: str | None = None) -> Setting:
        """The player's setting from text, if legal for these cards; else ``GameError`` why."""

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """Raise ``GameError`` unless a stored setting is still legal for these cards."""

    def has_automatics(self) -> bool:
        """Whether a player may declare an automatic (``read``'s ``automatic``)."""

    def suggest(self, held: Sequence[AnyCard], *, budget_s: float | None) -> Suggestion:
        """The best setting the bot knows for these cards (the solver, or the house way)."""

    def computer_sets(self, level: str, held: Sequence[AnyCard]) -> Setting:
        """The setting a computer of this level plays (CPU work, within the solver's budget)."""

    def labels(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[str, ...]:
        """Each hand's name for the showdown."""

    def play(self, game: FinishedGame) -> Played:
        """A game whose hands are all in, played out as transfers (CPU work: off the loop)."""

    def review(
        self,
        event: ShowdownSettled,
        seat: SeatResult,
        held: tuple[AnyCard, ...],
        *,
        ante: int,
        solved: Suggestion | None = None,
    ) -> Review:
        """A player's setting of a finished game beside the best one of the same cards (CPU);
        ``solved``: the suggestion made for these cards during the game, which the review takes
        rather than asking the solver again (where it would)."""

    def called(self) -> Text:
        """How a sentence names the game's family: "the three-card game", "Pai Gow"."""

    def hand_rules(self) -> HandRules:
        """How the pictures read the hands (what a joker becomes, the order a hand plays in)."""

    def slot_names(self) -> tuple[str, ...]:
        """Each hand's short name, weakest first: Hand 1-6, Front/Middle/Back, or Low/High."""

    def slot_words(self) -> tuple[Text, ...]:
        """``slot_names`` as texts to read in a reader's language."""

    def scores_by_hand(self) -> bool:
        """Whether points are won hand by hand (the Pyramid games), not wager by wager."""

    def card(self) -> RulesCard:
        """The game's rules for players, page by page, its numbers read from its data."""

    def warm_up(self) -> None:
        """Load what the first answer would otherwise wait for (lookups, models)."""


def move(transfers: list[Transfer], payer: Party, payee: Party, amount: int, reason: str) -> None:
    """Add a transfer; a negative amount moves the other way, zero moves nothing."""
    if amount < 0:
        payer, payee, amount = payee, payer, -amount
    if amount:
        transfers.append(Transfer(payer, payee, amount, reason))


def wager_chips(payout: Payout, stake: int) -> int:
    """Chips won (+) or lost (-) on a wager; a win's fraction of a chip stays with the house."""
    if payout.outcome is Outcome.WIN:
        return math.floor(stake * payout.net)
    return int(stake * payout.net)
