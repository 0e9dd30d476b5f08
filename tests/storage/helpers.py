"""What the storage tests share: their servers, channel and admin, a clock the test moves, and a
migrated database to start from."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

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


def migrated_copy(template: Path, target: str | Path) -> str | Path:
    """``target``, made a copy of the migrated SQLite ``template`` (tests/conftest.py's
    ``sqlite_template``; its mode too, 0600) when it is a file's path; a PostgreSQL URL as it is
    (its database is already a copy of a migrated template)."""
    if isinstance(target, Path):
        shutil.copy(template, target)
    return target
