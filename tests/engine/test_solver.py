"""The solver: exact under its model, always legal, automatics when they pay, a safe CLI."""

from __future__ import annotations

import io
import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrangement import is_legal, is_legal_keys
from engine.cards import card_from_code, parse_cards
from engine.cli import main
from engine.errors import GameError
from engine.evaluate import evaluator
from engine.lookups import encode
from engine.simulate import simulate
from engine.solver import search as search_module
from engine.solver.big_hands import big_hands
from engine.solver.exhaustive import best_ev, best_ev_three_slots
from engine.solver.five_card import TWO_PAIR_UP, Part, five_card_hands
from engine.solver.jokers import joker_key, joker_rank_parts
from engine.solver.model import FieldModel, bootstrap_model, load_model, rank_part
from engine.solver.search import _Search, search
from engine.solver.solve import automatic_ev, solve
from engine.solver.train import shoe_codes
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, VARIANTS, Variant


def _deals(
    variant: Variant, size: int, count: int, seed: int, *, jokers: bool = True
) -> list[list[int]]:
    shoe = [c for c in shoe_codes(variant) if jokers or c]
    rng = random.Random(seed)
    return [rng.sample(shoe, size) for _ in range(count)]


def _assert_search_matches_exhaustive(variant: Variant, deals: list[list[int]]) -> None:
    model = load_model(variant)
    mismatches = []
    for held in deals:
        found = search(variant, model, held)
        reference = best_ev(variant, model, held)
        got = None if found is None else found.ev
        if (got is None) != (reference is None) or (
            got is not None and reference is not None and abs(got - reference) > 1e-9
        ):
            mismatches.append((held, got, reference))
    assert mismatches == []


@pytest.mark.slow
def test_casino_search_equals_exhaustive_maximum_on_200_deals() -> None:
    _assert_search_matches_exhaustive(CASINO, _deals(CASINO, 9, 200, seed=11))


@pytest.mark.slow
def test_thirteen_card_search_equals_exhaustive_maximum() -> None:
    # 13 cards in the 17-card game must all be used: front 3, middle 5, back 5. The full 200
    # deals run in benchmarks/check_solver.py; CI keeps 40 of them (0.3 s each).
    _assert_search_matches_exhaustive(NO_SURRENDER, _deals(NO_SURRENDER, 13, 40, seed=13))


def test_search_equals_exhaustive_under_a_bootstrap_model_too() -> None:
    # Exactness must not lean on the shape of the learned field.
    model = bootstrap_model(CASINO, random.Random(4), deals=50)
    for held in _deals(CASINO, 9, 60, seed=5):
        found = search(CASINO, model, held)
        assert found is not None
        assert found.ev == pytest.approx(best_ev(CASINO, model, held), abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "size", "count"),
    [(CASINO, 9, 300), (NO_SURRENDER, 17, 30), (STANDARD, 13, 30), (SHOWDOWN, 25, 3)],
)
def test_every_answer_is_legal(variant: Variant, size: int, count: int) -> None:
    # The 10,000-deal run per variant is benchmarks/check_solver.py; this is its CI sample.
    for held_codes in _deals(variant, size, count, seed=size):
        held = [card_from_code(code) for code in held_codes]
        solution = solve(variant, held, budget_s=0.5)
        assert is_legal(variant, solution.arrangement, held)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_casino_answer_is_a_legal_sub_multiset_of_the_deal(rng: random.Random) -> None:
    held = [card_from_code(code) for code in rng.sample(shoe_codes(CASINO), 9)]
    solution = solve(CASINO, held)
    assert is_legal(CASINO, solution.arrangement, held)
    used = sorted(card.code for card in solution.arrangement.used)
    assert used == sorted(card.code for card in held)


