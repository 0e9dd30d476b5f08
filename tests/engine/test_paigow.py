"""Pai Gow poker (seed 003, RULINGS §6): hands, fouls, settlement against the banker."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, card_from_code, parse_cards
from engine.errors import GameError
from engine.evaluate import PAI_GOW_RULES, WheelMode, evaluate
from engine.paigow import (
    DECK_CODES,
    PaiGowSetting,
    PaiGowVariant,
    Role,
    is_foul,
    low_key_codes,
    pai_gow_keys,
    settle,
    verify_setting,
)
from engine.paigow_house_way import house_way, set_player_hand
from engine.payouts import Outcome


def setting(text: str) -> PaiGowSetting:
    """``"five high cards | two low cards"``."""
    high, low = text.split("|")
    return PaiGowSetting(high=parse_cards(high), low=parse_cards(low))


BANKER = setting("Qs Qd 9h 6c 3d | Ah Tc")


def test_deck_is_fifty_two_cards_and_one_joker() -> None:
    assert len(DECK_CODES) == len(set(DECK_CODES)) == 53
    assert card_from_code(DECK_CODES[0]) is JOKER


def test_player_wins_both_hands_and_is_paid_less_five_percent_commission() -> None:
    result = settle(setting("Ks Kd 9d 6h 3c | As Jd"), BANKER)
    assert (result.outcome, result.net) == (Outcome.WIN, Fraction(19, 20))


def test_winning_one_hand_and_losing_the_other_pushes() -> None:
    result = settle(setting("Ks Kd 9d 6h 3c | 9s 8d"), BANKER)
    assert result.outcome is Outcome.PUSH


def test_losing_both_hands_loses() -> None:
    result = settle(setting("Js Jd 9d 6h 3c | Ks 8d"), BANKER)
    assert result.outcome is Outcome.LOSS


def test_ties_go_to_the_banker() -> None:
    # Copies on both hands: the same ranks in other suits.
    result = settle(setting("Qh Qc 9s 6d 3c | Ad Ts"), BANKER)
    assert result.outcome is Outcome.LOSS


def test_a_won_hand_and_a_tied_hand_push() -> None:
    result = settle(setting("Ks Kd 9d 6h 3c | Ad Ts"), BANKER)
    assert result.outcome is Outcome.PUSH


def test_joker_in_the_low_hand_is_an_ace() -> None:
    assert low_key_codes([JOKER.code, parse_cards("5c")[0].code]) > low_key_codes(
        [c.code for c in parse_cards("Kc Qd")]
    )
    assert low_key_codes([JOKER.code, parse_cards("Ac")[0].code])[0] == 1  # a pair of aces


def test_low_key_matches_the_evaluator_for_every_two_cards() -> None:
    for pair in itertools.combinations(DECK_CODES, 2):
        cards = [card_from_code(code) for code in pair]
        assert low_key_codes(pair) == evaluate(cards, PAI_GOW_RULES).rank_key


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_high_key_is_the_evaluator_key_without_suits(rng: random.Random) -> None:
    codes = rng.sample(DECK_CODES, 5)
    cards = [card_from_code(code) for code in codes]
    assert pai_gow_keys().high(codes) == evaluate(cards, PAI_GOW_RULES).rank_key


def test_five_aces_is_the_top_hand() -> None:
    five_aces = evaluate(parse_cards("As Ah Ad Ac W"), PAI_GOW_RULES)
    royal = evaluate(parse_cards("As Ks Qs Js Ts"), PAI_GOW_RULES)
    assert five_aces.rank_key > royal.rank_key


def test_high_hand_not_beating_the_low_hand_is_a_foul() -> None:
    assert is_foul(setting("Ks Qd 9d 6h 3c | As 2d"))
    assert not is_foul(setting("As Qd 9d 6h 3c | Ks 2d"))


def test_fouled_player_hand_is_reset_the_house_way() -> None:
    fouled = setting("Ks Qd 9d 6h 3c | As 2d")
    assert set_player_hand(fouled.cards, fouled) == house_way(fouled.cards, role=Role.PLAYER)


def test_legal_player_hand_is_kept_as_set() -> None:
    chosen = setting("As 2d 9d 6h 3c | Ks Qd")
    assert set_player_hand(chosen.cards, chosen) == chosen


def test_a_fouled_hand_is_never_settled() -> None:
    with pytest.raises(GameError):
        settle(setting("Ks Qd 9d 6h 3c | As 2d"), BANKER)


def test_a_setting_must_be_five_and_two_of_the_cards_dealt() -> None:
    dealt = parse_cards("As 2d 9d 6h 3c Ks Qd")
    with pytest.raises(GameError):
        verify_setting(dealt, PaiGowSetting(high=dealt[:4], low=dealt[4:]))
    with pytest.raises(GameError):
        verify_setting(dealt, setting("As 2d 9d 6h 3c | Ks Qs"))


def test_wheel_is_second_highest_in_nevada_and_lowest_in_california() -> None:
    wheel = setting("As 2d 3d 4h 5c | 9s 8d")
    six_high = setting("6s 2c 3c 4d 5d | 9d 8c")
    nevada = PaiGowVariant()
    california = PaiGowVariant(wheel=WheelMode.LOW)
    assert settle(wheel, six_high, nevada).outcome is Outcome.PUSH  # high won, low tied
    assert settle(wheel, six_high, california).outcome is Outcome.LOSS
