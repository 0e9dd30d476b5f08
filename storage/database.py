"""The store behind the repositories: SQLite (the default) or PostgreSQL, one interface.

Repositories write one SQL, the subset both stores speak (``?`` placeholders, ``ON CONFLICT``,
``RETURNING``, ``FOR UPDATE`` where a row is read to be changed), and see rows as tuples. Each
store runs it its own way: `storage.sqlite` on one writing connection whose transactions take
the file's write lock (so ``FOR UPDATE`` is dropped there) and read-only connections beside it,
`storage.postgres` on an asyncpg pool with row locks and advisory locks, for a bot that runs as
several processes.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import re
import urllib.parse
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from storage.errors import MigrationError
from storage.health import StoreHealth

Clock = Callable[[], datetime]
Params = Sequence[Any]
Row = tuple[Any, ...]

#: The default store: a SQLite file beside the bot.
DEFAULT_DATABASE_PATH = Path("data/pyramid.sqlite3")
_MIGRATION_NAME = re.compile(r"(\d{4})-([a-z0-9-]+)\.sql")
#: A URL's scheme and the "//" after it; a setting without one is a file's path.
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
#: The spellings of each store's URL people write (SQLAlchemy's among them), in lower case.
_POSTGRES_SCHEMES = frozenset({"postgresql", "postgres", "postgresql+asyncpg", "postgres+asyncpg"})
_SQLITE_SCHEMES = frozenset({"sqlite", "sqlite+aiosqlite", "sqlite+pysqlite"})
#: A URL's parameter that holds a password (``?password=``, ``?sslpassword=``) and its value.
_SECRET_PARAMETER = re.compile(r"([?&][^=&#]*password=)[^&#]*", re.IGNORECASE)
#: The most of a refused setting a sentence quotes.
_QUOTED = 80


def marks(count: int) -> str:
    """``count`` placeholders for an ``IN (...)`` list."""
    return ", ".join("?" * count)


def utc_now() -> datetime:
    """The current time in UTC (the default clock)."""
    return datetime.now(UTC)


def format_time(moment: datetime) -> str:
    """A moment as fixed-width ISO 8601 UTC text, so that text order is time order."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    """The inverse of `format_time`."""
    return datetime.fromisoformat(text)


class DatabaseSettingError(ValueError):
    """A database setting the bot cannot use (an unknown kind of URL, a port that is not a
    number); the message is one sentence for the operator."""


@dataclass(frozen=True, slots=True)
class DatabaseLocation:
    """Where a database setting points."""

    #: "sqlite" or "postgresql".
    store: str
    #: The server's URL as asyncpg takes it (``postgresql://...``), or the file's path
    #: (``:memory:`` for a database in memory).
    address: str


def locate_database(setting: str | Path, *, name: str = "The database setting") -> DatabaseLocation:
    """The store a database setting names: a file's path, a ``sqlite:///`` URL, or a PostgreSQL
    URL in any case, ``+asyncpg`` allowed; raise `DatabaseSettingError` for anything else.

    A ``sqlite:`` URL means what SQLAlchemy makes of it: three slashes before a relative path,
    four before an absolute one, none (or ``:memory:``) for a database in memory. Anything
    else with a scheme is refused: taken for a path, ``mysql://bot:pw@db/x`` became an empty
    database in folders named after the URL, its password among them.
    """
    if isinstance(setting, Path):
        return DatabaseLocation("sqlite", str(setting))
    scheme = _SCHEME.match(setting)
    if scheme is None:
        return DatabaseLocation("sqlite", setting)
    kind, rest = scheme[1].lower(), setting[scheme.end() :]
    if kind in _POSTGRES_SCHEMES:
        url = "postgresql://" + rest
        _check_postgres_url(url, name)
        return DatabaseLocation("postgresql", url)
    if kind in _SQLITE_SCHEMES:
        return DatabaseLocation("sqlite", _sqlite_path(setting, rest, name))
    raise DatabaseSettingError(
        f"{name} must be a SQLite file's path, sqlite:///path or "
        f"postgresql://user:password@host/database, not {_quoted(setting)}."
    )


def _quoted(setting: str) -> str:
    """A refused setting as a sentence quotes it: without its password, and not too long."""
    return repr(shown_url(setting)[:_QUOTED])


def _sqlite_path(setting: str, rest: str, name: str) -> str:
    """The file a ``sqlite://`` URL names (``rest`` follows the ``//``)."""
    if not rest:
        return ":memory:"
    # A host (sqlite://server/x) or options (?mode=ro) would be silently dropped: refused.
    if not rest.startswith("/") or "?" in rest:
        raise DatabaseSettingError(
            f"{name} as a SQLite URL must be sqlite:///relative/path or "
            f"sqlite:////absolute/path, not {_quoted(setting)}."
        )
    return urllib.parse.unquote(rest[1:]) or ":memory:"


