"""The bounded memories of the evaluator and the solver: full, they forget what was not used
lately, not everything, so a working set up to their limit stays warm."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import evaluate
from engine.cards import JOKER_CODE
from engine.evaluate import PYRAMID_RULES, Evaluator
from engine.memo import Memo
from engine.solver import jokers


def test_a_full_memo_keeps_what_was_used_lately_and_forgets_the_rest() -> None:
    memo: Memo[int, str] = Memo(4)
    for key in range(4):
        memo.put(key, f"v{key}")
    memo.put(4, "v4")  # full: the four become the old generation
    assert memo.get(0) == "v0"  # used again: back into the young one
    for key in range(5, 8):
        memo.put(key, f"v{key}")
    memo.put(8, "v8")  # full again: 1, 2 and 3, unused since, are forgotten
    assert [key for key in range(9) if key in memo] == [0, 4, 5, 6, 7, 8]
    assert memo.get(0) == "v0" and memo.get(1) is None
    assert len(memo) <= 2 * memo.limit


def test_a_working_set_at_the_limit_is_all_found_on_every_later_pass() -> None:
    memo: Memo[int, int] = Memo(100)
    computed = 0
    for _ in range(5):
        for key in range(100):
            if memo.get(key) is None:
                computed += 1
                memo.put(key, key * key)
    assert computed == 100  # the first pass only (a cleared dict recomputed on every pass)
    with pytest.raises(ValueError, match="at least 1"):
        Memo(0)


def _joker_hands(count: int) -> list[tuple[int, ...]]:
    """Distinct five-card hands with one joker, sorted as the solver gives them."""
    cards = range(4, 56)  # two through ace, four suits
    hands = (tuple(sorted((JOKER_CODE, *four))) for four in itertools.combinations(cards, 4))
    return list(itertools.islice(hands, 0, 40 * count, 40))[:count]


def test_the_evaluators_joker_keys_stay_remembered_past_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(evaluate, "_CACHE_LIMIT", 50)
    keyer = Evaluator(PYRAMID_RULES)
    hands = _joker_hands(80)  # above the limit, within twice it
    made = 0
    original = evaluate.resolve

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal made
        made += 1
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(evaluate, "resolve", counting)
    first = [keyer.key(hand) for hand in hands]
    made_first = made
    # The most recent 50 stay however often they are asked for; the rest were forgotten once.
    recent = hands[-50:]
    for _ in range(3):
        assert [keyer.key(hand) for hand in recent] == first[-50:]
    assert made == made_first == 80


def test_the_solvers_joker_keys_are_remembered_past_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jokers, "_MEMO", Memo(50))
    keyer = Evaluator(PYRAMID_RULES)
    hands = _joker_hands(60)
    random.Random(1).shuffle(hands)
    keys = [jokers.joker_key(keyer, hand) for hand in hands]
    assert len(jokers._MEMO) == 60
    # A key found again is the same key, from memory.
    assert [jokers.joker_key(keyer, hand) for hand in hands[-50:]] == keys[-50:]
    assert all((PYRAMID_RULES, hand) in jokers._MEMO for hand in hands[-50:])
