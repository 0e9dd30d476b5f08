"""The SQLite store: one file, one aiosqlite connection for the writes, whose transactions never
interleave, and read-only connections beside it for the reads outside a transaction."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from storage.database import (
    Clock,
    Database,
    Migration,
    Params,
    Row,
    check_version,
    discover_migrations,
    utc_now,
)
from storage.errors import MigrationError

log = logging.getLogger(__name__)

#: How long a writer waits for another connection's write lock before giving up.
BUSY_TIMEOUT_MS = 5_000
#: Connections for the reads outside a transaction. WAL lets them read beside the writer, so a
#: read need not queue behind every write of a hundred tables; two, so one slow read (a
#: leaderboard) does not hold the others.
READERS = 2
#: Row locks are PostgreSQL's; here every transaction holds the file's write lock already.
_ROW_LOCK = re.compile(r"\s+FOR UPDATE(?:\s+SKIP LOCKED)?\b")


def split_statements(sql: str) -> list[str]:
    """The complete statements of a script, so each runs inside the caller's transaction."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        # complete_statement understands quotes and comments, so a ';' in a string is safe.
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = "\n".join(
        line for line in pending.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if leftover:
        raise MigrationError(f"An SQL statement is not terminated: {leftover[:60]!r}.")
    return statements


async def schema_version(connection: aiosqlite.Connection) -> int:
    """The last migration applied (PRAGMA user_version)."""
    async with connection.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def execute(connection: aiosqlite.Connection, sql: str) -> None:
    """Run one statement to its end, in one call on the connection's thread.

    A statement that returns a row (``PRAGMA journal_mode``) stays "in progress" until its rows
    are all read or its cursor is closed, and SQLite then refuses to COMMIT; waiting for the
    garbage collector to close it is not good enough. Reading every row ends it.
    """
    await connection.execute_fetchall(sql)


async def migrate(
    connection: aiosqlite.Connection, migrations: Iterable[Migration] | None = None
) -> int:
    """Apply every pending migration, each in one transaction; return the schema version."""
    migrations = tuple(discover_migrations("sqlite") if migrations is None else migrations)
    version = await schema_version(connection)
    check_version(version, migrations)
    for migration in migrations:
        if migration.version <= version:
            continue
        log.info("Migrating the database to version %d (%s)", migration.version, migration.name)
        await execute(connection, "BEGIN IMMEDIATE")
        try:
            for statement in split_statements(migration.sql):
                await execute(connection, statement)
            # PRAGMA takes no placeholders; the version is an int from the file name.
            await execute(connection, f"PRAGMA user_version = {migration.version:d}")
        except BaseException:
            await execute(connection, "ROLLBACK")
            raise
        await execute(connection, "COMMIT")
        version = migration.version
    return version


@functools.lru_cache(maxsize=1_024)
def _sqlite_sql(sql: str) -> str:
    """The statement as SQLite runs it: without the row locks it has no use for."""
    return _ROW_LOCK.sub("", sql)


class SqliteConnection:
    """The `Connection` of a SQLite transaction.

    Each statement is one call on the connection's thread: a transaction holds the connection
    for as many turns of the event loop as it has statements, and under load each turn waits
    for the loop (and for the GIL), so a statement does not also fetch and close its cursor in
    turns of their own.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        # A change returns no rows: sqlite3 has run it to its end (nothing is left in progress)
        # and its count is read here, without a call to close the cursor.
        cursor = await self.connection.execute(_sqlite_sql(sql), params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.connection.executemany(_sqlite_sql(sql), rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        rows = await self.connection.execute_fetchall(_sqlite_sql(sql), params)
        return [tuple(row) for row in rows]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        # Every row is read, so the statement (a RETURNING, say) is over before the next.
        rows = list(await self.connection.execute_fetchall(_sqlite_sql(sql), params))
        return tuple(rows[0]) if rows else None


class SqliteDatabase(Database):
    """One aiosqlite connection whose transactions never interleave, the read-only connections
    that read beside it, and the clock it stamps."""

    store = "sqlite"

    def __init__(
        self,
        connection: aiosqlite.Connection,
        *,
        clock: Clock = utc_now,
        readers: Sequence[aiosqlite.Connection] = (),
    ) -> None:
        super().__init__(clock=clock)
        self.connection = connection
        #: Without readers (a database in memory, which no other connection sees) the writer
        #: reads too, between transactions.
        self.readers = tuple(readers)
        self._next_reader = itertools.count()
        # Coroutines share the connection; without the lock one's statements would land
        # inside another's open transaction.
        self._lock = asyncio.Lock()
        self._locks: dict[tuple[str, tuple[int, int]], asyncio.Lock] = {}

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        """A write transaction: all of it is committed, or none of it.

        BEGIN, COMMIT and ROLLBACK are seen through even when the awaiting task is cancelled:
        aiosqlite runs each statement on its own thread, so abandoning the await would not stop
        it, and a BEGIN that finished after its task was gone would leave the shared connection
        inside a transaction that every later write trips over.
        """
        async with self._lock:
            # IMMEDIATE takes the write lock up front, so two connections that read and then
            # write cannot deadlock; the loser waits out the busy timeout instead.
            if await self._see_through("BEGIN IMMEDIATE"):
                await self._see_through("ROLLBACK")
                raise asyncio.CancelledError
            try:
                yield SqliteConnection(self.connection)
            except BaseException:
                cancelled = await self._see_through("ROLLBACK")
                if cancelled:
                    raise asyncio.CancelledError from None
                raise
            try:
                cancelled = await self._see_through("COMMIT")
            except BaseException:
                await self._see_through("ROLLBACK")
                raise
            if cancelled:
                raise asyncio.CancelledError

    async def _see_through(self, statement: str) -> bool:
        """Run a transaction statement to its end; True if the caller was cancelled meanwhile."""
        running = asyncio.ensure_future(execute(self.connection, statement))
        cancelled = False
        while not running.done():
            try:
                await asyncio.shield(running)
            except asyncio.CancelledError:
                cancelled = True
            except Exception:
                break
        if cancelled and running.exception() is not None:
            # The caller is gone: its cancellation, not the statement's error, is the outcome.
            raise asyncio.CancelledError
        running.result()
        return cancelled

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query, as last committed.

        A reader runs the query and reads its rows in one call on its thread, in autocommit,
        so coroutines may share it without a lock: each read is its own snapshot, and sees
        every transaction that committed before it began.
        """
        if not self.readers:
            async with self._lock:
                rows = await self.connection.execute_fetchall(_sqlite_sql(sql), params)
        else:
            reader = self.readers[next(self._next_reader) % len(self.readers)]
            rows = await reader.execute_fetchall(_sqlite_sql(sql), params)
        return [tuple(row) for row in rows]

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One statement, committed by itself: one call on the writing connection."""
        async with self._lock:
            # Cancelled, the statement still runs on the connection's thread, but before any
            # BEGIN queued after it, and it commits by itself: no transaction is left open.
            cursor = await self.connection.execute(_sqlite_sql(sql), params)
            return cursor.rowcount

    @asynccontextmanager
    async def lock(self, name: str, key: tuple[int, int]) -> AsyncIterator[None]:
        # One process has the file: an asyncio.Lock is all the locking there is to do.
        async with self._locks.setdefault((name, key), asyncio.Lock()):
            yield

    async def close(self) -> None:
        for reader in self.readers:
            await reader.close()
        await self.connection.close()


class DatabaseFileError(Exception):
    """The database file or its folder cannot be created or opened (says which and why)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"Cannot open or create the database {path} ({reason}).")
        self.path = path
        self.reason = reason


