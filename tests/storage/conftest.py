"""Fixtures for storage tests: each store in turn (a SQLite file in tmp_path, a PostgreSQL
database) and a clock the test moves."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import Storage
from storage.database import Database
from storage.stores import open_database

GUILD = 1001
OTHER_GUILD = 2002
CHANNEL = 3003
ADMIN = 9


class FakeClock:
    """A clock that stands still until the test moves it."""

    def __init__(self, start: datetime = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "chips.sqlite3"


@pytest.fixture
async def database(database_target: str | Path, clock: FakeClock) -> AsyncIterator[Database]:
    db = await open_database(database_target, clock=clock)
    yield db
    await db.close()


@pytest.fixture
def store(database: Database) -> Storage:
    return Storage.over(database)
