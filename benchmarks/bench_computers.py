"""How long a computer's decisions take, against the solver's budget the table gives them.

Run: .venv/bin/python -m benchmarks.bench_computers [--holdings 30] [--seed 1]

For each Pyramid game and each level: the wall time of setting a dealt holding
(``computer_sets``, what the table runs in a worker) and, in the games with declarations, of
declaring at each declaration (``computer_declares``) with the cards held then. Printed per
game, level and decision: median, 95th percentile and the longest, beside the budget
(tables.rules.SOLVER_BUDGET_S). The first call of each game is left out of the figures (it loads
the field model and the evaluator's tables, as a worker's warm-up does when the bot starts).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from benchmarks.progress import progress
from engine.cards import Shoe
from engine.players import Level
from tables.computers import computer_declares, computer_sets
from tables.games import GAMES
from tables.rules import SOLVER_BUDGET_S

GAMES_TIMED = ("showdown", "casino", "standard", "no-surrender")


def _timed(call: Callable[..., object], *args: object) -> float:
    started = time.perf_counter()
    call(*args)
    return time.perf_counter() - started


def _line(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"{label:<34} p50 {statistics.median(ordered) * 1000:7.0f} ms   p95 {p95 * 1000:7.0f} ms"
        f"   max {ordered[-1] * 1000:7.0f} ms   (budget {SOLVER_BUDGET_S * 1000:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holdings", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    over = 0
    for name in GAMES_TIMED:
        spec = GAMES[name]
        variant = spec.variant
        assert variant is not None
        rng = random.Random(args.seed)
        warm = Shoe(decks=variant.decks, jokers=variant.jokers, rng=rng).deal(variant.max_held)
        computer_sets(spec, Level.STRONG.value, warm)  # loads what a worker's warm-up loads
        times: dict[str, list[float]] = {}
        for _ in progress(range(args.holdings), what=name):
            shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=rng)
            held = list(shoe.deal(variant.deal))
            opponents = 1 if variant.casino is not None else 3
            for round_, declaration in enumerate(variant.declarations):
                times.setdefault(f"declare {round_ + 1}", []).append(
                    _timed(computer_declares, spec, round_, tuple(held), opponents, variant.ante)
                )
                held += shoe.deal(declaration.draw)
            for level in Level:
                times.setdefault(f"set ({level.value})", []).append(
                    _timed(computer_sets, spec, level.value, tuple(held))
                )
        print(f"\n{spec.title}, {args.holdings} holdings")
        for label, measured in times.items():
            print(_line(f"  {label}", measured))
            over += sum(t > SOLVER_BUDGET_S for t in measured)
    print(f"\nDecisions over the budget: {over}")


if __name__ == "__main__":
    main()
