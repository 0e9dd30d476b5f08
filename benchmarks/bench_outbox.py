"""What each reader of the outbox costs an action: lobby actions at one table, their events
handed to the publisher alone, then with the players' statistics, then with more subscribers.

Run: .venv/bin/python -m benchmarks.bench_outbox [--actions 600] [--database postgresql://...]

Each action is a join or a leave (its events: one row), drained before the action returns, as
the table tests do; the publisher shows nothing. The figure is the mean time of an action, its
table's snapshot and every reader's turn at the outbox included (each reader reads the rows past
its position, then moves it and forgets the rows every reader is past, in one transaction).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from storage import Storage
from storage.stores import open_database
from tables.config import make_config
from tables.events import Event, ShowdownSettled
from tables.features import listening_features
from tables.manager import TableManager
from tables.subscribers import Delivery, Subscriber

GUILD, CHANNEL, HOST, GUEST = 1, 2, 11, 12


class Nobody:
    """A publisher that shows nothing."""

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        return None


class Listener:
    """A subscriber that wants showdowns only (as most features will), and so passes these by."""

    events: tuple[type[Event], ...] = (ShowdownSettled,)

    def __init__(self, name: str) -> None:
        self.name = name

    async def handle(self, event: Event, delivery: Delivery) -> None:
        return None


async def per_action(target: str | Path, subscribers: int | None, actions: int) -> float:
    """Milliseconds per lobby action with the statistics and ``subscribers`` more (None: the
    publisher alone)."""
    database = await open_database(target)
    storage = Storage.over(database)
    readers: list[Subscriber] = []
    if subscribers is not None:
        readers = [*listening_features(storage), *(Listener(f"l{n}") for n in range(subscribers))]
    manager = TableManager(storage, Nobody(), background_publishing=False, subscribers=readers)
    try:
        channel = CHANNEL + int(time.time() * 1000) % 1_000_000  # a fresh table on a shared URL
        await manager.create(GUILD, channel, HOST, make_config("casino"))
        started = time.perf_counter()
        for _ in range(actions // 2):
            await manager.join(GUILD, channel, GUEST)
            await manager.leave(GUILD, channel, GUEST)
        elapsed = time.perf_counter() - started
        await manager.cancel(GUILD, channel, HOST)
    finally:
        await manager.close()
        await database.close()
    return elapsed / (actions // 2 * 2) * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--database", help="a PostgreSQL URL (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        target = args.database or Path(folder) / "outbox.sqlite3"
        print("readers                         ms/action")
        for label, subscribers in (
            ("publisher", None),
            ("publisher + statistics", 0),
            ("publisher + statistics + 3", 3),
        ):
            figures = [await per_action(target, subscribers, args.actions) for _ in range(3)]
            runs = ", ".join(f"{figure:.2f}" for figure in figures)
            print(f"{label:<30} {min(figures):6.2f}  (best of 3: {runs})")


if __name__ == "__main__":
    asyncio.run(main())
