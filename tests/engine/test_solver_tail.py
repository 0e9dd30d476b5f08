"""The solver's tail: the tests before a hand becomes a node and the material's shared jokers
and disjoint runs leave every proven optimum as it was (issue 25, item 5).

Each mechanism is switched back to what the search did before it (the next slot's rank-only
bound with every slot under it at that cap; every joker counted in every suit and rank group; a
suit's straight flushes counted by fives of its cards) and the proven values compared on seeded
holdings: Showdown holdings with 0-4 jokers and with one joker and a long suit (the family whose
proofs were slowest), and 17-card ones.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import pytest

from engine.arrangement import is_legal_keys
from engine.cards import JOKER_CODE
from engine.evaluate import evaluator
from engine.lookups import encode
from engine.solver import search as search_module
from engine.solver.model import load_model, rank_part
from engine.solver.search import _Search, search
from engine.solver.train import shoe_codes
from engine.variants import NO_SURRENDER, SHOWDOWN, Variant


def _random(variant: Variant, count: int, seed: int) -> list[list[int]]:
    """Holdings of the variant's full size, 0 to the shoe's jokers in turn."""
    rng = random.Random(seed)
    real = [c for c in shoe_codes(variant) if c]
    return [
        [JOKER_CODE] * (i % (variant.jokers + 1))
        + rng.sample(real, variant.max_held - i % (variant.jokers + 1))
        for i in range(count)
    ]


def _long_suit(count: int, seed: int) -> list[list[int]]:
    """Showdown holdings of one joker and 8-10 cards of one suit, the rest of other suits."""
    rng = random.Random(seed)
    real = [c for c in shoe_codes(SHOWDOWN) if c]
    out = []
    for i in range(count):
        suit, length = rng.randrange(4), 8 + i % 3
        suited = rng.sample([c for c in real if c & 3 == suit], length)
        others = rng.sample([c for c in real if c & 3 != suit], 24 - length)
        out.append([JOKER_CODE, *suited, *others])
    return out


def _next_slot_only(self: _Search, position: int, ranks: int, cap: int, caps: object) -> float:
    """The test before this issue: the next slot's strongest rank part by ranks alone, with
    every slot under it at that rank part (not at its own cap too)."""
    after = self.fit_ranks(position, ranks & 31, ranks, cap)
    if after is None:
        return search_module._NONE
    if after == search_module._NOT_KNOWN:
        return search_module._UNKNOWN
    return self.bound(position, after) + self.below_sum(position, after)


def _every_joker_in_every_suit(per_suit: tuple[tuple[int, ...], ...]) -> int:
    """Straight-flush groups as before this issue: each suit counted with every joker."""
    return sum(min(sum(g[b] for g in per_suit), 7) << 3 * b for b in range(len(per_suit[0])))


def _every_joker_in_every_group(
    ranks: tuple[int, ...], jokers: int, runs: int, big_tail: int
) -> tuple[int, int, int, int]:
    """Rank groups and straight flushes as before this issue, each with every joker."""
    flushes = search_module._run_count(runs, jokers)
    groups = search_module._groups
    return (
        groups(ranks, 3, jokers) + min(flushes, big_tail),
        groups(ranks, 4, jokers) + flushes,
        groups(ranks, 5, jokers) + flushes,
        groups(ranks, 6, jokers) + flushes,
    )


def _loose_material(
    ranks: tuple[int, ...], suits: tuple[int, ...], jokers: int, runs: int, big_tail: int
) -> tuple[int, int, int, int, int]:
    trips, fours, fives, sixes = _every_joker_in_every_group(ranks, jokers, runs, big_tail)
    groups = search_module._groups
    flushes = min(search_module._run_count(runs, jokers), big_tail)
    suited = flushes + max(
        groups(ranks, 3, used) + groups(suits, 3, jokers - used) for used in range(jokers + 1)
    )
    return trips, suited, fours, fives, sixes


def _proven(variant: Variant, holdings: Sequence[Sequence[int]]) -> tuple[list[float], int]:
    """The proven value of each holding, and the nodes of all their searches."""
    model = load_model(variant)
    values, nodes = [], 0
    for held in holdings:
        found = search(variant, model, held)
        assert found is not None and found.exact
        values.append(found.ev)
        nodes += found.nodes
    return values, nodes


SHOWDOWN_HOLDINGS = _random(SHOWDOWN, 4, seed=51) + _long_suit(1, seed=52)
#: The quick lane's: no joker, one joker, and the long suit, on which each mechanism saves nodes;
#: the two-joker and three-joker holdings, whose searches before are the slowest, go with the rest.
FAST_SHOWDOWN = [*SHOWDOWN_HOLDINGS[:2], SHOWDOWN_HOLDINGS[4]]
SLOW_SHOWDOWN = SHOWDOWN_HOLDINGS[2:4] + _random(SHOWDOWN, 20, seed=53) + _long_suit(10, seed=54)
SEVENTEEN = _random(NO_SURRENDER, 12, seed=55)


def _no_chain(self: _Search, position: int, ranks: int, cap: int, runs: int) -> float:
    return search_module._UNKNOWN


def _switch_off_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_Search, "next_slot_bound", _next_slot_only)
    monkeypatch.setattr(_Search, "chain_bound", _no_chain)


def _runs_by_fives(counts: tuple[int, ...], jokers: int, first: int = 0) -> int:
    """A suit's straight flushes as before: its cards and jokers by fives, once one run fits."""
    cards = sum(counts) + jokers
    fits = any(
        sum(1 for rank in run if not counts[rank - 2]) <= jokers for run in search_module._STRAIGHTS
    )
    return cards // 5 if fits else 0


def _switch_off_disjoint_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "_disjoint_runs", _runs_by_fives)


