"""The SQLite store: one file; one connection for the writes, used on the event loop's own
thread, whose transactions never interleave; and read-only aiosqlite connections beside it for
the reads outside a transaction."""

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
    Held,
    LockRead,
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
#: How soon a write that found another connection's write lock tries again.
BUSY_RETRY_S = 0.005
#: Commits between two checkpoints of the log, which a reader runs off the loop (with
#: autocheckpoint, the commit that filled the log would fsync it on the loop's thread).
CHECKPOINT_COMMITS = 100
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


def schema_version(connection: sqlite3.Connection) -> int:
    """The last migration applied (PRAGMA user_version)."""
    row = connection.execute("PRAGMA user_version").fetchone()
    assert row is not None
    return int(row[0])


async def execute(connection: aiosqlite.Connection, sql: str) -> None:
    """Run one statement to its end, in one call on the connection's thread.

    A statement that returns a row (``PRAGMA journal_mode``) stays "in progress" until its rows
    are all read or its cursor is closed, and SQLite then refuses to COMMIT; waiting for the
    garbage collector to close it is not good enough. Reading every row ends it.
    """
    await connection.execute_fetchall(sql)


def migrate(connection: sqlite3.Connection, migrations: Iterable[Migration] | None = None) -> int:
    """Apply every pending migration, each in one transaction; return the schema version.

    Blocking: the store runs it in a thread while it opens.
    """
    migrations = tuple(discover_migrations("sqlite") if migrations is None else migrations)
    version = schema_version(connection)
    check_version(version, migrations)
    for migration in migrations:
        if migration.version <= version:
            continue
        log.info("Migrating the database to version %d (%s)", migration.version, migration.name)
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in split_statements(migration.sql):
                # Every row read: a statement that returns some is otherwise left in progress.
                connection.execute(statement).fetchall()
            # PRAGMA takes no placeholders; the version is an int from the file name.
            connection.execute(f"PRAGMA user_version = {migration.version:d}")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        version = migration.version
    return version


@functools.lru_cache(maxsize=1_024)
def _sqlite_sql(sql: str) -> str:
    """The statement as SQLite runs it: without the row locks it has no use for."""
    return _ROW_LOCK.sub("", sql)


class SqliteConnection:
    """The `Connection` of a SQLite transaction: its statements run at once, on the loop's thread.

    The transaction holds the file's write lock, so a statement has nothing to wait for (WAL,
    synchronous=NORMAL: a commit appends to the log without an fsync) and takes SQLite tens of
    microseconds. Sent to a connection's thread instead, as aiosqlite does, each statement took a
    turn of the event loop and two threads' wake-ups: at a hundred busy tables 92% of the time a
    transaction held the one writing connection was that (8 ms a statement at p95 on a busy
    machine, while the others queued for it), 8% SQLite's own work.
    """

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        # A change returns no rows: sqlite3 has run it to its end, nothing is left in progress.
        return self.connection.execute(_sqlite_sql(sql), params).rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self.connection.executemany(_sqlite_sql(sql), rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in self.connection.execute(_sqlite_sql(sql), params)]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        # Every row is read, so the statement (a RETURNING, say) is over before the next.
        rows = self.connection.execute(_sqlite_sql(sql), params).fetchall()
        return tuple(rows[0]) if rows else None


