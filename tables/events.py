"""What happened at a table, as frozen past-tense events for the bot to render.

Events that carry a player's cards (``CardsDealt``, ``CardsDrawn``) are private: the bot sends them
to that player only. Every other event may be shown in the channel.

What an event says in words (a reason, a note, a hand's name, an achievement) is a `Text`, read in
each reader's language where it is shown; such a field is typed ``str | Text`` where a row queued
by an older version of the bot (or a value not translated yet) holds a plain English string.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import i18n
from engine.cards import AnyCard
from engine.stakes import DeclarationStakes
from engine.text import Names, Text


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at one table."""


@dataclass(frozen=True, slots=True)
class Lobby:
    """What a lobby message shows: the game, its ante and seats, the host and who sits."""

    game: str
    ante: int
    seats: int
    host: int
    players: tuple[int, ...]
    #: The computers among the players: (user id, level).
    computers: tuple[tuple[int, str], ...] = ()
    #: Computers the table may seat (the server's cap; 0: none).
    computer_seats: int = 0
    #: A practice table: scored as usual, no chips moved.
    practice: bool = False

    @property
    def seats_a_computer(self) -> bool:
        """Whether the host may add a computer now (a seat free, under the server's cap)."""
        return len(self.players) < self.seats and len(self.computers) < self.computer_seats


@dataclass(frozen=True, slots=True)
class TableOpened(Event):
    """A host opened a table in the channel."""

    lobby: Lobby


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    """A player took a seat."""

    user: int
    lobby: Lobby


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """A player left the lobby; ``new_host`` is set when the host left."""

    user: int
    lobby: Lobby
    new_host: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerKicked(Event):
    """The host removed a player; mid-game the table plays the defaults for them.

    ``lobby`` is the lobby after a removal from it; None mid-game.
    """

    user: int
    by: int
    lobby: Lobby | None = None


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The host started a game: the stakes are escrowed and the cards dealt."""

    game_id: int
    players: tuple[int, ...]
    escrowed: dict[int, int]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Private: the cards a player was dealt at the start."""

    user: int
    cards: tuple[AnyCard, ...]


@dataclass(frozen=True, slots=True)
class DeclarationsOpened(Event):
    """Players must now declare, in secret, whether they play on or surrender."""

    round: int
    players: tuple[int, ...]
    deadline: float
    #: What playing on and surrendering cost each player, as the settlement moves it at this
    #: table (None at a practice table, where no chips move).
    stakes: DeclarationStakes | None
    draw: int
    game_id: int
    #: The game's name (tables.games), so the message can name it.
    game: str


@dataclass(frozen=True, slots=True)
class DeclarationMade(Event):
    """A player declared (the choice stays secret until every declaration is in)."""

    user: int
    round: int
    replaced: bool = False


@dataclass(frozen=True, slots=True)
class DeclarationsRevealed(Event):
    """Every declaration of the round, shown together."""

    round: int
    played: tuple[int, ...]
    surrendered: tuple[int, ...]
    #: Players who were silent at the deadline (the table declared its default for them).
    defaulted: tuple[int, ...] = ()
    #: Players whose chips could not cover playing on: they surrendered.
    short: tuple[int, ...] = ()
    escrowed: dict[int, int] = field(default_factory=dict)
    #: The game under way (None in a row queued before the field was added).
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """Private: the cards a player received for playing on, and everything they now hold."""

    user: int
    cards: tuple[AnyCard, ...]
    held: tuple[AnyCard, ...]


@dataclass(frozen=True, slots=True)
class ArrangingOpened(Event):
    """Players must now set their hands."""

    players: tuple[int, ...]
    deadline: float
    game_id: int
    #: The game's name (tables.games), so the message can name it.
    game: str


@dataclass(frozen=True, slots=True)
class ArrangementSubmitted(Event):
    """A player set their hands (or the table did for them); replaceable until all are in."""

    user: int
    replaced: bool
    #: "player", "solver" (at the deadline, or a kicked player) or "house way".
    by: str
    automatic: str | None = None
    #: The game under way (None in a row queued before the field was added).
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class Wager:
    """One wager against the house: its name, the chips won (+) or lost (-), and why (each a
    text; an older event keeps them in English)."""

    name: str | Text
    chips: int
    reason: str | Text