def _switch_off_shared_jokers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "_joint_runs", _every_joker_in_every_suit)
    monkeypatch.setattr(search_module, "_rank_material", _every_joker_in_every_group)
    monkeypatch.setattr(search_module, "_material", _loose_material)


@pytest.mark.parametrize(
    "switch_off", [_switch_off_chain, _switch_off_shared_jokers, _switch_off_disjoint_runs]
)
@pytest.mark.parametrize(
    ("variant", "holdings"),
    [
        (SHOWDOWN, FAST_SHOWDOWN),
        pytest.param(SHOWDOWN, SLOW_SHOWDOWN, marks=pytest.mark.slow),
        (NO_SURRENDER, SEVENTEEN),
    ],
)
def test_the_tighter_bounds_prove_the_same_values_as_before(
    monkeypatch: pytest.MonkeyPatch,
    switch_off: Callable[[pytest.MonkeyPatch], None],
    variant: Variant,
    holdings: list[list[int]],
) -> None:
    tighter, nodes = _proven(variant, holdings)
    switch_off(monkeypatch)
    before, nodes_before = _proven(variant, holdings)
    monkeypatch.undo()
    assert tighter == pytest.approx(before, abs=1e-9)
    # Each mechanism is at work on Showdown's holdings (a few 17-card ones may not need it).
    assert nodes < nodes_before if variant is SHOWDOWN else nodes <= nodes_before


def test_shared_jokers_count_one_straight_flush_where_each_suit_needs_the_one_joker() -> None:
    # Two suits each one joker short of a run: with one joker, one straight flush, not two.
    short_of_one = (0, 1)
    runs = search_module._joint_runs((short_of_one, short_of_one))
    assert [search_module._run_count(runs, jokers) for jokers in range(2)] == [0, 1]
    both = search_module._joint_runs(((0, 1, 1), (0, 1, 1)))
    assert [search_module._run_count(both, jokers) for jokers in range(3)] == [0, 1, 2]


def _runs_by_every_choice(counts: list[int], jokers: int) -> int:
    """The most disjoint 5-card runs, by trying every multiset of runs."""
    most = 0
    for count in range(1, 6):
        fits = False
        for runs in itertools.combinations_with_replacement(search_module._STRAIGHTS, count):
            needed: dict[int, int] = {}
            for run in runs:
                for rank in run:
                    needed[rank] = needed.get(rank, 0) + 1
            if sum(max(0, n - counts[rank - 2]) for rank, n in needed.items()) <= jokers:
                fits = True
                break
        if not fits:
            break
        most = count
    return most


def test_a_suits_straight_flushes_are_its_most_disjoint_runs() -> None:
    # Twelve hearts holding one run (2-7 with the ace) and 9 T Q K A: one group, not two.
    hearts = [1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 2]
    assert search_module._disjoint_runs(tuple(hearts), 0) == 1
    assert search_module._disjoint_runs(tuple(hearts), 1) == 2
    rng = random.Random(59)
    for _ in range(300):
        counts = [0] * 13
        for _ in range(rng.randint(0, 14)):
            rank = rng.randrange(13)
            counts[rank] = min(3, counts[rank] + 1)
        jokers = rng.randint(0, 4)
        assert search_module._disjoint_runs(tuple(counts), jokers) == _runs_by_every_choice(
            counts, jokers
        )


def _random_legal(variant: Variant, held: list[int], rng: random.Random) -> list[tuple[int, ...]]:
    keyer = evaluator(variant.hand_rules)
    sizes = [min(slot.allowed_sizes) for slot in variant.slots]
    for _ in range(20_000):
        cards = rng.sample(held, sum(sizes))
        hands, start = [], 0
        for size in sizes:
            hands.append(tuple(sorted(cards[start : start + size])))
            start += size
        if is_legal_keys(variant, sizes, [keyer.key(hand) for hand in hands]):
            return hands
    raise AssertionError("no legal random split found")


@pytest.mark.parametrize(
    ("variant", "holdings"),
    [(SHOWDOWN, SHOWDOWN_HOLDINGS), (NO_SURRENDER, SEVENTEEN[:6])],
)
def test_the_tests_before_a_node_are_above_every_legal_completion_below_its_hand(
    variant: Variant, holdings: list[list[int]]
) -> None:
    # The tests before a hand becomes a node drop it only if the slots under it cannot beat the
    # best found: check their bounds against the slots under each hand of the solver's own
    # answers and of random legal arrangements (the chain with the straight flushes of the
    # cards before the hand and after it; the next slot with the caps of the node above).
    model = load_model(variant)
    keyer = evaluator(variant.hand_rules)
    rng = random.Random(57)
    for held in holdings:
        found = search(variant, model, held, budget_s=0.1)
        assert found is not None
        for hands in (list(found.hands), _random_legal(variant, held, rng)):
            state = _Search(variant, model, tuple(sorted(held)), float("inf"))
            keys = [keyer.key(hand) for hand in hands]
            values = [model.value(p, key) for p, key in enumerate(keys)]
            left, ranks, above = state.held_packed, state.held_ranks, None
            for position in range(len(hands) - 1, 0, -1):
                runs = state.runs_left(left, ranks)
                node = state.card_bound(position, left, above)
                assert node is not None
                left -= sum(state.by_code[code] for code in hands[position])
                ranks = state.ranks_left(left)
                above = encode(rank_part(keys[position]))
                under = sum(values[:position])
                assert under <= state.next_slot_bound(position - 1, ranks, above, node[0]) + 1e-9
                for counted in (runs, state.runs_left(left, ranks)):
                    assert under <= state.chain_bound(position - 1, ranks, above, counted) + 1e-9
