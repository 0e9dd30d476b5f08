"""What the storage tests share: their servers, channel and admin, and a clock the test moves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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
