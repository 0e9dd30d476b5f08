"""The tournament as a value: the draw, the antes, knock-outs and places, balancing, prizes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import GameError
from tables.tournament import (
    ANTE_STEPS,
    SEATS,
    Tournament,
    ante_at,
    prize_shares,
    prizes,
    tables_for,
)


def _sizes(tournament: Tournament) -> list[int]:
    return [len(seated) for seated in tournament.tables.values()]


def _play_hand(tournament: Tournament, rng: random.Random) -> None:
    """Every table plays a hand: one winner takes what the others lose (up to their stacks)."""
    for table, seated in sorted(tournament.tables.items()):
        winner = rng.choice(seated)
        nets = {p: -rng.randint(0, tournament.stacks[p]) for p in seated if p != winner}
        nets[winner] = -sum(nets.values())
        tournament.settle(table, nets)


def _balanced(tournament: Tournament) -> None:
    sizes = _sizes(tournament)
    left = tournament.players_left
    assert max(sizes) - min(sizes) <= 1, sizes
    assert max(sizes) <= tournament.seats
    assert len(sizes) == tables_for(len(left), tournament.seats)
    seated = [p for seated in tournament.tables.values() for p in seated]
    assert sorted(seated) == sorted(left), "every player still in sits at exactly one table"


@settings(max_examples=150, deadline=None)
@given(
    entrants=st.integers(min_value=2, max_value=40),
    seed=st.integers(min_value=0, max_value=2**32),
    plays=st.integers(min_value=0, max_value=2**32),
    level_hands=st.integers(min_value=1, max_value=6),
)
def test_random_knockouts_keep_tables_balanced_and_place_everyone_once(
    entrants: int, seed: int, plays: int, level_hands: int
) -> None:
    players = list(range(100, 100 + entrants))
    tournament = Tournament(entrants=players, seed=seed, base_ante=10, level_hands=level_hands)
    total = sum(tournament.stacks.values())
    rng = random.Random(plays)
    _balanced(tournament)
    out_order: list[int] = []
    had_final = False
    while not tournament.is_finished:
        tables_before = len(tournament.tables)
        _play_hand(tournament, rng)
        end = tournament.end_round()
        assert sum(tournament.stacks.values()) == total, "tournament chips are never made or lost"
        out_order += [k.player for k in end.knockouts]
        for knockout in end.knockouts:
            assert knockout.stack < end.ante or end.winner is not None
        for player in tournament.players_left:
            assert tournament.stacks[player] >= end.ante, "whoever stays covers the next ante"
        if end.winner is None:
            _balanced(tournament)
            assert end.final_table == (tables_before > 1 and len(tournament.tables) == 1)
            had_final |= end.final_table
        assert tournament.hands < 2_000
    places = tournament.places
    assert sorted(places) == sorted(players), "every player placed"
    assert sorted(places.values()) == list(range(1, entrants + 1)), "each place given once"
    assert tournament.winner == next(p for p, place in places.items() if place == 1)
    # Out earlier, placed lower.
    assert [places[p] for p in out_order] == sorted((places[p] for p in out_order), reverse=True)
    assert had_final == (tables_for(entrants) > 1)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), entrants=st.integers(2, 40))
def test_a_tournament_read_back_from_its_json_plays_on_the_same(seed: int, entrants: int) -> None:
    one = Tournament(entrants=list(range(1, entrants + 1)), seed=seed, base_ante=20, level_hands=2)
    rng = random.Random(seed)
    for _ in range(3):
        if not one.is_finished:
            _play_hand(one, rng)
            one.end_round()
    two = Tournament.from_json(one.to_json())
    assert two.to_json() == one.to_json()
    if not one.is_finished:
        state = rng.getstate()
        _play_hand(one, rng)
        rng.setstate(state)
        _play_hand(two, rng)
        assert one.end_round() == two.end_round()
        assert two.to_json() == one.to_json()


@pytest.mark.parametrize("entrants", [7, 13, 24, 36])
def test_the_draw_seats_everyone_at_tables_that_differ_by_one_at_most(entrants: int) -> None:
    tournament = Tournament(entrants=list(range(entrants)), seed=5, base_ante=10)
    _balanced(tournament)
    again = Tournament(entrants=list(range(entrants)), seed=5, base_ante=10)
    assert again.tables == tournament.tables, "the same seed draws the same seats"
    other = Tournament(entrants=list(range(entrants)), seed=6, base_ante=10)
    assert other.tables != tournament.tables


def test_a_sit_and_go_is_one_table() -> None:
    tournament = Tournament(entrants=list(range(SEATS)), seed=1, base_ante=10)
    assert list(tournament.tables) == [1]


def test_the_ante_rises_by_the_schedule_then_doubles() -> None:
    assert [ante_at(10, level) for level in range(1, 13)] == [
        10,
        15,
        20,
        30,
        40,
        60,
        80,
        100,
        150,
        200,
        400,
        800,
    ]
    assert ante_at(20, 2) == 20 * ANTE_STEPS[1] // 10


def test_the_level_rises_every_level_hands_hands() -> None:
    tournament = Tournament(entrants=[1, 2], seed=1, base_ante=10, level_hands=2)
    antes = []
    for _ in range(5):
        antes.append(tournament.ante)
        tournament.settle(1, {})
        tournament.end_round()
    assert antes == [10, 10, 15, 15, 20]


def test_a_player_who_cannot_cover_the_next_ante_is_out_with_their_place() -> None:
    tournament = Tournament(entrants=[1, 2, 3], seed=1, base_ante=10, stack=100)
    tournament.settle(1, {1: -95, 2: 45, 3: 50})
    end = tournament.end_round()
    assert [(k.player, k.place, k.stack) for k in end.knockouts] == [(1, 3, 5)]
    assert tournament.players_left == [2, 3]
    tournament.settle(1, {2: -145, 3: 145})
    end = tournament.end_round()
    assert end.winner == 3
    assert tournament.places == {1: 3, 2: 2, 3: 1}


def test_players_out_in_the_same_hand_place_by_their_stacks() -> None:
    tournament = Tournament(entrants=[1, 2, 3, 4], seed=1, base_ante=10, stack=100)
    tournament.settle(1, {1: -98, 2: -95, 3: 93, 4: 100})
    end = tournament.end_round()
    assert [(k.player, k.place) for k in end.knockouts] == [(1, 4), (2, 3)]


def test_if_no_one_could_cover_the_ante_the_biggest_stack_wins() -> None:
    tournament = Tournament(entrants=[1, 2], seed=1, base_ante=10, stack=6, level_hands=1)
    tournament.settle(1, {1: -1, 2: 1})
    end = tournament.end_round()
    assert end.winner == 2
    assert tournament.places == {1: 2, 2: 1}


def test_a_hand_that_makes_chips_or_comes_twice_is_refused() -> None:
    tournament = Tournament(entrants=[1, 2, 3], seed=1, base_ante=10, stack=100)
    with pytest.raises(GameError, match="sum to 0"):
        tournament.settle(1, {1: 5})
    with pytest.raises(GameError, match="cannot lose more than their stack"):
        tournament.settle(1, {1: -101, 2: 101})
    with pytest.raises(GameError, match="does not sit at table 1"):
        tournament.settle(1, {9: 0})
    tournament.settle(1, {})
    with pytest.raises(GameError, match="played this hand already"):
        tournament.settle(1, {})
    assert tournament.stacks == {1: 100, 2: 100, 3: 100}


def test_a_table_breaks_when_the_others_can_seat_its_players() -> None:
    tournament = Tournament(entrants=list(range(1, 19)), seed=3, base_ante=10, stack=100)
    assert _sizes(tournament) == [6, 6, 6]
    for table, out in ((1, 4), (2, 2), (3, 0)):
        seated = tournament.tables[table]
        nets = {p: -100 for p in seated[1 : 1 + out]}
        nets[seated[0]] = 100 * out
        tournament.settle(table, nets)
    end = tournament.end_round()
    assert len(end.knockouts) == 6
    assert end.broken == (1,), "the emptiest table breaks"
    assert not end.final_table
    assert {m.source for m in end.moves} >= {1}
    assert _sizes(tournament) == [6, 6]


def test_the_final_table_is_announced_once_the_tables_come_down_to_one() -> None:
    tournament = Tournament(entrants=list(range(1, 9)), seed=3, base_ante=10, stack=100)
    assert _sizes(tournament) == [4, 4]
    seated = tournament.tables[1]
    tournament.settle(1, {seated[0]: 200, seated[1]: -100, seated[2]: -100})
    tournament.settle(2, {})
    end = tournament.end_round()
    assert end.final_table and len(end.broken) == 1
    assert _sizes(tournament) == [6]


@given(pool=st.integers(0, 10**9), entrants=st.integers(2, 200))
def test_prizes_sum_to_the_pool_and_fall_with_the_place(pool: int, entrants: int) -> None:
    paid = prizes(pool, entrants)
    assert sum(paid) == pool
    assert list(paid) == sorted(paid, reverse=True)
    assert len(paid) <= entrants
    assert sum(prize_shares(entrants)) == 100


@pytest.mark.parametrize(
    ("entrants", "shares"),
    [(2, (100,)), (6, (100,)), (7, (50, 30, 20)), (17, (50, 30, 20)), (24, (40, 25, 15, 12, 8))],
)
def test_the_prize_structure_by_entrants(entrants: int, shares: tuple[int, ...]) -> None:
    assert prize_shares(entrants) == shares
