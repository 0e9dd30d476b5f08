"""Every worked example of seeds 000, 001 and 003, as the bot scores or sets it (RULINGS §2-§6)."""

from __future__ import annotations

import pytest

from engine.arrangement import Arrangement, parse_arrangement, verify_arrangement
from engine.automatics import automatic_points
from engine.cards import AnyCard, Card, parse_cards, sort_cards
from engine.paigow import PaiGowVariant, Role
from engine.paigow_house_way import house_way, straight_flush_options
from engine.scoring import PlayedHands, matchup, slot_points, totals
from engine.settlement import (
    HOUSE,
    POT,
    Seat,
    Transfer,
    balances,
    casino_payout,
    settle,
    settle_showdown,
)
from engine.variants import CASINO, SHOWDOWN, STANDARD, Automatic


def showdown_points(text: str, discards: str = "") -> list[int]:
    """Set the arrangement from exactly the cards it names (plus discards); points per hand."""
    arrangement = parse_arrangement(text)
    held = arrangement.used + parse_cards(discards)
    values = verify_arrangement(SHOWDOWN, held, arrangement)
    return [slot_points(SHOWDOWN, i, value) for i, value in enumerate(values)]


# Points are listed Hand 1 first, the reverse of the seed's Hand 6-first lists.
def test_showdown_example_of_regular_hand_scores_1_9_6_3_8_5() -> None:
    text = "2c | 3s 3h 3d | 7s 7h 7d | Js Jh Jd | 9s 9h 9d 9c 2d | 8h 7h 6h 5h 4h"
    assert showdown_points(text, "Ac 5d Kd Qc 6s") == [1, 9, 6, 3, 8, 5]


def test_showdown_power_hand_example_1_five_card_full_house_as_hand_4_scores_4() -> None:
    text = "5c | Qs Qh 2c | Ks Kh 3c | 6s 6h 6d 4c 4d | 8s 8h 8d 8c 2s | Kd Qd Jd Td 9d"
    assert showdown_points(text, "7c 9h Ts") == [1, 1, 1, 4, 8, 5]


def test_showdown_power_hand_example_2_seven_card_straight_flush_as_hand_6_scores_11() -> None:
    text = "3d | Kc 8d 2h | Jc Jh Jd | Qs Qh Qd | Ah Ad Ac As W | 9s 8s 7s 6s 5s 4s 3s"
    assert showdown_points(text, "5d 6c Tc") == [1, 1, 6, 3, 12, 11]


def test_showdown_power_hand_example_3_four_of_a_kind_as_hands_3_and_4_scores_16_and_12() -> None:
    text = "2d | 9s 9d 5d | Js Jh Jd Jc 4c | Qs Qh Qd Qc 3c | Ks Kh Kd Kc 2c | Th 9h 8h 7h 6h 5h"
    assert showdown_points(text) == [1, 1, 16, 12, 8, 8]


def test_showdown_winner_scores_its_own_hands_points_and_the_loser_loses_as_many() -> None:
    strong = parse_arrangement(
        "3c | 4c 4d 5h | Tc Td Kh | Ts Th Kd | 2s 2d 2h 2c Kd | 9h 8h 7h 6h 5h"
    )
    weak = parse_arrangement(
        "2c | 3c 3d 4h | 9c 9d Kh | 9s 9h Kd | As Ad Ah Kc Kd | Qs Js Ts 9s 8s"
    )
    a = PlayedHands("strong", verify_arrangement(SHOWDOWN, None, strong))
    b = PlayedHands("weak", verify_arrangement(SHOWDOWN, None, weak))
    # Hand 5: quads (8) beat a full house; Hand 6: the weak side's Q-high SF (5) beats 9-high.
    assert matchup(SHOWDOWN, a, b).per_hand == (1, 1, 1, 1, 8, -5)
    assert matchup(SHOWDOWN, b, a).per_hand == (-1, -1, -1, -1, -8, 5)


