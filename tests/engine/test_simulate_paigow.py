"""The simulator's arrays equal the bot's rules hand by hand: house way, lookups, deals."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from engine.evaluate import PAI_GOW_RULES, PYRAMID_RULES, HandRules, WheelMode, evaluator
from engine.lookups import encode
from engine.paigow import DECK_CODES, PaiGowVariant, Role, low_key_codes
from engine.paigow_house_way import _group, house_way_codes
from engine.simulate_arrays import NETWORKS, Classes, FiveCards, sort_columns
from engine.simulate_house import deal_pai_gow, deal_three_card, generator
from engine.simulate_paigow import PaiGowArrays

#: Every shape seven Pai Gow cards can take (the joker grouped with the aces).
SHAPES = {
    (1, 1, 1, 1, 1, 1, 1),
    (2, 1, 1, 1, 1, 1),
    (2, 2, 1, 1, 1),
    (2, 2, 2, 1),
    (3, 1, 1, 1, 1),
    (3, 2, 1, 1),
    (3, 2, 2),
    (3, 3, 1),
    (4, 1, 1, 1),
    (4, 2, 1),
    (4, 3),
    (5, 1, 1),
    (5, 2),
}


def crowded_hand(rng: random.Random) -> list[int]:
    """Seven cards of a narrow deck: few ranks, few suits or a window of ranks, and the joker.

    Dealt from a full deck, four of a kind, five aces, flushes with pairs and long straights
    are rare; from these decks every shape and every straight-or-flush rule comes often.
    """
    kind = rng.randrange(4)
    suits: list[int] = list(range(4))
    if kind == 0:  # few ranks: four of a kind, five aces, full houses
        ranks = [*rng.sample(range(2, 15), rng.randint(2, 4)), 14]
    elif kind == 1:  # one or two suits: flushes, often with pairs
        ranks = list(range(2, 15))
        suits = rng.sample(suits, rng.randint(1, 2))
    elif kind == 2:  # a window of ranks: straights, with pairs and flushes
        low = rng.randint(1, 10)
        ranks = [14 if r == 1 else r for r in range(low, min(15, low + rng.randint(5, 7)))]
        suits = rng.sample(suits, rng.randint(1, 4))
    else:
        ranks = rng.sample(range(2, 15), rng.randint(3, 7))
        suits = rng.sample(suits, rng.randint(1, 3))
    deck = [*sorted({rank * 4 + suit for rank in ranks for suit in suits}), 0]
    deck += [code for code in DECK_CODES if code not in deck][: max(0, 7 - len(deck))]
    return rng.sample(deck, 7)


def _sheet(hands: list[list[int]], role: Role, variant: PaiGowVariant) -> list[tuple[int, int]]:
    """What the bot's house way gives each hand: the high and low hands' rank integers."""
    rank = variant.keys.evaluator.rank
    found = []
    for codes in hands:
        high, low = house_way_codes(codes, role, variant.keys)
        found.append((rank(high), encode(low_key_codes(low))))
    return found


def _arrays(hands: list[list[int]], role: Role, variant: PaiGowVariant) -> list[tuple[int, int]]:
    banker = np.full(len(hands), role is Role.BANKER)
    high, low = PaiGowArrays(variant.keys).settings(np.array(hands, dtype=np.int64), banker)
    return list(zip(high.tolist(), low.tolist(), strict=True))


@pytest.mark.parametrize("wheel", [WheelMode.SECOND, WheelMode.LOW])
@pytest.mark.parametrize("role", [Role.PLAYER, Role.BANKER])
def test_house_way_over_arrays_sets_dealt_hands_as_the_sheet_does(
    wheel: WheelMode, role: Role
) -> None:
    variant = PaiGowVariant(wheel=wheel)
    hands = deal_pai_gow(generator(8, 0), 1_500).reshape(-1, 7).tolist()
    assert _arrays(hands, role, variant) == _sheet(hands, role, variant)


@pytest.mark.parametrize(
    # Every shape of hand each: the quick lane sets them the banker's way, the wheel second.
    ("role", "wheel"),
    [
        pytest.param(role, wheel, marks=pytest.mark.slow)
        if (role, wheel) != (Role.BANKER, WheelMode.SECOND)
        else (role, wheel)
        for role in (Role.PLAYER, Role.BANKER)
        for wheel in (WheelMode.SECOND, WheelMode.LOW)
    ],
)
def test_house_way_over_arrays_sets_every_shape_as_the_sheet_does(
    wheel: WheelMode, role: Role
) -> None:
    rng = random.Random(25)
    hands = [crowded_hand(rng) for _ in range(4_000)]
    shapes = Counter(_group(codes).shape for codes in hands)
    assert set(shapes) == SHAPES, shapes
    variant = PaiGowVariant(wheel=wheel)
    for codes, ours, sheet in zip(
        hands, _arrays(hands, role, variant), _sheet(hands, role, variant), strict=True
    ):
        assert ours == sheet, codes


def test_a_hand_set_alone_is_set_as_in_a_chunk() -> None:
    # The rules read a row only: one hand alone, or among others, is set alike.
    variant = PaiGowVariant()
    hands = [crowded_hand(random.Random(seed)) for seed in range(40)]
    arrays = PaiGowArrays(variant.keys)
    together = arrays.settings(np.array(hands), np.zeros(40, dtype=bool))
    for i, codes in enumerate(hands):
        high, low = arrays.settings(np.array([codes]), np.zeros(1, dtype=bool))
        assert (int(high[0]), int(low[0])) == (int(together[0][i]), int(together[1][i]))


@pytest.mark.parametrize("rules", [PAI_GOW_RULES, PYRAMID_RULES])
def test_five_cards_by_packed_symbols_give_the_evaluators_rank(rules: HandRules) -> None:
    found = evaluator(rules)
    fives = FiveCards(found.lookups)
    rng = random.Random(5)
    hands = [rng.sample(DECK_CODES, 5) for _ in range(3_000)]
    # Five of one suit (and the joker) often: the flush lookups too.
    hands += [rng.sample([0, *range(8 + rng.randrange(4), 60, 4)], 5) for _ in range(2_000)]
    ranks = fives.rank([np.array(column) for column in zip(*hands, strict=True)]).tolist()
    assert ranks == [found.rank(codes) for codes in hands]


def test_best_of_six_cards_is_their_strongest_five() -> None:
    found = evaluator(PYRAMID_RULES)
    fives = FiveCards(found.lookups)
    rng = random.Random(6)
    # Six decks: the same card may come twice; one or two suits make five of a suit common.
    hands = [[rng.randrange(8, 60) for _ in range(6)] for _ in range(2_000)]
    hands += [
        [rng.randrange(2, 15) * 4 + rng.choice((3, 3, 3, 1)) for _ in range(6)]
        for _ in range(2_000)
    ]
    columns = sort_columns([np.array(column) for column in zip(*hands, strict=True)])
    best = fives.best(columns).tolist()
    assert best == [max(map(found.rank, itertools.combinations(h, 5))) for h in hands]


@pytest.mark.parametrize("size", sorted(NETWORKS))
def test_sorting_networks_sort_every_input(size: int) -> None:
    # A network that sorts every row of 0s and 1s sorts every row (the 0-1 principle).
    rows = np.array(list(itertools.product((0, 1), repeat=size)), dtype=np.int64)
    ordered = np.array(sort_columns(list(rows.T))).T
    assert (ordered == -np.sort(-rows, axis=1)).all()


def test_a_class_is_played_once_on_its_first_hand() -> None:
    played: list[list[int]] = []

    def play(cards: list[int]) -> tuple[int, ...]:
        played.append(cards)
        return (cards[0] * 10,)

    classes = Classes(8, 1, play)
    cards = np.array([[1], [2], [3], [4], [5]])
    rows = classes.results(np.array([3, 5, 3, 0, 5]), cards)
    assert rows[:, 0].tolist() == [10, 20, 10, 40, 20]
    again = classes.results(np.array([5, 0, 7]), np.array([[9], [9], [6]]))
    assert again[:, 0].tolist() == [20, 40, 60]
    assert played == [[4], [1], [2], [6]] and len(classes) == 4


def test_pai_gow_deal_is_the_argsort_of_the_generators_numbers() -> None:
    # The simulator's first deals: the first 14 places of an argsort of uniform numbers.
    for index in range(3):
        order = np.argsort(generator(4, index).random((2_000, 53)), axis=1)[:, :14]
        expected = np.array(DECK_CODES)[order]
        assert (deal_pai_gow(generator(4, index), 2_000) == expected).all()


def test_three_card_deal_draws_again_every_round_with_a_repeated_place() -> None:
    # The rejection as first written: sort each round's places, draw again where two are equal.
    rng = generator(4, 1)
    places = rng.integers(0, 312, (5_000, 6))
    while True:
        ordered = np.sort(places, axis=1)
        again = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not again.any():
            break
        places[again] = rng.integers(0, 312, (int(again.sum()), 6))
    assert (deal_three_card(generator(4, 1), 5_000, 6) == places % 52 + 8).all()