def test_value_is_bounded_by_the_cap_bound() -> None:
    model = load_model(NO_SURRENDER)
    for position in range(3):
        keys = model.fields[position].keys
        for cap in keys[:: max(1, len(keys) // 50)]:
            bound = model.bound(position, cap)
            for key in keys:
                if key <= cap:
                    assert model.value(position, key) <= bound + 1e-12


@pytest.mark.parametrize("variant", [NO_SURRENDER, SHOWDOWN])
def test_value_is_bounded_by_the_tighter_cap_bound(variant: Variant) -> None:
    model = load_model(variant)
    for position, field in enumerate(model.fields):
        keys = field.keys
        for cap in keys[:: max(1, len(keys) // 40)]:
            bound = model.bound_at(position, cap)
            assert bound <= model.bound(position, cap) + 1e-12
            for key in keys:
                if rank_part(key) <= rank_part(cap):
                    assert model.value(position, key) <= bound + 1e-12


def test_field_model_refuses_an_empty_position() -> None:
    with pytest.raises(ValueError):
        FieldModel(CASINO, [[(0, 14, 0, 3)], [], [(1, 2, 0, 0, 0)]])


def test_dragon_is_proposed_when_it_pays_more_than_the_best_arrangement() -> None:
    held = parse_cards("As Kd Qh Jc Ts 9d 8h 7c 6s 5d 4h 3c 2s")
    solution = solve(STANDARD, held)
    regular = search(STANDARD, load_model(STANDARD), [card.code for card in held])
    assert regular is not None
    if automatic_ev(STANDARD) > regular.ev:
        assert solution.automatic is not None and solution.automatic.value == "dragon"
        assert solution.ev == automatic_ev(STANDARD)
    else:
        assert solution.automatic is None
    assert is_legal(STANDARD, solution.arrangement, held)


def test_too_few_cards_is_a_sentence() -> None:
    with pytest.raises(GameError, match="at least 9"):
        solve(CASINO, parse_cards("As Kd"))


def _cli(*argv: str) -> tuple[int, dict[str, object]]:
    out = io.StringIO()
    status = main(["solve", *argv], stdout=out)
    return status, json.loads(out.getvalue())


def test_cli_solve_prints_hands_weakest_first_with_jokers() -> None:
    status, answer = _cli("--variant", "casino", "--cards", "W Ks Kd Qs Ac Ad Ah 2c 2d", "--json")
    assert status == 0
    assert set(answer) >= {"hands", "discards", "jokers", "automatic", "ev", "ms"}
    hands = answer["hands"]
    assert isinstance(hands, list) and [len(hand) for hand in hands] == [1, 3, 5]
    assert answer["automatic"] is None


@pytest.mark.parametrize(
    "argv",
    [
        ("--variant", "casino", "--cards", "As Kx"),
        ("--variant", "paigow", "--cards", "As Kd"),
        ("--variant", "casino", "--cards", "As Kd"),
    ],
)
def test_cli_solve_bad_input_is_a_json_sentence(argv: tuple[str, ...]) -> None:
    status, answer = _cli(*argv, "--json")
    assert status == 1
    assert isinstance(answer["error"], str) and answer["error"].endswith(".")


def test_every_pyramid_variant_has_a_field() -> None:
    for variant in VARIANTS.values():
        assert len(load_model(variant).fields) == len(variant.slots)


def test_casino_simulation_replays_for_a_seed() -> None:
    first = simulate("casino", hands=20, seed=3, workers=1)
    again = simulate("casino", hands=20, seed=3, workers=1)
    assert first == again
    assert [stats.wager for stats in first.wagers] == ["points", "chips"]


def test_a_spent_budget_still_returns_a_legal_setting() -> None:
    held = [card_from_code(code) for code in _deals(SHOWDOWN, 25, 1, seed=9)[0]]
    solution = solve(SHOWDOWN, held, budget_s=0.0)
    assert is_legal(SHOWDOWN, solution.arrangement, held)
    assert not solution.exact


@pytest.mark.parametrize("variant", [SHOWDOWN, NO_SURRENDER])
def test_joker_fast_path_gives_the_evaluators_key(variant: Variant) -> None:
    # Every 3-card hand with 1-3 jokers, and random 5-card hands with 1-5 jokers.
    keyer = evaluator(variant.hand_rules)
    real = [rank * 4 + suit for rank in range(2, 15) for suit in range(4)]
    hands = [
        [0] * jokers + list(rest)
        for jokers in (1, 2, 3)
        for rest in itertools.combinations_with_replacement(real, 3 - jokers)
    ]
    rng = random.Random(21)
    for _ in range(3000):
        jokers = rng.randint(1, 5)
        hands.append([0] * jokers + rng.sample(real * 3, 5 - jokers))
    wrong = [hand for hand in hands if joker_key(keyer, hand) != keyer.key(hand)]
    assert wrong == []
    # The rank part remembered per jokers, real ranks and suit: the evaluator's on every hand.
    part = joker_rank_parts(keyer)
    wrong = [hand for hand in hands if part(tuple(sorted(hand))) != rank_part(keyer.key(hand))]
    assert wrong == []


@pytest.mark.slow
def test_three_slot_reference_equals_the_slow_reference() -> None:
    # best_ev_three_slots runs the 200 seventeen-card deals of benchmarks/check_solver.py;
    # it must give the slow reference's maximum wherever both run quickly.
    for variant, size, count in ((CASINO, 9, 60), (NO_SURRENDER, 13, 4)):
        model = load_model(variant)
        for held in _deals(variant, size, count, seed=17):
            fast = best_ev_three_slots(variant, model, held)
            slow = best_ev(variant, model, held)
            assert (fast is None) == (slow is None)
            if fast is not None and slow is not None:
                assert fast == pytest.approx(slow, abs=1e-9)


def _random_legal(variant: Variant, held: list[int], rng: random.Random) -> list[tuple[int, ...]]:
    keyer = evaluator(variant.hand_rules)
    sizes = [min(slot.allowed_sizes) for slot in variant.slots]
    cards = list(held)
    for _ in range(5000):
        rng.shuffle(cards)
        hands, start = [], 0
        for size in sizes:
            hands.append(tuple(sorted(cards[start : start + size])))
            start += size
        if is_legal_keys(variant, sizes, [keyer.key(hand) for hand in hands]):
            return hands
    raise AssertionError("no legal random split found")


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "size"), [(SHOWDOWN, 25), (NO_SURRENDER, 17), (CASINO, 9)])
def test_card_bound_is_above_every_legal_completion(variant: Variant, size: int) -> None:
    # The search is exact only if, at every node, the card-aware bound of the slots still to
    # fill is at least what any legal completion scores there: check it along the solver's own
    # answers and along random legal arrangements (Showdown has no exhaustive reference).
    model = load_model(variant)
    keyer = evaluator(variant.hand_rules)
    rng = random.Random(size)
    for held in _deals(variant, size, 6, seed=23):
        found = search(variant, model, held, budget_s=0.1)
        assert found is not None
        for hands in (list(found.hands), _random_legal(variant, held, rng)):
            state = _Search(variant, model, tuple(sorted(held)), float("inf"))
            keys = [keyer.key(hand) for hand in hands]
            values = [model.value(p, key) for p, key in enumerate(keys)]
            left, cap = state.held_packed, None
            for position in range(len(hands) - 1, -1, -1):
                if position:
                    bound = state.card_bound(
                        position, left, None if cap is None else encode(rank_part(cap))
                    )
                    assert bound is not None
                    assert sum(values[: position + 1]) <= bound[1][position] + 1e-9
                left -= sum(state.by_code[code] for code in hands[position])
                cap = keys[position]


def _every_combination_big_hands(
    variant: Variant, held: list[int], size: int
) -> set[tuple[int, ...]]:
    """Every 6-10-card hand among all combinations of one rank's or one suit's cards and jokers."""
    keyer = evaluator(variant.hand_rules)
    jokers = [c for c in held if c == 0]
    real = [c for c in held if c]
    groups = [[c for c in real if c >> 2 == rank] for rank in range(2, 15)]
    groups += [[c for c in real if c & 3 == suit] for suit in range(4)]
    found = set()
    for group in groups:
        for combo in itertools.combinations(sorted(jokers + group), size):
            try:
                keyer.key(combo)
            except GameError:
                continue
            found.add(combo)
    return found


@pytest.mark.parametrize(("variant", "size", "jokers"), [(NO_SURRENDER, 17, 2), (SHOWDOWN, 25, 4)])
def test_big_hands_are_every_six_to_ten_card_hand_of_the_holding(
    variant: Variant, size: int, jokers: int
) -> None:
    rng = random.Random(31)
    real = [c for c in shoe_codes(variant) if c]
    holdings = [rng.sample(real, size) for _ in range(6)]
    # One or two suits and a few ranks: the holdings with the most such hands.
    holdings += [[0] * jokers + rng.sample([c for c in real if c & 3 == 3], 12)]
    holdings += [[0] * jokers + rng.sample([c for c in real if c >> 2 in (14, 13, 5)], 12)]
    holdings += [[0] * jokers + [c for c in real if c >> 2 in (9, 8, 7, 6) and c & 3 >= 2][:14]]
    keyer = evaluator(variant.hand_rules)
    for held in holdings:
        for n in range(6, 11):
            built = big_hands(keyer, held, n)
            assert len({hand for hand, _ in built}) == len(built)
            assert {hand for hand, _ in built} == _every_combination_big_hands(variant, held, n)
            assert all(key == keyer.key(hand) for hand, key in built)


def _five_card_hands_of(held: tuple[int, ...], part: Part) -> dict[tuple[int, ...], int]:
    """Every 5-card hand of ``part`` made from ``held``, with its rank part."""
    lookups = evaluator(SHOWDOWN.hand_rules).lookups
    by_code = [1 << 4 * code for code in range(64)]
    pool = five_card_hands(held, by_code, lookups.plain5, lookups.flush5, part)
    return {entry[0]: rp for rp, group in pool.items() for entry in group}


@pytest.mark.parametrize(("size", "jokers"), [(9, 2), (17, 2), (25, 4)])
def test_five_card_hands_from_two_pair_up_and_below_are_every_hand_once(
    size: int, jokers: int
) -> None:
    # A big holding's search makes its high cards and pairs apart, and later: the two parts
    # must be every 5-card hand of the full list, each in the part its rank part says.
    real = [c for c in shoe_codes(SHOWDOWN) if c]
    rng = random.Random(size)
    for _ in range(3):
        held = tuple(sorted([0] * jokers + rng.sample(real, size - jokers)))
        every = _five_card_hands_of(held, Part.ALL)
        upper = _five_card_hands_of(held, Part.TWO_PAIR_UP)
        lower = _five_card_hands_of(held, Part.BELOW_TWO_PAIR)
        assert len(every) == len(set(itertools.combinations(held, 5)))
        assert upper.keys() | lower.keys() == every.keys()
        assert not upper.keys() & lower.keys()
        assert all(rp >= TWO_PAIR_UP for rp in upper.values())
        assert all(rp < TWO_PAIR_UP for rp in lower.values())


@pytest.mark.parametrize("count", [pytest.param(40, marks=pytest.mark.slow), 8])
def test_search_with_high_cards_and_pairs_made_later_equals_exhaustive(
    monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    # Only big holdings (Showdown's) make them later; from 13 cards, where the middle and the
    # back often must be a pair or a high card, every such node is searched again.
    monkeypatch.setattr(search_module, "WEAK_LATER_FROM", 0)
    _assert_search_matches_exhaustive(NO_SURRENDER, _deals(NO_SURRENDER, 13, count, seed=13))


@pytest.mark.slow
def test_showdown_search_with_high_cards_and_pairs_made_later_gives_the_same_ev(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = load_model(SHOWDOWN)
    for held in _deals(SHOWDOWN, 25, 4, seed=41):
        later = search(SHOWDOWN, model, held)
        monkeypatch.setattr(search_module, "WEAK_LATER_FROM", 99)
        first = search(SHOWDOWN, model, held)
        monkeypatch.undo()
        assert later is not None and first is not None
        assert later.ev == pytest.approx(first.ev, abs=1e-9)
