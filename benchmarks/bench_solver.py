"""Solver speed on fixed seeded deal sets: warm and cold, this tree and (optionally) an earlier one.

Run: .venv/bin/python -m benchmarks.bench_solver [--before 8716aee] [--rounds 2] [--cold 5]
     [--scale 1.0] [--only showdown] [--budget-s 1.5]

Warm: one process per tree and set, the evaluator's lookups and the field model loaded first
(as in the bot's warmed workers), then every holding of the set searched in turn; each holding
is timed in CPU milliseconds of the process (what a shared machine inflates least) and in wall
milliseconds. With ``--before`` (a commit, exported with ``git archive``, or a folder holding
a tree) the earlier search runs in a warm process of its own and the two take turns holding by
holding (the first to go alternating), so each pair meets the same load; the figures shown are
the round with the lower p50, and the ratios are per round and per holding. Showdown runs with
the solve command's 1.5 s budget (``--budget-s 0``: none); "proven" counts answers proven
optimal, "within 1 s" those proven in under a second of CPU.

Cold: a fresh process per holding imports the engine and solves one holding with ``solve()``
(the lookups and the field model are loaded inside it, so its milliseconds are a cold first
answer); the process's own wall time from start to answer is given too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (name, variant name, cards, deals, max jokers, budget in seconds or None)
SETS = (
    ("casino-9", "casino", 9, 500, 2, None),
    ("17-card", "no-surrender", 17, 150, 2, None),
    ("showdown-25", "showdown", 25, 20, 4, 1.5),
)

_WARM = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from benchmarks.solver_deals import deals
from engine.evaluate import evaluator
from engine.solver.model import load_model
from engine.solver.search import search
from engine.variants import variant_named
variant = variant_named(sys.argv[2])
size, count, jokers = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
budget = float(sys.argv[6]) or None
model = load_model(variant)
evaluator(variant.hand_rules)
holdings = deals(variant, size, count, seed=1, max_jokers=jokers)
print("ready", flush=True)
for line in sys.stdin:
    held = holdings[int(line)]
    wall, cpu = time.perf_counter(), time.process_time()
    found = search(variant, model, held, budget_s=budget)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    exact = bool(found is not None and found.exact)
    print(json.dumps([cpu * 1000, wall * 1000, exact, held.count(0)]), flush=True)
"""

_COLD = """
import time
started = time.perf_counter()
import json, sys
sys.path.insert(0, sys.argv[1])
from benchmarks.solver_deals import deals
from engine.cards import card_from_code
from engine.solver.solve import solve
from engine.variants import variant_named
variant = variant_named(sys.argv[2])
size, index, jokers = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
held = deals(variant, size, index + 1, seed=1, max_jokers=jokers)[index]
cpu = time.process_time()
solution = solve(variant, [card_from_code(c) for c in held], budget_s=1.5)
cpu = time.process_time() - cpu
print(json.dumps([solution.ms, cpu * 1000, (time.perf_counter() - started) * 1000, solution.exact]))
"""


def export(commit: str, folder: Path) -> Path:
    """The tree of ``commit`` written into ``folder``."""
    archive = folder / "before.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", commit], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "tree", filter="data")
    return folder / "tree"


