"""Both stores' migrations build the same schema, and PostgreSQL's own behaviours: migrating once
when processes start together, a cancelled transaction, the advisory locks, integer sums."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import asyncpg
import pytest

from storage import Storage
from storage.audit import audit
from storage.database import discover_migrations
from storage.postgres import (
    BACKGROUND_SESSIONS,
    PostgresDatabase,
    SessionHeld,
    open_postgres,
    postgres_sql,
)
from storage.sqlite import SqliteDatabase
from storage.stores import open_database
from tests.storage.helpers import GUILD


async def sqlite_columns(database: SqliteDatabase) -> dict[str, list[str]]:
    tables = await database.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        # SQLite's own (sqlite_sequence, which keeps the AUTOINCREMENT ids) are not the schema.
        " AND name NOT LIKE 'sqlite%' ORDER BY name"
    )
    columns: dict[str, list[str]] = {}
    for (table,) in tables:
        rows = await database.fetchall(f"PRAGMA table_info({table})")
        columns[table] = [row[1] for row in rows]
    return columns


async def postgres_columns(database: PostgresDatabase) -> dict[str, list[str]]:
    rows = await database.fetchall(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
    )
    columns: dict[str, list[str]] = {}
    for table, column in rows:
        columns.setdefault(table, []).append(column)
    return columns


@pytest.mark.slow  # PostgreSQL: the full suite's
async def test_both_stores_migrate_to_the_same_tables_and_columns(
    tmp_path: Path, postgres_url: str
) -> None:
    lite = await open_database(tmp_path / "schema.sqlite3")
    post = await open_database(postgres_url)
    try:
        assert isinstance(lite, SqliteDatabase) and isinstance(post, PostgresDatabase)
        on_postgres = await postgres_columns(post)
        # PostgreSQL keeps its schema version in a table, SQLite in PRAGMA user_version.
        assert on_postgres.pop("schema_version") == ["version"]
        assert on_postgres == await sqlite_columns(lite)
    finally:
        await lite.close()
        await post.close()


def test_each_store_has_a_migration_for_every_version() -> None:
    lite, post = discover_migrations("sqlite"), discover_migrations("postgresql")
    assert [(m.version, m.name) for m in lite] == [(m.version, m.name) for m in post]


@pytest.mark.slow  # PostgreSQL: the full suite's
async def test_processes_starting_together_migrate_once(postgres_server: str) -> None:
    admin = await asyncpg.connect(postgres_server)
    await admin.execute("CREATE DATABASE pp_migrating_together")
    await admin.close()
    url = postgres_server.rsplit("/", 1)[0] + "/pp_migrating_together"
    try:
        opened = await asyncio.gather(*(open_database(url) for _ in range(4)))
        try:
            versions = await opened[0].fetchall("SELECT version FROM schema_version")
            expected = [m.version for m in discover_migrations("postgresql")]
            assert sorted(row[0] for row in versions) == expected
        finally:
            await asyncio.gather(*(database.close() for database in opened))
    finally:
        admin = await asyncpg.connect(postgres_server)
        await admin.execute("DROP DATABASE pp_migrating_together WITH (FORCE)")
        await admin.close()


@pytest.mark.slow  # PostgreSQL: the full suite's
async def test_a_cancelled_transaction_is_rolled_back_and_the_pool_stays_usable(
    postgres_url: str,
) -> None:
    database = await open_database(postgres_url)
    started = asyncio.Event()

    async def insert_then_wait(user: int) -> None:
        async with database.transaction() as connection:
            await connection.execute(
                "INSERT INTO players (guild_id, user_id, balance, created) VALUES (1, ?, 0, 'x')",
                (user,),
            )
            started.set()
            await asyncio.sleep(10)

    try:
        task = asyncio.create_task(insert_then_wait(1))
        await started.wait()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        for user in range(2, 30):
            async with database.transaction() as connection:
                await connection.execute(
                    "INSERT INTO players (guild_id, user_id, balance, created)"
                    " VALUES (1, ?, 0, 'x')",
                    (user,),
                )
        rows = await database.fetchall("SELECT user_id FROM players ORDER BY user_id")
        assert [row[0] for row in rows] == list(range(2, 30))
    finally:
        await database.close()


@pytest.mark.slow  # PostgreSQL: the full suite's
async def test_a_tables_lock_is_held_across_connections_and_freed_when_its_holder_dies(
    postgres_url: str,
) -> None:
    one, two = await open_database(postgres_url), await open_database(postgres_url)
    try:
        order: list[str] = []
        async with one.lock("table", (1, 2)):
            waiting = asyncio.create_task(_take(two, order))
            await asyncio.sleep(0.3)
            assert not waiting.done(), "the second process took a lock the first holds"
            order.append("first done")
        await asyncio.wait_for(waiting, 10)
        assert order == ["first done", "second in"]
        # Another key is another lock.
        async with one.lock("table", (1, 2)), two.lock("table", (1, 3)):
            pass
        # A holder whose connections die (a killed process) frees the lock at once.
        holder = await open_database(postgres_url)
        await holder.lock("table", (5, 6)).__aenter__()
        assert isinstance(holder, PostgresDatabase)
        for session in holder.locks:
            session.terminate()
        holder.pool.terminate()
        async with asyncio.timeout(10):
            async with two.lock("table", (5, 6)):
                pass
    finally:
        await one.close()
        await two.close()


@pytest.mark.slow  # PostgreSQL: the full suite's
async def test_a_process_holds_more_table_locks_than_it_has_connections(
    postgres_url: str,
) -> None:
    one = await open_postgres(postgres_url, lock_sessions=2)
    two = await open_postgres(postgres_url, lock_sessions=2)
    try:
        async with contextlib.AsyncExitStack() as held:
            for table in range(60):
                await held.enter_async_context(one.lock("table", (9, table)))
            sessions = {session.connection for session in one.locks}
            assert len(sessions) == 2 and None not in sessions
            # Held by the first process: the second waits for one, and takes another at once.
            waiting = asyncio.create_task(_enter(two, (9, 7)))
            async with asyncio.timeout(5):
                async with two.lock("table", (9, 60)):
                    pass
            await asyncio.sleep(0.2)
            assert not waiting.done(), "the second process took a lock the first holds"
        await asyncio.wait_for(waiting, 5)
        # A task cancelled while it asks leaves no lock behind it.
        async with one.lock("table", (9, 61)):
            asking = asyncio.create_task(_enter(two, (9, 61)))
            await asyncio.sleep(0.05)
            asking.cancel()
            await asyncio.gather(asking, return_exceptions=True)
        async with asyncio.timeout(5):
            async with one.lock("table", (9, 61)), two.lock("table", (9, 62)):
                pass
        async with asyncio.timeout(5):
            async with two.lock("table", (9, 61)):
                pass
    finally:
        await one.close()
        await two.close()


@pytest.mark.slow  # PostgreSQL: the full suite's
async def test_background_locks_keep_to_their_sessions_and_a_tables_lock_finds_another(
    postgres_url: str,
) -> None:
    # The features' lanes send their statements on the background sessions only; a table's
    # lock, which a click waits for, takes the least busy of all, so never only those.
    database = await open_postgres(postgres_url, lock_sessions=BACKGROUND_SESSIONS + 2)
    background = database.locks[:BACKGROUND_SESSIONS]
    try:
        async with contextlib.AsyncExitStack() as held:
            for channel in range(3 * len(database.locks)):
                lane = await held.enter_async_context(
                    database.lock("outbox:statistics", (9, channel), background=True)
                )
                assert isinstance(lane, SessionHeld) and lane.session in background
            tables = [
                await held.enter_async_context(database.lock("table", (9, channel)))
                for channel in range(len(database.locks))
            ]
            used = {held.session for held in tables if isinstance(held, SessionHeld)}
            assert used - set(background), "every table's lock was behind the lanes' sessions"
    finally:
        await database.close()


@pytest.mark.slow  # PostgreSQL: the full suite's
async def test_a_lock_passes_to_the_next_task_of_the_process_as_it_is(postgres_url: str) -> None:
    one, two = await open_database(postgres_url), await open_database(postgres_url)
    assert isinstance(one, PostgresDatabase)
    try:
        key = (9, 1)
        handed: list[object] = []

        async def next_action() -> None:
            async with one.lock("table", key) as held:
                handed.append(held)
                await asyncio.sleep(0.2)  # another process cannot take it meanwhile

        async with one.lock("table", key) as first:
            waiting = asyncio.create_task(next_action())
            await asyncio.sleep(0.05)
            # What the first holder's last statement left is what the next one reads.
            first.value, first.read = 7, True
        await asyncio.sleep(0.05)
        assert handed == [first] and first.value == 7, "the lock was freed and taken again"
        other = asyncio.create_task(_enter(two, key))
        await asyncio.sleep(0.1)
        assert not other.done(), "another process took a lock handed over in this one"
        await asyncio.wait_for(waiting, 5)
        await asyncio.wait_for(other, 5)  # the last holder freed it
        # A holder that fails hands nothing over: the next takes the lock afresh.
        handed.clear()
        with contextlib.suppress(RuntimeError):
            async with one.lock("table", key) as failing:
                waiting = asyncio.create_task(next_action())
                await asyncio.sleep(0.05)
                raise RuntimeError("the save failed")
        await asyncio.wait_for(waiting, 5)
        assert handed and handed[0] is not failing
        # A task that gives up waiting (cancelled) as the lock is handed to it frees it.
        async with one.lock("table", key):
            waiting = asyncio.create_task(_enter(one, key))
            await asyncio.sleep(0.05)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        async with asyncio.timeout(5):
            async with two.lock("table", key):
                pass
    finally:
        await one.close()
        await two.close()


async def _enter(database: PostgresDatabase, key: tuple[int, int]) -> None:
    async with database.lock("table", key):
        pass


async def _take(database: object, order: list[str]) -> None:
    assert isinstance(database, PostgresDatabase)
    async with database.lock("table", (1, 2)):
        order.append("second in")


async def test_sums_come_back_as_integers_on_both_stores(store: Storage) -> None:
    await store.players.get_or_create(GUILD, 7)
    report = await audit(store.database, GUILD)
    assert report.is_consistent
    for figure in (report.balances, report.escrowed, report.house, report.minted):
        assert type(figure) is int
    stats = await store.leaderboards.statistics(GUILD, 7)
    assert all(type(value) is int for value in (stats.played, stats.won, stats.net))


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT ? , ?", "SELECT $1 , $2"),
        ("SELECT '?' || ?", "SELECT '?' || $1"),
        ('SELECT "a?b" FROM t WHERE x = ?', 'SELECT "a?b" FROM t WHERE x = $1'),
    ],
)
def test_placeholders_are_numbered_outside_quotes(sql: str, expected: str) -> None:
    assert postgres_sql(sql) == expected