@dataclass(frozen=True, slots=True)
class Part:
    """One kind of chip movement in a player's net: "ante", "points", "pot", a wager's name..."""

    kind: str
    chips: int


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's part of a showdown."""

    user: int
    #: The declaration (0-based) at which the player surrendered or folded; None: played on.
    surrendered_at: int | None
    hands: tuple[tuple[AnyCard, ...], ...]
    labels: tuple[str | Text, ...]
    automatic: str | None
    net: int
    #: Per hand (or per wager in the house games): points or chips won (+) or lost (-).
    per_hand: tuple[int, ...] = ()
    #: The house games: each wager with its result.
    wagers: tuple[Wager, ...] = ()
    #: Who set the hands: "player", "computer", or "solver" when the table set them at the deadline.
    set_by: str | None = None
    #: A computer's level (None: a person).
    computer: str | None = None
    #: The net in chips by kind, in the order they moved (they sum to ``net``): what reconciles
    #: the chips with the points.
    breakdown: tuple[Part, ...] = ()
    #: The points the player scored in all (a Pyramid game; None in the games with wagers).
    points: int | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """A sentence of the showdown, about one player or the whole table.

    The player is an id: whoever shows the note names them (a mention in a message, the display
    name in a picture). A `Text` names the player itself (``Who``), where the reader's language
    puts them; an older row's plain string follows the player's name.
    """

    text: str | Text
    user: int | None = None

    def render(self, name: Callable[[int], str], locale: str = i18n.ENGLISH.discord) -> str:
        """The sentence in the language of ``locale``, the player named by ``name``."""
        if isinstance(self.text, Text):
            return i18n.localize(locale, self.text, _Naming(name))
        return self.text if self.user is None else f"{name(self.user)} {self.text}"


@dataclass(frozen=True, slots=True)
class _Naming(Names):
    """Players named by a function of their id (the channels a note never names: plainly)."""

    name: Callable[[int], str]

    def user(self, user_id: int) -> str:
        return self.name(user_id)

    def channel(self, channel_id: int) -> str:
        return f"channel {channel_id}"


@dataclass(frozen=True, slots=True)
class ShowdownSettled(Event):
    """The game ended and its chips moved: hands, the net matrix, nets and the pot's winners."""

    game_id: int
    game: str
    seats: tuple[SeatResult, ...]
    #: Seed 000's Scoring Card among the players who played on (rows and columns in seat order).
    matrix: tuple[tuple[int, ...], ...]
    matrix_players: tuple[int, ...]
    nets: dict[int, int]
    house: int
    pot: int
    pot_winners: tuple[int, ...]
    dealer_hands: tuple[tuple[AnyCard, ...], ...] = ()
    dealer_labels: tuple[str | Text, ...] = ()
    #: The dealer's points per hand (Casino Version): what the players lost there, in sum.
    dealer_per_hand: tuple[int, ...] = ()
    #: Sentences on how the chips moved (capped losses, the wagers' results).
    notes: tuple[Note, ...] = ()
    #: A practice table: scored as usual, but no chip moved.
    practice: bool = False
    #: The ledger scope the chips moved in when it is not the server's own (a tournament
    #: table's: tournament chips, docs/architecture.md "Tournaments"); None: the server's.
    scope: int | None = None

    @property
    def moved_server_chips(self) -> bool:
        """Whether the game's chips were the server's: what the server's statistics,
        leaderboards, ratings and achievements count (not a practice table, whose chips never
        moved, nor a table playing another scope's chips, such as a tournament's)."""
        return not self.practice and self.scope is None


@dataclass(frozen=True, slots=True)
class GameCancelled(Event):
    """The game was cancelled and every escrowed chip went back."""

    game_id: int
    by: int | None
    refunds: dict[int, int]
    reason: str | Text


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table is gone from the channel."""

    reason: str | Text


@dataclass(frozen=True, slots=True)
class TableAbandoned(Event):
    """The table's channel or server went away (or the bot lost it): the game under way was
    refunded and the table closed; its players hear of it by DM, as the channel is gone."""

    game: str
    players: tuple[int, ...]
    refunds: dict[int, int]
    reason: str | Text
    #: The game under way when the table closed, if any.
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class ChallengePlayed(Event):
    """A player's arrangement of the day's challenge deal was scored (duplicate play).

    Not a table's event: the challenge queues it in the channel where it was played, so the
    features that listen to the tables (achievements, a profile's streak) hear of it the same way.
    """

    #: The challenge's day (UTC), ISO: "2026-11-26".
    day: str
    #: The Pyramid game of the deal: showdown, standard, no-surrender or casino.
    game: str
    user: int
    #: The points the player's arrangement won against the other seats' fixed settings.
    points: int
    #: The points of the solver's arrangement of the same cards against the same settings.
    par: int
    #: Consecutive days (UTC) the player has played a challenge, this one included.
    streak: int

    @property
    def score(self) -> int:
        """Points against par: above 0 beat par."""
        return self.points - self.par


@dataclass(frozen=True, slots=True)
class AchievementEarned(Event):
    """A player earned an achievement (tables/achievements.py): queued by the achievements
    subscriber in the channel of the game or challenge that earned it, once, and only where the
    server announces them."""

    user: int
    #: The achievement's key (``tables.achievements.ACHIEVEMENTS``), as its rows keep it.
    achievement: str
    #: Its name and what earns it, as shown when it was earned.
    name: str | Text
    description: str | Text
    #: The game that earned it (None: a challenge).
    game_id: int | None = None