def _check_postgres_url(url: str, name: str) -> None:
    """Refuse a PostgreSQL URL that cannot be taken apart, or whose port is not a number.

    Each host of a list (``host1:5432,host2:5432``, which asyncpg tries in turn) is checked.
    """
    try:
        hosts = urllib.parse.urlsplit(url).netloc.rpartition("@")[2]
    except ValueError as error:
        raise DatabaseSettingError(
            f"{name} is not a URL: {_quoted(url)} ({str(error).lower()})."
        ) from error
    for host in hosts.split(","):
        # An IPv6 address is in brackets, its colons before the port's.
        port = host.partition("]")[2][1:] if host.startswith("[") else host.partition(":")[2]
        if port and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65_535):
            raise DatabaseSettingError(
                f"{name}'s port must be a number from 1 to 65535, not {port[:20]!r}."
            )


class DatabaseUnreachableError(Exception):
    """The PostgreSQL server cannot be reached or refuses the bot (says which and why)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"Cannot connect to the database {shown_url(url)} ({reason})")
        self.url = url
        self.reason = reason


def shown_url(url: str) -> str:
    """A database setting as it may be logged or shown: any password in it replaced by ***.

    The password may follow the user (``user:pw@host``) or be a parameter (``?password=pw``,
    ``&sslpassword=pw``). Taken apart by hand: a URL that urllib refuses (an unclosed IPv6
    bracket) must still be shown in the sentence that refuses it.
    """
    scheme = _SCHEME.match(url)
    if scheme is None:
        return url  # a file's path
    rest = url[scheme.end() :]
    authority_end = next((i for i, char in enumerate(rest) if char in "/?#"), len(rest))
    authority, tail = rest[:authority_end], rest[authority_end:]
    if "@" in authority:
        user_info, host = authority.rsplit("@", 1)
        if ":" in user_info:
            authority = f"{user_info.split(':', 1)[0]}:***@{host}"
    tail = _SECRET_PARAMETER.sub(r"\1***", tail)
    return url[: scheme.end()] + authority + tail


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file of ``storage/migrations/<store>``."""

    version: int
    name: str
    sql: str


