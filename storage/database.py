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
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from storage.errors import MigrationError

Clock = Callable[[], datetime]
Params = Sequence[Any]
Row = tuple[Any, ...]

#: The default store: a SQLite file beside the bot.
DEFAULT_DATABASE_PATH = Path("data/pyramid.sqlite3")
_MIGRATION_NAME = re.compile(r"(\d{4})-([a-z0-9-]+)\.sql")
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


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


def is_postgres_url(target: str | Path) -> bool:
    """Whether a database setting names a PostgreSQL server rather than a SQLite file."""
    return str(target).startswith(_POSTGRES_SCHEMES)


class DatabaseUnreachableError(Exception):
    """The PostgreSQL server cannot be reached or refuses the bot (says which and why)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"Cannot connect to the database {shown_url(url)} ({reason})")
        self.url = url
        self.reason = reason


def shown_url(url: str) -> str:
    """A database setting as it may be logged or shown: a URL's password is replaced by ***."""
    parts = urllib.parse.urlsplit(url)
    if not parts.scheme or parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


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


class Database(ABC):
    """A store's transactions, reads and locks, and the clock it stamps rows with."""

    #: "sqlite" or "postgresql".
    store: str

    def __init__(self, *, clock: Clock = utc_now) -> None:
        self.clock = clock
        #: The transaction each task holds open here, which what it calls meanwhile joins.
        self._held: dict[asyncio.Task[Any], Connection] = {}

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
    def lock(self, name: str, key: tuple[int, int]) -> AbstractAsyncContextManager[None]:
        """Hold a named lock on ``key`` (a table's channel, say) for the block.

        Within one process an `asyncio.Lock`; on PostgreSQL also an advisory lock that every
        process of the bot respects, released by the server if the holder dies.
        """

    @property
    def is_shared(self) -> bool:
        """Whether other processes may use the same store at the same time."""
        return False

    @abstractmethod
    async def close(self) -> None:
        """Close the store's connections (everything committed is already kept)."""


async def open_database(
    target: str | Path = DEFAULT_DATABASE_PATH,
    *,
    clock: Clock = utc_now,
    migrate_schema: bool = True,
) -> Database:
    """Open the store ``target`` names, migrated to the latest schema.

    A ``postgresql://`` URL opens a PostgreSQL pool; anything else is a SQLite file (created if
    missing; `storage.sqlite.DatabaseFileError` says why one cannot be).
    """
    if is_postgres_url(target):
        from storage.postgres import open_postgres

        return await open_postgres(str(target), clock=clock, migrate_schema=migrate_schema)
    from storage.sqlite import open_sqlite

    return await open_sqlite(target, clock=clock, migrate_schema=migrate_schema)
