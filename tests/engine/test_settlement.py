"""Chips: antes, declarations, points, the pot, the odd chip and the Casino Version's money."""

from __future__ import annotations

import pytest

from engine.arrangement import parse_arrangement, verify_arrangement
from engine.errors import GameError
from engine.scoring import PlayedHands
from engine.settlement import (
    HOUSE,
    POT,
    Seat,
    balances,
    clockwise_from_dealer,
    settle,
    split_pot,
)
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, Variant

STRONG = "3c | 4c 4d 5h | Tc Td Kh | Ts Th Kd | 2s 2d 2h 2c Kd | 9h 8h 7h 6h 5h"
WEAK = "2c | 3c 3d 4h | 9c 9d Kh | 9s 9h Kd | As Ad Ah Kc Kd | Qs Js Ts 9s 8s"
# STRONG against WEAK nets 1 + 1 + 1 + 1 + 8 - 5 = 7 points.


def hands(variant: Variant, name: str, text: str) -> PlayedHands:
    return PlayedHands(name, verify_arrangement(variant, None, parse_arrangement(text)))


def seat(name: str, text: str | None = None, surrendered_at: int | None = None) -> Seat:
    played = hands(SHOWDOWN, name, text) if text else None
    return Seat(name, surrendered_at, played)


def test_showdown_antes_and_stakes_go_to_the_pot_and_the_best_net_takes_it() -> None:
    chips = balances(settle(SHOWDOWN, [seat("a", STRONG), seat("b", WEAK)]))
    # Each puts 10 + 10 + 10 in the pot (60); b pays a 7 points; a takes the pot.
    assert chips == {"a": -30 + 7 + 60, "b": -30 - 7, POT: 0}


def test_showdown_surrender_at_declaration_1_pays_5_to_each_player_who_plays_on() -> None:
    seats = [seat("a", STRONG), seat("b", WEAK), seat("c", surrendered_at=0)]
    chips = balances(settle(SHOWDOWN, seats))
    assert chips["c"] == -10 - 5 - 5
    # The pot: three antes (30) and two stakes from each of a and b (40).
    assert chips["a"] == -30 + 5 + 7 + 70 and chips["b"] == -30 + 5 - 7


def test_showdown_surrender_at_declaration_2_pays_10_to_each_player_who_plays_on() -> None:
    seats = [seat("a", STRONG), seat("b", WEAK), seat("c", surrendered_at=1)]
    chips = balances(settle(SHOWDOWN, seats))
    assert chips["c"] == -10 - 10 - 10 - 10  # ante, first stake, 10 to each of two players


def test_a_surrendered_players_chips_stay_in_the_pot() -> None:
    seats = [seat("a", STRONG), seat("b", WEAK), seat("c", surrendered_at=1)]
    transfers = settle(SHOWDOWN, seats)
    pot_paid = [t for t in transfers if t.payer == POT]
    # Three antes, three first stakes (c's included), two second stakes.
    assert [(t.payee, t.amount) for t in pot_paid] == [("a", 30 + 30 + 20)]


def test_the_last_player_left_takes_the_pot_at_once() -> None:
    seats = [seat("a"), seat("b", surrendered_at=0), seat("c", surrendered_at=0)]
    chips = balances(settle(SHOWDOWN, seats))
    assert chips == {"a": -10 + 5 + 5 + 30, "b": -15, "c": -15, POT: 0}


def test_when_everyone_surrenders_at_once_nobody_pays_and_the_pot_is_shared() -> None:
    seats = [seat("a", surrendered_at=1), seat("b", surrendered_at=1), seat("c", surrendered_at=0)]
    chips = balances(settle(SHOWDOWN, seats))
    # c left at declaration 1 (paid 5 each to a and b); a and b both left at declaration 2
    # and share the pot: three antes and their two first stakes (50).
    assert chips == {"a": -20 + 5 + 25, "b": -20 + 5 + 25, "c": -20, POT: 0}


def test_a_tied_pot_is_split_and_the_odd_chip_goes_first_clockwise_from_the_dealer() -> None:
    assert clockwise_from_dealer(["a", "b", "c", "d"], 1) == ("c", "d", "a", "b")
    assert split_pot(61, ["a", "b"], ["c", "d", "a", "b"]) == {"a": 31, "b": 30}
    assert split_pot(61, ["a", "d"], ["c", "d", "a", "b"]) == {"d": 31, "a": 30}
    assert split_pot(62, ["a", "b", "d"], ["b", "c", "d", "a"]) == {"b": 21, "d": 21, "a": 20}


