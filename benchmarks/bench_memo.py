"""The evaluator's joker-key memory under a working set larger than it: first pass and later
passes over the same distinct joker hands, in hands a second (CPU time of this process).

Run: .venv/bin/python -m benchmarks.bench_memo [--hands 100000] [--passes 3]

A memory cleared when full (as before ``engine.memo``) made every pass over a working set above
its 65,536 keys as slow as the first; one that forgets the least lately used keeps the last
65,536 to 131,072 keys, so later passes over up to that many find them all.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import time

from engine.cards import JOKER_CODE
from engine.evaluate import PYRAMID_RULES, Evaluator


def hands(count: int, seed: int) -> list[tuple[int, ...]]:
    """``count`` distinct five-card hands with one or two jokers."""
    rng = random.Random(seed)
    found: set[tuple[int, ...]] = set()
    cards = list(range(4, 56))
    while len(found) < count:
        jokers = rng.choice((1, 1, 2))
        found.add(tuple(sorted((JOKER_CODE,) * jokers + tuple(rng.sample(cards, 5 - jokers)))))
    return sorted(found, key=lambda _: rng.random())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sample = hands(args.hands, args.seed)
    keyer = Evaluator(PYRAMID_RULES)
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.hands:,} distinct joker hands; CPU time of this process")
    rates = []
    for number in range(1, args.passes + 1):
        started = time.process_time()
        for hand in itertools.islice(sample, None):
            keyer.key(hand)
        spent = time.process_time() - started
        rates.append(args.hands / spent)
        print(f"pass {number}: {rates[-1]:>12,.0f} hands/s")
    print(f"last pass / first pass: {rates[-1] / rates[0]:.1f}x")


if __name__ == "__main__":
    main()
