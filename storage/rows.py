"""The frozen rows the repositories return."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from enum import Enum
from typing import Any


class GameStatus(Enum):
    """Where a game is: chips still escrowed, or finished one way or the other."""

    OPEN = "open"
    SETTLED = "settled"
    REFUNDED = "refunded"


@dataclass(frozen=True, slots=True)
class Player:
    """A player's chips on one server."""

    guild_id: int
    user_id: int
    balance: int
    created: datetime
    last_daily: datetime | None
    #: The name the player last showed on the server, if the bot has seen it.
    name: str | None = None


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One chip movement on one account (a player's balance, their escrow, or the house)."""

    id: int
    guild_id: int
    account: str
    user_id: int | None
    game_id: int | None
    kind: str
    amount: int
    reason: str
    created: datetime


@dataclass(frozen=True, slots=True)
class Game:
    """One game: where it is played, who sits, and how it ended."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: GameStatus
    created: datetime
    finished: datetime | None
    seats: list[Any]
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Queued:
    """The rows a transaction queued in a channel's outbox, so that its events can be shown from
    memory once it committed instead of read back (docs/architecture.md, "The outbox")."""

    #: The channel's last row before them when they were queued (0: none was left): a lane
    #: whose position is there or beyond has nothing pending before them.
    previous: int = 0
    #: Their ids, in the order of the events.
    ids: tuple[int, ...] = ()
    #: The lanes moved past them in the same transaction, as they want none of their events.
    passed: frozenset[str] = frozenset()
    #: The game they were queued with, and when.
    game_id: int | None = None
    created: datetime | None = None


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a settlement did: each player's net, the house's net, and whether it was a repeat."""

    game_id: int
    nets: dict[int, int]
    house: int
    repeated: bool = False
    #: The events it queued (none for a repeat).
    queued: Queued = field(default=Queued(), compare=False)


@dataclass(frozen=True, slots=True)
class SettleCall:
    """A settlement worked out for PostgreSQL's one statement (``pp_settle``'s arguments,
    `ChipRepository.settle_call`), with what it settles as planned."""

    game_id: int
    params: tuple[object, ...]
    planned: Settlement
    #: When it settles (the statement's time, as stored).
    now: str
    #: The balances it was worked out from, by player (a table's save checks them).
    read: Mapping[int, int] = field(default_factory=dict)

    def settled(self, previous: int | None, ids: Sequence[int] | None) -> Settlement:
        """What it did, once the statement queued its events as ``previous`` and ``ids``."""
        moment = datetime.fromisoformat(self.now)
        queued = Queued(previous or 0, tuple(ids or ()), frozenset(), self.game_id, moment)
        return replace(self.planned, queued=queued)


@dataclass(frozen=True, slots=True)
class Holdings:
    """A game and its players' chips, read at once before it settles (each is checked again in
    the settlement's transaction)."""

    game_id: int
    #: None: there is no such game.
    status: GameStatus | None
    #: What the game recorded so far (its ``result`` as stored), which the settlement extends.
    result: str | None
    #: Chips held for the game, per player.
    escrow: dict[int, int]
    #: The chips each player can stake now.
    balances: dict[int, int]
    #: Their winnings from the house's computers today, where asked for.
    house_day: HouseDay | None = None

    def available(self, users: Sequence[int]) -> dict[int, int]:
        """What each of ``users`` has at the table: balance and escrow."""
        return {user: self.balances[user] + self.escrow.get(user, 0) for user in users}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The latest saved state of the table in one channel."""

    guild_id: int
    channel_id: int
    game_id: int | None
    state: dict[str, Any]
    version: int
    updated: datetime
    #: The events its save queued (a snapshot loaded has none).
    queued: Queued = field(default=Queued(), compare=False)
    #: The settlement its save applied with it (`SnapshotRepository.save`'s ``settle``).
    settlement: Settlement | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Cover:
    """Chips a player must hold for a table's save to stand (a declaration to play on), checked
    by the save itself: ``chips`` on the player's balance in the ledger scope ``scope``."""

    scope: int
    user_id: int
    chips: int


@dataclass(frozen=True, slots=True)
class Escrow:
    """Stakes a table's save takes into its game's escrow in its own statement (a reveal's, on
    PostgreSQL): all of them or none, each player's ``stakes[user]`` under ``reason``."""

    game_id: int
    stakes: Mapping[int, int]
    reason: str


@dataclass(frozen=True, slots=True)
class Deleted:
    """A table forgotten (true if there was one), and the events queued with it."""

    deleted: bool
    queued: Queued = Queued()

    def __bool__(self) -> bool:
        return self.deleted


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's chip settings."""

    guild_id: int
    starting_chips: int
    daily_bonus: int
    #: An idle lobby closes after this many minutes.
    lobby_minutes: int = 30
    #: The server's defaults for its tables, as JSON (tables/defaults.py reads and checks them).
    table_defaults: dict[str, Any] = field(default_factory=dict)
    #: The most a player may net from the house's computers in a UTC day.
    house_cap: int = 100
    #: How many days a rating season lasts; 0: a calendar month.
    season_days: int = 0
    #: Whether an achievement earned is announced in the table's channel (tables/achievements.py).
    announce_achievements: bool = True
    #: The language of the server's channel posts (a Discord locale code, `/settings language`);
    #: None: the server's preferred locale.
    language: str | None = None


@dataclass(frozen=True, slots=True)
class HouseDay:
    """A server's daily cap on chips from the house's computers, and what players won today."""

    cap: int
    #: user id -> chips netted from the house's computers since midnight UTC (lost: negative).
    won: dict[int, int]

    def room(self, user_id: int) -> int:
        """What the house may still pay the player today."""
        return max(0, self.cap - self.won.get(user_id, 0))


@dataclass(frozen=True, slots=True)
class HouseNets:
    """What each player netted against the house's computers in one game (won: positive), and
    the day the cut of the cap was reckoned on."""

    day: HouseDay
    nets: dict[int, int]


@dataclass(frozen=True, slots=True)
class HouseNet:
    """The house's net chips over one UTC day (won: positive), and the part of it at tables
    with computers."""

    day: date
    net: int
    computers: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    value: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One of a player's games and what it did to their chips."""

    game_id: int
    game: str
    status: GameStatus
    created: datetime
    finished: datetime | None
    net: int
    #: The game's record as the games table keeps it (None: not finished, or none kept).
    result: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record over their settled games."""

    played: int
    won: int
    lost: int
    pushed: int
    net: int
    best: int
    worst: int


@dataclass(frozen=True, slots=True)
class Audit:
    """The ledger's invariants checked against the cached balances and escrow."""

    balances: int
    escrowed: int
    house: int
    minted: int
    problems: tuple[str, ...]

    @property
    def is_consistent(self) -> bool:
        """True when no invariant is broken."""
        return not self.problems


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One queued event of a table: its JSON as the tables wrote it, and when it was committed."""

    id: int
    guild_id: int
    channel_id: int
    game_id: int | None
    event: dict[str, Any]
    created: datetime


@dataclass(frozen=True, slots=True)
class ProcessRow:
    """One process of the bot, as it last announced itself."""

    id: str
    host: str
    pid: int
    #: The Discord shards it serves.
    shards: tuple[int, ...]
    started: datetime
    seen: datetime


class TournamentStatus(Enum):
    """Where a tournament is: taking registrations, being played, or over one way or the other."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """One tournament: where it is announced, its terms, its pool game and its saved state."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    pool_game_id: int
    host_id: int
    game: str
    buy_in: int
    max_players: int
    #: When play starts; None: as soon as it is full.
    starts: datetime | None
    level_hands: int
    #: The level of the computers filling registration; None: people only.
    computers: str | None
    status: TournamentStatus
    #: The tournament's own state once it runs (``tables.tournament``), with its version.
    state: dict[str, Any] | None
    version: int
    created: datetime
    finished: datetime | None


@dataclass(frozen=True, slots=True)
class TournamentEntry:
    """One entrant: a person (their buy-in in the pool) or a computer (a negative id)."""

    user_id: int
    registered: datetime
    place: int | None
    prize: int | None


@dataclass(frozen=True, slots=True)
class TournamentWinnings:
    """A player's tournaments on a server: how many they finished, won and the prizes taken."""

    user_id: int
    played: int
    won: int
    prizes: int


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating in one game: the rating model's estimate (mu, sigma) and the number
    players see (what the boards rank by)."""

    mu: float
    sigma: float
    shown: int


@dataclass(frozen=True, slots=True)
class Season:
    """A server's rating season: numbered from 1, the latest one under way."""

    guild_id: int
    number: int
    starts: datetime
    #: When it ended (None: under way).
    ends: datetime | None
    #: When it ends by the server's season length as set now (a finished one: ``ends``).
    due: datetime | None = None


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating in one game, with their place in the season under way."""

    game: str
    user_id: int
    shown: int
    #: Rated games in all, and in the season under way.
    games: int
    season_games: int
    #: The place among the season's rated players (ties share it); None: not rated this season.
    rank: int | None
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """One line of a season's final standings in one game."""

    rank: int
    user_id: int
    shown: int
    #: The games the player was rated in that season.
    games: int
