"""Seed 003's "strong house way" sheet: one hand per rule, and every setting legal."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Rank, card_from_code, parse_cards, sort_cards
from engine.evaluate import PAI_GOW_RULES, Category, evaluate
from engine.paigow import DECK_CODES, PaiGowVariant, Role, is_foul, verify_setting
from engine.paigow_house_way import house_way, house_way_codes, house_ways_codes


def low_of(hand: str, role: Role = Role.BANKER) -> str:
    """The ranks of the house way's 2-card low hand, highest first (W for the joker, first)."""
    setting = house_way(parse_cards(hand), role=role)
    assert not is_foul(setting)
    return "".join(str(card)[0] for card in sort_cards(setting.low))


# --- Pai gow and one pair ----------------------------------------------------------------------


def test_pai_gow_plays_highest_card_behind_second_and_third_in_front() -> None:
    assert low_of("Kd Qh Jc 9s 7d 4h 3c") == "QJ"


def test_one_pair_behind_with_next_two_strongest_in_front() -> None:
    assert low_of("As Qd Qh 9c 6s 5d 3c") == "A9"


def test_joker_without_straight_or_flush_plays_as_an_ace() -> None:
    assert low_of("W Kd 9h 7c 5s 3d 2c") == "K9"


# --- Two pairs -------------------------------------------------------------------------------


def test_two_pairs_with_aces_always_split() -> None:
    assert low_of("As Ad 4h 4c Kd Qs 2h") == "44"


def test_two_pairs_kings_with_sevens_or_better_always_split() -> None:
    assert low_of("Ks Kd 7h 7c Ad Qs 2h") == "77"


def test_two_pairs_kept_together_with_an_ace_face_top() -> None:
    assert low_of("Ts Td 7h 7c Ad Js 2h") == "AJ"


def test_two_pairs_of_four_face_cards_split_without_an_ace_king_top() -> None:
    assert low_of("Qs Qd Jh Jc Ad Ts 2h") == "JJ"


def test_two_pairs_of_four_face_cards_kept_with_an_ace_king_top() -> None:
    assert low_of("Qs Qd Jh Jc Ad Ks 2h") == "AK"


def test_two_pairs_kings_with_threes_or_better_split_with_an_ace_low_top() -> None:
    assert low_of("Ks Kd 3h 3c Ad 9s 2h") == "33"


def test_two_pairs_queens_with_fives_or_better_split_with_an_ace_low_top() -> None:
    assert low_of("Qs Qd 5h 5c Ad 9s 2h") == "55"


def test_two_pairs_jacks_or_tens_with_nines_or_eights_split_with_an_ace_low_top() -> None:
    assert low_of("Js Jd 8h 8c Ad 5s 2h") == "88"


def test_two_pairs_of_sixes_and_lower_never_split() -> None:
    assert low_of("6s 6d 4h 4c Kd 9s 2h") == "K9"


def test_other_two_pairs_kept_together_with_any_ace_top() -> None:
    assert low_of("9s 9d 4h 4c Ad 7s 2h") == "A7"


def test_other_two_pairs_split_without_an_ace() -> None:
    assert low_of("9s 9d 4h 4c Kd 7s 2h") == "44"


def test_three_pairs_play_the_highest_pair_in_front() -> None:
    assert low_of("Ks Kd 7h 7c 4d 4s Ah") == "KK"


# --- Three of a kind -------------------------------------------------------------------------


def test_three_aces_split_two_behind_and_one_in_front() -> None:
    assert low_of("As Ad Ah Kc 9d 6s 2h") == "AK"


def test_three_kings_split_with_a_jack_or_lower_top() -> None:
    assert low_of("Ks Kd Kh Jc 9d 6s 2h") == "KJ"


def test_three_kings_kept_together_with_an_ace_or_queen_top() -> None:
    assert low_of("Ks Kd Kh Qc 9d 6s 2h") == "Q9"


def test_three_queens_or_less_never_break_up() -> None:
    assert low_of("Qs Qd Qh 9c 7d 4s 2h") == "97"


def test_two_three_of_a_kinds_split_a_pair_from_the_higher_for_the_top() -> None:
    assert low_of("Qs Qd Qh 7c 7d 7s Ah") == "QQ"


# --- Straights and flushes -------------------------------------------------------------------


def test_straight_or_flush_played_with_an_ace_face_top() -> None:
    assert low_of("9s 8d 7h 6c 5d As Kh") == "AK"


def test_two_pairs_aces_with_eights_or_better_beat_a_flush_without_a_pair_top() -> None:
    # The heart flush would leave A-8 up; aces and eights are played as two pairs (split).
    assert low_of("Ah As 8h 8c Kh 5h 2h") == "88"


def test_straight_with_two_other_pairs_played_as_face_high_two_pairs_without_an_ace_top() -> None:
    # Q-J-T-9-8 behind would leave Q-8 up; queens and eights are face-high two pairs: split.
    assert low_of("Qs Qd Jh Tc 9d 8s 8h") == "88"


