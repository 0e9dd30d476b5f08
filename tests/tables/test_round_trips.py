"""What a click waits for on PostgreSQL, counted (issue 25): a declaration or a setting of hands
waits for at most five answers of the server, and most for their save alone, which checks a
declaration's balance, takes a reveal's stakes into the escrow, or settles the game on its chips
read as the last hands were awaited. After a settlement the outbox's lanes take the showdown from
memory, and the features keep what it moved in one transaction each, without savepoints.

Each answer is a round trip that, on a busy bot, waits for a turn of the event loop; one click
used to wait for about 22 of them (35 to 73 with the outbox's lanes). The count wraps asyncpg's
protocol (`tests.tables.round_trips`) and tells a click's own round trips (its action, from
taking the table's lock to letting it go) from those of the outbox's lanes that show its events
after it. Counted after a first game, as a running bot counts them: asyncpg prepares each
statement once per connection.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Sequence

import pytest

import storage.postgres
import tables.turns
from tables.config import make_config
from tables.events import ShowdownSettled
from tables.phase import Phase
from tables.table import Table
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World, quick_arranger
from tests.tables.round_trips import RoundTrips, counting

#: What a declaration or a setting of hands may wait for.
MOST = 5
#: The declaration that reveals, at a table the process holds: its save alone, which claims the
#: table's lock for its commit, checks the version and takes the stakes into the escrow (which
#: refuses the click itself if its player is short) in its own statement (migration 0022's
#: ``pp_save_escrowed``). It waited for three before: the lock with the version, the escrow,
#: the save.
REVEAL = 1
#: The setting of hands that settles the game: its save alone, which claims the table's lock
#: and applies the settlement worked out from the game's chips read as the last hands were
#: awaited (`Flow.read_ahead`) in its own statement (migration 0022's ``pp_save_settled``); four
#: before: the lock with the version, the reading, the settlement, the save.
SETTLE = 1
#: A click that neither escrows nor settles, at a table the process holds, waits for its save
#: alone, which claims the table's lock for its own commit (and, playing on, checks the
#: player's balance: migration 0019's ``pp_save_covered``).
QUIET = {"declare": 1, "submit": 1, "surrender": 1}

#: What the outbox's lanes send after a settlement of three people, each achievement earned
#: already: each of the six lanes takes its lock and lets it go (two round trips, the events
#: from memory), and the statistics, the ratings and the achievements each write in one
#: transaction, begun by its first statement (the activity log and the tournaments keep
#: nothing for it: no transaction).
AFTER_SETTLING = 6 * 2 + 5 + 8 + 6
#: The same when the game earns an achievement: the achievements' transaction also reads the
#: server's setting and queues the announcement (two round trips, the lock on the table and
#: the rows queued with the lanes that want none of them moved past them), and the
#: publisher's lane takes it from memory.
AFTER_EARNING = AFTER_SETTLING + 3 + 2

pytestmark = pytest.mark.slow  # PostgreSQL: the full suite's


@pytest.fixture(autouse=True)
def one_lock_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """One lock session, which the first game warms up as a running bot's are: asyncpg
    prepares each statement (and looks up each array type) once per connection, and the
    sessions take turns, so a game would meet some still cold."""
    opened = storage.postgres.open_postgres
    monkeypatch.setattr(
        storage.postgres, "open_postgres", functools.partial(opened, lock_sessions=1)
    )


class Clicks:
    """A world's clicks, each with its round trips: its own, and the outbox's after it."""

    def __init__(self, world: World, counted: RoundTrips, monkeypatch: pytest.MonkeyPatch) -> None:
        self.world = world
        self.counted = counted
        #: (what, own round trips, the lanes' after it), for the assertions' messages.
        self.seen: list[tuple[str, int, int]] = []
        #: The first game only warms the connections up (each prepares its statements once).
        self.warming = True
        outbox = world.manager.outbox
        after_commit = outbox.after_commit

        async def counted_after(*args: object, **kwargs: object) -> None:
            # A lane that queues events of its own (the achievements) hands the channel on
            # again from inside the outbox's turn: that call must not end the outbox's part.
            before, counted.part = counted.part, "outbox"
            try:
                await after_commit(*args, **kwargs)  # type: ignore[arg-type]
            finally:
                counted.part = before

        monkeypatch.setattr(outbox, "after_commit", counted_after)

    async def click(self, what: str, clicked: Awaitable[object]) -> tuple[int, int]:
        """Count one click (the computers' turns it starts run after it)."""
        await self.world.manager.turns.wait()
        # The chips read ahead as the last hands are awaited, as a player's thinking allows.
        await self.world.manager.flow.read_ahead_done()
        self.counted.clear()
        await clicked
        own, after = len(self.counted.of("own")), len(self.counted.of("outbox"))
        if self.warming:
            return 0, 0
        self.seen.append((what, own, after))
        bound = QUIET.get(what, {"reveal": REVEAL, "settle": SETTLE}.get(what, MOST))
        assert own <= bound, f"{what}: {own} round trips\n{self.counted.shown()}"
        assert "RESET" not in self.counted.shown(), self.counted.shown()
        return own, after

    def warmed(self) -> None:
        """The next clicks are counted."""
        self.warming = False

    def table_of_counts(self) -> str:
        return "\n".join(f"{what}: {own} + {after} after" for what, own, after in self.seen)


async def table_now(world: World) -> Table:
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None
    return table


async def play_on_to_the_showdown(clicks: Clicks, players: Sequence[int]) -> None:
    """Everyone plays on at every declaration, then sets hands; each click counted."""
    world = clicks.world
    await world.manager.start(GUILD, CHANNEL, HOST)
    while (table := await table_now(world)).phase is Phase.DECLARING:
        waiting = table.waiting_for()
        for user in waiting:
            reveals = user == waiting[-1]
            own, after = await clicks.click(
                "reveal" if reveals else "declare",
                world.manager.declare(GUILD, CHANNEL, user, True),
            )
            # Nothing the subscribers want: the publisher's lane, from memory, is all.
            assert own + after <= MOST, clicks.table_of_counts()
    table = await table_now(world)
    waiting = table.waiting_for()
    for user in waiting:
        setting = quick_arranger(table.spec, table.seat_of(user).held)
        settles = user == waiting[-1]
        own, after = await clicks.click(
            "settle" if settles else "submit", world.manager.submit(GUILD, CHANNEL, user, setting)
        )
        if not settles:
            assert own + after <= MOST, clicks.table_of_counts()
    assert world.publisher.of(ShowdownSettled)


async def three_at_a_showdown_table(world: World) -> tuple[int, int, int]:
    """A Showdown Version table with three people seated; who they are."""
    players = (HOST, PLAYERS[1], PLAYERS[2])
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    for user in players[1:]:
        await world.manager.join(GUILD, CHANNEL, user)
    return players


async def test_each_declaration_and_setting_of_hands_waits_for_five_round_trips_at_most(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with counting(monkeypatch) as counted:
        world = await World.open(postgres_url)
        try:
            players = await three_at_a_showdown_table(world)
            clicks = Clicks(world, counted, monkeypatch)
            await play_on_to_the_showdown(clicks, players)
            clicks.warmed()
            await play_on_to_the_showdown(clicks, players)
            # Every declaration, its reveal, every setting and the settlement were counted.
            kinds = {what for what, _, _ in clicks.seen}
            assert kinds == {"declare", "reveal", "submit", "settle"}, clicks.table_of_counts()
            # The settling click read nothing: its game's chips were read ahead.
            assert not [c for c in counted.calls if "FROM games WHERE id" in c.sql]
            print(clicks.table_of_counts())  # the counts, shown with -s
            await world.check_ledger()
        finally:
            await world.close()


async def surrender_then_play_on(clicks: Clicks, first: int, last: int) -> None:
    """``first`` surrenders, then ``last`` plays on: one player is left, and the last
    declaration reveals, escrows its stake and settles the game in one action."""
    world = clicks.world
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.turns.wait()
    if first > 0:
        await clicks.click("surrender", world.manager.declare(GUILD, CHANNEL, first, False))
    showdowns = len(world.publisher.of(ShowdownSettled))
    await clicks.click("play on, settle", world.manager.declare(GUILD, CHANNEL, last, True))
    await world.manager.activity.idle()
    assert len(world.publisher.of(ShowdownSettled)) == showdowns + 1
    assert not (await table_now(world)).in_game


async def test_a_declaration_that_reveals_and_settles_waits_for_five_round_trips_at_most(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with counting(monkeypatch) as counted:
        world = await World.open(postgres_url)
        try:
            await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
            await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
            clicks = Clicks(world, counted, monkeypatch)
            await surrender_then_play_on(clicks, HOST, PLAYERS[1])
            clicks.warmed()
            await surrender_then_play_on(clicks, HOST, PLAYERS[1])
            assert [what for what, _, _ in clicks.seen] == ["surrender", "play on, settle"]
            print(clicks.table_of_counts())  # the counts, shown with -s
            await world.check_ledger()
        finally:
            await world.close()


async def test_against_a_computer_the_house_day_is_read_with_the_game(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The computer surrenders at once: the person's declaration settles the game, where the
    # daily cap on chips from the house applies (its day read with the game's chips).
    monkeypatch.setattr(tables.turns, "computer_declares", lambda *args, **kwargs: False)
    with counting(monkeypatch) as counted:
        world = await World.open(postgres_url)
        try:
            await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
            await world.manager.add_computer(GUILD, CHANNEL, HOST, "steady")
            clicks = Clicks(world, counted, monkeypatch)
            await surrender_then_play_on(clicks, -1, HOST)
            clicks.warmed()
            await surrender_then_play_on(clicks, -1, HOST)
            assert [what for what, _, _ in clicks.seen] == ["play on, settle"]
            print(clicks.table_of_counts())  # the counts, shown with -s
            reads = [call.sql for call in counted.of("own") if "house_nets" in call.sql]
            assert len(reads) == 1 and "escrow" in reads[0], counted.shown()
            await world.check_ledger()
        finally:
            await world.close()


async def test_the_features_take_a_showdown_in_one_transaction_each_from_memory(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with counting(monkeypatch) as counted:
        world = await World.open(postgres_url)
        try:
            players = await three_at_a_showdown_table(world)
            clicks = Clicks(world, counted, monkeypatch)
            # The first games earn the first achievements (their announcement queued).
            await play_on_to_the_showdown(clicks, players)
            clicks.warmed()
            for _ in range(3):
                await play_on_to_the_showdown(clicks, players)
                # Counted since the last click, the one that settled.
                after = counted.of("outbox")
                shown = counted.shown()
                earned = any("pp_queue" in call.sql for call in after)
                assert len(after) <= (AFTER_EARNING if earned else AFTER_SETTLING), shown
                # One transaction per feature that keeps something, without savepoints, and
                # no row read back: the showdown and the announcement are in memory.
                begun = [call for call in after if call.sql.strip().startswith("BEGIN")]
                assert len(begun) == 3, shown
                assert "SAVEPOINT" not in shown, shown
                assert not [call for call in after if "FROM outbox WHERE" in call.sql], shown
            print(clicks.table_of_counts())  # the counts, shown with -s
            await world.check_ledger()
        finally:
            await world.close()
