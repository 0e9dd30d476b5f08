"""The one strength ladder of RULINGS §1, one test per clause."""

from __future__ import annotations

import itertools

import pytest

from engine.cards import parse_cards
from engine.errors import HandError
from engine.evaluate import (
    PAI_GOW_RULES,
    PYRAMID_RULES,
    SEVENTEEN_CARD_RULES,
    Category,
    HandValue,
    evaluate,
)


def value(text: str, rules=PYRAMID_RULES) -> HandValue:  # type: ignore[no-untyped-def]
    return evaluate(parse_cards(text), rules)


def stronger(a: str, b: str, rules=PYRAMID_RULES) -> bool:  # type: ignore[no-untyped-def]
    return value(a, rules).key > value(b, rules).key


# RULINGS §1.5: the ladder, lowest first, with one example hand per rung.
LADDER = [
    ("high_card", "As Kd Qh Jc 9s"),
    ("pair", "2c 2d 3h 4s 6c"),
    ("three_card_straight", "Ah Kc Qd"),
    ("three_card_flush", "Ac Kc Jc"),
    ("three_card_straight_flush", "Ad Kd Qd"),
    ("two_pair", "3c 3d 2h 2s 4c"),
    ("three_of_a_kind", "2c 2d 2h 3s 4c"),
    ("straight", "6c 5d 4h 3s 2c"),
    ("flush", "7c 5c 4c 3c 2c"),
    ("full_house", "2c 2d 2h 3s 3c"),
    ("four_of_a_kind", "2c 2d 2h 2s 3c"),
    ("straight_flush", "6c 5c 4c 3c 2c"),
    ("five_of_a_kind", "2c 2d 2h 2s 2c"),
    ("straight_flush", "7c 6c 5c 4c 3c 2c"),
    ("six_of_a_kind", "2c 2d 2h 2s 2c 2d"),
    ("straight_flush", "8c 7c 6c 5c 4c 3c 2c"),
    ("seven_of_a_kind", "2c 2d 2h 2s 2c 2d 2h"),
    ("straight_flush", "9c 8c 7c 6c 5c 4c 3c 2c"),
    ("eight_of_a_kind", "2c 2d 2h 2s 2c 2d 2h 2s"),
    ("straight_flush", "Tc 9c 8c 7c 6c 5c 4c 3c 2c"),
    ("nine_of_a_kind", "2c 2d 2h 2s 2c 2d 2h 2s 2c"),
    ("straight_flush", "Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c"),
    ("ten_of_a_kind", "2c 2d 2h 2s 2c 2d 2h 2s 2c 2d"),
]


def test_ladder_categories_are_named_as_the_cli_names_them() -> None:
    for category, hand in LADDER:
        assert value(hand).category.value == category, hand


@pytest.mark.parametrize(("lower", "higher"), list(itertools.pairwise(LADDER)))
def test_each_rung_beats_the_best_hand_of_the_rung_below(
    lower: tuple[str, str], higher: tuple[str, str]
) -> None:
    # The weakest hand of the higher rung against a strong hand of the lower one.
    assert stronger(higher[1], lower[1])


def test_whole_ladder_is_strictly_increasing() -> None:
    keys = [value(hand).key for _, hand in LADDER]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_suits_rank_spades_hearts_diamonds_clubs() -> None:
    assert stronger("As", "Ah") and stronger("Ah", "Ad") and stronger("Ad", "Ac")


def test_suits_are_consulted_only_after_every_rank() -> None:
    # A club king kicker beats a spade queen kicker: ranks first, whatever the suits.
    assert stronger("9c 9d Kc", "9s 9h Qs")
    # Same ranks: the suit of the most important card (the pair) decides.
    assert stronger("9s 9c 2c", "9h 9d 2s")


def test_identical_ranks_and_suits_tie() -> None:
    assert value("Ks Kh 5d 4c 2s").key == value("Kh Ks 2s 5d 4c").key


def test_three_card_pair_loses_to_five_card_pair_with_extra_kickers() -> None:
    """RULINGS §1.5: the hand that runs out of ranks first is weaker."""
    assert stronger("9s 9h Kd 3c 2c", "9s 9h Kd")
    assert not stronger("9s 9h Kd", "9c 9d Kc 3c 2c")


