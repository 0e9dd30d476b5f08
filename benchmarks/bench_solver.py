"""Solver speed on fixed seeded deal sets: p50/p95/max milliseconds per holding and peak memory.

Run: .venv/bin/python -m benchmarks.bench_solver [--scale 1.0] [--only casino] [--budget-s 1.5]

Each holding is solved from a cold start of the search (the evaluator's lookup tables and the
field model are loaded once, as in the bot). Showdown runs with the solve command's 1.5 s budget
(``--budget-s 0``: none, every answer proven); the share of answers proven optimal is printed
beside the times.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from benchmarks.solver_deals import deals
from engine.evaluate import evaluator
from engine.solver.model import load_model
from engine.solver.search import search
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, Variant

#: (name, variant, cards, deals, max jokers, budget in seconds or None, targets p50/max in ms)
SETS = (
    ("casino-9", CASINO, 9, 500, 2, None, (5.0, None)),
    ("17-card", NO_SURRENDER, 17, 150, 2, None, (50.0, 500.0)),
    ("showdown-25", SHOWDOWN, 25, 20, 4, 1.5, (300.0, 2000.0)),
)


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(
    name: str, variant: Variant, size: int, count: int, jokers: int, budget: float | None
) -> str:
    """Solve every holding of one set and describe the times."""
    model = load_model(variant)
    evaluator(variant.hand_rules)
    times: list[float] = []
    by_jokers: dict[int, list[float]] = {}
    exact = 0
    for held in deals(variant, size, count, seed=1, max_jokers=jokers):
        started = time.perf_counter()
        found = search(variant, model, held, budget_s=budget)
        times.append((time.perf_counter() - started) * 1000)
        by_jokers.setdefault(held.count(0), []).append(times[-1])
        exact += found is not None and found.exact
    split = ", ".join(
        f"{n} jokers p50 {statistics.median(t):.1f}" for n, t in sorted(by_jokers.items())
    )
    return (
        f"{name:<12} {count:>5} deals, 0-{jokers} jokers: p50 {statistics.median(times):8.1f} ms"
        f"  p95 {percentile(times, 0.95):8.1f} ms  max {max(times):8.1f} ms"
        f"  proven optimal {exact}/{count}\n{'':<13}({split})"
    )


def main() -> None:
    """Run the sets and print one line each, then the process's peak memory."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every set's size")
    parser.add_argument("--only", help="run only the set whose name starts so")
    parser.add_argument(
        "--budget-s", type=float, help="Showdown's time budget in seconds (0: none; default 1.5)"
    )
    args = parser.parse_args()
    for name, variant, size, count, jokers, budget, targets in SETS:
        if args.only and not name.startswith(args.only):
            continue
        if budget is not None and args.budget_s is not None:
            budget = args.budget_s or None
        line = run(name, variant, size, max(1, int(count * args.scale)), jokers, budget)
        p50, worst = targets
        print(line + f"  (targets: p50 ≤ {p50:g} ms" + (f", max ≤ {worst:g} ms)" if worst else ")"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS of the process): {peak:.0f} MB")


if __name__ == "__main__":
    main()
