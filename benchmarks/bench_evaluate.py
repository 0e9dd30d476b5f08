"""Hand evaluation speed: ours against treys on one fixed seeded sample, plus joker and big hands.

Run: .venv/bin/python -m benchmarks.bench_evaluate [--hands N] [--seed S]

Joker and 6-10-card keys are remembered by the evaluator; "cold" forgets them before each pass,
"warm" measures a solver that meets the same hands again.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import Rank, Suit
from engine.errors import HandError
from engine.evaluate import PYRAMID_RULES, evaluator

DECK = [rank * 4 + suit for rank in Rank for suit in Suit]


def rate(
    function: Callable[[Sequence[int]], object],
    hands: Sequence[Sequence[int]],
    repeat: int = 3,
    *,
    cold: bool = True,
) -> float:
    """Best-of-``repeat`` evaluations per second; ``cold`` forgets remembered keys before each."""
    best = float("inf")
    for _ in range(repeat):
        if cold:
            evaluator(PYRAMID_RULES).clear_cache()
        start = time.perf_counter()
        for hand in hands:
            function(hand)
        best = min(best, time.perf_counter() - start)
    return len(hands) / best


def joker_hand(rng: random.Random, size: int, jokers: int) -> tuple[int, ...]:
    return (*rng.choices(DECK, k=size - jokers), *(0,) * jokers)


def big_hand(rng: random.Random, size: int) -> tuple[int, ...]:
    """A 6-10-card hand that is a hand about half the time, as the solver meets them."""
    jokers = rng.randint(0, 2)
    if rng.random() < 0.5:
        rank = rng.choice(list(Rank))
        real = [rank * 4 + rng.choice(list(Suit)) for _ in range(size - jokers)]
    else:
        suit = rng.choice(list(Suit))
        top = rng.randint(size + 1, 14)
        real = [r * 4 + suit for r in rng.sample(range(top - size + 1, top + 1), size - jokers)]
    if rng.random() < 0.3:
        real[0] = rng.choice(DECK)
    return (*real, *(0,) * jokers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ours = evaluator(PYRAMID_RULES)
    key = ours.key

    five = [tuple(rng.sample(DECK, 5)) for _ in range(args.hands)]
    names = {c: Rank(c >> 2).letter + Suit(c & 3).letter for c in DECK}
    treys_hands = [[TreysCard.new(names[c]) for c in hand] for hand in five]
    treys = TreysEvaluator()

    def treys_eval(hand: Sequence[int]) -> object:
        return treys.evaluate(list(hand[:2]), list(hand[2:]))

    ours_rate = rate(key, five)
    treys_rate = rate(treys_eval, treys_hands)
    full_rate = rate(lambda hand: ours.resolve(hand), five[: args.hands // 10])
    print(f"sample: seed {args.seed}, {args.hands:,} single-deck 5-card hands")
    print(f"5-card single deck, ours (key with suits):  {ours_rate:12,.0f} /s")
    print(f"5-card single deck, treys (rank only):      {treys_rate:12,.0f} /s")
    print(f"ratio ours / treys:                         {ours_rate / treys_rate:12.2f}")
    print(f"5-card, ours general path (no tables):      {full_rate:12,.0f} /s")

    n = args.hands // 10
    for jokers in (1, 2, 3, 4):
        sample = [joker_hand(rng, 5, jokers) for _ in range(n)]
        cold, warm = rate(key, sample), rate(key, sample, cold=False)
        print(
            f"5-card, {jokers} joker(s), three decks, cold / warm: {cold:9,.0f} / {warm:9,.0f} /s"
        )
    three = [tuple(rng.choices(DECK, k=3)) for _ in range(args.hands)]
    print(f"3-card, three decks:                        {rate(key, three):12,.0f} /s")
    three_jokers = [joker_hand(rng, 3, rng.randint(1, 2)) for _ in range(n)]
    cold, warm = rate(key, three_jokers), rate(key, three_jokers, cold=False)
    print(f"3-card, 1-2 jokers, cold / warm:            {cold:9,.0f} / {warm:9,.0f} /s")

    def big_key(hand: Sequence[int]) -> object:
        try:
            return key(hand)
        except HandError:
            return None

    for size in (6, 8, 10):
        sample = [big_hand(rng, size) for _ in range(n)]
        cold, warm = rate(big_key, sample), rate(big_key, sample, cold=False)
        print(f"{size}-card, 0-2 jokers, half hands, cold / warm: {cold:9,.0f} / {warm:9,.0f} /s")


if __name__ == "__main__":
    main()