def test_one_card_loses_to_three_card_high_card_with_the_same_top() -> None:
    assert stronger("Ac 3d 2h", "As")
    assert stronger("As", "Kc Qd Jh 9s 7c")  # but an ace beats a king-high hand of any size


def test_three_card_trips_lose_to_five_card_trips_of_the_same_rank() -> None:
    assert stronger("7c 7d 7h 3s 2c", "7s 7h 7d")


def test_seven_card_straight_flush_beats_six_of_a_kind() -> None:
    assert stronger("8c 7c 6c 5c 4c 3c 2c", "As Ah Ad Ac As Ah")


def test_six_card_straight_flush_beats_five_of_a_kind_and_loses_to_six_of_a_kind() -> None:
    assert stronger("7c 6c 5c 4c 3c 2c", "As Ah Ad Ac As")
    assert stronger("2c 2d 2h 2s 2c 2d", "As Ks Qs Js Ts 9s")


def test_runs_compare_by_top_card() -> None:
    assert stronger("Ks Qd Jh Tc 9c", "Qs Jd Th 9c 8c")


def test_the_wheel_is_the_second_highest_straight() -> None:
    """RULINGS §1.3: below the ace-high run, above the king-high run."""
    wheel = "5c 4d 3h 2s Ac"
    assert stronger(wheel, "Ks Qs Jd Th 9h")
    assert stronger("Ac Kd Qh Js Tc", wheel)


def test_a_low_runs_are_named_from_the_ace_not_five_high() -> None:
    """RULINGS §1.3: the ace is the wheel's top card, so it is "Wheel, ace to five"."""
    assert value("5c 4d 3h 2s Ac").name == "Wheel, ace to five"
    assert value("5c 4c 3c 2c Ac").name == "Straight flush, wheel, ace to five"
    assert value("3h 2d Ac").name == "Three-card straight, wheel, ace to three"
    assert value("3d 2d Ad").name == "Three-card straight flush, wheel, ace to three"
    assert value("Ah 2h 3h 4h 5h 6h").name == "6-card straight flush, wheel, ace to six"
    assert value("W 2c 3c 4c 5c").name == "Straight flush, wheel, ace to five"
    assert value("5c 4d 3h 2s Ac", PAI_GOW_RULES).name == "Wheel, ace to five"


def test_identical_a_low_runs_compare_suits_from_the_ace_down() -> None:
    """RULINGS §1.3: the ace's suit first, then the five's, the four's, and so on."""
    assert stronger("As 5c 4c 3c 2d", "Ah 5s 4s 3s 2s")
    assert stronger("Ah 5s 4c 3c 2c", "Ah 5h 4s 3s 2s")
    assert stronger("As 3c 2c", "Ah 3s 2s")


def test_the_steel_wheel_is_the_second_highest_straight_flush() -> None:
    assert stronger("5c 4c 3c 2c Ac", "Kc Qc Jc Tc 9c")
    assert stronger("Ac Kc Qc Jc Tc", "5c 4c 3c 2c Ac")


def test_ace_two_three_is_the_second_highest_three_card_run() -> None:
    assert stronger("Ac 2d 3h", "Kc Qd Jh")
    assert stronger("Ac Kd Qh", "Ac 2d 3h")
    assert stronger("Ad 2d 3d", "Kd Qd Jd")


def test_ace_low_six_card_straight_flush_is_second_highest() -> None:
    assert stronger("Ah 2h 3h 4h 5h 6h", "Kh Qh Jh Th 9h 8h")
    assert stronger("Ah Kh Qh Jh Th 9h", "Ah 2h 3h 4h 5h 6h")


def test_a_flush_holding_a_pair_is_a_flush_compared_rank_by_rank() -> None:
    """RULINGS §1.4: several decks make A♠ A♠ K♠ Q♠ J♠ possible."""
    pair_flush = value("As As Ks Qs Js")
    assert pair_flush.category is Category.FLUSH
    assert pair_flush.key[1:6] == (14, 14, 13, 12, 11)
    assert stronger("As As Ks Qs Js", "As Ks Qs Js 9s")


