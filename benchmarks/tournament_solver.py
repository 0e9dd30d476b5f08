"""Seeded self-play tournament: the solver against "strongest hand on top first" and random legal.

Run: .venv/bin/python -m benchmarks.tournament_solver --variant casino --deals 500 [--seed 1]

Each deal gives three holdings from one shoe; the three strategies play all three rotations, so
every strategy sets every holding once against the other two. A strategy's score per deal is
its net points against both opponents, summed over the rotations and divided by three; the
interval is mean ± 1.96 standard errors over deals.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from collections.abc import Callable, Sequence

from benchmarks.progress import progress
from engine import players
from engine.arrangement import Arrangement
from engine.cards import card_from_code
from engine.evaluate import evaluate
from engine.scoring import PlayedHands, matchup
from engine.solver.solve import solve
from engine.solver.train import shoe_codes
from engine.variants import Automatic, Variant, variant_named

Setting = tuple[Arrangement, Automatic | None]
Strategy = Callable[[Variant, list[int], random.Random], Setting]


def top_first(variant: Variant, held: list[int], rng: random.Random) -> Setting:
    """The strongest hand that fits the top slot, then the strongest below it (the casual
    computer, engine.players), or the solver's setting where that greed gets cornered."""
    arrangement = players.top_first(variant, held)
    return (arrangement, None) if arrangement is not None else solver(variant, held, rng)


def random_legal(variant: Variant, held: list[int], rng: random.Random) -> Setting:
    """A random split into the slots' base sizes, redrawn until it is legal."""
    arrangement = players.random_legal(variant, held, rng)
    return (arrangement, None) if arrangement is not None else top_first(variant, held, rng)


def solver(variant: Variant, held: list[int], rng: random.Random) -> Setting:
    """The solver's setting (an automatic when it proposes one)."""
    solution = solve(variant, [card_from_code(c) for c in held], budget_s=0.5)
    return solution.arrangement, solution.automatic


STRATEGIES: dict[str, Strategy] = {
    "solver": solver,
    "top-first": top_first,
    "random": random_legal,
}


def _played(variant: Variant, name: str, setting: Setting) -> PlayedHands:
    arrangement, automatic = setting
    values = tuple(evaluate(hand, variant.hand_rules) for hand in arrangement.hands)
    return PlayedHands(name, values, automatic)


def main() -> None:
    """Play the tournament and print each strategy's points per deal with a 95% interval."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="casino")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    variant = variant_named(args.variant)
    rng = random.Random(args.seed)
    names = list(STRATEGIES)
    scores: dict[str, list[float]] = {name: [] for name in names}
    pair: dict[str, list[float]] = {name: [] for name in names[1:]}
    started = time.perf_counter()
    shoe = shoe_codes(variant)
    for _ in progress(range(args.deals), what="deals"):
        dealt = rng.sample(shoe, 3 * variant.max_held)
        holdings = [dealt[i * variant.max_held : (i + 1) * variant.max_held] for i in range(3)]
        totals = dict.fromkeys(names, 0.0)
        versus = dict.fromkeys(names[1:], 0.0)
        for shift in range(3):
            played = []
            for index, name in enumerate(names):
                held = holdings[(index + shift) % 3]
                played.append(_played(variant, name, STRATEGIES[name](variant, held, rng)))
            for a, b in itertools.permutations(range(3), 2):
                points = matchup(variant, played[a], played[b]).total
                totals[names[a]] += points
                if a == 0:
                    versus[names[b]] += points
        for name in names:
            scores[name].append(totals[name] / 3)
        for name in names[1:]:
            pair[name].append(versus[name] / 3)
    elapsed = time.perf_counter() - started
    print(f"{variant.title}: {args.deals} deals x 3 rotations, seed {args.seed}, {elapsed:.0f} s")
    print("points per deal against both opponents (mean ± 95% interval):")
    for name in names:
        print(f"  {name:<10} {_interval(scores[name])}")
    print("solver's net points per deal, head to head:")
    for name in names[1:]:
        print(f"  vs {name:<10} {_interval(pair[name])}")


def _interval(values: Sequence[float]) -> str:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return f"{mean:+7.3f} ± {1.96 * sd / math.sqrt(n):.3f}"


if __name__ == "__main__":
    main()