class SqliteDatabase(Database):
    """The writing connection, whose transactions never interleave, the read-only connections
    that read beside it, and the clock it stamps."""

    store = "sqlite"

    def __init__(
        self,
        connection: sqlite3.Connection,
        *,
        clock: Clock = utc_now,
        readers: Sequence[aiosqlite.Connection] = (),
    ) -> None:
        super().__init__(clock=clock)
        #: Used on the loop's thread only (opened in another, hence check_same_thread=False).
        self.connection = connection
        #: Without readers (a database in memory, which no other connection sees) the writer
        #: reads too, between transactions.
        self.readers = tuple(readers)
        self._next_reader = itertools.count()
        # Coroutines share the connection; without the lock one's statements would land
        # inside another's open transaction.
        self._lock = asyncio.Lock()
        self._locks: dict[tuple[str, tuple[int, int]], asyncio.Lock] = {}
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[SqliteConnection]:
        """BEGIN IMMEDIATE, then COMMIT, or ROLLBACK on any exception.

        Its statements, COMMIT and ROLLBACK run at once on the loop's thread: a cancelled task
        can only be cancelled while it waits for the lock or for the file's write lock, before
        anything began, or inside the caller's block, which is then rolled back.
        """
        async with self._lock:
            await self._begin()
            try:
                yield SqliteConnection(self.connection)
            except BaseException:
                self._roll_back()
                raise
            try:
                self.connection.execute("COMMIT")
            except BaseException:
                self._roll_back()
                raise
            self._committed()

    async def _begin(self) -> None:
        """BEGIN IMMEDIATE: the write lock up front, so two connections cannot deadlock.

        Another connection holding the lock (a second bot on the same file, an operator's
        sqlite3 shell) is waited out up to the busy timeout by trying again between sleeps: the
        connection's own busy timeout is 0, since its wait would block the loop.
        """
        give_up = asyncio.get_running_loop().time() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                self.connection.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                busy = error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY
                if not busy or asyncio.get_running_loop().time() >= give_up:
                    raise
            await asyncio.sleep(BUSY_RETRY_S)

    def _roll_back(self) -> None:
        # Some errors (a full disk) have rolled the transaction back already.
        if self.connection.in_transaction:
            self.connection.execute("ROLLBACK")

    def _committed(self) -> None:
        """Count a commit; every CHECKPOINT_COMMITS, checkpoint the log on a reader's thread."""
        self._commits += 1
        if not self.readers or self._commits % CHECKPOINT_COMMITS:
            return
        if self._checkpoint is None or self._checkpoint.done():
            self._checkpoint = asyncio.get_running_loop().create_task(self._checkpoint_log())

    async def _checkpoint_log(self) -> None:
        # PASSIVE: copies what no reader still needs into the file, waiting for nobody; the
        # writer then starts the log again from its beginning.
        try:
            await execute(self.readers[0], "PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            log.exception("could not checkpoint the database's log; the next commits try again")

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query, as last committed.

        A reader runs the query and reads its rows in one call on its thread, in autocommit,
        so coroutines may share it without a lock: each read is its own snapshot, and sees
        every transaction that committed before it began.
        """
        if not self.readers:
            async with self._lock:
                return [tuple(row) for row in self.connection.execute(_sqlite_sql(sql), params)]
        reader = self.readers[next(self._next_reader) % len(self.readers)]
        rows = await reader.execute_fetchall(_sqlite_sql(sql), params)
        return [tuple(row) for row in rows]

    @asynccontextmanager
    async def lock(
        self,
        name: str,
        key: tuple[int, int],
        *,
        read: LockRead | None = None,
        deferred: bool = False,
        background: bool = False,
    ) -> AsyncIterator[Held]:
        # One process has the file: an asyncio.Lock is all the locking there is to do.
        async with self._locks.setdefault((name, key), asyncio.Lock()):
            yield await self.read_under(read)

    async def close(self) -> None:
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        for reader in self.readers:
            await reader.close()
        # The last connection to close checkpoints the log and removes it.
        self.connection.close()


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


def _open_writer(
    path: str | Path, shown: Path, *, migrate_schema: bool, checkpoints_apart: bool
) -> sqlite3.Connection:
    """The writing connection, configured and the schema migrated (blocking: run in a thread).

    ``checkpoints_apart``: readers will checkpoint the log, so the writer never does.
    """
    try:
        # isolation_level=None: sqlite3 opens no implicit transactions; ours are explicit.
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:
        raise DatabaseFileError(shown, _why(shown, error)) from error
    try:
        try:
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            # The first statement that reads the file: a folder or a stranger file fails here.
            connection.execute("PRAGMA journal_mode = WAL").fetchall()
        except sqlite3.DatabaseError as error:
            raise DatabaseFileError(shown, _why(shown, error)) from error
        connection.execute("PRAGMA foreign_keys = ON")
        # In WAL mode NORMAL loses no committed transaction on a crash of the process.
        connection.execute("PRAGMA synchronous = NORMAL")
        if migrate_schema:
            migrate(connection)
        # From here on the loop's thread uses it: a wait there would block the loop
        # (`SqliteDatabase._begin` waits for another connection's lock itself).
        connection.execute("PRAGMA busy_timeout = 0")
        if checkpoints_apart:
            connection.execute("PRAGMA wal_autocheckpoint = 0")
    except BaseException:
        connection.close()
        raise
    return connection


def _close_once_opened(opening: asyncio.Future[sqlite3.Connection]) -> None:
    """Close a connection whose opening finished after its caller was cancelled."""
    if not opening.cancelled() and opening.exception() is None:
        opening.result().close()


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
    readers = 0 if in_memory else readers
    opening = asyncio.ensure_future(
        asyncio.to_thread(
            _open_writer,
            path,
            shown,
            migrate_schema=migrate_schema,
            checkpoints_apart=readers > 0,
        )
    )
    try:
        connection = await asyncio.shield(opening)
    except asyncio.CancelledError:
        # The thread cannot be stopped (it may be migrating): the caller's cancellation waits
        # for it to end, and what it opened is closed.
        opening.add_done_callback(_close_once_opened)
        await asyncio.wait({opening})
        raise
    opened: list[aiosqlite.Connection] = []
    try:
        for _ in range(readers):
            opened.append(await _open_reader(path))
    except BaseException:
        for reader in opened:
            await reader.close()
        connection.close()
        raise
    return SqliteDatabase(connection, clock=clock, readers=opened)