def test_seventeen_card_front_has_no_three_card_straights_or_flushes() -> None:
    """Seed 001's point table: a 3-card front is high card, pair or trips."""
    assert value("Ac Kd Qh", SEVENTEEN_CARD_RULES).category is Category.HIGH_CARD
    assert value("Ac Kc Qc", SEVENTEEN_CARD_RULES).category is Category.HIGH_CARD
    assert value("Ac Kc Qc", PYRAMID_RULES).category is Category.THREE_CARD_STRAIGHT_FLUSH


def test_joker_is_fully_wild_and_may_copy_a_held_card() -> None:
    """RULINGS §1.2: W with A♠ A♠ K♠ Q♠ becomes another A♠ for the best flush."""
    v = value("As As Ks Qs W")
    assert v.category is Category.FLUSH
    assert [str(c) for c in v.jokers] == ["As"]


def test_a_joker_not_needed_for_a_flush_becomes_a_spade() -> None:
    v = value("Ah 7d W")
    assert v.category is Category.PAIR and [str(c) for c in v.jokers] == ["As"]
    assert v.label == "Pair of aces (7) (W→A♠)"


def test_a_joker_needed_for_a_flush_takes_the_flush_suit() -> None:
    v = value("Kh 9h 5h 3h W")
    assert v.category is Category.FLUSH and [str(c) for c in v.jokers] == ["Ah"]


def test_jokers_resolve_to_the_strongest_hand_in_their_slot() -> None:
    assert value("W W W").category is Category.THREE_OF_A_KIND
    assert value("W W W W W").category is Category.FIVE_OF_A_KIND
    assert value("Qs Js 9s W W").category is Category.STRAIGHT_FLUSH
    assert value("Qs Js 9s W W").key[1] == 13  # king high: W→K♠, W→T♠
    assert value("Ks Qh W W 2c").category is Category.THREE_OF_A_KIND


def test_joker_straight_prefers_the_highest_window() -> None:
    assert value("Kh Qd Jc Ts W").key[1] == 15  # the ace-high straight, not nine-high


def test_bug_completes_straights_and_flushes_else_plays_as_an_ace() -> None:
    """Seed 003: the bug."""
    assert value("Ks Qs 9s 5s W", PAI_GOW_RULES).category is Category.FLUSH
    assert value("Kh Qd Jc Ts W", PAI_GOW_RULES).category is Category.STRAIGHT
    kings = value("Kh Kd 7c 4s W", PAI_GOW_RULES)  # the bug is an ace here, never a king
    assert kings.category is Category.PAIR and kings.key[1:3] == (13, 14)
    assert value("Ah Ad Ac As W", PAI_GOW_RULES).category is Category.FIVE_OF_A_KIND
    assert value("8h W", PAI_GOW_RULES).name.startswith("Ace high")


def test_six_or_more_cards_must_be_of_a_kind_or_a_straight_flush() -> None:
    with pytest.raises(HandError, match="six of a kind or a 6-card straight flush"):
        value("As Ks Qs Js Ts 9d")


@pytest.mark.parametrize("text", ["As Ks Qs Js", "", "2c 2c 2c 2c 2c 2c 2c 2c 2c 2c 2c"])
def test_four_or_eleven_cards_are_not_a_hand(text: str) -> None:
    with pytest.raises(HandError, match="1, 2, 3, 5 or 6 to 10 cards"):
        value(text)


def test_names_read_like_a_dealer_would_say_them() -> None:
    assert value("Ks Kh Kd 4c 4s").name == "Full house, kings over fours"
    assert value("As Ks Qs Js Ts").name == "Royal flush"
    assert value("9c 9d 9h 9s 9c 9d 9h").name == "Seven of a kind, nines"
    assert value("Tc 9c 8c 7c 6c 5c 4c").name == "7-card straight flush, ten high"


def test_best_five_of_seven_cards() -> None:
    from engine.evaluate import best_five

    best = best_five(parse_cards("As Ks 2d 7c Qs Js Ts"))
    assert best.name == "Royal flush"
