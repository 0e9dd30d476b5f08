"""Jokers against a brute-force reference: substitute cards for every joker, keep the best.

The reference tries every one of the 52 cards for each joker (as multisets: jokers are
interchangeable) and evaluates the joker-free result, which the golden tests pin against treys.
For hands of 6 to 10 cards it tries only substitutions that leave every card of one rank or every
card of one suit (so only when the real cards already share that rank or suit), because by
definition nothing else is a hand of that size (RULINGS §2, §4).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Rank, Suit
from engine.errors import HandError
from engine.evaluate import PYRAMID_RULES, SEVENTEEN_CARD_RULES, HandRules, evaluator

DECK = tuple(rank * 4 + suit for rank in Rank for suit in Suit)
SEEDED = settings(
    derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def brute_force_key(codes: Sequence[int], rules: HandRules) -> tuple[int, ...] | None:
    """The best key over substitutions, or None if no substitution is a hand."""
    real = tuple(c for c in codes if c)
    jokers = len(codes) - len(real)
    key = evaluator(rules).key
    if len(codes) >= 6:
        pools = [[r * 4 + s for s in Suit] for r in Rank] + [
            [r * 4 + s for r in Rank] for s in Suit
        ]
        candidates = itertools.chain.from_iterable(
            itertools.combinations_with_replacement(pool, jokers) for pool in pools
        )
    else:
        candidates = itertools.combinations_with_replacement(DECK, jokers)
    best: tuple[int, ...] | None = None
    for substitute in candidates:
        try:
            found = key(real + substitute)
        except HandError:
            continue
        if best is None or found > best:
            best = found
    return best


def fast_key(codes: Sequence[int], rules: HandRules) -> tuple[int, ...] | None:
    try:
        return evaluator(rules).key(tuple(codes))
    except HandError:
        return None


def random_hand(
    rng: random.Random, sizes: Sequence[int], jokers: Sequence[int], decks: int = 3
) -> tuple[int, ...]:
    """A multi-deck hand, often near a structure so that big hands are sometimes hands."""
    size = rng.choice(sizes)
    wild = min(rng.choice(jokers), size)
    count = size - wild
    mode = rng.choice(["random", "rank", "run", "suit"])
    if mode == "rank":
        rank = rng.choice(list(Rank))
        real = [rank * 4 + rng.choice(list(Suit)) for _ in range(count)]
    elif mode == "run":
        suit = rng.choice(list(Suit))
        top = rng.randint(size, 14)  # size itself stands for the ace-low run
        window = [14, *range(2, size + 1)] if top == size else list(range(top - size + 1, top + 1))
        real = [r * 4 + suit for r in rng.sample(window, count)]
    elif mode == "suit":
        suit = rng.choice(list(Suit))
        real = [rng.choice(list(Rank)) * 4 + suit for _ in range(count)]
    else:
        real = [rng.choice(DECK) for _ in range(count)]
    if count and rng.randrange(6) == 0:
        real[0] = rng.choice(DECK)  # one stray card
    for code in set(real):  # no more copies of a card than the shoe holds
        while real.count(code) > decks:
            real.remove(code)
            real.append(next(c for c in DECK if real.count(c) < decks))
    return (*real, *(0,) * wild)


#: Each example checks a batch of hands drawn from its seed: hypothesis picks the seeds.
BATCH = 20


def check_batch(
    name: str,
    seed: int,
    sizes: Sequence[int],
    jokers: Sequence[int],
    rules: HandRules,
    decks: int = 3,
) -> None:
    rng = random.Random(seed)
    for _ in range(BATCH):
        codes = random_hand(rng, sizes, jokers, decks)
        assert fast_key(codes, rules) == brute_force_key(codes, rules), codes


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.slow
@settings(SEEDED, max_examples=650)
@given(SEEDS)
def test_one_joker_in_three_and_five_card_hands(seed: int) -> None:
    check_batch("one", seed, [3, 5], [1], PYRAMID_RULES)


@pytest.mark.slow
@settings(SEEDED, max_examples=150)
@given(SEEDS)
def test_two_jokers_in_three_and_five_card_hands(seed: int) -> None:
    check_batch("two", seed, [3, 5], [2], PYRAMID_RULES)


@settings(SEEDED, max_examples=25)
@given(SEEDS)
def test_jokers_without_three_card_runs(seed: int) -> None:
    """The 17-card game's front: jokers make pairs and trips only."""
    check_batch("seventeen", seed, [3, 5], [1, 2], SEVENTEEN_CARD_RULES, decks=2)


@pytest.mark.slow
@settings(SEEDED, max_examples=15)
@given(SEEDS)
def test_three_jokers_in_three_and_five_card_hands(seed: int) -> None:
    check_batch("three", seed, [3, 5], [3], PYRAMID_RULES)


@pytest.mark.slow
@settings(SEEDED, max_examples=1)
@given(SEEDS)
def test_four_jokers_in_a_five_card_hand(seed: int) -> None:
    check_batch("four", seed, [5], [4], PYRAMID_RULES)


@pytest.mark.slow
@settings(SEEDED, max_examples=150)
@given(SEEDS)
def test_one_to_three_jokers_in_six_to_ten_card_hands(seed: int) -> None:
    check_batch("big", seed, [6, 7, 8, 9, 10], [1, 2, 3], PYRAMID_RULES)


@pytest.mark.slow
@settings(SEEDED, max_examples=15)
@given(SEEDS)
def test_four_jokers_in_six_to_ten_card_hands(seed: int) -> None:
    check_batch("big four", seed, [6, 7, 8, 9, 10], [4], PYRAMID_RULES)


def test_at_least_twenty_thousand_joker_hands_are_checked() -> None:
    """The acceptance floor: examples times the batch size of every test above."""
    tests = [
        f for name, f in globals().items() if name.startswith("test_") and "twenty" not in name
    ]
    examples = sum(f._hypothesis_internal_use_settings.max_examples for f in tests)
    assert examples * BATCH >= 20_000
