"""The four Pyramid variants carry RULINGS §2-§4's numbers, and the point tables cell by cell."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.evaluate import evaluate, of_a_kind_ladder, straight_flush_ladder
from engine.scoring import slot_points
from engine.variants import (
    CASINO,
    NO_SURRENDER,
    SHOWDOWN,
    STANDARD,
    VARIANTS,
    Automatic,
    OrderRule,
    Payee,
    Variant,
)


def points(variant: Variant, position: int, text: str) -> int:
    return slot_points(variant, position, evaluate(parse_cards(text), variant.hand_rules))


def test_every_pyramid_variant_is_one_value_by_name() -> None:
    assert set(VARIANTS) == {"showdown", "casino", "standard", "no-surrender"}


def test_showdown_shoe_players_ante_and_declarations_follow_rulings_2() -> None:
    assert (SHOWDOWN.decks, SHOWDOWN.jokers) == (3, 4)
    assert (SHOWDOWN.min_players, SHOWDOWN.max_players, SHOWDOWN.ante, SHOWDOWN.deal) == (
        2,
        6,
        10,
        20,
    )
    first, second = SHOWDOWN.declarations
    assert (first.surrender_cost, first.paid_to, first.play_stake, first.draw) == (
        5,
        Payee.EACH_PLAYER,
        10,
        3,
    )
    assert (second.surrender_cost, second.play_stake, second.draw) == (10, 10, 2)
    assert SHOWDOWN.max_held == 25 and SHOWDOWN.min_used == 20
    assert SHOWDOWN.order is OrderRule.STRICT


def test_showdown_slots_hold_1_3_3_3_5_5_and_their_power_sizes() -> None:
    sizes = [slot.allowed_sizes for slot in SHOWDOWN.slots]
    assert sizes == [(1,), (3,), (3, 5), (3, 5, 6), (5, 6, 7), (5, 6, 7, 8, 9, 10)]


def test_casino_version_deals_7_then_2_from_two_decks_and_two_jokers() -> None:
    assert (CASINO.decks, CASINO.jokers, CASINO.deal, CASINO.max_held) == (2, 2, 7, 9)
    assert [slot.allowed_sizes for slot in CASINO.slots] == [(1,), (3,), (5,)]
    assert (CASINO.min_players, CASINO.max_players) == (1, 6) and CASINO.against_dealer


def test_standard_antes_20_deals_13_and_surrender_costs_10_into_the_pot() -> None:
    assert (STANDARD.decks, STANDARD.jokers, STANDARD.ante, STANDARD.deal) == (2, 2, 20, 13)
    (declaration,) = STANDARD.declarations
    assert (declaration.surrender_cost, declaration.paid_to, declaration.draw) == (10, Payee.POT, 4)
    assert STANDARD.multiplier == 2 and STANDARD.order is OrderRule.AT_LEAST


def test_no_surrender_deals_17_with_no_ante_and_no_pot() -> None:
    assert (NO_SURRENDER.deal, NO_SURRENDER.ante, NO_SURRENDER.has_pot) == (17, 0, False)
    assert NO_SURRENDER.declarations == () and NO_SURRENDER.multiplier == 1


def test_seventeen_card_games_use_13_to_17_cards_in_back_middle_front() -> None:
    for variant in (STANDARD, NO_SURRENDER):
        assert (variant.min_used, variant.max_used) == (13, 17)
        sizes = [slot.allowed_sizes for slot in variant.slots]
        assert sizes == [(3, 5), (5, 6, 7), (5, 6, 7, 8)]


def test_automatics_rank_three_full_houses_dragon_three_straights_three_flushes() -> None:
    assert STANDARD.automatics is not None
    assert STANDARD.automatics.precedence == (
        Automatic.THREE_FULL_HOUSES,
        Automatic.DRAGON,
        Automatic.THREE_STRAIGHTS,
        Automatic.THREE_FLUSHES,
    )


# RULINGS §2's table: (hand, category, points); blank cells are left out and score 1.
K = of_a_kind_ladder
SF = straight_flush_ladder
SHOWDOWN_TABLE = {
    6: {K(4): 4, K(5): 6, K(6): 10, K(7): 14, K(8): 18, K(9): 22, K(10): 26}
    | {SF(5): 5, SF(6): 8, SF(7): 11, SF(8): 14, SF(9): 17, SF(10): 20},
    5: {9: 2, K(4): 8, K(5): 12, K(6): 20, K(7): 28, SF(5): 10, SF(6): 16, SF(7): 22},
    4: {6: 3, 9: 4, K(4): 12, K(5): 18, K(6): 30, SF(5): 15, SF(6): 24},
    3: {6: 6, 9: 6, K(4): 16, K(5): 24, SF(5): 20},
    2: {6: 9},
    1: {},
}


@pytest.mark.parametrize("hand", sorted(SHOWDOWN_TABLE))
def test_showdown_special_points_match_rulings_2_table_cell_by_cell(hand: int) -> None:
    slot = SHOWDOWN.slots[hand - 1]
    assert {special.ladder: special.points for special in slot.specials} == SHOWDOWN_TABLE[hand]


def test_showdown_table_differs_from_the_seeds_printed_chart_in_exactly_four_cells() -> None:
    # Seed 000's chart prints Hand 5 SF6 18 and SF7 26, Hand 4 6K 24 and SF6 20 (RULINGS §2).
    printed = {(5, SF(6)): 18, (5, SF(7)): 26, (4, K(6)): 24, (4, SF(6)): 20}
    ours = {cell: SHOWDOWN_TABLE[cell[0]][cell[1]] for cell in printed}
    assert ours == {(5, SF(6)): 16, (5, SF(7)): 22, (4, K(6)): 30, (4, SF(6)): 24}


# Seed 001 "Hand Rankings and Point Values": (example hand, front, middle, back); None is N/A.
SEED_001_TABLE = [
    ("high card", "Ks 9d 4c", "Ks 9d 7h 4c 2s", 1, 1, 1),
    ("pair", "Ks Kd 4c", "Ks Kd 7h 4c 2s", 1, 1, 1),
    # The seed prints 1 in front too, though a front can never be set as two pair (§4).
    ("two pair", "Ks Kd 7h 7c 2s", "Ks Kd 7h 7c 2s", 1, 1, 1),
    ("three of a kind", "Ks Kd Kc", "Ks Kd Kc 4c 2s", 3, 1, 1),
    ("straight", "9s 8d 7h 6c 5s", "9s 8d 7h 6c 5s", 4, 1, 1),
    ("flush", "Ks 9s 7s 4s 2s", "Ks 9s 7s 4s 2s", 4, 1, 1),
    ("full house", "Ks Kd Kc 4c 4s", "Ks Kd Kc 4c 4s", 5, 2, 1),
    ("four of a kind", "Ks Kd Kc Kh 4s", "Ks Kd Kc Kh 4s", 12, 8, 4),
    ("straight flush", "9s 8s 7s 6s 5s", "9s 8s 7s 6s 5s", 15, 10, 5),
    ("five of a kind", "Ks Kd Kc Kh Ks", "Ks Kd Kc Kh Ks", 18, 12, 6),
    ("6-card straight flush", None, "9s 8s 7s 6s 5s 4s", None, 16, 8),
    ("7-card straight flush", None, "9s 8s 7s 6s 5s 4s 3s", None, 22, 11),
    ("8-card straight flush", None, "9s 8s 7s 6s 5s 4s 3s 2s", None, None, 14),
    ("6 of a kind", None, "Ks Kd Kc Kh Ks Kd", None, 20, 10),
    ("7 of a kind", None, "Ks Kd Kc Kh Ks Kd Kc", None, 28, 14),
    ("8 of a kind", None, "Ks Kd Kc Kh Ks Kd Kc Kh", None, None, 18),
]


@pytest.mark.parametrize(
    ("row", "front", "longer", "front_points", "middle_points", "back_points"), SEED_001_TABLE
)
def test_seed_001_point_table_cell_by_cell(
    row: str,
    front: str | None,
    longer: str,
    front_points: int | None,
    middle_points: int | None,
    back_points: int | None,
) -> None:
    size = len(parse_cards(longer))
    for position, text, expected in (
        (0, front, front_points),
        (1, longer, middle_points),
        (2, longer, back_points),
    ):
        slot = NO_SURRENDER.slots[position]
        if expected is None:
            assert slot.size_rule(size) is None  # N/A: that size may not stand there
            continue
        assert text is not None
        assert points(NO_SURRENDER, position, text) == expected, (row, slot.name)


@pytest.mark.parametrize("position", [0, 1, 2])
def test_standard_play_doubles_every_point_of_seed_001(position: int) -> None:
    for _, front, longer, *cells in SEED_001_TABLE:
        text = front if position == 0 else longer
        if cells[position] is None or text is None:
            continue
        assert points(STANDARD, position, text) == 2 * points(NO_SURRENDER, position, text)


def test_casino_specials_ace_trips_full_house_quads_straight_flush_five_of_a_kind() -> None:
    assert points(CASINO, 0, "Ah") == 2
    assert points(CASINO, 0, "Kh") == 1
    assert points(CASINO, 0, "W") == 2  # the joker is the ace of spades
    assert points(CASINO, 1, "7c 7d 7h") == 3
    assert points(CASINO, 1, "7c 7d 2h") == 1
    assert points(CASINO, 2, "4s 4h 4d 9c 9d") == 2
    assert points(CASINO, 2, "4s 4h 4d 4c 9d") == 4
    assert points(CASINO, 2, "Js Ts 9s 8s 7s") == 5
    assert points(CASINO, 2, "4s 4h 4d 4c W") == 6  # extrapolated from Showdown Hand 6 (§3)
    assert points(CASINO, 2, "Qh Th 8h 5h 3h") == 1
