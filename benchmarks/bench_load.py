"""One process under load: how long a player's click waits, with the pictures drawn as the bot
draws them and Discord's latency on every request.

Run: .venv/bin/python -m benchmarks.bench_load [--tables 10 50 100] [--games 1] [--seed 1]
     [--latency-ms 60] [--before] [--game showdown ...] [--silent 0.05] [--readers 0 2]
     [--kept 0 1]

Tables of every game (or of the ``--game`` named), full seats, play through
``tables.TableManager`` on a SQLite file with the solver in worker processes (as in the bot),
after the warm-up the bot does while it starts (``tables.hands.warm_up`` in the workers and here,
``cogs.pictures.warm_up_pictures`` here). The publisher does what the bot's does for each event:
it draws each DM's hand picture and the showdown picture (``cogs.pictures``, in a thread) and
waits ``--latency-ms`` for each request Discord would get, one more for a player's first DM (the
bot opens each DM channel once per process). Players think 0.5-3 s, then declare, or ask for a
suggestion and submit it; some (``--silent``, 5%) stay silent and the deadline (30 s) plays for
them.

Printed per size: games per second, each click's wait (declare, submit: from the call to its
answer) at p50/p95/max, the time from the last hands to the showdown posted, and from Start to
every deal's DM sent; and where the CPU went while the tables played: this process (the loop,
the database's thread, the pictures' threads) and the workers, each in cores (1.0: one core all
the time), the whole machine's busy cores (other users' work included), the loop's p99 stall
(how late a 10 ms sleep wakes); and how long a use of the SQLite writing connection (a
transaction, or a read when there are no readers) waited for it, p50/p95, with the uses and
the statements it ran per click (on the loop's thread), and the share of the time it was held.

``--readers 0 2`` runs each size with the reads on the one SQLite connection (as before) and
then on two read-only connections beside it (the store's default); ``--kept 0 1`` with no
worker kept from suggestions (as before) and then with one (the default). Each combination runs
in turn.

``--before`` runs the same code the way it ran before the load issue: publishing inside the
table's lock and one first-come-first-served queue for the workers (the old publisher's extra
requests are not counted, so "before" is if anything flattered).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from benchmarks.players import (
    GUILD,
    PlayerFigures,
    cpu_seconds,
    loaded_manager,
    ms,
    open_tables,
    players_line,
    table_plan,
    watch_loop,
)
from cogs.common import PictureWorkers, draw_pictures_in
from cogs.pictures import warm_up_pictures
from storage import Storage
from storage.sqlite import READERS, open_sqlite
from tables.events import GameStarted
from tables.games import GAMES
from tables.hands import warm_up
from tables.runtime import KEPT_WORKERS, Priority, ProcessOffload

T = TypeVar("T")


class Flat:
    """The workers as they were before: one first-come-first-served queue for every job."""

    def __init__(self, offload: ProcessOffload) -> None:
        self.offload = offload

    async def __call__(
        self, work: Callable[..., T], /, *args: Any, priority: Priority = Priority.SUGGEST
    ) -> T:
        return await self.offload(work, *args, priority=Priority.SUGGEST)


def _machine_busy() -> tuple[float, float]:
    """The machine's busy and total CPU time so far, every core (from /proc/stat)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    ticks = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


