"""A player's net against the house's computers in one game, and the cut past the daily cap."""

from __future__ import annotations

from engine.settlement import HOUSE, POT, Transfer
from storage.rows import HouseDay
from tables.house_cap import CAP_REASON, cap_house, house_nets

ANN, BOB = 11, 12


def test_what_a_player_won_from_the_house_counts_its_share_of_the_pot() -> None:
    # Two computers (the house) put 20 in the pot, Ann and Bob 10 each; Ann takes the pot of 40:
    # half of it was the house's. Bob's 10 went to Ann, not to the house.
    transfers = [
        Transfer(ANN, POT, 10, "ante"),
        Transfer(BOB, POT, 10, "ante"),
        Transfer(HOUSE, POT, 20, "ante"),
        Transfer(HOUSE, ANN, 6, "points"),
        Transfer(BOB, ANN, 3, "points"),
        Transfer(BOB, HOUSE, 4, "points"),
        Transfer(POT, ANN, 40, "pot"),
    ]
    assert house_nets(transfers) == {ANN: 6 + 20, BOB: -4}


def test_the_cut_past_the_cap_stays_with_the_house_and_never_leaves_a_player_short() -> None:
    day = HouseDay(cap=100, won={ANN: 90, BOB: 100})
    transfers = [Transfer(HOUSE, ANN, 50, "points"), Transfer(HOUSE, BOB, 50, "points")]
    # Bob also owes a person 45 of what the house paid him, and has nothing more to cover a cut.
    transfers.append(Transfer(BOB, 13, 45, "points"))
    capped, notes, nets = cap_house(transfers, day, {ANN: 500, BOB: 0})
    assert capped[3:] == (
        Transfer(ANN, HOUSE, 40, CAP_REASON),
        Transfer(BOB, HOUSE, 5, CAP_REASON),
    )
    assert nets == {ANN: 10, BOB: 45}
    assert [note.render(str) for note in notes] == [
        "11 won 50 chips from the house's computers, more than today's cap leaves (10 of 100 a"
        " day): the house keeps 40.",
        "12 won 50 chips from the house's computers, more than today's cap leaves (0 of 100 a"
        " day): the house keeps 5.",
    ]
