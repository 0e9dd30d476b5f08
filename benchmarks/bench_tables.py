"""Many tables at once on one process: games per second, the longest event-loop stall, DB size.

Run: .venv/bin/python -m benchmarks.bench_tables [--tables 100] [--games 1] [--seed 1]

Every table plays real games through ``tables.TableManager`` on a SQLite file: bot players
declare after a short random pause, ask the solver for a suggestion (which runs in a thread, as in
the bot) and submit it; some stay silent so the deadline plays for them. A watchdog task
measures how late the event loop wakes it: the longest stall is what a Discord interaction
would wait on top of its own work. The database size is measured after a WAL checkpoint.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from engine.errors import GameError
from storage import Storage
from storage.stores import open_database
from tables.config import make_config
from tables.events import (
    ArrangingOpened,
    DeclarationsOpened,
    Event,
    GameCancelled,
    GameStarted,
    ShowdownSettled,
)
from tables.games import GAMES
from tables.hands import warm_up
from tables.manager import TableManager
from tables.runtime import ProcessOffload, ThreadOffload

GUILD = 1
#: How often the watchdog wakes (seconds) to measure the loop's lateness.
TICK = 0.005
#: Share of players who let the arrangement deadline pass (the solver sets their hands).
SILENT = 0.1
DEADLINE_S = 15


class Watchdog:
    """Measures how late the event loop runs a task that asks to wake every ``TICK``."""

    def __init__(self) -> None:
        self.stalls: list[float] = []
        self._running = True

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running:
            before = loop.time()
            await asyncio.sleep(TICK)
            self.stalls.append(loop.time() - before - TICK)

    def stop(self) -> None:
        self._running = False


class Bots:
    """The players: they answer each phase's events with clicks after a short pause."""

    def __init__(self, manager: TableManager, rng: random.Random) -> None:
        self.manager = manager
        self.rng = rng
        self.tasks: set[asyncio.Task[None]] = set()
        self.finished: asyncio.Queue[tuple[int, Event]] = asyncio.Queue()
        self.counts: Counter[str] = Counter()

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, DeclarationsOpened):
                for user in event.players:
                    self._later(self._declare(channel_id, user))
            elif isinstance(event, ArrangingOpened):
                for user in event.players:
                    if self.rng.random() >= SILENT:
                        self._later(self._arrange(channel_id, user))
            elif isinstance(event, ShowdownSettled | GameCancelled):
                self.finished.put_nowait((channel_id, event))
            elif isinstance(event, GameStarted):
                self.counts["started"] += 1

    def _later(self, work: asyncio.Future[None] | object) -> None:
        task = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _declare(self, channel: int, user: int) -> None:
        await asyncio.sleep(self.rng.uniform(0.01, 0.2))
        try:
            await self.manager.declare(GUILD, channel, user, self.rng.random() < 0.85)
        except GameError:
            self.counts["refused"] += 1  # e.g. short of chips for the stake

    async def _arrange(self, channel: int, user: int) -> None:
        await asyncio.sleep(self.rng.uniform(0.01, 0.2))
        try:
            suggestion = await self.manager.suggest(GUILD, channel, user)
            self.counts["suggestions"] += 1
            setting = suggestion.setting
            await self.manager.submit(GUILD, channel, user, setting)
        except GameError:
            self.counts["refused"] += 1  # the deadline came first


async def bench(tables: int, games: int, seed: int, pool: str) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        database = await open_database(path)
        storage = Storage.over(database)
        bots_holder: list[Bots] = []

        class Relay:
            async def publish(self, g: int, c: int, events: Sequence[Event]) -> None:
                await bots_holder[0].publish(g, c, events)

        offload = ProcessOffload() if pool == "process" else ThreadOffload()
        manager = TableManager(storage, Relay(), rng=random.Random(seed), offload=offload)
        bots = Bots(manager, rng)
        bots_holder.append(bots)
        names = sorted(GAMES)
        plan = {}
        for index in range(tables):
            name = names[index % len(names)]
            spec = GAMES[name]
            count = rng.randint(max(2, spec.min_players), spec.max_players)
            users = tuple(10_000 + 10 * index + seat for seat in range(count))
            plan[index + 1] = (name, users)
            config = make_config(
                name, declaration_seconds=DEADLINE_S, arrangement_seconds=DEADLINE_S
            )
            await manager.create(GUILD, index + 1, users[0], config)
            for user in users[1:]:
                await manager.join(GUILD, index + 1, user)
        # The bot starts its workers, and they load the solver's tables, before it goes online.
        # The process itself checks hands with the evaluator, so it loads the tables too.
        warm_up()
        if isinstance(offload, ProcessOffload):
            await offload.start(warm_up)
        watchdog = Watchdog()
        watching = asyncio.get_running_loop().create_task(watchdog.run())
        started = time.perf_counter()
        played: Counter[str] = Counter()
        for _ in range(games):
            await asyncio.gather(*(manager.start(GUILD, ch, plan[ch][1][0]) for ch in plan))
            for _ in plan:
                channel, _event = await bots.finished.get()
                played[plan[channel][0]] += 1
        elapsed = time.perf_counter() - started
        watchdog.stop()
        await watching
        await manager.close()
        offload.close()
        async with database.transaction() as connection:
            await connection.execute("SELECT 1")
        await database.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        await database.close()
        size = path.stat().st_size + sum(
            p.stat().st_size for p in Path(folder).glob("bench.sqlite3-*")
        )
    total = sum(played.values())
    stalls = sorted(watchdog.stalls)
    print(f"tables: {tables} at once, {games} game(s) each, seed {seed}, solver in a {pool} pool")
    print(f"games played: {total} ({', '.join(f'{k} {v}' for k, v in sorted(played.items()))})")
    print(
        f"solver suggestions: {bots.counts['suggestions']}, "
        f"refused clicks: {bots.counts['refused']}"
    )
    print(f"wall time: {elapsed:.1f} s; games per second: {total / elapsed:.2f}")
    print(
        f"event-loop stall: longest {stalls[-1] * 1000:.1f} ms, "
        f"p99 {stalls[int(0.99 * (len(stalls) - 1))] * 1000:.1f} ms, "
        f"median {statistics.median(stalls) * 1000:.2f} ms over {len(stalls)} ticks"
    )
    print(
        f"database: {size / 1024:.0f} KiB in all, "
        f"{size / total * 1000 / 1024 / 1024:.2f} MiB per 1,000 games"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", choices=("process", "thread"), default="process")
    args = parser.parse_args()
    asyncio.run(bench(args.tables, args.games, args.seed, args.pool))


if __name__ == "__main__":
    main()