def test_identical_hands_tie_and_score_nothing() -> None:
    text = "2c | 3c 3d 4h | 9c 9d Kh | 9s 9h Kd | As Ad Ah Kc Kd | Qs Js Ts 9s 8s"
    values = verify_arrangement(SHOWDOWN, None, parse_arrangement(text))
    result = matchup(SHOWDOWN, PlayedHands("a", values), PlayedHands("b", values))
    assert result.per_hand == (0,) * 6 and result.total == 0


# Seed 000 "Scoring Card": row player's net against the column player.
SCORING_CARD = (
    (0, -10, 5, 20),
    (10, 0, -20, 5),
    (-5, 20, 0, -8),
    (-20, -5, 8, 0),
)
NAMES = ("Player1", "Player2", "Player3", "Player4")


def test_scoring_card_totals_are_15_minus_5_7_minus_17_and_sum_to_zero() -> None:
    assert totals(SCORING_CARD) == (15, -5, 7, -17)
    assert sum(totals(SCORING_CARD)) == 0


def test_scoring_card_player_1_takes_the_pot_and_every_net_changes_hands() -> None:
    transfers = settle_showdown(SHOWDOWN, NAMES, SCORING_CARD, pot=150)
    chips = balances(transfers)
    assert chips == {"Player1": 15 + 150, "Player2": -5, "Player3": 7, "Player4": -17, POT: -150}
    assert sum(chips.values()) == 0
    # "Player 1 lost 10 chips to Player 2, won 5 from Player 3 and 20 from Player 4."
    paid = {(t.payer, t.payee): t.amount for t in transfers if t.payer != POT}
    assert paid[("Player1", "Player2")] == 10
    assert paid[("Player3", "Player1")] == 5
    assert paid[("Player4", "Player1")] == 20


# Seed 000, "Typical Game": six players; one surrenders at each declaration.
TYPICAL_GAME = (
    "2c | 3s 3h 3d | 7s 7h 7d | Js Jh Jd | 9s 9h 9d 9c 2d | 8h 7h 6h 5h 4h",
    "3c | 4c 4d 5h | Tc Td Kh | Ts Th Kd | 2s 2d 2h 2c Kd | 9h 8h 7h 6h 5h",
    "2c | 3c 3d 4h | 9c 9d Kh | 9s 9h Kd | As Ad Ah Kc Kd | Qs Js Ts 9s 8s",
    "5c | Qs Qh 2c | Ks Kh 3c | 6s 6h 6d 4c 4d | 8s 8h 8d 8c 2s | Kd Qd Jd Td 9d",
)


def pot_after(transfers: tuple[Transfer, ...], reason: str) -> int:
    """What the pot holds just after the last transfer made for ``reason``."""
    last = max(i for i, t in enumerate(transfers) if t.reason == reason)
    return balances(transfers[: last + 1]).get(POT, 0)


def test_typical_game_pot_grows_60_110_150_with_one_surrender_at_each_declaration() -> None:
    hands = [verify_arrangement(SHOWDOWN, None, parse_arrangement(text)) for text in TYPICAL_GAME]
    seats = [
        Seat("quits first", surrendered_at=0),
        Seat("quits second", surrendered_at=1),
        *(Seat(f"player {i}", hands=PlayedHands(f"player {i}", h)) for i, h in enumerate(hands)),
    ]
    transfers = settle(SHOWDOWN, seats)
    # "the Pot starts with 60 chips"; "the next round increases the Pot to 110 chips";
    # "the Pot grows to 150 chips. There are now 4 players left for Showdown."
    assert pot_after(transfers, "ante") == 60
    assert pot_after(transfers, "stake 1") == 110
    assert pot_after(transfers, "stake 2") == 150
    won = [t for t in transfers if t.payer == POT]
    assert sum(t.amount for t in won) == 150
    assert {t.payee for t in won} <= {f"player {i}" for i in range(4)}
    assert balances(transfers).get(POT, 0) == 0