def test_straight_with_two_other_pairs_played_as_two_pairs_with_an_ace_high_two_card() -> None:
    # The wheel behind would leave 5-3 up; fives and threes stay together with A-4 up instead.
    assert low_of("As 5d 5h 4c 3d 3s 2h") == "A4"


def test_straight_with_two_small_pairs_and_no_ace_plays_the_straight() -> None:
    # 9-8-7-6-5 behind leaves 8-6 up; eights and sixes are not face-high and there is no ace.
    assert low_of("9s 8d 8h 7c 6d 6s 5h") == "86"


def test_straight_with_a_face_pair_gives_way_to_the_pair_with_an_ace_face_top() -> None:
    assert low_of("Kd Qs Qh Jc W 9c 3d") == "WK"  # the sheet's KQQJ*93


def test_aces_with_a_king_queen_top_beat_a_straight_with_a_queen_or_lower_top() -> None:
    # A-K-Q-J-T (the joker as the ten) would leave 5-3 up: play the aces with K-Q up.
    assert low_of("W Ad Kh Qc Js 5d 3h") == "KQ"


def test_straight_with_flush_plays_the_one_with_the_higher_top() -> None:
    # The heart flush leaves 5-3 up, the straight 6-5-4-3-2 leaves K-9 up.
    assert low_of("6h 5c 4h 3d 2h Kh 9h") == "K9"


def test_straight_with_flush_and_essentially_the_same_top_plays_the_flush() -> None:
    # The straight 6-5-4-3-2 leaves A-9 up, the heart flush A-4: the same ace top, so the flush.
    assert low_of("6h 5h 4c 3h 2h Ad 9h") == "A4"


def test_straight_with_three_pairs_played_as_three_pairs() -> None:
    assert low_of("W Ad Kh Kc Qd Qs Jh") == "WA"


def test_straight_with_three_of_a_kind_played_with_a_pair_up() -> None:
    assert low_of("9s 8d 8h 8c 7d 6s 5h") == "88"  # the sheet's 9888765


def test_straight_with_three_of_a_kind_played_with_an_ace_up() -> None:
    assert low_of("As Ad W 2c 4d 5s 9h") == "A9"  # the sheet's AA*2459


def test_full_house_with_a_straight_split_when_aces_go_up() -> None:
    # A-K-Q-J-T behind would leave K-K up; the split full house puts the joker and ace up.
    assert low_of("W Ah Ks Kd Kc Qh Jd") == "WA"


def test_full_house_with_a_straight_flush_split_when_no_pair_goes_up() -> None:
    # The royal flush (joker as T of spades) leaves A-K up; no pair, so the full house splits.
    assert low_of("W As Ad Kh Ks Qs Js") == "KK"


def test_long_straight_played_low_for_the_best_two_card_side() -> None:
    assert low_of("9s 8d 7h 6c 5d 4s 3h") == "98"


def test_straight_flush_handled_as_a_straight_or_flush() -> None:
    assert low_of("9s 8s 7s 6s 5s As Kh") == "AK"


# --- Full house ------------------------------------------------------------------------------


def test_full_house_split_with_the_pair_in_front() -> None:
    assert low_of("Ts Td Th 6c 6d As Kh") == "66"


def test_full_house_with_fives_kept_with_an_ace_king() -> None:
    assert low_of("Ts Td Th 5c 5d As Kh") == "AK"


def test_full_house_with_fours_or_threes_kept_with_an_ace_queen() -> None:
    assert low_of("Ts Td Th 4c 4d As Qh") == "AQ"


def test_full_house_with_twos_kept_with_an_ace_jack() -> None:
    assert low_of("Ts Td Th 2c 2d As Jh") == "AJ"


def test_full_house_with_an_extra_pair_plays_the_higher_pair_up() -> None:
    assert low_of("Ts Td Th 7c 7d 4s 4h") == "77"


# --- Four of a kind --------------------------------------------------------------------------


def test_four_aces_banker_keeps_three_aces_with_an_ace_up() -> None:
    assert low_of("As Ad Ah Ac Kd 9s 2h") == "AK"


def test_four_aces_player_splits_into_two_pairs() -> None:
    assert low_of("As Ad Ah Ac Kd 9s 2h", Role.PLAYER) == "AA"


def test_four_kings_split_into_two_pairs_without_an_ace() -> None:
    assert low_of("Ks Kd Kh Kc Qd 9s 2h") == "KK"


def test_four_kings_kept_together_with_an_ace_queen_or_ace_jack() -> None:
    assert low_of("Ks Kd Kh Kc Ad Js 2h") == "AJ"


def test_four_kings_split_three_and_ace_king_with_ace_ten_or_lower() -> None:
    assert low_of("Ks Kd Kh Kc Ad Ts 2h") == "AK"


def test_four_queens_kept_together_with_ace_eight_or_better() -> None:
    assert low_of("Qs Qd Qh Qc Ad 8s 2h") == "A8"