class TimedLock(asyncio.Lock):
    """The store's lock on its writing connection, timed: how long each use waited for it, how
    long the uses held it in all."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float] = []
        self.held = 0.0
        self._taken = 0.0

    async def acquire(self) -> Literal[True]:
        asked = time.perf_counter()
        taken = await super().acquire()
        self._taken = time.perf_counter()
        self.waits.append(self._taken - asked)
        return taken

    def release(self) -> None:
        self.held += time.perf_counter() - self._taken
        super().release()


def _count_calls(connection: Any) -> list[int]:
    """Count the statements the writing connection runs (on the loop's thread)."""
    calls = [0]

    def counted(statement: str) -> None:
        calls[0] += 1

    connection.set_trace_callback(counted)
    return calls


async def run(
    tables: int,
    games: int,
    seed: int,
    latency: float,
    before: bool,
    kinds: Sequence[str],
    silent: float,
    *,
    readers: int,
    kept: int,
    burst: float = 0.0,
    mixed_seats: bool = False,
    prepare: bool = True,
    picture_workers: int = 0,
) -> tuple[str, str]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        database = await open_sqlite(Path(folder) / "load.sqlite3", readers=readers)
        # The bench's own look inside the store: every use of the writing connection takes it.
        writer = database._lock = TimedLock()
        calls = _count_calls(database.connection)
        storage = Storage.over(database)
        workers = ProcessOffload(kept=kept)
        await workers.start(warm_up)
        warm_up()
        warm_up_pictures()
        drawing = None
        if picture_workers:
            drawing = PictureWorkers(picture_workers, warm_up_pictures)
            await drawing.start()
            draw_pictures_in(drawing)
        load = loaded_manager(
            storage,
            rng,
            latency,
            silent,
            burst,
            rng=random.Random(seed),
            offload=Flat(workers) if before else workers,
            background_publishing=not before,
            prepare_suggestions=prepare and not before,
        )
        manager = load.manager
        plan = table_plan(tables, kinds, seats=random.Random(seed) if mixed_seats else None)
        hosts = {channel: users[0] for channel, _, users in plan}
        await open_tables(manager, plan)
        worker_pids = list(workers.pool._processes)
        if drawing is not None:
            worker_pids += list(drawing.pool._processes)
        stalls: list[float] = []
        watcher = asyncio.get_running_loop().create_task(watch_loop(stalls))
        writer.waits.clear()
        writer.held, calls[0] = 0.0, 0
        cpu_began, workers_began = time.process_time(), cpu_seconds(worker_pids)
        machine_began = _machine_busy()
        began = time.perf_counter()
        played = 0
        for _ in range(games):

            async def deal(channel: int) -> None:
                load.started_at[channel] = time.perf_counter()
                events = await manager.start(GUILD, channel, hosts[channel])
                assert any(isinstance(e, GameStarted) for e in events)

            await asyncio.gather(*(deal(channel) for channel in hosts))
            for _ in hosts:
                await load.finished.get()
                played += 1
        elapsed = time.perf_counter() - began
        clicks = max(1, len(load.waits["declare"]) + len(load.waits["submit"]))
        uses, per_click, held = len(writer.waits) / clicks, calls[0] / clicks, writer.held / elapsed
        own_cpu = time.process_time() - cpu_began
        workers_cpu = cpu_seconds(worker_pids) - workers_began
        own = own_cpu / elapsed
        worked = workers_cpu / elapsed
        machine_ended = _machine_busy()
        cores = machine_ended[1] - machine_began[1]
        busy = (machine_ended[0] - machine_began[0]) / cores * (os.cpu_count() or 1)
        watcher.cancel()
        for task in list(load.tasks):
            task.cancel()  # the players still thinking over a deadline's game
        await manager.close()
        workers.close()
        if drawing is not None:
            draw_pictures_in(None)
            drawing.close()
        await database.close()
    to_showdown = [
        load.posted[game] - hands for game, hands in load.hands_in.items() if game in load.posted
    ]
    load_avg = os.getloadavg()[0]
    figures = PlayerFigures.of(load, stalls, own_cpu + workers_cpu, played)
    players = players_line(tables, figures)
    return players, (
        f"{'before' if before else 'after ':<6} {tables:>6} {played / elapsed:>7.2f} "
        f"{ms(load.waits['declare'], 0.5):>6} {ms(load.waits['declare'], 0.95):>6} "
        f"{ms(load.waits['declare'], 1.0):>6} {ms(load.waits['submit'], 0.5):>6} "
        f"{ms(load.waits['submit'], 0.95):>6} {ms(load.waits['submit'], 1.0):>6} "
        f"{ms(to_showdown, 0.5):>6} {ms(to_showdown, 0.95):>6} "
        f"{ms(load.to_deal, 0.5):>6} {ms(load.to_deal, 0.95):>6} {load_avg:>5.1f} "
        f"{own:>5.2f} {worked:>5.2f} {busy:>5.2f} {ms(stalls, 0.99):>6} "
        f"{ms(writer.waits, 0.5):>5} {ms(writer.waits, 0.95):>5} {uses:>4.1f} "
        f"{per_click:>5.1f} {held:>5.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency-ms", type=float, default=60.0)
    parser.add_argument("--before", action="store_true", help="also run the code as it was")
    parser.add_argument("--game", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    parser.add_argument(
        "--silent", type=float, default=0.05, help="share of players the deadline plays for"
    )
    parser.add_argument(
        "--burst",
        type=float,
        default=0.5,
        help="share of players who click 0.01-0.2 s after their DM (the others 0.5-3 s)",
    )
    parser.add_argument(
        "--prepare",
        type=int,
        nargs="+",
        default=[1],
        help="1: suggestions made as each phase opens (the bot's way), 0: only when asked;"
        " each run in turn",
    )
    parser.add_argument(
        "--picture-workers",
        type=int,
        nargs="+",
        default=[0],
        help="processes that draw the pictures (0, the bot's default: threads of this"
        " process); each run in turn",
    )
    parser.add_argument(
        "--full-seats",
        action="store_true",
        help="every seat taken (the runs before issue 25); else 2-6 players a table",
    )
    parser.add_argument(
        "--readers",
        type=int,
        nargs="+",
        default=[READERS],
        help="SQLite connections for reads, each run in turn (0: the writer reads too)",
    )
    parser.add_argument(
        "--kept",
        type=int,
        nargs="+",
        default=[KEPT_WORKERS],
        help="workers kept from suggestions, each run in turn (0: suggestions may take all)",
    )
    args = parser.parse_args()
    print(
        f"{'code':<6} {'tables':>6} {'games/s':>7} "
        f"{'decl50':>6} {'decl95':>6} {'declmx':>6} {'sub50':>6} {'sub95':>6} {'submx':>6} "
        f"{'show50':>6} {'show95':>6} {'deal50':>6} {'deal95':>6} {'load':>5} "
        f"{'cpu':>5} {'wrk':>5} {'mach':>5} {'lag99':>6} {'dbw50':>5} {'dbw95':>5} {'uses':>4} "
        f"{'calls':>5} {'held':>5} "
        f"{'read':>4} {'kept':>4} {'prep':>4} {'pics':>4}   (ms; CPU in cores)"
    )
    for tables in args.tables:
        modes = (True, False) if args.before else (False,)
        runs = itertools.product(modes, args.readers, args.kept, args.prepare, args.picture_workers)
        for before, readers, kept, prepare, drawers in runs:
            players, line = asyncio.run(
                run(
                    tables,
                    args.games,
                    args.seed,
                    args.latency_ms / 1000,
                    before,
                    args.game,
                    args.silent,
                    readers=readers,
                    kept=kept,
                    burst=args.burst,
                    mixed_seats=not args.full_seats,
                    prepare=bool(prepare),
                    picture_workers=drawers,
                )
            )
            print(f"{line} {readers:>4} {kept:>4} {prepare:>4} {drawers:>4}", flush=True)
            print(players, flush=True)
    print(f"statistics: {statistics.__name__} of clicks; latency per request {args.latency_ms} ms")


if __name__ == "__main__":
    main()