def create_database_file(path: Path) -> None:
    """Create the database's folder (0700) and file (0600) unless they exist; check it opens.

    SQLite would create the file under the process's umask, often 0644: every local user could
    read the chips and games. It gives the -wal and -shm files the database's mode, so those are
    0600 too. Opened here first, a folder, a missing permission or a read-only file is an
    `OSError` that names the cause; when ``aiosqlite.connect`` itself fails it leaves its thread
    behind.
    """
    # SQLite creates the file but not its folder (the bot's default is data/...). A folder that
    # exists keeps its mode: it is the operator's (a Docker volume, say).
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))


def _why(path: Path, error: OSError | sqlite3.Error) -> str:
    """The reason an opening failed, in words (the path is said beside it)."""
    blocking = next((parent for parent in reversed(path.parents) if _is_file(parent)), None)
    if blocking is not None:
        return f"{blocking} is a file, not a folder"
    if _is_folder(path):
        return "it is a folder"
    if isinstance(error, OSError):
        reason = error.strerror or str(error)
        reason = reason[:1].lower() + reason[1:]
        where = error.filename
        return f"{reason}: {where}" if where is not None and Path(where) != path else reason
    return str(error)


def _is_file(path: Path) -> bool:
    try:
        return path.exists() and not path.is_dir()
    except OSError:  # a folder on the way that may not be searched
        return False


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