# Seed 000, Casino Version "Payouts": ante $5, buy-in $5.
CASINO_DOLLARS = {
    -5: -35,
    -4: -30,
    -3: -25,
    -2: -20,
    -1: -15,
    0: 0,
    1: 10,
    2: 15,
    3: 20,
    4: 30,
    5: 35,
    6: 40,
}


@pytest.mark.parametrize(("points", "dollars"), sorted(CASINO_DOLLARS.items()))
def test_casino_payout_table_with_a_5_dollar_ante(points: int, dollars: int) -> None:
    assert casino_payout(CASINO, points, 5) == dollars


def test_casino_fold_loses_the_ante_and_its_match() -> None:
    transfers = settle(CASINO, [Seat("folder", surrendered_at=0, ante=5)])
    assert balances(transfers) == {"folder": -10, HOUSE: 10}


DEALER = "Jc | Qd 8c 3h | 4s 4h 4d 9c 9d"  # Jack high, queen high, house of fours


def casino_result(player: str) -> tuple[tuple[int, ...], int]:
    dealer = PlayedHands(HOUSE, verify_arrangement(CASINO, None, parse_arrangement(DEALER)))
    mine = PlayedHands("player", verify_arrangement(CASINO, None, parse_arrangement(player)))
    result = matchup(CASINO, mine, dealer)
    transfers = settle(CASINO, [Seat("player", hands=mine, ante=5)], dealer_hands=dealer)
    return result.per_hand, balances(transfers)["player"]


def test_casino_player_one_ace_pair_of_sevens_queen_flush_nets_1_point_10_dollars() -> None:
    assert casino_result("Ah | 7c 7d 2s | Qh Th 8h 5h 3h") == ((2, 1, -2), 10)


def test_casino_player_two_queen_trip_threes_straight_nets_2_points_15_dollars() -> None:
    assert casino_result("Qc | 3c 3d 3s | 9h 8d 7c 6s 5h") == ((1, 3, -2), 15)


def test_casino_player_three_ace_counts_2_as_the_table_says_8_points_50_dollars() -> None:
    # The seed counts this ace as 1 (7 points, $45); RULINGS §3: the table rules, 2 points.
    assert casino_result("Ad | 9c 9h 4c | Js Ts 9s 8s 7s") == ((2, 1, 5), 50)


def test_automatics_precedence_full_houses_over_dragon_over_straights_over_flushes() -> None:
    rules = STANDARD.automatics
    assert rules is not None
    order = [
        Automatic.THREE_FULL_HOUSES,
        Automatic.DRAGON,
        Automatic.THREE_STRAIGHTS,
        Automatic.THREE_FLUSHES,
    ]
    for high, higher in enumerate(order):
        for lower in order[high + 1 :]:
            assert automatic_points(rules, higher, (), lower, ()) == 3
            assert automatic_points(rules, lower, (), higher, ()) == -3


def test_seed_001_automatic_beats_a_regular_player_by_3_doubled_in_standard() -> None:
    back = Arrangement(
        tuple(parse_cards(h) for h in ("4d 3d 2d", "9h 8h 7h 6h 5h", "As Ks Qs Js Ts"))
    )
    values = verify_arrangement(STANDARD, None, back)
    dragon = PlayedHands("dragon", values, Automatic.DRAGON)
    regular = PlayedHands("regular", values)
    assert matchup(STANDARD, dragon, regular).total == 6
    assert matchup(STANDARD, regular, dragon).total == -6


# Seed 003 (Pai Gow poker): each example with exactly its cards, set the house way. Where the seed
# gives no suits, the suits chosen put no five cards in one suit and make no straight or flush.
# Its other examples (K-Q-J-9-7-4-3, A-Q-Q-9-6-5-3, K-K-7-7-4-4-A, Q-Q-Q-7-7-7-A, K-K-K-K-3-3-9,
# four aces and the joker, and the sheet's KQQJ*93, 9888765, AA*2459, AAAA55x) are in
# tests/engine/test_paigow_house_way.py beside the sheet's rules they illustrate.
def ranks(cards: tuple[AnyCard, ...]) -> str:
    """The cards' ranks, highest first (W for the joker)."""
    return "".join(c.rank.letter if isinstance(c, Card) else "W" for c in sort_cards(cards))


