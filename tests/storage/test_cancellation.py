"""A task cancelled inside ``Database.transaction()`` never leaves the shared connection in a
transaction, wherever the cancellation lands."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite

from storage.database import Database
from storage.stores import open_database


async def _hold_write_lock(path: Path) -> aiosqlite.Connection:
    """A second connection that takes SQLite's write lock and keeps it."""
    other = await aiosqlite.connect(path, isolation_level=None)
    await other.execute("BEGIN IMMEDIATE")
    return other


async def _insert(db: Database, user: int) -> None:
    async with db.transaction() as connection:
        await connection.execute(
            "INSERT INTO players (guild_id, user_id, balance, created) VALUES (1, ?, 0, 'x')",
            (user,),
        )


async def test_a_task_cancelled_while_begin_waits_leaves_no_transaction_open(
    db_path: Path,
) -> None:
    db = await open_database(db_path)
    other = await _hold_write_lock(db_path)
    try:
        # BEGIN IMMEDIATE now waits for the other connection's lock (up to the busy timeout).
        waiting = asyncio.create_task(_insert(db, 1))
        await asyncio.sleep(0.2)
        waiting.cancel()
        await asyncio.sleep(0.1)
        await other.execute("ROLLBACK")
        await asyncio.gather(waiting, return_exceptions=True)
        assert waiting.cancelled()
        # Nothing the cancelled task began is left running.
        await asyncio.sleep(0.2)
        assert not db.connection.in_transaction
        await _insert(db, 2)
        rows = await db.fetchall("SELECT user_id FROM players ORDER BY user_id")
        assert [row[0] for row in rows] == [2]
    finally:
        await other.close()
        await db.close()


async def test_a_task_cancelled_while_commit_runs_keeps_the_connection_usable(
    db_path: Path,
) -> None:
    db = await open_database(db_path)
    try:
        for user in range(1, 40):
            task = asyncio.create_task(_insert(db, user))
            # Cancel at each of the first turns of the loop in turn, wherever the task is then.
            for _ in range(user % 4):
                await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await asyncio.sleep(0.1)
        assert not db.connection.in_transaction
        await _insert(db, 1000)
        row = await db.fetchone("SELECT count(*) FROM players WHERE user_id = 1000")
        assert row is not None and row[0] == 1
    finally:
        await db.close()