async def _connect(path: str | Path) -> aiosqlite.Connection:
    """An aiosqlite connection that is closed, not abandoned, when the caller is cancelled.

    Cancelled mid-connect (a SIGTERM while the bot starts), aiosqlite drops its connection and
    leaves the thread to report to an event loop that may be closed by then.
    """
    # isolation_level=None: sqlite3 opens no implicit transactions; ours are explicit.
    connecting = asyncio.ensure_future(aiosqlite.connect(path, isolation_level=None))
    try:
        return await asyncio.shield(connecting)
    except asyncio.CancelledError:
        with contextlib.suppress(sqlite3.Error):
            await (await connecting).close()
        raise


async def _open_reader(path: str | Path) -> aiosqlite.Connection:
    """A connection that only reads (``query_only``), for the reads outside a transaction."""
    reader = await _connect(path)
    try:
        await execute(reader, f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        await execute(reader, "PRAGMA query_only = ON")
    except BaseException:
        await reader.close()
        raise
    return reader


async def open_sqlite(
    path: str | Path,
    *,
    clock: Clock = utc_now,
    migrate_schema: bool = True,
    readers: int = READERS,
) -> SqliteDatabase:
    """Open (or create) the database file, configured and migrated to the latest schema, with
    ``readers`` read-only connections beside the writer (none for a database in memory).

    Raises `DatabaseFileError` when the file or its folder cannot be created or opened.
    """
    in_memory = str(path) == ":memory:"
    # Absolute in messages: a relative path is resolved from wherever the bot runs.
    shown = Path(path) if in_memory else Path(path).absolute()
    if not in_memory:
        try:
            create_database_file(shown)
        except OSError as error:
            raise DatabaseFileError(shown, _why(shown, error)) from error
    try:
        connection = await _connect(path)
    except sqlite3.Error as error:
        raise DatabaseFileError(shown, _why(shown, error)) from error
    try:
        try:
            await execute(connection, f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            # The first statement that reads the file: a folder or a stranger file fails here.
            await execute(connection, "PRAGMA journal_mode = WAL")
        except sqlite3.DatabaseError as error:
            raise DatabaseFileError(shown, _why(shown, error)) from error
        await execute(connection, "PRAGMA foreign_keys = ON")
        # In WAL mode NORMAL loses no committed transaction on a crash of the process.
        await execute(connection, "PRAGMA synchronous = NORMAL")
        if migrate_schema:
            await migrate(connection)
    except BaseException:
        await connection.close()
        raise
    opened: list[aiosqlite.Connection] = []
    try:
        for _ in range(0 if in_memory else readers):
            opened.append(await _open_reader(path))
    except BaseException:
        for reader in opened:
            await reader.close()
        await connection.close()
        raise
    return SqliteDatabase(connection, clock=clock, readers=opened)
