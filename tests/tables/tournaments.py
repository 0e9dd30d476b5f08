"""What the tournament tests at the tables level share: a venue of numbered threads, a runner
over a world, a tournament opened on it, and its play driven to a round or to its end, with
every hand each table was really dealt noted."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from storage.audit import audit
from storage.rows import TournamentRow, TournamentStatus
from tables.events import Event
from tables.manager import TableManager
from tables.tournament_play import News, Play
from tables.tournament_runner import TournamentRunner
from tests.tables.helpers import CHANNEL, GUILD, HOST, QuickComputers, World

BUY_IN = 100
THREAD = 7000


#: A table's thread opened again (its first one lost) is `MOVED` further on each time.
MOVED = 100


class FakeVenue:
    """Threads numbered from `THREAD` (a table's new thread, once its first is lost, `MOVED`
    further on each time), and the news as told."""

    def __init__(self) -> None:
        self.news: list[News] = []
        self.opened: list[int] = []
        self.shown: list[TournamentStatus] = []

    async def open_place(self, tournament: TournamentRow, number: int) -> int:
        thread = THREAD + number
        while thread in self.opened:
            thread += MOVED
        self.opened.append(thread)
        return thread

    async def announce(self, tournament: TournamentRow, news: Sequence[News]) -> None:
        self.news.extend(news)

    async def registration_changed(self, tournament: TournamentRow) -> None:
        self.shown.append(tournament.status)


class Dealt:
    """Every hand a table was really dealt: by the round (the games the table had played
    before it), each table's channel with the players seated."""

    def __init__(self) -> None:
        self.rounds: dict[int, dict[int, tuple[int, ...]]] = defaultdict(dict)

    def watch(self, manager: TableManager) -> None:
        """Note the deals this manager makes from now on."""
        deal = manager.deal

        async def noted(
            guild_id: int,
            channel_id: int,
            *,
            seats: Sequence[tuple[int, str | None]],
            ante: int | None,
            after_games: int,
        ) -> tuple[Event, ...]:
            events = await deal(
                guild_id, channel_id, seats=seats, ante=ante, after_games=after_games
            )
            if events:
                assert channel_id not in self.rounds[after_games], "a hand dealt twice"
                self.rounds[after_games][channel_id] = tuple(user for user, _ in seats)
            return events

        manager.deal = noted  # type: ignore[method-assign]


def runner_of(world: World, venue: FakeVenue, dealt: Dealt | None = None) -> TournamentRunner:
    """A runner over the world's manager, its computers deciding at once."""
    world.manager.turns.offload = QuickComputers(world.manager.turns.offload)
    if dealt is not None:
        dealt.watch(world.manager)
    return TournamentRunner(
        world.storage, world.manager, venue, rng=random.Random(5), scheduler=world.scheduler
    )


async def open_tournament(
    world: World,
    *,
    starts_in: float | None,
    max_players: int = 4,
    people: Sequence[int] = (HOST,),
    level_hands: int = 1,
    computers: str | None = "steady",
) -> int:
    """A Showdown Version tournament, starting in ``starts_in`` seconds (None: once full), with
    computers of that level filling it (None: none), these people registered."""
    starts = None if starts_in is None else datetime.fromtimestamp(world.clock() + starts_in, UTC)
    created = await world.storage.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        game="showdown",
        buy_in=BUY_IN,
        max_players=max_players,
        starts=starts,
        level_hands=level_hands,
        computers=computers,
    )
    for person in people:
        await world.storage.players.get_or_create(GUILD, person)
        await world.storage.tournaments.register(created.id, person)
    return created.id


async def row_of(world: World, tid: int) -> TournamentRow:
    row = await world.storage.tournaments.get(tid)
    assert row is not None
    return row


async def play_until(
    world: World, runner: TournamentRunner, tid: int, *, until_hands: int, limit: int = 500
) -> None:
    """Let the computers play and the deadlines play for the absent people, until the
    tournament has played ``until_hands`` rounds or is over."""
    for _ in range(limit):
        await world.manager.turns.wait()
        await runner.wait()
        row = await row_of(world, tid)
        if row.status is TournamentStatus.FINISHED:
            return
        assert row.state is not None
        if Play.from_json(row.state).model.hands >= until_hands:
            return
        await world.scheduler.pass_deadline()
    raise AssertionError("the tournament never got there")


async def assert_clean(world: World, *scopes: int) -> None:
    for scope in scopes:
        report = await audit(world.database, scope)
        assert report.is_consistent, report.problems


def assert_balanced_rounds(
    rounds: Mapping[int, Mapping[int, Sequence[int]]], entrants: Iterable[int], tables: int
) -> None:
    """Every round's tables (by round, then by channel, the players seated): none skipped,
    balanced (no two differ by more than one), no player at two, only the players still in, as
    few tables as seat them (6 a table: tables break as players go out), and the first round at
    ``tables`` tables seating every entrant."""
    assert sorted(rounds) == list(range(len(rounds))), "a round was skipped"
    still_in = set(entrants)
    for hand, seated_at in sorted(rounds.items()):
        sizes = [len(players) for players in seated_at.values()]
        assert max(sizes) - min(sizes) <= 1, (hand, seated_at)
        seated = [player for players in seated_at.values() for player in players]
        assert len(seated) == len(set(seated)), (hand, seated_at)
        assert set(seated) <= still_in, (hand, seated_at)
        assert len(seated_at) == -(-len(seated) // 6), (hand, seated_at)
        still_in = set(seated)
    assert len(rounds[0]) == tables
    assert {p for players in rounds[0].values() for p in players} == set(entrants)
