"""The PostgreSQL store: an asyncpg pool that any number of the bot's processes share.

Transactions run at READ COMMITTED; where a repository reads a row to change it, its SQL says
``FOR UPDATE`` and the row stays locked until the transaction ends, and the schema's keys and
CHECKs hold whatever the code does. `PostgresDatabase.lock` is an advisory lock held by one of a few
lock sessions of the process: a table's actions take it, so two processes never act on one table
at once, and the server lets go of it the moment its holder's process dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.database import (
    Clock,
    Connection,
    Database,
    DatabaseSettingError,
    DatabaseUnreachableError,
    Held,
    LockRead,
    Params,
    RefusedCallError,
    Row,
    check_version,
    discover_migrations,
    marks,
    savepoint,
    shown_url,
    utc_now,
)
from storage.errors import MigrationError

log = logging.getLogger(__name__)

#: A connection of its own, or one lent by a pool.
PgConnection = asyncpg.Connection | PoolConnectionProxy

#: Connections for transactions and reads; the locks have connections of their own, so a
#: process whose tables all hold their locks can still commit what those tables do. At a
#: hundred busy tables ten made a read wait up to 106 ms at p95 for one; with a click's save
#: on the pool (its lock claimed by the save), twenty made a declaration wait 1.1-1.4 s at p95
#: for one while six players declared at each table, thirty-two 12-83 ms.
POOL_SIZE = 32
#: Connections that hold the tables' and the outbox lanes' advisory locks, each any number of
#: them at once (the one that took a lock frees it). A session sends one statement at a time,
#: and a table's save runs on its lock's: at a hundred busy tables four made a click wait
#: 2.3 s at p95 (six-player declarations at once), sixteen 0.4-0.6 s, thirty-two no less.
#: Since a click at a table the process holds claims its lock with its save (on the pool),
#: the sessions take only the locks of reveals, settlements, Starts and the outbox's lanes:
#: twelve, so that two processes (88 connections) stay within PostgreSQL's default 100.
LOCK_SESSIONS = 12
#: The sessions that hold background locks (the features' outbox lanes', `Database.lock`),
#: which no player waits for. A table's statement on a session behind the lanes' (a reveal's
#: lock, a settlement's, the save that lets it go) waited 64 ms at p95 for it at a hundred
#: tables, up to 321 ms; with the features' kept to these, 33-40 ms. A table's lock, and the
#: publisher's, is taken on the least busy of all the sessions, so the last four are never
#: behind a feature's.
BACKGROUND_SESSIONS = 8
#: How long a lock another process holds is waited for between tries, at first and at most.
LOCK_RETRY_S = (0.002, 0.05)
#: The advisory lock every process takes while it migrates, so only one of them does.
_MIGRATION_LOCK = 0x5050_4D49_4752_4154  # "PPMIGRAT"
#: What the server being away looks like: no connection (refused, reset, timed out), one lost
#: mid-statement (08xxx), the server shutting down or starting up (57P01-57P03). Not a query
#: cancelled or a pool too full: those are answers.
_AWAY = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
)


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

    def __init__(
        self, pool: asyncpg.Pool, locks: Iterable[LockSession], *, clock: Clock = utc_now
    ) -> None:
        super().__init__(clock=clock)
        self.pool = pool
        self.locks = tuple(locks)
        # Within this process one waiter per key asks the server; the rest queue here.
        self._local: dict[tuple[str, tuple[int, int]], _Gate] = {}
        self._turns = itertools.count()
        self._freeing: set[asyncio.Future[None]] = set()

    @property
    def is_shared(self) -> bool:
        return True

    def outage_reason(self, error: BaseException) -> str | None:
        return _reason(error) if isinstance(error, _AWAY) else None

    # Each call reports to the store's health, which says once that the server went away and
    # once that it is back, however many actions failed in between.
    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        # A cancelled task's connection is rolled back (or closed) by the pool on release.
        with self.health.watch():
            async with self.pool.acquire() as connection, connection.transaction():
                yield PostgresConnection(connection)

    async def execute(self, sql: str, params: Params = ()) -> int:
        if self.held() is not None:
            return await super().execute(sql, params)  # part of the task's transaction
        # A statement outside a transaction block commits by itself.
        with self.health.watch():
            return _changed(await self.pool.execute(postgres_sql(sql), *params))

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        with self.health.watch():
            return [tuple(row) for row in await self.pool.fetch(postgres_sql(sql), *params)]

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
        number = lock_id(name, key)
        gate = self._local.setdefault((name, key), _Gate())
        gate.waiting += 1
        try:
            await gate.lock.acquire()
        except BaseException:
            gate.waiting -= 1
            self._free_unwanted(gate)
            raise
        gate.waiting -= 1
        try:
            held = gate.kept
            gate.kept = None
            if held is None or held.session is None or held.session.generation != held.generation:
                held = SessionHeld(None, read=False, session=None, number=number, pending=read)
                held.background = background
                if not deferred:
                    await self.take(held)
            held.wanted = lambda: gate.waiting > 0
            failed = True
            try:
                yield held
                failed = False
            finally:
                # A deferred lock never taken (or claimed by its save's commit) holds nothing on
                # the server.
                if held.session is not None and not held.released:
                    if not failed and gate.waiting and held.session.generation == held.generation:
                        # Another action here waits: it takes the lock as this one leaves it,
                        # a round trip the less for each while they queue. (After a failure,
                        # what the lock guards may not be what the holder last left: freed.)
                        gate.kept = held
                    else:
                        # Shielded: a lock left behind in a session would block the table.
                        await asyncio.shield(held.session.free(number))
        finally:
            gate.lock.release()

    async def take(self, held: Held) -> None:
        if held.taken:
            return
        assert isinstance(held, SessionHeld)
        session = self._least_busy(held.background)
        # Only the taking: the block's own calls report for themselves.
        with self.health.watch():
            value, generation = await session.take(held.number, held.pending)
        held.session, held.generation, held.taken = session, generation, True
        held.value, held.read = value, held.pending is not None

    def _free_unwanted(self, gate: _Gate) -> None:
        """A lock kept for a waiter that gave up (cancelled) is freed, if nobody else waits."""
        held = gate.kept
        if held is not None and not gate.waiting and not gate.lock.locked():
            gate.kept = None
            assert held.session is not None  # only a taken lock is kept
            self._freeing.add(task := asyncio.ensure_future(held.session.free(held.number)))
            task.add_done_callback(self._freeing.discard)

    def _least_busy(self, background: bool = False) -> LockSession:
        """The session for a lock to take: any will do (within this process one task at a time
        asks for a key, and the session that holds a lock frees it), so the one with the fewest
        statements waiting, each of which waits for the round trips of those before it; among
        equals, each in turn. A background lock, among the sessions kept for background work
        (`BACKGROUND_SESSIONS`)."""
        sessions = self.locks
        if background and len(sessions) > BACKGROUND_SESSIONS:
            sessions = sessions[:BACKGROUND_SESSIONS]
        start = next(self._turns) % len(sessions)
        turn = sessions[start:] + sessions[:start]
        return min(turn, key=lambda session: session.waiting)

    async def one_moment(self, connection: Connection) -> None:
        # Read committed, each statement would see what had committed by its own start.
        await connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")

    async def try_hold(self, name: str, key: tuple[int, int]) -> bool:
        held = self.held()
        assert held is not None, "held for a transaction: taken inside one"
        # A transaction's advisory lock and a lock session's conflict on the same number: taken
        # only while no action holds the key, it keeps every action out until the commit.
        row = await held.fetchone("SELECT pg_try_advisory_xact_lock(?)", (lock_id(name, key),))
        return bool(row is not None and row[0])

    @property
    def functions(self) -> bool:
        return True

    async def call(self, function: str, params: Params = ()) -> list[Row]:
        sql = f"SELECT * FROM {function}({marks(len(params))})"
        try:
            held = self.held()
            if held is not None:
                # A savepoint: a refusal undoes the function's part and leaves the rest.
                async with savepoint(held):
                    return await held.fetchall(sql, params)
            with self.health.watch():
                return [tuple(row) for row in await self.pool.fetch(postgres_sql(sql), *params)]
        except asyncpg.PostgresError as error:
            raise _refused(error) from error

    async def call_releasing(self, function: str, params: Params, held: Held | None) -> list[Row]:
        if isinstance(held, SessionHeld) and not held.taken:
            if self.held() is None:
                return await self._call_claiming(function, params, held.number)
            await self.take(held)  # a larger transaction's: taken now, kept to its end
        if (
            not isinstance(held, SessionHeld)
            or held.session is None
            or held.released
            or self.held() is not None
            or held.session.generation != held.generation
            or held.wanted()
        ):
            # In a larger transaction, or the session's connection was lost (and the lock
            # with it), or the lock goes to the next action here as it is: the lock is freed
            # as usual, is gone, or is kept (and the statement needs no session).
            return await self.call(function, (*params, None))
        sql = postgres_sql(f"SELECT * FROM {function}({marks(len(params) + 1)})")
        # Shielded, as the lock's session is shared: cancelled meanwhile, the block's end frees
        # the lock after it (whether or not it committed).
        running = asyncio.ensure_future(held.session.fetch(sql, *params, held.number))
        try:
            with self.health.watch():
                rows = await asyncio.shield(running)
        except asyncpg.PostgresError as error:
            raise _refused(error) from error
        held.released = True
        return [tuple(row) for row in rows]

    async def _call_claiming(self, function: str, params: Params, number: int) -> list[Row]:
        """The function, with a deferred lock claimed for the statement's own commit.

        The lock is taken for the transaction in the argument that would free it (arguments
        are worked out before the function runs): taken, nothing is left to free; held by
        another session, the argument is the lock, which the function's first step
        (``pp_hold_to_commit``) fails to hold in turn and refuses with PPLCK, nothing done.
        """
        last = len(params) + 1
        sql = postgres_sql(
            f"SELECT * FROM {function}({marks(len(params))}, CASE WHEN"
            f" pg_try_advisory_xact_lock(${last}::BIGINT) THEN NULL ELSE ${last}::BIGINT END)"
        )
        try:
            with self.health.watch():
                rows = await self.pool.fetch(sql, *params, number)
        except asyncpg.PostgresError as error:
            raise _refused(error) from error
        return [tuple(row) for row in rows]

    async def close(self) -> None:
        await asyncio.gather(*self._freeing, return_exceptions=True)
        await asyncio.gather(self.pool.close(), *(session.close() for session in self.locks))


@dataclass(eq=False, slots=True)
class _Gate:
    """A key's lock within the process: the tasks waiting for it, and the advisory lock its
    last holder kept for the next (the server's lock then passes between them untouched)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting: int = 0
    kept: SessionHeld | None = None


class SessionHeld(Held):
    """An advisory lock held by one of the process's lock sessions."""

    def __init__(
        self,
        value: int | None,
        *,
        read: bool,
        session: LockSession | None,
        number: int,
        pending: LockRead | None = None,
    ) -> None:
        super().__init__(value, read=read, taken=session is not None)
        #: The session that holds it (None: a deferred lock not taken yet).
        self.session = session
        self.number = number
        #: What a deferred lock reads as it is taken.
        self.pending = pending
        #: Work no player waits for: taken on the background sessions (`BACKGROUND_SESSIONS`).
        self.background = False
        #: Whether another task of the process waits for the lock: it is then kept for it.
        self.wanted: Callable[[], bool] = lambda: False
        #: The session's connection that took it: a lock lost with its connection is not freed
        #: by a statement on the next one.
        self.generation = 0 if session is None else session.generation


class LockSession:
    """One connection that holds advisory locks for any number of tables at once.

    A lock held by a connection of its own took a connection per table acting: at a hundred
    busy tables a process's forty lock connections were all taken and a click waited 325 ms at
    p95 for one. Here a session asks with ``pg_try_advisory_lock``, one short statement at a
    time, and a lock another process holds is asked for again after a short sleep. If the
    session's connection is lost the server frees its locks; the next statement reconnects, and
    a table saved meanwhile by another process is caught by the snapshot's version.

    A lock may be taken with a read under it (`LockRead`: the table's version), and its holder's
    last statement may run here to free it with its own commit (`Database.call_releasing`: the
    snapshot's save), each one round trip.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.connection: asyncpg.Connection | None = None
        #: How many connections the session has made: the locks of an earlier one are gone.
        self.generation = 0
        #: Statements sent or waiting to be (each waits for those before it).
        self.waiting = 0
        self._busy = asyncio.Lock()
        self._freeing: set[asyncio.Future[None]] = set()

    async def fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        """The rows of one statement on the session's connection (connected if need be)."""
        self.waiting += 1
        try:
            return await self._fetch(sql, *args)
        finally:
            self.waiting -= 1

    async def _fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        async with self._busy:
            if self.connection is None or self.connection.is_closed():
                self.connection = await asyncpg.connect(self.url)
                self.generation += 1
            try:
                return list(await self.connection.fetch(sql, *args))
            except (*_AWAY, asyncpg.InterfaceError):
                # Its session is gone, and the server let go of its locks with it.
                self.connection.terminate()
                self.connection = None
                raise

    async def take(self, number: int, read: LockRead | None = None) -> tuple[int | None, int]:
        """Hold lock ``number``, waiting while another process holds it; what ``read`` found
        under it, and the generation of the connection that holds it."""
        if read is None:
            sql, args = "SELECT pg_try_advisory_lock($1), NULL::BIGINT", (number,)
        else:
            placeholders = ", ".join(f"${i}" for i in range(1, len(read.params) + 2))
            sql = f"SELECT taken, value FROM {read.function}({placeholders})"
            args = (number, *read.params)
        delay, longest = LOCK_RETRY_S
        while True:
            asking = asyncio.ensure_future(self._ask(sql, args))
            try:
                taken, value, generation = await asyncio.shield(asking)
            except asyncio.CancelledError:
                # The server may still answer yes: the lock is then freed, not left behind.
                asking.add_done_callback(functools.partial(self._free_if_taken, number))
                raise
            if taken:
                return value, generation
            await asyncio.sleep(delay)
            delay = min(delay * 2, longest)

    async def _ask(self, sql: str, args: tuple[object, ...]) -> tuple[bool, int | None, int]:
        rows = await self.fetch(sql, *args)
        value = rows[0][1]
        return bool(rows[0][0]), None if value is None else int(value), self.generation

    def _free_if_taken(
        self, number: int, asking: asyncio.Future[tuple[bool, int | None, int]]
    ) -> None:
        if not asking.cancelled() and asking.exception() is None and asking.result()[0]:
            self._freeing.add(task := asyncio.ensure_future(self.free(number)))
            task.add_done_callback(self._freeing.discard)

    async def free(self, number: int) -> None:
        with contextlib.suppress(asyncpg.PostgresError, OSError, asyncpg.InterfaceError):
            await self.fetch("SELECT pg_advisory_unlock($1)", number)

    def terminate(self) -> None:
        """Drop the connection at once (a test's killed process)."""
        if self.connection is not None:
            self.connection.terminate()

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
            self.connection = None


def _refused(error: asyncpg.PostgresError) -> Exception:
    """A function's refusal (SQLSTATE class PP) as the repositories see it; else the error."""
    code = str(getattr(error, "sqlstate", "") or "")
    if not code.startswith("PP"):
        return error
    message = str(getattr(error, "message", "") or error)
    return RefusedCallError(code, message, str(getattr(error, "detail", "") or ""))


async def _keep_session(connection: PgConnection) -> None:
    """What a connection back in the pool needs beyond asyncpg's own rollback: nothing.

    asyncpg's default sends ``RESET ALL`` and friends at every release, a round trip each time a
    statement outside a transaction borrows a connection. The bot's pool connections change no
    session state (no SET, LISTEN, cursor or advisory lock: the locks live on the lock sessions,
    and the migrations' lock is freed before its connection goes back).
    """


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
    lock_sessions: int = LOCK_SESSIONS,
) -> PostgresDatabase:
    """Connect to the database ``url`` names, migrated to the latest schema.

    Raises `DatabaseUnreachableError` when the server cannot be reached or refuses the bot,
    `DatabaseSettingError` when the URL cannot be used (``?sslmode=sometimes``), and
    `MigrationError` when the bot's role may not create its tables.
    """
    try:
        # One connection now, so that an unreachable server is told at start; no floor after
        # it: asyncpg would keep one with a warning and a traceback at each try while the
        # server is away, beside the store's own word on it (storage/health.py).
        pool = await asyncpg.create_pool(
            url, init_size=1, min_size=0, max_size=pool_size, reset=_keep_session
        )
    except (ValueError, OverflowError, asyncpg.ClientConfigurationError) as error:
        raise DatabaseSettingError(
            f"The database URL {shown_url(url)} cannot be used ({_reason(error)})."
        ) from error
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise DatabaseUnreachableError(url, _reason(error)) from error
    try:
        if migrate_schema:
            async with pool.acquire() as connection:
                try:
                    await migrate_postgres(connection)
                except asyncpg.InsufficientPrivilegeError as error:
                    role = await connection.fetchval("SELECT current_user")
                    raise MigrationError(
                        f"The database role {role} may not create or change the bot's tables "
                        f"({_reason(error)}); grant it CREATE on the schema, or start the bot "
                        "once as a role that may."
                    ) from error
    except BaseException:
        await pool.close()
        raise
    # The sessions connect when first asked for a lock.
    locks = [LockSession(url) for _ in range(lock_sessions)]
    return PostgresDatabase(pool, locks, clock=clock)
