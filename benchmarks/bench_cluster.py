"""The bot's tables on each store, in one process or two: games per second and a click's wait.

Run: .venv/bin/python -m benchmarks.bench_cluster [--tables 50 100] [--games 1] [--seed 1]
     [--latency-ms 60] [--modes sqlite postgresql postgresql-2] [--database-url URL]

Each mode plays the same tables (every game in turn, full seats) with the load of
``benchmarks/bench_load.py``: the pictures drawn as the bot draws them, Discord's latency on
every request, players who think 0.5-3 s and a few who stay silent. ``sqlite`` is one process
on a SQLite file (the bot's default); ``postgresql`` one process on PostgreSQL;
``postgresql-2`` two processes on the same PostgreSQL, the tables split between them as two
shards split servers. Each process has its own solver workers (the bot's default, one per CPU)
and its own deadline watch. Without ``--database-url`` a scratch PostgreSQL is started (the
tests' tests/postgres.py) and a new database made for each mode.

Printed per mode and size: games per second, declare and submit waits at p50/p95, and where the
CPU went (the table processes' event loops, their solver workers, the PostgreSQL server: on
this machine only), so that the figures of this 2-core machine can be read for a bigger one, and
the machine's load average as each mode began and ended. A wait is a click's wall time in its
table process, ``time.perf_counter()`` from the call (``manager.declare``, ``manager.submit``)
to its answer. Under each mode's line, what its players waited for, measured as
``bench_load`` measures it (``benchmarks/players.py``; the processes' figures merged) and each
beside issue 25's target: a phase's opening to each player's DM picture sent (p50/p95/max),
Suggest pressed to its answer shown, the share of the players asked to set hands whose own
setting was accepted before the deadline, the loop's stall (p99/max, each process's loop), CPU
a game (the table processes and their workers), with the load average as it ended. After each
size, the target of issue 25 beside the figures: one PostgreSQL process's click p95 (declares
and submits together) at most 3x SQLite's in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg

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
from cogs.pictures import warm_up_pictures
from storage import Storage
from storage.stores import open_database
from tables.cluster import ClusterMember
from tables.events import GameStarted
from tables.hands import warm_up
from tables.runtime import ProcessOffload
from tests.postgres import fresh_database, server_url

MODES = ("sqlite", "postgresql", "postgresql-2")
#: Issue 25: one PostgreSQL process's click p95 against SQLite's in the same run.
TARGET_TIMES_SQLITE = 3.0


async def node(
    database: str, share: int, of: int, tables: int, games: int, seed: int, latency: float
) -> dict[str, Any]:
    """One process: its share of the tables, played to the end; its figures."""
    rng = random.Random(seed * 100 + share)
    store = await open_database(database)
    storage = Storage.over(store)
    workers = ProcessOffload()
    await workers.start(warm_up)
    warm_up()
    warm_up_pictures()
    load = loaded_manager(
        storage, rng, latency, 0.05, rng=random.Random(seed + share), offload=workers
    )
    manager = load.manager
    cluster = ClusterMember(manager)
    await cluster.start(watch=store.is_shared)
    mine = [t for t in table_plan(tables) if t[0] % of == share]
    await open_tables(manager, mine)
    print(json.dumps({"ready": share}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # all set: go
    worker_pids = list(workers.pool._processes)
    stalls: list[float] = []
    watcher = asyncio.get_running_loop().create_task(watch_loop(stalls))
    cpu, began = time.process_time(), time.perf_counter()
    workers_began = cpu_seconds(worker_pids)
    played = 0
    for _ in range(games):

        async def deal(channel: int, host: int) -> None:
            load.started_at[channel] = time.perf_counter()
            events = await manager.start(GUILD, channel, host)
            assert any(isinstance(e, GameStarted) for e in events)

        await asyncio.gather(*(deal(channel, users[0]) for channel, _, users in mine))
        for _ in mine:
            await load.finished.get()
            played += 1
    elapsed = time.perf_counter() - began
    loop_cpu = time.process_time() - cpu
    workers_cpu = cpu_seconds(worker_pids) - workers_began
    watcher.cancel()
    for task in load.tasks:
        task.cancel()  # players still thinking about a game that is over
    await asyncio.gather(*load.tasks, return_exceptions=True)
    await cluster.stop()
    await manager.close()
    workers.close()
    await store.close()
    return {
        "played": played,
        "elapsed": elapsed,
        "loop_cpu": loop_cpu,
        "workers_cpu": workers_cpu,
        "declare": load.waits["declare"],
        "submit": load.waits["submit"],
        "players": PlayerFigures.of(load, stalls, loop_cpu + workers_cpu, played).to_json(),
    }


def _stat(pid: int) -> list[str]:
    # After the ")" of the name: state, ppid, ..., utime (12th), stime, cutime, cstime.
    return Path("/proc", str(pid), "stat").read_text().rsplit(")", 1)[1].split()


async def postmaster_of(server: str) -> int:
    """The process id of the server's postmaster (the parent of a connection's backend)."""
    connection = await asyncpg.connect(server)
    try:
        # Read while the backend lives: it is gone once its connection closes.
        return int(_stat(int(await connection.fetchval("SELECT pg_backend_pid()")))[1])
    finally:
        await connection.close()


def postgres_cpu(postmaster: int) -> float:
    """CPU seconds this server has used so far: its live processes' own, and its reaped
    children's (a closed connection's backend), which the kernel adds to the postmaster's."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = _stat(postmaster)
    total = sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = _stat(int(entry.name))
                if int(fields[1]) == postmaster:
                    total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")


