"""The prime-product lookups: the shipped files are what the rules build; ranks agree with keys."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from engine.evaluate import (
    HAND_RULES,
    PAI_GOW_RULES,
    PYRAMID_RULES,
    HandRules,
    WheelMode,
    evaluator,
)
from engine.lookups import SHIPPED, build_lookups, data_path, decode, encode, load_lookups

REAL = [rank * 4 + suit for rank in range(2, 15) for suit in range(4)]
RULES = sorted({*HAND_RULES.values(), replace(PYRAMID_RULES, wheel=WheelMode.LOW)}, key=repr)


def _rank_part(key: tuple[int, ...]) -> tuple[int, ...]:
    return key[: key.index(0, 1) + 1]


@pytest.mark.parametrize(
    # Each builds its lookups anew: the quick lane builds the pyramid games'.
    "rules",
    [
        rules if rules == PYRAMID_RULES else pytest.param(rules, marks=pytest.mark.slow)
        for rules in SHIPPED
    ],
    ids=lambda rules: data_path(rules).stem,
)
def test_the_shipped_lookups_are_what_the_rules_build(rules: HandRules) -> None:
    # Run `python -m engine.lookups` after changing how a hand reads: this fails until then.
    assert data_path(rules).is_file()
    assert load_lookups(rules) == build_lookups(rules)


@pytest.mark.parametrize(
    "rules",
    # Some 50,000 hands each: the quick lane reads them by the pyramid games' rules only.
    [
        rules if rules == PYRAMID_RULES else pytest.param(rules, marks=pytest.mark.slow)
        for rules in RULES
    ],
    ids=repr,
)
def test_rank_is_the_keys_rank_part_on_every_three_card_hand_and_random_five(
    rules: HandRules,
) -> None:
    keyer = evaluator(rules)
    shoe = REAL * 3 + [0] * 5
    hands = [list(h) for h in itertools.combinations_with_replacement([0, *REAL], 3)]
    rng = random.Random(7)
    hands += [rng.sample(shoe, 5) for _ in range(20_000)]
    hands += [[0] * j + rng.sample(REAL, 5 - j) for j in range(6) for _ in range(500)]
    for hand in hands:
        part = _rank_part(keyer.key(hand))
        assert keyer.rank(hand) == encode(part), hand
        assert keyer.rank_part(hand) == part


def test_rank_integers_order_as_the_rank_parts_do() -> None:
    keyer = evaluator(PYRAMID_RULES)
    rng = random.Random(3)
    parts = {
        _rank_part(keyer.key(rng.sample(REAL * 2 + [0, 0], size)))
        for size in (3, 5)
        for _ in range(3000)
    }
    parts |= {
        _rank_part(keyer.key([0] * 2 + [r * 4] * (size - 2)))
        for size in (6, 8, 10)
        for r in range(2, 15)
    }
    ordered = sorted(parts)
    assert [decode(encode(part)) for part in ordered] == ordered
    assert sorted(parts, key=encode) == ordered


@pytest.mark.parametrize("rules", [PYRAMID_RULES, PAI_GOW_RULES], ids=repr)
def test_compare_looks_at_suits_only_on_equal_ranks(rules: HandRules) -> None:
    keyer = evaluator(rules)
    rng = random.Random(5)
    for _ in range(5_000):
        size = rng.choice((3, 5))
        a, b = rng.sample(REAL * 2, size), rng.sample(REAL * 2, size)
        if rng.random() < 0.3:  # the same ranks, other suits: only suits can part them
            b = [(code & ~3) | rng.randrange(4) for code in a]
        ka, kb = keyer.key(a), keyer.key(b)
        if not rules.suits_break_ties:
            ka, kb = _rank_part(ka), _rank_part(kb)
        assert keyer.compare(a, b) == (ka > kb) - (ka < kb)


@pytest.mark.parametrize("rules", [PAI_GOW_RULES, PYRAMID_RULES], ids=repr)
def test_best_rank_is_the_best_five_of_six_or_seven(rules: HandRules) -> None:
    keyer = evaluator(rules)
    rng = random.Random(11)
    shoe = [*REAL, 0] if rules is PAI_GOW_RULES else REAL * 2 + [0, 0]
    # Flushes and straights more often than chance deals them.
    one_suit = [*(code for code in REAL if code & 3 == 2), 0]
    for _ in range(3_000):
        size = rng.choice((6, 7))
        hand = rng.sample(shoe if rng.random() < 0.7 else one_suit, size)
        expected = max(keyer.rank(five) for five in itertools.combinations(hand, 5))
        assert keyer.best_rank(hand) == expected, hand