def child(script: str, tree: Path, *args: object) -> object:
    """Run a snippet in a fresh process with ``tree`` first on the path; its JSON answer."""
    done = subprocess.run(
        [sys.executable, "-c", script, str(tree), *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return json.loads(done.stdout)


def warm(
    trees: dict[str, Path], args: tuple[object, ...], count: int
) -> dict[str, list[list[float]]]:
    """Every holding solved by one warm process per tree, the trees taking turns per holding
    (the first to go alternates), so both meet the same load at nearly the same moment."""
    processes = {
        side: subprocess.Popen(
            [sys.executable, "-c", _WARM, str(tree), *map(str, args)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
        )
        for side, tree in trees.items()
    }
    rows: dict[str, list[list[float]]] = {side: [] for side in trees}
    try:
        for process in processes.values():
            assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        sides = list(processes)
        for index in range(count):
            for side in sides if index % 2 == 0 else reversed(sides):
                process = processes[side]
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write(f"{index}\n")
                process.stdin.flush()
                rows[side].append(json.loads(process.stdout.readline()))
    finally:
        for process in processes.values():
            if process.stdin is not None:
                process.stdin.close()
            process.wait()
    return rows


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def describe(rows: list[list[float]]) -> str:
    """p50/p95/max of CPU and wall milliseconds, proven counts, p50 per number of jokers."""
    cpu = [r[0] for r in rows]
    wall = [r[1] for r in rows]
    proven = sum(1 for r in rows if r[2])
    within = sum(1 for r in rows if r[2] and r[0] < 1000)
    by_jokers: dict[int, list[float]] = {}
    for r in rows:
        by_jokers.setdefault(int(r[3]), []).append(r[0])
    split = ", ".join(f"{n}: {statistics.median(t):.0f}" for n, t in sorted(by_jokers.items()))
    return (
        f"CPU p50 {statistics.median(cpu):7.1f}  p95 {percentile(cpu, 0.95):7.1f}  max"
        f" {max(cpu):7.1f} ms | wall p50 {statistics.median(wall):7.1f}  max {max(wall):7.1f} ms"
        f" | proven {proven}/{len(rows)}, within 1 s {within}\n"
        f"{'':<16}CPU p50 by jokers ({split})"
    )


def main() -> None:
    """Run the warm sets (in turns with ``--before``), then the cold first solves."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", help="an earlier commit or a folder with its tree")
    parser.add_argument("--rounds", type=int, default=1, help="warm runs per tree and set")
    parser.add_argument("--cold", type=int, default=5, help="fresh processes per set")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every set's size")
    parser.add_argument("--only", help="run only the sets whose name starts so")
    parser.add_argument("--budget-s", type=float, help="Showdown's budget (0: none; 1.5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        trees = {"after": ROOT}
        if args.before:
            before = Path(args.before)
            trees = {
                "before": before if before.is_dir() else export(args.before, Path(folder)),
                "after": ROOT,
            }
        print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for name, variant, size, count, jokers, budget in SETS:
            if args.only and not name.startswith(args.only):
                continue
            if budget is not None and args.budget_s is not None:
                budget = args.budget_s or None
            count = max(1, int(count * args.scale))
            runs: dict[str, list[list[list[float]]]] = {side: [] for side in trees}
            for _ in range(args.rounds):
                found = warm(trees, (variant, size, count, jokers, budget or 0), count)
                for side, rows in found.items():
                    runs[side].append(rows)
            label = f"{budget:g} s budget" if budget else "no budget"
            print(f"\n{name}: {count} holdings, 0-{jokers} jokers, {label}, warm")
            for side, rounds in runs.items():
                best = min(rounds, key=lambda rows: statistics.median(r[0] for r in rows))
                print(f"  {side:<13} {describe(best)}")
            if args.before:
                paired = [
                    a[0] / b[0]
                    for old, after in zip(runs["before"], runs["after"], strict=True)
                    for b, a in zip(old, after, strict=True)
                ]
                ratios = [
                    statistics.median(r[0] for r in after) / statistics.median(r[0] for r in old)
                    for old, after in zip(runs["before"], runs["after"], strict=True)
                ]
                print(
                    f"  CPU after / before: p50 over p50 per round"
                    f" {', '.join(f'{x:.2f}' for x in ratios)}; median per holding"
                    f" {statistics.median(paired):.2f}"
                )
            if args.cold:
                colds = [
                    child(_COLD, tree, variant, size, index, jokers)
                    for tree in trees.values()
                    for index in range(args.cold)
                ]
                for side_index, side in enumerate(trees):
                    mine = colds[side_index * args.cold : (side_index + 1) * args.cold]
                    solve_ms = [float(c[0]) for c in mine]  # type: ignore[index]
                    process_ms = [float(c[2]) for c in mine]  # type: ignore[index]
                    print(
                        f"  {side:<13} cold first solve (fresh process, {args.cold} holdings):"
                        f" solve() p50 {statistics.median(solve_ms):.0f}"
                        f" max {max(solve_ms):.0f} ms; process start to answer"
                        f" p50 {statistics.median(process_ms):.0f} max {max(process_ms):.0f} ms"
                    )
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"(finished {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")


if __name__ == "__main__":
    main()