def target_line(tables: int, clicks: dict[str, dict[str, list[float]]]) -> str | None:
    """The issue's target beside the figures: PostgreSQL's click p95 against 3x SQLite's."""
    if "sqlite" not in clicks or "postgresql" not in clicks:
        return None
    lite, post = clicks["sqlite"], clicks["postgresql"]
    lite_p95 = _p95(lite["declare"] + lite["submit"])
    post_p95 = _p95(post["declare"] + post["submit"])
    bound = TARGET_TIMES_SQLITE * lite_p95
    verdict = "met" if post_p95 <= bound else "NOT met"
    return (
        f"target {tables:>4} tables: postgresql click p95 {post_p95 * 1000:.0f} ms <= "
        f"{TARGET_TIMES_SQLITE:g} x sqlite's {lite_p95 * 1000:.0f} ms = {bound * 1000:.0f} ms: "
        f"{verdict} (declare {ms(post['declare'], 0.95)} vs {ms(lite['declare'], 0.95)}, "
        f"submit {ms(post['submit'], 0.95)} vs {ms(lite['submit'], 0.95)} ms)"
    )


async def measure(
    mode: str,
    server: str,
    folder: Path,
    args: argparse.Namespace,
    tables: int,
    clicks: dict[str, dict[str, list[float]]],
) -> str:
    if mode == "sqlite":
        database, processes = str(folder / f"cluster-{tables}.sqlite3"), 1
    else:
        database = await fresh_database(server, f"bench_{mode.replace('-', '_')}_{tables}")
        processes = 2 if mode.endswith("-2") else 1
        # Migrated once, before the processes start side by side.
        await (await open_database(database)).close()
    command = [sys.executable, "-m", "benchmarks.bench_cluster", "--node", database]
    spawned = [
        await asyncio.create_subprocess_exec(
            *command,
            str(share),
            str(processes),
            str(tables),
            str(args.games),
            str(args.seed),
            str(args.latency_ms),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=2**26,  # a process's figures: every wait and stall, on one line
        )
        for share in range(processes)
    ]
    for process in spawned:
        assert process.stdout is not None
        await process.stdout.readline()  # ready
    postmaster = None if mode == "sqlite" else await postmaster_of(server)
    postgres_before = 0.0 if postmaster is None else postgres_cpu(postmaster)
    load_before = os.getloadavg()[0]
    wall = time.perf_counter()
    for process in spawned:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        await process.stdin.drain()
    results = []
    for process in spawned:
        assert process.stdout is not None
        results.append(json.loads(await process.stdout.readline()))
        await process.wait()
    wall = time.perf_counter() - wall
    postgres = 0.0 if postmaster is None else postgres_cpu(postmaster) - postgres_before
    played = sum(r["played"] for r in results)
    declare = [w for r in results for w in r["declare"]]
    submit = [w for r in results for w in r["submit"]]
    loop_cpu = sum(r["loop_cpu"] for r in results)
    workers_cpu = sum(r["workers_cpu"] for r in results)
    clicks[mode] = {"declare": declare, "submit": submit}
    players = players_line(tables, PlayerFigures.merged(r["players"] for r in results))
    return (
        f"{mode:<13} {tables:>6} {played / wall:>7.2f} "
        f"{ms(declare, 0.5):>6} {ms(declare, 0.95):>6} {ms(submit, 0.5):>6} "
        f"{ms(submit, 0.95):>6} {loop_cpu:>8.1f} {workers_cpu:>8.1f} {postgres:>8.1f} "
        f"{wall:>6.1f} {load_before:>5.1f} {os.getloadavg()[0]:>5.1f}\n{players}"
    )


async def main_async(args: argparse.Namespace) -> None:
    print(
        f"# waits in ms: time.perf_counter() in the table process, from a click's call to its"
        f" answer; load: the 1-minute load average as the mode began and ended, on"
        f" {os.cpu_count()} CPUs; target: postgresql click p95 <= {TARGET_TIMES_SQLITE:g} x"
        f" sqlite's",
        flush=True,
    )
    print(
        f"{'mode':<13} {'tables':>6} {'games/s':>7} {'decl50':>6} {'decl95':>6} "
        f"{'subm50':>6} {'subm95':>6} {'loop_cpu':>8} {'work_cpu':>8} {'pg_cpu':>8} "
        f"{'wall':>6} {'load0':>5} {'load':>5}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as folder, server_url(args.database_url) as server:
        for tables in args.tables:
            clicks: dict[str, dict[str, list[float]]] = {}
            for mode in args.modes:
                line = await measure(mode, server, Path(folder), args, tables, clicks)
                print(line, flush=True)
            target = target_line(tables, clicks)
            if target is not None:
                print(target, flush=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--node":
        database, share, of, tables, games, seed, latency_ms = sys.argv[2:9]
        result = asyncio.run(
            node(
                database,
                int(share),
                int(of),
                int(tables),
                int(games),
                int(seed),
                float(latency_ms) / 1000,
            )
        )
        print(json.dumps(result), flush=True)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 100])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency-ms", type=float, default=60.0)
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--database-url", help="an existing PostgreSQL server's URL")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
