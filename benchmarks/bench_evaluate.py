"""Hand evaluation speed: ours against treys (and phevaluator, pokerkit if installed), same hands.

Run: .venv/bin/python -m benchmarks.bench_evaluate [--hands N] [--rounds R] [--seed S]
With the other evaluators, from a scratch environment that has them (``pip install treys
phevaluator pokerkit``): PYTHONPATH=. /tmp/bench-venv/bin/python -m benchmarks.bench_evaluate

The machine is shared, so every figure is a ratio measured in the same run: the contenders take
turns, round after round, each on the same slice of the sample, timed in CPU seconds of this
process; a rate is the median over rounds, a ratio the median of the rounds' ratios.

"ours, rank" is ``Evaluator.rank``: a hand's rank part (category and ranks, on the one ladder,
several decks and jokers understood) as one integer from the prime-product lookups, suits left
out, as treys' rank class leaves them out; suits enter only when two ranks tie
(``Evaluator.compare``, measured on pairs of hands). "ours, key" is the full key with suits.
"ours, best_five" is the public object API (``engine.evaluate.best_five``): the strongest five
of seven ``Card`` objects as a ``HandValue`` (its cards, key with suits, name), against treys'
rank class of the same seven.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import Rank, Suit, card_from_code
from engine.errors import HandError
from engine.evaluate import PAI_GOW_RULES, PYRAMID_RULES, best_five, evaluator

DECK = [rank * 4 + suit for rank in Rank for suit in Suit]
NAMES = {c: Rank(c >> 2).letter + Suit(c & 3).letter for c in DECK}

#: A contender: the function and the sample in its own card format.
Contender = tuple[Callable[[Any], object], Sequence[Any]]


def race(contenders: dict[str, Contender], rounds: int) -> dict[str, list[float]]:
    """Rates (per CPU second) of every contender in each round, taking turns on one slice."""
    size = len(next(iter(contenders.values()))[1])
    chunk = max(1, size // rounds)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for r in range(rounds):
        start = r * chunk
        for name, (function, sample) in contenders.items():
            part = sample[start : start + chunk]
            began = time.process_time()
            for item in part:
                function(item)
            rates[name].append(len(part) / max(time.process_time() - began, 1e-9))
    return rates


def report(title: str, rates: dict[str, list[float]], reference: str = "treys") -> None:
    """One line per contender: median rate and median ratio to the reference in each round."""
    print(f"\n{title}")
    base = rates.get(reference)
    for name, values in rates.items():
        line = f"  {name:<44}{statistics.median(values):>12,.0f} /s"
        if base is not None and name != reference:
            ratio = statistics.median(v / b for v, b in zip(values, base, strict=True))
            line += f"   {ratio:5.2f}x {reference}"
        print(line)


def others_five() -> dict[str, Callable[[Sequence[int]], Contender]]:
    """The other evaluators that are installed, each turning our sample into its own format."""
    found: dict[str, Callable[[Sequence[int]], Contender]] = {}
    try:
        from treys import Card as TreysCard
        from treys import Evaluator as TreysEvaluator

        treys = TreysEvaluator()

        def treys_sample(hands: Sequence[Sequence[int]]) -> Contender:
            converted = [[TreysCard.new(NAMES[c]) for c in hand] for hand in hands]
            return (lambda h: treys.evaluate(h[:2], h[2:])), converted

        found["treys"] = treys_sample  # type: ignore[assignment]
    except ImportError:
        print("treys: not installed")
    try:
        from phevaluator import evaluate_cards

        def ph_sample(hands: Sequence[Sequence[int]]) -> Contender:
            # phevaluator's card id is rank * 4 + suit with the two as rank 0, suits c d h s.
            return (lambda h: evaluate_cards(*h)), [[c - 8 for c in hand] for hand in hands]

        found["phevaluator"] = ph_sample  # type: ignore[assignment]
    except ImportError:
        print("phevaluator: not installed")
    try:
        from pokerkit import Card as KitCard
        from pokerkit import StandardHighHand

        def kit_sample(hands: Sequence[Sequence[int]]) -> Contender:
            cards = [tuple(KitCard.parse("".join(NAMES[c] for c in hand))) for hand in hands]
            if len(hands[0]) == 5:
                return StandardHighHand, cards
            return (lambda h: StandardHighHand.from_game(h[:2], h[2:])), cards

        found["pokerkit"] = kit_sample  # type: ignore[assignment]
    except ImportError:
        print("pokerkit: not installed")
    return found


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


def one_pass(function: Callable[[Any], object], sample: Sequence[Any]) -> float:
    """The rate (per CPU second) of one pass over the sample."""
    began = time.process_time()
    for item in sample:
        function(item)
    return len(sample) / max(time.process_time() - began, 1e-9)


def cold_warm(
    function: Callable[[Any], object], sample: Sequence[Any], clear: Callable[[], None]
) -> tuple[float, float]:
    """One pass after forgetting what the evaluator remembers, and one pass right after."""
    clear()
    cold = one_pass(function, sample)
    return cold, one_pass(function, sample)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ours = evaluator(PYRAMID_RULES)
    pai_gow = evaluator(PAI_GOW_RULES)
    others = others_five()
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"sample: seed {args.seed}, {args.hands:,} hands of each kind, {args.rounds} rounds")
    print("clock: time.process_time (CPU seconds of this process); rates are per CPU second")

    five = [tuple(rng.sample(DECK, 5)) for _ in range(args.hands)]
    pairs = list(itertools.pairwise(five))
    contenders: dict[str, Contender] = {
        "ours, rank (suits only on ties)": (ours.rank, five),
        "ours, key with suits": (ours.key, five),
    }
    contenders.update({name: make(five) for name, make in others.items()})
    report("5-card hands, one deck", race(contenders, args.rounds))

    compare = ours.compare
    treys_pairs: dict[str, Contender] = {
        "ours, compare (rank, suits on ties)": (lambda p: compare(*p), pairs)
    }
    if "treys" in others:
        function, converted = others["treys"](five)
        treys_pairs["treys"] = (
            lambda p: function(p[0]) < function(p[1]),
            list(itertools.pairwise(converted)),
        )
    report(
        "pairs of 5-card hands compared (two evaluations and the test)",
        race(treys_pairs, args.rounds),
    )

    seven = [tuple(rng.sample(DECK, 7)) for _ in range(args.hands // 2)]
    best = pai_gow.best_rank
    contenders = {"ours, best five of seven, Pai Gow rules": (best, seven)}
    contenders.update({name: make(seven) for name, make in others.items()})
    rates = race(contenders, args.rounds)
    report("7-card hands, one deck: the best five (remembered per ranks when no flush)", rates)
    seven_joker = [tuple(rng.sample([*DECK, 0], 7)) for _ in range(args.hands // 10)]
    cold, warm = cold_warm(best, seven_joker, pai_gow.clear_cache)
    print(f"  ours, 53 cards (the bug), first pass / again:{cold:>12,.0f} / {warm:,.0f} /s")

    # The public object API on the same seven cards, as a library user calls it: Card objects
    # in, a HandValue (the five cards, the key with suits, the name) out.
    seven_cards = [tuple(card_from_code(code) for code in hand) for hand in seven]
    contenders = {"ours, best_five (a HandValue, Pyramid rules)": (best_five, seven_cards)}
    if "treys" in others:
        contenders["treys"] = others["treys"](seven)
    rates = race(contenders, args.rounds)
    report("7-card hands, one deck: the public best_five against treys", rates)
    # best_five remembers which places of the sorted cards to take per multiset of seven ranks:
    # new hands, once with that forgotten and once again, each pass followed by treys' on the
    # same hands (one pass each, so noisier than the race above).
    fresh = [tuple(rng.sample(DECK, 7)) for _ in range(args.hands // 10)]
    fresh_cards = [tuple(card_from_code(code) for code in hand) for hand in fresh]
    ours.clear_cache()
    for label in ("first pass", "again"):
        rate = one_pass(best_five, fresh_cards)
        line = f"  ours, {len(fresh):,} new hands, {label + ':':<11} {rate:>9,.0f} /s"
        if "treys" in others:
            theirs = one_pass(*others["treys"](fresh))
            line += f";  treys {theirs:>9,.0f} /s:  {rate / theirs:.2f}x treys"
        print(line)

    # Jokers: rank() reads them from the same lookups (nothing remembered, so cold = warm);
    # key() resolves them on the general path and remembers the keys.
    print("\nhands with jokers, three decks (rank: lookups; key: first pass / again)")
    n = args.hands // 10
    for jokers in (1, 2, 3, 4):
        sample = [joker_hand(rng, 5, jokers) for _ in range(n)]
        race_rates = race({"rank": (ours.rank, sample)}, 5)["rank"]
        cold, warm = cold_warm(ours.key, sample, ours.clear_cache)
        print(
            f"  5-card, {jokers} joker(s): rank {statistics.median(race_rates):>11,.0f} /s;"
            f" key {cold:>9,.0f} / {warm:>9,.0f} /s"
        )
    three = [tuple(rng.choices(DECK, k=3)) for _ in range(args.hands)]
    rates = race({"rank": (ours.rank, three), "key": (ours.key, three)}, 5)
    print(
        f"  3-card, three decks, no joker: rank {statistics.median(rates['rank']):>11,.0f} /s;"
        f" key {statistics.median(rates['key']):>9,.0f} /s"
    )
    three_jokers = [joker_hand(rng, 3, rng.randint(1, 2)) for _ in range(n)]
    cold, warm = cold_warm(ours.key, three_jokers, ours.clear_cache)
    rank_rate = statistics.median(race({"r": (ours.rank, three_jokers)}, 5)["r"])
    print(
        f"  3-card, 1-2 jokers: rank {rank_rate:>11,.0f} /s; key {cold:>9,.0f} / {warm:>9,.0f} /s"
    )

    def big_key(hand: Sequence[int]) -> object:
        try:
            return ours.key(hand)
        except HandError:
            return None

    for size in (6, 8, 10):
        sample = [big_hand(rng, size) for _ in range(n)]
        cold, warm = cold_warm(big_key, sample, ours.clear_cache)
        print(f"  {size}-card, 0-2 jokers, half hands: key {cold:>9,.0f} / {warm:>9,.0f} /s")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
