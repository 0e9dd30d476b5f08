"""Fixtures for table tests: a world of fakes over a real SQLite file in tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.tables.helpers import World


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    opened = await World.open(tmp_path / "tables.sqlite3")
    yield opened
    await opened.close()
