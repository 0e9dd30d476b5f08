"""Opening the database: pragmas, migrations from empty, re-opening, and a failed migration."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from storage.database import Migration, discover_migrations
from storage.errors import MigrationError
from storage.sqlite import (
    CHECKPOINT_COMMITS,
    SqliteDatabase,
    migrate,
    schema_version,
    split_statements,
)
from storage.stores import open_database

TABLES = {
    "guild_settings",
    "players",
    "games",
    "escrow",
    "ledger",
    "table_snapshots",
    "table_seats",
}


def table_names(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows}


async def test_an_empty_file_is_migrated_to_the_latest_schema(db_path: Path) -> None:
    db = await open_database(db_path)
    try:
        assert isinstance(db, SqliteDatabase)
        assert schema_version(db.connection) == discover_migrations()[-1].version
        assert table_names(db.connection) >= TABLES
    finally:
        await db.close()


async def pragmas(connection: aiosqlite.Connection, *names: str) -> dict[str, object]:
    found = {}
    for name in names:
        rows = list(await connection.execute_fetchall(f"PRAGMA {name}"))
        found[name] = rows[0][0]
    return found


async def test_the_writer_uses_wal_and_foreign_keys_and_never_waits_on_the_loop(
    db_path: Path,
) -> None:
    db = await open_database(db_path)
    try:
        assert isinstance(db, SqliteDatabase)
        names = ("journal_mode", "foreign_keys", "busy_timeout", "wal_autocheckpoint")
        found = {name: db.connection.execute(f"PRAGMA {name}").fetchone()[0] for name in names}
        # It waits for another connection's lock between sleeps, and the readers checkpoint.
        assert found == {
            "journal_mode": "wal",
            "foreign_keys": 1,
            "busy_timeout": 0,
            "wal_autocheckpoint": 0,
        }
    finally:
        await db.close()


async def test_a_write_waits_for_another_connections_lock_while_the_loop_runs(
    db_path: Path,
) -> None:
    db = await open_database(db_path)
    other = await aiosqlite.connect(db_path, isolation_level=None)
    try:
        await other.execute("BEGIN IMMEDIATE")
        write = asyncio.create_task(
            db.execute(
                "INSERT INTO players (guild_id, user_id, balance, created) VALUES (1, 2, 0, 'x')"
            )
        )
        for _ in range(5):
            await asyncio.sleep(0.01)  # the loop turns while the write waits
        assert not write.done()
        await other.execute("ROLLBACK")
        assert await asyncio.wait_for(write, 5) == 1
    finally:
        await other.close()
        await db.close()


async def test_the_log_is_checkpointed_off_the_loop_as_commits_go_by(db_path: Path) -> None:
    db = await open_database(db_path)
    try:
        assert isinstance(db, SqliteDatabase)
        for user in range(CHECKPOINT_COMMITS):
            await db.execute(
                "INSERT INTO players (guild_id, user_id, balance, created) VALUES (1, ?, 0, 'x')",
                (user,),
            )
        assert db._checkpoint is not None
        await db._checkpoint
        # Everything committed is in the file itself: a reader of the file alone sees it.
        copy = db_path.with_name("copy.sqlite3")
        copy.write_bytes(db_path.read_bytes())
        with sqlite3.connect(copy) as alone:
            assert alone.execute("SELECT count(*) FROM players").fetchone() == (CHECKPOINT_COMMITS,)
    finally:
        await db.close()


async def test_the_readers_only_read_and_wait_out_a_busy_file(db_path: Path) -> None:
    db = await open_database(db_path)
    try:
        assert isinstance(db, SqliteDatabase) and db.readers
        for reader in db.readers:
            assert await pragmas(reader, "query_only", "busy_timeout") == {
                "query_only": 1,
                "busy_timeout": 5000,
            }
    finally:
        await db.close()


async def test_a_read_outside_a_transaction_sees_what_was_committed_beside_an_open_one(
    db_path: Path,
) -> None:
    db = await open_database(db_path)
    try:
        async with db.transaction() as connection:
            await connection.execute(
                "INSERT INTO players (guild_id, user_id, balance, created) VALUES (1, 2, 3, 'x')"
            )
            # WAL: the read runs beside the writer instead of queueing for the connection.
            rows = await asyncio.wait_for(db.fetchall("SELECT balance FROM players"), 5)
            assert rows == []
        assert await db.fetchall("SELECT balance FROM players") == [(3,)]
    finally:
        await db.close()


async def test_a_database_in_memory_reads_on_its_one_connection() -> None:
    db = await open_database(":memory:")
    try:
        assert isinstance(db, SqliteDatabase) and not db.readers
        async with db.transaction() as connection:
            await connection.execute(
                "INSERT INTO players (guild_id, user_id, balance, created) VALUES (1, 2, 3, 'x')"
            )
        assert await db.fetchall("SELECT balance FROM players") == [(3,)]
    finally:
        await db.close()


async def test_reopening_applies_nothing_and_keeps_the_data(db_path: Path) -> None:
    db = await open_database(db_path)
    await db.execute(
        "INSERT INTO players (guild_id, user_id, balance, created) VALUES (1, 2, 3, 'x')"
    )
    schema = await db.fetchall("SELECT sql FROM sqlite_master ORDER BY name")
    await db.close()
    db = await open_database(db_path)
    try:
        assert isinstance(db, SqliteDatabase)
        assert migrate(db.connection) == discover_migrations()[-1].version
        assert await db.fetchall("SELECT sql FROM sqlite_master ORDER BY name") == schema
        assert [tuple(row) for row in await db.fetchall("SELECT balance FROM players")] == [(3,)]
    finally:
        await db.close()


async def test_a_failing_migration_leaves_the_database_untouched(db_path: Path) -> None:
    broken = Migration(1, "broken", "CREATE TABLE a (x INTEGER);\nCREATE TABLE a (y INTEGER);\n")
    with contextlib.closing(sqlite3.connect(db_path, isolation_level=None)) as connection:
        with pytest.raises(sqlite3.OperationalError):
            migrate(connection, [broken])
        assert schema_version(connection) == 0
        assert table_names(connection) == set()


async def test_a_database_newer_than_the_bot_is_refused(db_path: Path) -> None:
    async with aiosqlite.connect(db_path, isolation_level=None) as connection:
        await connection.execute("PRAGMA user_version = 99")
    with pytest.raises(MigrationError, match="newer"):
        await open_database(db_path)


def test_statements_split_on_semicolons_outside_strings_and_comments() -> None:
    sql = (
        "-- a; comment\nCREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
        "INSERT INTO t VALUES ('c');\n-- end\n"
    )
    assert split_statements(sql) == [
        "-- a; comment\nCREATE TABLE t (x TEXT DEFAULT 'a;b');",
        "INSERT INTO t VALUES ('c');",
    ]


def test_an_unterminated_statement_is_refused() -> None:
    with pytest.raises(MigrationError, match="not terminated"):
        split_statements("CREATE TABLE t (x INTEGER)")


def test_migrations_are_found_beside_the_module_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    migrations = discover_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert "CREATE TABLE ledger" in migrations[0].sql


async def test_the_folder_of_a_new_database_is_created(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "data" / "new" / "pyramid.sqlite3")
    await db.close()
    assert (tmp_path / "data" / "new" / "pyramid.sqlite3").is_file()