def house_way_of(hand: str, *, suits_given: bool = False) -> tuple[str, str]:
    """The house way's (low, high) hands as ranks; the player and the banker set them alike."""
    cards = parse_cards(hand)
    assert len(cards) == 7
    if not suits_given:
        assert not straight_flush_options([c.code for c in cards], PaiGowVariant().keys)
    player = house_way(cards, role=Role.PLAYER)
    assert house_way(cards, role=Role.BANKER) == player
    return ranks(player.low), ranks(player.high)


def test_seed_003_no_pair_A_Q_T_9_5_4_2_plays_Q_T_by_the_sheet_not_the_advice_Q_9() -> None:
    # "with A-Q-10-9-5-4-2 it is slightly better to play Q-9 and A-10-5-4-2": advice for players;
    # the house way follows its sheet ("2nd and 3rd strongest on two card side").
    assert house_way_of("As Qh Td 9c 5s 4h 2d") == ("QT", "A9542")


def test_seed_003_jacks_and_fours_with_A_Q_5_keep_both_pairs_behind_and_A_Q_in_front() -> None:
    # "With cards like J-J-4-4-A-Q-5 he can consider playing A-Q and J-J-4-4-5".
    assert house_way_of("Js Jh 4d 4c Ad Qc 5h") == ("AQ", "JJ544")


def test_seed_003_three_kings_with_J_9_7_6_play_K_J_in_front_and_K_K_9_7_6_behind() -> None:
    # "with K-K-K-J-9-7-6 it is slightly better to play K-J and K-K-9-7-6"; the sheet agrees:
    # "Three Kings always split 2-and-1 with Jack or lower top".
    assert house_way_of("Ks Kh Kd Jc 9s 7h 6d") == ("KJ", "KK976")


def test_seed_003_straight_or_flush_K9_8_7_6_5_4_plays_K_9_in_front_and_8_high_straight() -> None:
    # "playing the flush would put 8-6 in front, playing the 9-high straight would put K-4 up
    # front, but the correct play is K-9 and 8-7-6-5-4".
    assert house_way_of("K♠ 9♠ 8♣ 7♠ 6♣ 5♠ 4♠", suits_given=True) == ("K9", "87654")


def test_seed_003_fives_full_of_threes_with_A_Q_keep_the_full_house_and_A_Q_in_front() -> None:
    # "with 5-5-5-3-3-A-Q it might be better to play A-Q with the full house behind"; the sheet:
    # "AQ with 4's or 3's".
    assert house_way_of("5s 5h 5d 3c 3s Ah Qd") == ("AQ", "55533")


def test_seed_003_four_tens_with_J_5_4_play_T_T_in_front_and_T_T_J_5_4_behind() -> None:
    # "with 10-10-10-10-J-5-4 he should play 10-10 and 10-10-J-5-4".
    assert house_way_of("Ts Th Td Tc Js 5h 4d") == ("TT", "JTT54")


def test_seed_003_four_threes_with_K_Q_7_play_K_Q_in_front_and_the_four_behind() -> None:
    # "with 3-3-3-3-K-Q-7, K-Q and 3-3-3-3-7".
    assert house_way_of("3s 3h 3d 3c Ks Qh 7d") == ("KQ", "73333")


def test_seed_003_four_nines_with_sevens_and_K_play_7_7_in_front_and_9_9_9_9_K_behind() -> None:
    # "with 9-9-9-9-7-7-K he should play 7-7 and 9-9-9-9-K".
    assert house_way_of("9s 9h 9d 9c 7s 7h Kd") == ("77", "K9999")
