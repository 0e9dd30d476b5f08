"""The PostgreSQL store: an asyncpg pool that any number of the bot's processes share.

Transactions run at READ COMMITTED; where a repository reads a row to change it, its SQL says
``FOR UPDATE`` and the row stays locked until the transaction ends, and the schema's keys and
CHECKs hold whatever the code does. `PostgresDatabase.lock` is an advisory lock on its own
connection: a table's actions take it, so two processes never act on one table at once, and
the server lets go of it the moment its holder's process dies.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import os
import socket
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.database import (
    Clock,
    Connection,
    Database,
    DatabaseUnreachableError,
    Params,
    Row,
    check_version,
    discover_migrations,
    utc_now,
)

log = logging.getLogger(__name__)

#: A connection of its own, or one lent by a pool.
PgConnection = asyncpg.Connection | PoolConnectionProxy

#: Connections for transactions and reads; the locks have a pool of their own, so a process
#: whose every connection holds a table's lock can still commit what those tables do.
POOL_SIZE = 10
LOCK_POOL_SIZE = 40
#: The advisory lock every process takes while it migrates, so only one of them does.
_MIGRATION_LOCK = 0x5050_4D49_4752_4154  # "PPMIGRAT"


@functools.lru_cache(maxsize=1_024)
def postgres_sql(sql: str) -> str:
    """The statement with PostgreSQL's numbered placeholders (``$1``) for the ``?`` ones."""
    parts: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            parts.append(f"${number}")
            continue
        parts.append(char)
    return "".join(parts)


def lock_id(name: str, key: tuple[int, int]) -> int:
    """A stable 64-bit advisory lock id for a named lock on a key (the same in every process)."""
    digest = hashlib.blake2b(f"{name}:{key[0]}:{key[1]}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _changed(status: str) -> int:
    """The rows a command changed, from its status ("UPDATE 3", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresConnection:
    """The `Connection` of a PostgreSQL transaction."""

    def __init__(self, connection: PgConnection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        return _changed(await self.connection.execute(postgres_sql(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.connection.executemany(postgres_sql(sql), [tuple(row) for row in rows])

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in await self.connection.fetch(postgres_sql(sql), *params)]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        row = await self.connection.fetchrow(postgres_sql(sql), *params)
        return None if row is None else tuple(row)


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database, shared by every process of the bot."""

    store = "postgresql"

    def __init__(self, pool: asyncpg.Pool, locks: asyncpg.Pool, *, clock: Clock = utc_now) -> None:
        super().__init__(clock=clock)
        self.pool = pool
        self.locks = locks
        # Within this process one waiter per key asks the server; the rest queue here.
        self._local: dict[tuple[str, tuple[int, int]], asyncio.Lock] = {}

    @property
    def is_shared(self) -> bool:
        return True

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        # A cancelled task's connection is rolled back (or closed) by the pool on release.
        async with self.pool.acquire() as connection, connection.transaction():
            yield PostgresConnection(connection)

    async def execute(self, sql: str, params: Params = ()) -> int:
        # A statement outside a transaction block commits by itself.
        return _changed(await self.pool.execute(postgres_sql(sql), *params))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in await self.pool.fetch(postgres_sql(sql), *params)]

    @asynccontextmanager
    async def lock(self, name: str, key: tuple[int, int]) -> AsyncIterator[None]:
        number = lock_id(name, key)
        async with (
            self._local.setdefault((name, key), asyncio.Lock()),
            self.locks.acquire() as connection,
        ):
            await connection.execute("SELECT pg_advisory_lock($1)", number)
            try:
                yield
            finally:
                # Shielded: a lock left behind on a pooled connection would block the table.
                await asyncio.shield(_unlock(connection, number))

    async def close(self) -> None:
        await asyncio.gather(self.pool.close(), self.locks.close())


async def _unlock(connection: PgConnection, number: int) -> None:
    try:
        await connection.execute("SELECT pg_advisory_unlock($1)", number)
    except (asyncpg.PostgresError, OSError, asyncpg.InterfaceError):
        # Its session is gone, and the server let go of the lock with it.
        connection.terminate()


def _reason(error: BaseException) -> str:
    """Why a connection failed, in a few words ("connection refused")."""
    if isinstance(error, socket.gaierror):
        return "the host is not known"
    if isinstance(error, OSError) and error.errno is not None:
        return os.strerror(error.errno).lower()
    text = str(error).strip() or type(error).__name__
    return text[:1].lower() + text[1:200]


async def migrate_postgres(connection: PgConnection) -> int:
    """Apply every pending migration, each in one transaction; return the schema version.

    Processes starting together take turns: the advisory lock makes the second wait, and it
    then finds nothing left to apply.
    """
    migrations = discover_migrations("postgresql")
    await connection.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
        )
        version = await connection.fetchval("SELECT max(version) FROM schema_version") or 0
        check_version(version, migrations)
        for migration in migrations:
            if migration.version <= version:
                continue
            log.info("Migrating the database to version %d (%s)", migration.version, migration.name)
            async with connection.transaction():
                await connection.execute(migration.sql)
                await connection.execute(
                    "INSERT INTO schema_version (version) VALUES ($1)", migration.version
                )
            version = migration.version
        return int(version)
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)


async def open_postgres(
    url: str,
    *,
    clock: Clock = utc_now,
    migrate_schema: bool = True,
    pool_size: int = POOL_SIZE,
    lock_pool_size: int = LOCK_POOL_SIZE,
) -> PostgresDatabase:
    """Connect to the database ``url`` names, migrated to the latest schema.

    Raises `DatabaseUnreachableError` when the server cannot be reached or refuses the bot.
    """
    try:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise DatabaseUnreachableError(url, _reason(error)) from error
    try:
        if migrate_schema:
            async with pool.acquire() as connection:
                await migrate_postgres(connection)
        locks = await asyncpg.create_pool(url, min_size=0, max_size=lock_pool_size)
    except BaseException:
        await pool.close()
        raise
    return PostgresDatabase(pool, locks, clock=clock)
