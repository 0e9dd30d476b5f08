"""A click at a table the process holds, with PostgreSQL shared by several processes: the action
works on the table as held here and its save claims the table's lock for its own commit
(`TableManager._act`, ``deferred``). Another process's move, or its hold on the lock, must never
be saved over: the click then runs again on the table as saved, under the lock.

Two worlds over one database are two processes of the bot, each with its own tables in memory.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import replace

import asyncpg
import pytest

from storage.postgres import PostgresDatabase, lock_id
from storage.rows import GameStatus, Holdings
from tables.config import make_config
from tables.events import ShowdownSettled
from tables.phase import Phase
from tables.table import Table
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World, quick_arranger

pytestmark = pytest.mark.slow  # PostgreSQL: the full suite's

KEY = (GUILD, CHANNEL)
SEATED = (HOST, PLAYERS[1], PLAYERS[2])


@pytest.fixture
async def two(postgres_url: str) -> AsyncIterator[tuple[World, World]]:
    one, other = await World.open(postgres_url), await World.open(postgres_url)
    yield one, other
    await one.close()
    await other.close()


async def seated_lobby(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    for user in SEATED[1:]:
        await world.manager.join(GUILD, CHANNEL, user)


async def saved_version(world: World) -> int:
    snapshot = await world.storage.snapshots.load(*KEY)
    assert snapshot is not None
    return snapshot.version


async def test_a_click_on_a_table_another_process_moved_on_is_played_on_the_table_as_saved(
    two: tuple[World, World],
) -> None:
    one, other = two
    await seated_lobby(one)  # the first process holds the table: a lobby
    await other.manager.start(GUILD, CHANNEL, HOST)  # the second deals
    # Held here it is still a lobby, where there is nothing to declare; as saved, there is.
    await one.manager.declare(GUILD, CHANNEL, HOST, True)
    table = await other.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.DECLARING
    assert HOST not in table.waiting_for()
    await one.check_ledger()


async def test_a_click_over_another_process_s_save_is_saved_after_it_not_over_it(
    two: tuple[World, World],
) -> None:
    one, other = two
    await seated_lobby(one)
    await one.manager.start(GUILD, CHANNEL, HOST)
    await other.manager.declare(GUILD, CHANNEL, PLAYERS[1], True)
    before = await saved_version(one)
    # The first process's table is a version behind: its save is refused and played again.
    await one.manager.declare(GUILD, CHANNEL, PLAYERS[2], False)
    assert await saved_version(one) == before + 1
    table = await other.manager.table(GUILD, CHANNEL)
    assert table is not None
    assert table.seat_of(PLAYERS[1]).choice is True  # the other process's declaration kept
    assert HOST in table.waiting_for() and PLAYERS[2] not in table.waiting_for()


async def test_a_click_waits_while_another_process_holds_the_tables_lock(
    two: tuple[World, World], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, other = two
    await seated_lobby(one)
    await one.manager.start(GUILD, CHANNEL, HOST)
    database = one.database
    assert isinstance(database, PostgresDatabase)
    refused = asyncio.Event()
    claiming = database._call_claiming

    async def noted(*args: object) -> object:
        try:
            return await claiming(*args)  # type: ignore[arg-type]
        except Exception:
            refused.set()
            raise

    monkeypatch.setattr(database, "_call_claiming", noted)
    before = await saved_version(one)
    async with other.database.lock("table", KEY):  # the other process acts meanwhile
        click = asyncio.ensure_future(one.manager.declare(GUILD, CHANNEL, HOST, True))
        await refused.wait()  # the save's claim met the other's lock
        assert not click.done()
        assert await saved_version(one) == before  # nothing saved under the other's lock
    await click
    assert await saved_version(one) == before + 1
    await one.check_ledger()


async def test_clicks_alternating_between_processes_settle_the_game_and_leave_no_lock_behind(
    two: tuple[World, World], postgres_url: str
) -> None:
    one, other = two
    await seated_lobby(one)
    await one.manager.start(GUILD, CHANNEL, HOST)
    worlds = itertools.cycle((one, other))
    while (table := await one.manager.table(GUILD, CHANNEL)) is not None and (
        table.phase is Phase.DECLARING
    ):
        for user in table.waiting_for():
            await next(worlds).manager.declare(GUILD, CHANNEL, user, True)
    assert table is not None and table.phase is Phase.ARRANGING
    for user in table.waiting_for():
        setting = quick_arranger(table.spec, table.seat_of(user).held)
        await next(worlds).manager.submit(GUILD, CHANNEL, user, setting)
    game_id = table.game_id
    assert game_id is not None
    assert await one.status(game_id) is GameStatus.SETTLED
    await one.check_ledger()
    # Any other session may take the table's lock at once: no click left it held.
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT pg_try_advisory_lock($1)", lock_id("table", KEY))
    finally:
        await connection.close()


async def declare_all_but_the_last(world: World) -> int:
    """Everyone but the last player waiting plays on; the last, who would reveal."""
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None
    *first, last = table.waiting_for()
    for user in first:
        await world.manager.declare(GUILD, CHANNEL, user, True)
    return last


async def test_a_reveal_over_another_process_s_save_escrows_each_stake_once(
    two: tuple[World, World],
) -> None:
    # The save that reveals takes the stakes in its own statement (migration 0022): refused for
    # the version the other process moved on, it keeps nothing, and the reveal played again on
    # the table as saved takes each stake once.
    one, other = two
    await seated_lobby(one)
    await one.manager.start(GUILD, CHANNEL, HOST)
    last = await declare_all_but_the_last(one)
    await other.manager.declare(GUILD, CHANNEL, HOST, True)  # again: moves the version on
    before = await saved_version(one)
    await one.manager.declare(GUILD, CHANNEL, last, True)
    assert await saved_version(one) == before + 1
    table = await one.manager.table(GUILD, CHANNEL)
    assert table is not None and table.game_id is not None
    assert table.round == 1  # revealed once
    assert await one.storage.chips.escrowed(table.game_id) == {user: 20 for user in SEATED}
    await one.check_ledger()


async def to_the_hands(world: World) -> tuple[Table, list[int], int]:
    """A game of the seated players, each playing on, to its hands: the table, the players
    who set theirs first, and the last."""
    await seated_lobby(world)
    await world.manager.start(GUILD, CHANNEL, HOST)
    while (table := await world.manager.table(GUILD, CHANNEL)) is not None and (
        table.phase is Phase.DECLARING
    ):
        for user in table.waiting_for():
            await world.manager.declare(GUILD, CHANNEL, user, True)
    assert table is not None and table.game_id is not None
    *first, last = table.waiting_for()
    return table, first, last


async def set_hands(world: World, table: Table, users: list[int]) -> None:
    """These players set their hands; then the reading ahead, if any, is done."""
    for user in users:
        setting = quick_arranger(table.spec, table.seat_of(user).held)
        await world.manager.submit(GUILD, CHANNEL, user, setting)
    await world.manager.flow.read_ahead_done()


async def test_a_settlement_read_before_the_game_changed_is_settled_the_slower_way(
    two: tuple[World, World], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The setting that settles reads the game, then its save applies the settlement worked out
    # from that reading. Read stale (here: an escrow the game no longer holds), the save is
    # refused with nothing kept, and the settlement runs again under the table's lock.
    one, _ = two
    table, first, last = await to_the_hands(one)
    holdings = one.storage.chips.holdings
    stale = []

    async def read_stale(*args: object, **kwargs: object) -> Holdings:
        read = await holdings(*args, **kwargs)  # type: ignore[arg-type]
        if not stale:
            stale.append(read)
            return replace(read, escrow={user: 1 + amount for user, amount in read.escrow.items()})
        return read

    monkeypatch.setattr(one.storage.chips, "holdings", read_stale)
    await set_hands(one, table, first)  # the game's chips are read as the last are awaited
    balances = {u: await one.storage.players.balance(GUILD, u) for u in SEATED}
    events = await one.manager.submit(
        GUILD, CHANNEL, last, quick_arranger(table.spec, table.seat_of(last).held)
    )
    assert stale, "the settlement read the game"
    (showdown,) = [event for event in events if isinstance(event, ShowdownSettled)]
    assert await one.status(table.game_id) is GameStatus.SETTLED
    assert await one.storage.chips.escrowed(table.game_id) == {}
    held = stale[0].escrow
    for user in SEATED:
        back = held.get(user, 0) + showdown.nets.get(user, 0)
        assert await one.storage.players.balance(GUILD, user) == balances[user] + back
    await one.check_ledger()


async def test_a_balance_granted_after_the_settlements_reading_is_settled_the_slower_way(
    two: tuple[World, World], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The settlement was worked out from balances read before the save (a loss beyond what a
    # player has at the table is cut to it): a grant meanwhile refuses the save, nothing kept,
    # and the settlement runs again on the balances as they are.
    one, _ = two
    table, first, last = await to_the_hands(one)
    holdings = one.storage.chips.holdings
    reads: list[Holdings] = []

    async def granted_after_reading(*args: object, **kwargs: object) -> Holdings:
        read = await holdings(*args, **kwargs)  # type: ignore[arg-type]
        if not reads:
            await one.storage.players.grant(GUILD, HOST, 7, admin_id=1)
        reads.append(read)
        return read

    monkeypatch.setattr(one.storage.chips, "holdings", granted_after_reading)
    await set_hands(one, table, first)  # the game's chips are read as the last are awaited
    assert len(reads) == 1
    balances = {u: await one.storage.players.balance(GUILD, u) for u in SEATED}
    balances[HOST] -= 7  # as read, before the grant
    setting = quick_arranger(table.spec, table.seat_of(last).held)
    events = await one.manager.submit(GUILD, CHANNEL, last, setting)
    assert len(reads) == 2, "read again under the lock"
    assert reads[1].balances[HOST] == reads[0].balances[HOST] + 7
    (showdown,) = [event for event in events if isinstance(event, ShowdownSettled)]
    held = reads[0].escrow
    for user in SEATED:
        back = held.get(user, 0) + showdown.nets.get(user, 0) + (7 if user == HOST else 0)
        assert await one.storage.players.balance(GUILD, user) == balances[user] + back
    await one.check_ledger()
