"""The computers' declaring rule: playing on is worth its points, its share of the pot and the
stakes still to put in, weighed on enough completions of the cards to be stable."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest

from engine import declaring
from engine.cards import Shoe, parse_cards
from engine.declaring import (
    DECLARE_MAX,
    DECLARE_MIN,
    outlook,
    plays_on,
    pot_if_all_play,
    surrender_cost,
)
from engine.solver.solve import solve
from engine.variants import CASINO, SHOWDOWN, STANDARD

BUDGET_S = 0.6


def worth_always(monkeypatch: pytest.MonkeyPatch, *values: float) -> None:
    """Every completion is worth these chips in turn (the solver is not asked)."""
    turns = itertools.cycle(values)
    monkeypatch.setattr(declaring, "solve", lambda *a, **k: SimpleNamespace())
    monkeypatch.setattr(declaring, "_worth", lambda *a, **k: next(turns))


@pytest.mark.parametrize(
    ("round_", "opponents", "plays"), [(0, 3, False), (0, 4, True), (1, 1, True), (1, 2, True)]
)
def test_playing_on_in_showdown_costs_the_stakes_still_to_put_in(
    monkeypatch: pytest.MonkeyPatch, round_: int, opponents: int, plays: bool
) -> None:
    # Cards worth nothing beyond the stakes: at declaration 1 playing on still puts in 10 and
    # 10 (-20), against 5 to each opponent; at declaration 2, 10 against 10 to each.
    worth_always(monkeypatch, 0.0)
    held = Shoe(decks=3, jokers=4, rng=random.Random(1)).deal(20 + 3 * round_)
    found = outlook(SHOWDOWN, round_, held, opponents=opponents, ante=10, budget_s=BUDGET_S)
    assert found.play == -20 + 10 * round_
    assert found.surrender == -surrender_cost(SHOWDOWN, round_, max(1, opponents), 10)
    assert found.plays_on is plays


def test_the_pot_holds_every_ante_and_the_stakes_of_those_still_in() -> None:
    assert pot_if_all_play(SHOWDOWN, opponents=2, seated=4, ante=10) == 4 * 10 + 3 * 20
    assert pot_if_all_play(STANDARD, opponents=5, seated=6, ante=20) == 120


def test_a_setting_that_beats_the_field_takes_the_pot() -> None:
    # Five of a kind behind, four in the middle, trips in front: the highest net at almost
    # every table of the field, so the pot adds almost all of itself to the points.
    held = parse_cards("W W As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd 2c 3d 4h 5s")
    solution = solve(STANDARD, held, budget_s=1.0)
    tables = declaring._field_tables(STANDARD, 2)
    points = declaring._worth(STANDARD, solution, tables, pot=0, ante=20)
    with_pot = declaring._worth(STANDARD, solution, tables, pot=60, ante=20)
    assert points > 0
    assert 0.95 * 60 <= with_pot - points <= 60


def test_a_holding_near_the_line_is_weighed_on_more_completions_than_one_far_from_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    held = Shoe(decks=2, jokers=2, rng=random.Random(2)).deal(13)
    worth_always(monkeypatch, 30.0, 32.0)
    far = outlook(STANDARD, 0, held, opponents=2, ante=20, budget_s=BUDGET_S)
    # Around the surrender's cost (-10), swinging either way: never clear of it.
    worth_always(monkeypatch, -40.0, 20.0)
    near = outlook(STANDARD, 0, held, opponents=2, ante=20, budget_s=BUDGET_S)
    assert (far.completions, near.completions) == (DECLARE_MIN, DECLARE_MAX)
    assert far.plays_on and near.play == -10 and near.plays_on


def test_a_monster_plays_on() -> None:
    strong = parse_cards("W W W W As Ah Ad Ac As Ah Ad Ks Kh Kd Kc Ks Qs Qh Qd Qc")
    assert plays_on(SHOWDOWN, 0, strong, opponents=5, ante=10, budget_s=BUDGET_S)


def test_a_decision_is_the_same_for_the_same_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    held = Shoe(decks=2, jokers=2, rng=random.Random(4)).deal(7)
    # A budget whose CPU guard cannot bind, and solves no wall clock can cut short: the same
    # completions in the same order, each set the same way, then the same stopping rule. (Under
    # the guard, or a solve's 0.25 s on a busy machine, a decision may weigh a little less.)
    monkeypatch.setattr(declaring, "SOLVE_CAP_S", 30.0)
    found = {outlook(CASINO, 0, held, opponents=1, ante=10, budget_s=300.0) for _ in "ab"}
    assert len(found) == 1


def test_surrendering_costs_what_the_rulings_say() -> None:
    assert surrender_cost(SHOWDOWN, 0, opponents=4, ante=10) == 5 * 4  # to each who plays on
    assert surrender_cost(SHOWDOWN, 1, opponents=4, ante=10) == 10 * 4
    assert surrender_cost(STANDARD, 0, opponents=4, ante=20) == 10  # into the pot
    assert surrender_cost(CASINO, 0, opponents=1, ante=10) == 10  # the match