def test_tied_showdown_players_split_the_pot_with_the_odd_chip_clockwise() -> None:
    seats = [seat("a", WEAK), seat("b", WEAK), seat("c", surrendered_at=0)]
    chips = balances(settle(SHOWDOWN, seats, dealer=0))
    # Pot: 3 antes + 2 x 2 stakes = 70, an even split; c paid 5 to each.
    assert chips == {"a": -30 + 5 + 35, "b": -30 + 5 + 35, "c": -20, POT: 0}
    three = [Seat(name, None, hands(SHOWDOWN, name, WEAK)) for name in "abc"]
    transfers = settle(SHOWDOWN, [*three, Seat("d", 0)], dealer=0)
    shares = {t.payee: t.amount for t in transfers if t.payer == POT}
    # Pot 40 + 30 + 30 = 100 for three: the odd chip to b, first clockwise from dealer a.
    assert shares == {"b": 34, "c": 33, "a": 33}


def test_standard_surrender_pays_10_into_the_pot_and_points_are_doubled() -> None:
    front = "Ks Kd 4c | Qs Qd Qc 3h 3s | As Ad Ac 3h 3s"
    back = "Js Jd 4c | Ts Td Tc 3h 3s | Ts Td Tc Th 3s"
    a = PlayedHands("a", verify_arrangement(STANDARD, None, parse_arrangement(front)))
    b = PlayedHands("b", verify_arrangement(STANDARD, None, parse_arrangement(back)))
    seats = [Seat("a", None, a), Seat("b", None, b), Seat("c", 0)]
    chips = balances(settle(STANDARD, seats))
    # a wins the front (1) and the middle (full house, 2); b the back (four of a kind, 4):
    # a nets -1, doubled -2; b has the highest net and takes the pot (60 + 10).
    assert chips["c"] == -30
    assert chips["a"] == -20 - 2 and chips["b"] == -20 + 2 + 70


def test_no_surrender_moves_chips_by_points_only() -> None:
    front = "Ks Kd 4c | Qs Qd Qc 3h 3s | As Ad Ac 3h 3s"
    back = "Js Jd 4c | Ts Td Tc 3h 3s | Ts Td Tc Th 3s"
    a = PlayedHands("a", verify_arrangement(NO_SURRENDER, None, parse_arrangement(front)))
    b = PlayedHands("b", verify_arrangement(NO_SURRENDER, None, parse_arrangement(back)))
    chips = balances(settle(NO_SURRENDER, [Seat("a", None, a), Seat("b", None, b)]))
    assert chips == {"a": -1, "b": 1}


def test_casino_players_settle_with_the_house_each_on_their_own_ante() -> None:
    dealer = hands(CASINO, HOUSE, "Jc | Qd 8c 3h | 4s 4h 4d 9c 9d")
    seats = [
        Seat("one", None, hands(CASINO, "one", "Ah | 7c 7d 2s | Qh Th 8h 5h 3h"), ante=10),
        Seat("folder", 0, ante=25),
        Seat("three", None, hands(CASINO, "three", "Ad | 9c 9h 4c | Js Ts 9s 8s 7s"), ante=5),
    ]
    chips = balances(settle(CASINO, seats, dealer_hands=dealer))
    assert chips == {"one": 20, "folder": -50, "three": 50, HOUSE: -20}


def test_players_need_distinct_names_that_are_not_the_pot_or_the_house() -> None:
    with pytest.raises(GameError, match="different names"):
        settle(SHOWDOWN, [seat("a", STRONG), seat("a", WEAK)])
    with pytest.raises(GameError, match="different names"):
        settle(SHOWDOWN, [seat(POT, STRONG), seat("a", WEAK)])


def test_the_number_of_players_is_checked() -> None:
    with pytest.raises(GameError, match="2 to 6 players, not 1"):
        settle(SHOWDOWN, [seat("a", STRONG)])
    with pytest.raises(GameError, match="2 to 6 players, not 7"):
        settle(SHOWDOWN, [seat(str(i), STRONG) for i in range(7)])