def discover_migrations(store: str = "sqlite") -> tuple[Migration, ...]:
    """A store's migrations shipped beside this module, in version order.

    Each store has its own folder with the same numbers: a migration is written once per store,
    and `tests/storage/test_schema.py` checks that both build the same tables and columns.
    """
    # importlib.resources finds the files wherever the package is installed, not the cwd.
    folder = importlib.resources.files(__package__ or "storage").joinpath("migrations", store)
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.fullmatch(entry.name)
        if match is not None:
            found.append(Migration(int(match[1]), match[2], entry.read_text("utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"Migrations must be numbered 1, 2, 3... without gaps: {versions}.")
    return tuple(found)


def check_version(version: int, migrations: Sequence[Migration]) -> None:
    """Refuse a database that a newer bot has migrated: guessing at its schema loses chips."""
    latest = migrations[-1].version if migrations else 0
    if version > latest:
        raise MigrationError(
            f"The database is at schema version {version}, newer than this bot's {latest}."
        )


class Connection(Protocol):
    """A connection inside a transaction, as repositories use it."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement that returns no rows; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per row of parameters."""
        ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query."""
        ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of one query, or None."""
        ...


@dataclass(frozen=True, slots=True)
class LockRead:
    """What the holder of a lock reads first, under it: one integer of one row (None: no row).

    ``sql`` reads it on any store once the lock is held. On PostgreSQL ``function`` (one of
    migration 0013's) takes the advisory lock and makes the same read in the same statement, a
    round trip instead of two: called as ``function(lock_id, *params)``, it answers ``taken``
    and ``value``, and reads in a snapshot taken after the lock, so it sees what the lock's last
    holder committed before letting it go.
    """

    sql: str
    params: Params
    function: str


class Held:
    """A lock the running task holds, and what it read as it took it."""

    def __init__(self, value: int | None = None, *, read: bool = False, taken: bool = True) -> None:
        #: What the lock's `LockRead` found (None: no row, or nothing was read).
        self.value = value
        #: Whether the lock was taken with a read.
        self.read = read
        #: Whether every process's lock is held (False: a deferred lock holds the process's
        #: alone so far; `Database.take` takes the rest, or the holder's save claims it).
        self.taken = taken
        #: A statement of the holder's let the lock go with its own commit (PostgreSQL's
        #: `Database.call_releasing`): the lock is no longer the holder's to free.
        self.released = False


class RefusedCallError(Exception):
    """A server-side function refused (PostgreSQL, ``RAISE`` with a code of class ``PP``):
    nothing it began is kept; the repository that called it says why in its own words."""

    def __init__(self, code: str, message: str, detail: str) -> None:
        super().__init__(message)
        #: The SQLSTATE the function raised ("PPSTA": a stale snapshot, ...).
        self.code = code
        self.message = message
        #: What the repository needs to word it (a user, a channel), as text.
        self.detail = detail


@asynccontextmanager
async def savepoint(connection: Connection) -> AsyncIterator[None]:
    """A block inside a transaction that a failure undoes alone (SQLite and PostgreSQL alike).

    Nested ones may share the name: both stores release or roll back the latest of a name.
    """
    await connection.execute("SAVEPOINT joined")
    try:
        yield
    except Exception:
        # Back to where the block began; the transaction goes on (PostgreSQL's, after an
        # error, would otherwise refuse every statement until its end).
        await connection.execute("ROLLBACK TO SAVEPOINT joined")
        await connection.execute("RELEASE SAVEPOINT joined")
        raise
    await connection.execute("RELEASE SAVEPOINT joined")


class PartFailedError(Exception):
    """A part of a lazy transaction failed and its caller went on: the whole is rolled back."""


class LazyTransaction:
    """A transaction begun by its first statement, whose parts fail it whole
    (`Database.lazy_transaction`): a `Connection`, and whether it has begun."""

    def __init__(self, begin: Callable[[], AbstractAsyncContextManager[Connection]]) -> None:
        self._begin = begin
        self._stack = AsyncExitStack()
        self._connection: Connection | None = None
        #: A block that joined it failed (its error may have been caught).
        self.failed = False

    @property
    def begun(self) -> bool:
        """Whether a statement was sent (BEGIN with it)."""
        return self._connection is not None

    async def _open(self) -> Connection:
        if self._connection is None:
            self._connection = await self._stack.enter_async_context(self._begin())
        return self._connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await (await self._open()).execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await (await self._open()).executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await (await self._open()).fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await (await self._open()).fetchone(sql, params)


class Database(ABC):
    """A store's transactions, reads and locks, and the clock it stamps rows with."""

    #: "sqlite" or "postgresql".
    store: str

    def __init__(self, *, clock: Clock = utc_now) -> None:
        self.clock = clock
        #: The transaction each task holds open here, which what it calls meanwhile joins.
        self._held: dict[asyncio.Task[Any], Connection] = {}
        #: Whether the store answers; its calls report to it, and so do the background loops.
        self.health = StoreHealth(self.outage_reason)

    def outage_reason(self, error: BaseException) -> str | None:
        """Why ``error`` means the store is away for a while (a few words), or None when it is
        a failure of its own. A file does not go away and come back: None."""
        return None

    def now(self) -> str:
        """The clock's current time as stored text."""
        return format_time(self.clock())

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A write transaction: all of it is committed, or none of it.

        Opened while the same task holds one, it joins it as a savepoint: its changes commit
        with the enclosing transaction's, and a failure inside it undoes its own changes and
        goes up to the enclosing block. So the caller owns the unit of work (one action, one
        transaction) and each repository still writes its statements in a block of its own.
        Only the task that opened a transaction joins it: a task it starts gets its own.
        """
        task = asyncio.current_task()
        assert task is not None, "a transaction runs in a task"
        held = self._held.get(task)
        if isinstance(held, LazyTransaction):
            try:
                yield held
            except BaseException:
                held.failed = True
                raise
            return
        if held is not None:
            async with savepoint(held):
                yield held
            return
        async with self._transaction() as connection:
            self._held[task] = connection
            try:
                yield connection
            finally:
                del self._held[task]

    @asynccontextmanager
    async def lazy_transaction(self) -> AsyncIterator[LazyTransaction]:
        """A write transaction begun by its first statement (a block that sends none opens
        none, and holds no connection meanwhile), all of it committed or none of it.

        The blocks that join it take no savepoint (two round trips each on PostgreSQL): a
        failure inside one fails the whole, which is rolled back even if the caller caught the
        error (`PartFailedError` at its end). For work that goes all at once or is tried again
        whole: a subscriber's handling of an event.
        """
        task = asyncio.current_task()
        assert task is not None, "a transaction runs in a task"
        assert task not in self._held, "a lazy transaction is the task's own"
        lazy = LazyTransaction(self._transaction)
        async with lazy._stack:
            self._held[task] = lazy
            try:
                yield lazy
                if lazy.failed:
                    raise PartFailedError("A part of the transaction failed; none of it is kept.")
            finally:
                del self._held[task]

    def held(self) -> Connection | None:
        """The transaction the running task holds open here, if any."""
        task = asyncio.current_task()
        return None if task is None else self._held.get(task)

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A new write transaction of the store's own: BEGIN, then COMMIT or ROLLBACK."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One statement that changes rows, in a transaction of its own; the rows it changed."""
        async with self.transaction() as connection:
            return await connection.execute(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query: in the running task's transaction if it holds one (which
        sees its own changes), else as last committed, outside any other's."""
        held = self.held()
        if held is not None:
            return await held.fetchall(sql, params)
        return await self._fetchall(sql, params)

    @abstractmethod
    async def _fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query, read outside any other coroutine's transaction."""

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of one query, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    def lock(
        self,
        name: str,
        key: tuple[int, int],
        *,
        read: LockRead | None = None,
        deferred: bool = False,
        background: bool = False,
    ) -> AbstractAsyncContextManager[Held]:
        """Hold a named lock on ``key`` (a table's channel, say) for the block; with ``read``,
        what it reads under the lock is the `Held`'s value.

        Within one process an `asyncio.Lock`; on PostgreSQL also an advisory lock that every
        process of the bot respects, released by the server if the holder dies.

        ``deferred``: the block begins with the process's lock alone (``Held.taken`` False,
        nothing read) unless the lock was handed over taken; it takes the rest with `take`
        before a step that must hold it, or lets its last statement claim it for its own commit
        (`call_releasing`, which then refuses if another process holds it). On a store that no
        other process shares, the lock is whole at once.

        ``background``: the lock of work no player waits for (an outbox lane's). PostgreSQL
        holds it on the lock sessions kept for such work, so that a table's lock, which a click
        waits for, never queues behind its statements.
        """

    async def one_moment(self, connection: Connection) -> None:
        """Make the transaction just begun on ``connection`` read one moment in every statement
        (what an audit's figures must be of). SQLite's transaction holds the file and sees no
        other writer: nothing to do. Only as the transaction's first statement."""
        return

    async def try_hold(self, name: str, key: tuple[int, int]) -> bool:
        """Take the named lock on ``key`` (`lock`'s, as every process takes it) for the rest of
        the running task's transaction, if nobody holds it; whether it was taken. It goes with
        the transaction's end. On SQLite a transaction holds the file's write lock already: no
        other transaction writes beside it, so there is nothing more to take."""
        return True

    async def take(self, held: Held) -> None:
        """Take the rest of a deferred lock (`lock`), with its read: ``held`` is then taken,
        and its value what the read found. Nothing to do where it is taken already."""
        # A store no other process shares hands out its locks whole (PostgreSQL overrides).
        assert held.taken, "a deferred lock on a store that defers none"

    async def read_under(self, read: LockRead | None) -> Held:
        """What a lock just taken reads, as a `Held` (the stores that cannot read in the
        lock's own statement)."""
        if read is None:
            return Held()
        row = await self.fetchone(read.sql, read.params)
        return Held(None if row is None or row[0] is None else int(row[0]), read=True)

    @property
    def functions(self) -> bool:
        """Whether the store runs the bot's server-side functions (PostgreSQL's migration
        0013): a repository then makes one call where it would send several statements, each a
        round trip. SQLite runs the same steps from Python, where a statement costs none."""
        return False

    async def call(self, function: str, params: Params = ()) -> list[Row]:
        """The rows of one server-side function, in the running task's transaction if it holds
        one, else in a transaction of its own (the statement's); raises `RefusedCallError`."""
        raise NotImplementedError(f"{self.store} runs no server-side functions")

    def leave(self, held: Held | None, value: int | None) -> None:
        """A holder's last statement committed ``value`` under a lock it did not free: what the
        next holder reads if the lock is handed to it as it is (PostgreSQL hands it to the next
        task of the process that waits for it). Inside a larger transaction, which may still
        fail, nothing is noted."""
        if held is not None and not held.released and self.held() is None:
            held.value, held.read = value, True

    async def call_releasing(self, function: str, params: Params, held: Held | None) -> list[Row]:
        """As `call`, for a function whose last parameter is a lock to let go with its commit:
        where it can (``held`` is given, the task holds no transaction, the lock's session is
        still the one that took it, and no other task of the process waits for the lock) it
        runs on the lock's own session, frees the lock when it commits and marks ``held``
        released; else it is passed NULL and the lock is freed as usual at the end of its
        block, or handed as it is to the task that waits (see `leave`)."""
        raise NotImplementedError(f"{self.store} runs no server-side functions")

    @property
    def is_shared(self) -> bool:
        """Whether other processes may use the same store at the same time."""
        return False

    @abstractmethod
    async def close(self) -> None:
        """Close the store's connections (everything committed is already kept)."""
