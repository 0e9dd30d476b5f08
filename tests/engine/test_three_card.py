"""The three-card table game of seed 002 as RULINGS §5 reads it: one behaviour per test."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from engine.cards import Card, Rank, Suit, parse_cards
from engine.errors import GameError
from engine.evaluate import THREE_CARD_RULES, evaluate
from engine.payouts import Outcome
from engine.three_card import (
    BonusHand,
    ThreeCardSetting,
    ThreeCardVariant,
    high_key,
    house_way,
    is_foul,
    set_banker_hand,
    settle_main_bet,
    settle_round,
    settle_six_card_bonus,
    settle_three_card_bonus,
    six_card_bonus_hand,
    three_card_bonus_hand,
)
from engine.three_card_exact import expected_value, main_bet_distribution


def cards(text: str) -> tuple[Card, ...]:
    parsed = parse_cards(text)
    assert all(isinstance(card, Card) for card in parsed)
    return parsed  # type: ignore[return-value]


def setting(text: str) -> ThreeCardSetting:
    """``"low | high high"``."""
    low, high = text.split("|")
    (low_card,) = cards(low)
    a, b = cards(high)
    return ThreeCardSetting(low=low_card, high=(a, b))


def house(text: str) -> str:
    """The house way of three cards as ``"low | high high"`` ranks."""
    s = house_way(cards(text))
    high = sorted(s.high, key=lambda card: card.rank, reverse=True)
    return f"{s.low.rank.letter} | {''.join(card.rank.letter for card in high)}"


# --- Ranking ---------------------------------------------------------------------------------


def test_two_card_high_hands_rank_pair_above_high_card_like_the_evaluator() -> None:
    ranks = [Card(rank, Suit.CLUBS) for rank in Rank]
    hands = [(a, b) for a in ranks for b in ranks]
    ours = sorted(hands, key=high_key)
    theirs = sorted(hands, key=lambda h: evaluate(h, THREE_CARD_RULES).rank_key)
    assert [high_key(h) for h in ours] == [high_key(h) for h in theirs]
    assert high_key(cards("2c 2d")) > high_key(cards("Ac Kd"))


def test_one_card_low_hands_rank_by_rank_and_equal_ranks_push() -> None:
    player = setting("Kd | 9c 9d")
    dealer = setting("Ks | 9h 9s")
    assert settle_main_bet(player, dealer).outcome is Outcome.PUSH


def test_foul_is_a_low_card_above_the_two_card_hand_on_the_one_ladder() -> None:
    for a, b, c in itertools.product(Rank, repeat=3):
        s = ThreeCardSetting(Card(a, Suit.CLUBS), (Card(b, Suit.HEARTS), Card(c, Suit.SPADES)))
        low = evaluate((s.low,), THREE_CARD_RULES).rank_key
        high = evaluate(s.high, THREE_CARD_RULES).rank_key
        assert is_foul(s) == (low > high)


# --- House way (RULINGS §5 reading of seed 002) -----------------------------------------------


def test_house_way_splits_three_of_a_kind_pair_high_one_card_low() -> None:
    assert house("7c 7d 7h") == "7 | 77"


@pytest.mark.parametrize(
    ("hand", "kept"),
    [
        pytest.param("Jc Jd 7h", "7 | JJ", id="jacks_with_a_seven"),
        pytest.param("Qc Qd 8h", "8 | QQ", id="queens_with_an_eight"),
        pytest.param("Kc Kd 9h", "9 | KK", id="kings_with_a_nine"),
        pytest.param("Ac Ad Th", "T | AA", id="aces_with_a_ten"),
    ],
)
def test_house_way_keeps_a_high_pair_with_a_single_at_least_four_below(
    hand: str, kept: str
) -> None:
    assert house(hand) == kept


@pytest.mark.parametrize(
    ("hand", "split"),
    [
        pytest.param("Jc Jd 6h", "J | J6", id="jacks_with_a_six"),
        pytest.param("Qc Qd 7h", "Q | Q7", id="queens_with_a_seven"),
        pytest.param("Kc Kd 8h", "K | K8", id="kings_with_an_eight"),
        pytest.param("Ac Ad 9h", "A | A9", id="aces_with_a_nine"),
    ],
)
def test_house_way_splits_a_high_pair_with_a_single_more_than_four_below(
    hand: str, split: str
) -> None:
    assert house(hand) == split


def test_house_way_keeps_a_pair_of_tens_or_lower_whatever_the_single() -> None:
    assert house("Tc Td 2h") == "2 | TT"
    assert house("3c 3d Ah") == "A | 33"


def test_house_way_without_a_pair_plays_the_second_highest_card_low() -> None:
    assert house("8c Td Kh") == "T | K8"  # the seed's own example


def test_house_way_never_fouls() -> None:
    for ranks in itertools.combinations_with_replacement(Rank, 3):
        hand = [Card(rank, Suit(i)) for i, rank in enumerate(ranks)]
        assert not is_foul(house_way(hand))


def test_banking_player_keeps_a_legal_setting_of_their_own() -> None:
    chosen = setting("9c | Kd 2h")
    assert set_banker_hand(chosen.cards, chosen) == chosen


def test_banking_player_fouled_hand_is_reset_the_house_way() -> None:
    fouled = setting("Kd | 9c 2h")
    assert set_banker_hand(fouled.cards, fouled) == house_way(fouled.cards)


def test_setting_other_cards_than_dealt_is_refused() -> None:
    with pytest.raises(GameError):
        set_banker_hand(cards("2c 3d 4h"), setting("9c | Kd 2h"))


# --- Main bet: each outcome line of seed 002 --------------------------------------------------

DEALER = setting("8c | Tc 9d")


@pytest.mark.parametrize(
    ("player", "outcome", "net"),
    [
        pytest.param("9h | Jc 2d", Outcome.WIN, 1, id="wins_both_wins"),
        pytest.param("8h | Jc 2d", Outcome.WIN, 1, id="ties_low_wins_high_wins"),
        pytest.param("9h | Tc 9h", Outcome.WIN, 1, id="wins_low_ties_high_wins"),
        pytest.param("7h | Tc 8d", Outcome.LOSS, -1, id="loses_both_loses"),
        pytest.param("8h | Tc 8d", Outcome.LOSS, -1, id="ties_low_loses_high_loses"),
        pytest.param("7h | Td 9c", Outcome.LOSS, -1, id="loses_low_ties_high_loses"),
        pytest.param("9h | Tc 2d", Outcome.PUSH, 0, id="wins_low_loses_high_pushes"),
        pytest.param("7h | Jc 2d", Outcome.PUSH, 0, id="loses_low_wins_high_pushes"),
        pytest.param("8h | Td 9c", Outcome.PUSH, 0, id="ties_both_pushes"),
    ],
)
def test_main_bet_outcome_lines(player: str, outcome: Outcome, net: int) -> None:
    result = settle_main_bet(setting(player), DEALER)
    assert (result.outcome, result.net) == (outcome, net)


def test_player_three_of_a_kind_wins_the_main_bet_three_to_one_whatever_the_dealer() -> None:
    result = settle_main_bet(setting("2c | 2d 2h"), setting("Ac | Ad Ah"))
    assert (result.outcome, result.net) == (Outcome.WIN, 3)


def test_fouled_hand_loses_the_main_bet_even_where_it_would_win_both_hands() -> None:
    assert settle_main_bet(setting("Kd | Qc 2h"), DEALER).outcome is Outcome.LOSS


def test_fouled_hand_still_collects_its_bonus_wagers() -> None:
    result = settle_round(setting("Kd | 9d 2d"), DEALER)
    assert result.main.outcome is Outcome.LOSS
    assert result.three_card_bonus.net == 2  # a flush
    assert result.six_card_bonus.outcome is Outcome.LOSS  # K-T-9-9-8-2: one pair


def test_ties_to_dealer_turns_a_tied_hand_into_a_dealer_win() -> None:
    variant = ThreeCardVariant(ties_to_dealer=True)
    assert settle_main_bet(setting("8h | Td 9c"), DEALER, variant).outcome is Outcome.LOSS
    assert settle_main_bet(setting("8h | Jc 2d"), DEALER, variant).outcome is Outcome.PUSH


@pytest.mark.slow
def test_main_bet_as_written_returns_plus_1_35_percent_house_way_against_house_way() -> None:
    ev = expected_value(main_bet_distribution(ThreeCardVariant(decks=6)))
    assert abs(ev - Fraction(135, 10_000)) < Fraction(15, 10_000)
    assert round(float(ev), 5) == 0.01348


# --- 3-card bonus pay table -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "bonus", "net"),
    [
        ("7c 5d 2h", BonusHand.SEVEN_OR_LOWER, 0),
        ("8c 5d 2h", BonusHand.HIGH_CARD, -1),
        ("Ac 5d 2h", BonusHand.HIGH_CARD, -1),
        ("9c 9d 2h", BonusHand.PAIR, 1),
        ("9c 6c 2c", BonusHand.FLUSH, 2),
        ("9c 8d 7h", BonusHand.STRAIGHT, 5),
        ("3c 2d Ah", BonusHand.STRAIGHT, 5),
        ("9c 9d 9h", BonusHand.THREE_OF_A_KIND, 20),
        ("9c 8c 7c", BonusHand.STRAIGHT_FLUSH, 30),
        ("Ac Kc Qc", BonusHand.ACE_KING_QUEEN_SUITED, 50),
    ],
)
def test_three_card_bonus_pay_table(hand: str, bonus: BonusHand, net: int) -> None:
    assert three_card_bonus_hand(cards(hand)) is bonus
    assert settle_three_card_bonus(cards(hand)).net == net


def test_three_card_flush_holding_a_pair_pays_as_a_flush() -> None:
    assert three_card_bonus_hand(cards("9c 9c 2c")) is BonusHand.FLUSH  # RULINGS §1.4


# --- 6-card bonus pay table -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "bonus", "net"),
    [
        ("Ac Kd 9h 7s 4c 2d", BonusHand.HIGH_CARD, -1),
        ("Ac Ad 9h 7s 4c 2d", BonusHand.PAIR, -1),
        ("Ac Ad 9h 9s 4c 2d", BonusHand.TWO_PAIR, 1),
        ("Ac Ad Ah 9s 4c 2d", BonusHand.THREE_OF_A_KIND, 2),
        ("9c 8d 7h 6s 5c 2d", BonusHand.STRAIGHT, 5),
        ("Ac 9c 7c 6c 4c 2d", BonusHand.FLUSH, 6),
        ("Ac Ad Ah 9s 9c 2d", BonusHand.FULL_HOUSE, 7),
        ("Ac Ad Ah As 9c 2d", BonusHand.FOUR_OF_A_KIND, 10),
        ("Ac Ad Ah As Ac 2d", BonusHand.FIVE_OF_A_KIND, 50),
        ("9c 8c 7c 6c 5c 2d", BonusHand.STRAIGHT_FLUSH, 75),
        ("Ac Kc Qc Jc Tc 2d", BonusHand.ROYAL_FLUSH, 200),
        ("Ac Ad Ah As Ac Ad", BonusHand.SIX_OF_A_KIND, 1000),
    ],
)
def test_six_card_bonus_pay_table(hand: str, bonus: BonusHand, net: int) -> None:
    dealt = cards(hand)
    assert six_card_bonus_hand(dealt) is bonus
    assert settle_six_card_bonus(dealt[:3], dealt[3:]).net == net


def test_six_card_bonus_pays_player_trips_at_least_two_to_one() -> None:
    variant = ThreeCardVariant(six_card_pays=((BonusHand.TWO_PAIR, 1),))
    assert settle_six_card_bonus(cards("9c 9d 9h"), cards("Kc 5d 2h"), variant).net == 2


def test_table_takes_six_to_eight_decks() -> None:
    assert ThreeCardVariant(decks=8).decks == 8
    with pytest.raises(GameError):
        ThreeCardVariant(decks=5)