def test_four_queens_split_three_and_ace_queen_with_ace_seven_or_less() -> None:
    assert low_of("Qs Qd Qh Qc Ad 7s 2h") == "AQ"


def test_four_queens_split_into_two_pairs_without_an_ace() -> None:
    assert low_of("Qs Qd Qh Qc Kd 7s 2h") == "QQ"


def test_four_jacks_or_tens_kept_together_with_any_ace() -> None:
    assert low_of("Js Jd Jh Jc Ad 3s 2h") == "A3"


def test_four_jacks_or_tens_split_into_two_pairs_without_an_ace() -> None:
    assert low_of("Ts Td Th Tc Kd Qs 2h") == "TT"


def test_four_nines_or_eights_kept_together_with_a_king_face_top() -> None:
    assert low_of("9s 9d 9h 9c Kd Js 2h") == "KJ"


def test_four_nines_or_eights_split_without_a_king_face_top() -> None:
    assert low_of("8s 8d 8h 8c Kd Ts 2h") == "88"


def test_four_sevens_or_sixes_kept_together_with_a_queen_jack_top() -> None:
    assert low_of("7s 7d 7h 7c Qd Js 2h") == "QJ"


def test_four_sevens_or_sixes_split_without_a_queen_jack_top() -> None:
    assert low_of("6s 6d 6h 6c Qd Ts 2h") == "66"


def test_four_fives_or_less_always_kept_together() -> None:
    assert low_of("5s 5d 5h 5c Kd Qs 2h") == "KQ"


def test_four_of_a_kind_with_a_pair_kept_together_with_the_pair_up() -> None:
    assert low_of("As Ad Ah Ac 5d 5s 2h") == "55"


def test_four_aces_or_kings_with_threes_or_twos_split_a_high_pair_up() -> None:
    assert low_of("Ks Kd Kh Kc 3d 3s 9h") == "KK"


def test_four_with_three_of_a_kind_split_a_pair_from_the_higher_group() -> None:
    assert low_of("9s 9d 9h 9c 5d 5s 5h") == "99"


def test_four_with_adjacent_three_of_a_kind_keeps_the_four_together() -> None:
    assert low_of("9s 9d 9h 9c 8d 8s 8h") == "88"


def test_four_aces_and_the_joker_without_a_pair_play_aces_in_front_and_three_aces_behind() -> None:
    # Seed 003: "a pair of aces in front and three aces ... behind" (RULINGS §6).
    for role in Role:
        assert low_of("W As Ad Ah Ac Kd 7s", role) == "AA"


def test_four_aces_and_the_joker_with_a_pair_play_aces_in_front_and_a_full_house_behind() -> None:
    # Seed 003: "three aces (or a full house) behind, unless the back pair is of kings".
    for pair in ("9d 9s", "Qd Qs", "3d 3s", "2d 2s"):
        for role in Role:
            setting = house_way(parse_cards(f"W As Ad Ah Ac {pair}"), role=role)
            assert [card.rank for card in setting.low] == [Rank.ACE, Rank.ACE], (pair, role)
            high = evaluate(setting.high, PAI_GOW_RULES)
            assert high.category is Category.FULL_HOUSE, (pair, role, high.name)


def test_four_aces_and_the_joker_with_kings_play_the_kings_in_front_and_five_aces_behind() -> None:
    for role in Role:
        setting = house_way(parse_cards("W As Ad Ah Ac Kd Ks"), role=role)
        assert [card.rank for card in setting.low] == [Rank.KING, Rank.KING]
        assert evaluate(setting.high, PAI_GOW_RULES).category is Category.FIVE_OF_A_KIND


# --- Every hand gets a legal setting ---------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(list(Role)))
def test_every_seven_card_hand_gets_a_legal_setting_of_its_own_cards(
    rng: random.Random, role: Role
) -> None:
    cards = tuple(card_from_code(code) for code in rng.sample(DECK_CODES, 7))
    setting = house_way(cards, role=role, variant=PaiGowVariant())
    verify_setting(cards, setting)
    assert not is_foul(setting)


def test_both_roles_at_once_set_as_each_role_alone() -> None:
    # Four of a kind with three singles is the one place the sheet names the banker.
    keys = PaiGowVariant().keys
    rng = random.Random(17)
    quads = [[r * 4 + s for s in range(4)] for r in range(2, 15)]
    hands = [rng.sample(DECK_CODES, 7) for _ in range(3_000)]
    for four in quads:
        rest = [c for c in DECK_CODES if c not in four]
        hands += [four + rng.sample(rest, 3) for _ in range(30)]
    hands += [[0, 56, 57, 58, *rng.sample(DECK_CODES[1:48], 3)] for _ in range(100)]
    for codes in hands:
        both = house_ways_codes(codes, keys)
        assert both == tuple(house_way_codes(codes, role, keys) for role in Role), codes
