"""Fixtures for table tests: a world of fakes over each store in turn (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.tables.helpers import World


@pytest.fixture
async def world(database_target: str | Path) -> AsyncIterator[World]:
    opened = await World.open(database_target)
    yield opened
    await opened.close()
