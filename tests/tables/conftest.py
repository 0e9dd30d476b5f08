"""Fixtures for table tests: a world of fakes over each store in turn (tests/conftest.py), and
a store alone on a clock the test moves (the features' tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage import Storage
from storage.stores import open_database
from tests.storage.helpers import FakeClock, migrated_copy
from tests.tables.helpers import World


@pytest.fixture
async def world(database_target: str | Path, sqlite_template: Path) -> AsyncIterator[World]:
    opened = await World.open(migrated_copy(sqlite_template, database_target))
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> FakeClock:
    """The store's clock, at noon (UTC) two days before a month's end: a season's end is near."""
    return FakeClock(datetime(2026, 3, 30, 12, 0, tzinfo=UTC))


@pytest.fixture
async def store(
    database_target: str | Path, sqlite_template: Path, clock: FakeClock
) -> AsyncIterator[Storage]:
    """The repositories over each store in turn, on ``clock``."""
    database = await open_database(migrated_copy(sqlite_template, database_target), clock=clock)
    try:
        yield Storage.over(database)
    finally:
        await database.close()
