"""Golden ordering: every single-deck 5-card hand against treys, and every 3-card hand counted."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import Rank, Suit
from engine.evaluate import (
    PYRAMID_RULES,
    SEVENTEEN_CARD_RULES,
    Category,
    WheelMode,
    category_of_ladder,
    evaluator,
)

DECK = [rank * 4 + suit for rank in Rank for suit in Suit]


def _treys_code(code: int) -> int:
    return int(TreysCard.new(Rank(code >> 2).letter + Suit(code & 3).letter))


def _rank_part(key: tuple[int, ...]) -> tuple[int, ...]:
    return key[: key.index(0, 1)]


def _is_wheel(key: tuple[int, ...]) -> bool:
    category = category_of_ladder(key[0])
    runs = (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
    return category in runs and key[1] == 14


@pytest.mark.slow
def test_every_five_card_hand_orders_like_treys_wheels_aside() -> None:
    """Where treys says stronger we say stronger; where treys ties only suits separate us."""
    ours = evaluator(PYRAMID_RULES).key
    rank = evaluator(PYRAMID_RULES).rank
    theirs = TreysEvaluator()._five
    treys_codes = {code: _treys_code(code) for code in DECK}
    classes: dict[int, tuple[int, ...]] = {}
    #: The lookups' rank integer of each treys class: one per class, ordered as the classes.
    ranks: dict[int, int] = {}
    hands = 0
    for hand in itertools.combinations(DECK, 5):
        hands += 1
        key = ours(hand)
        if _is_wheel(key):
            continue
        strength = theirs([treys_codes[c] for c in hand])
        part = _rank_part(key)
        seen = classes.setdefault(strength, part)
        assert seen == part, (hand, seen, part)
        value = rank(hand)
        assert ranks.setdefault(strength, value) == value, (hand, ranks[strength], value)
    assert hands == 2_598_960
    ordered = [classes[strength] for strength in sorted(classes)]  # treys: 1 is the best
    assert len(ordered) == 7462 - 2  # the wheel and the steel wheel are tested on their own
    for stronger, weaker in itertools.pairwise(ordered):
        assert stronger > weaker, (stronger, weaker)
    by_rank = [ranks[strength] for strength in sorted(ranks)]
    for stronger, weaker in itertools.pairwise(by_rank):
        assert stronger > weaker, (stronger, weaker)


def test_every_wheel_is_second_highest_by_rank_as_by_key() -> None:
    """RULINGS §1.3: A-2-3-4-5 below the ace-high run and above the king-high one."""
    keyer = evaluator(PYRAMID_RULES)
    for suits in ([3] * 5, [3, 2, 1, 0, 3]):
        ace, wheel, king = (
            [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
            for ranks in ([14, 13, 12, 11, 10], [14, 5, 4, 3, 2], [13, 12, 11, 10, 9])
        )
        assert keyer.rank(ace) > keyer.rank(wheel) > keyer.rank(king)
        assert keyer.key(ace) > keyer.key(wheel) > keyer.key(king)


@pytest.mark.slow
def test_california_wheel_orders_every_run_like_treys() -> None:
    """With the wheel lowest (California) the whole treys order holds, wheels included."""
    from dataclasses import replace

    ours = evaluator(replace(PYRAMID_RULES, wheel=WheelMode.LOW)).key
    theirs = TreysEvaluator()._five
    treys_codes = {code: _treys_code(code) for code in DECK}
    classes: dict[int, tuple[int, ...]] = {}
    for hand in itertools.combinations(DECK, 5):
        if len({c >> 2 for c in hand}) < 5:
            continue  # pairs and better are covered above; this pass is about runs and highs
        strength = theirs([treys_codes[c] for c in hand])
        classes.setdefault(strength, _rank_part(ours(hand)))
    ordered = [classes[strength] for strength in sorted(classes)]
    for stronger, weaker in itertools.pairwise(ordered):
        assert stronger > weaker


def _count_three_card_categories(*, runs: bool) -> Counter[str]:
    """Independent count: by combinatorics, not by the evaluator."""
    trips = 13 * 4  # C(4,3) per rank
    pairs = 13 * 6 * 48  # a rank, two of its suits, and any card of another rank
    if not runs:
        return Counter(
            {"three_of_a_kind": trips, "pair": pairs, "high_card": 22100 - trips - pairs}
        )
    windows = 12  # A-2-3 up to Q-K-A
    straight_flushes = windows * 4
    straights = windows * 4**3 - straight_flushes
    flushes = 4 * 286 - straight_flushes  # C(13,3) rank sets per suit
    high = 22100 - trips - pairs - straight_flushes - straights - flushes
    return Counter(
        {
            "three_of_a_kind": trips,
            "three_card_straight_flush": straight_flushes,
            "three_card_flush": flushes,
            "three_card_straight": straights,
            "pair": pairs,
            "high_card": high,
        }
    )


def _evaluated_three_card_categories(rules_runs: bool) -> Counter[str]:
    rules = PYRAMID_RULES if rules_runs else SEVENTEEN_CARD_RULES
    key = evaluator(rules).key
    return Counter(category_of_ladder(key(h)[0]).value for h in itertools.combinations(DECK, 3))


def test_all_22100_three_card_hands_with_three_card_runs() -> None:
    """Showdown and Casino Version: 3-card straights and flushes exist (seed 000)."""
    assert _evaluated_three_card_categories(True) == _count_three_card_categories(runs=True)


def test_all_22100_three_card_hands_without_runs() -> None:
    """Seed 001: a 3-card front is high card, pair or trips only."""
    assert _evaluated_three_card_categories(False) == _count_three_card_categories(runs=False)
