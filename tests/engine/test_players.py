"""Computer players: every level sets legal hands within its budget, and declares by one rule."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import pytest

from engine import players
from engine.arrangement import verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import Shoe, parse_cards
from engine.errors import GameError
from engine.players import (
    Level,
    arrangement_ev,
    computer_setting,
    level_named,
    plays_on,
    surrender_cost,
)
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, Variant

BUDGET_S = 0.3


@pytest.mark.parametrize(
    "variant", [SHOWDOWN, CASINO, STANDARD, NO_SURRENDER], ids=lambda variant: variant.name
)
@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_every_level_sets_legal_hands_within_the_budget(variant: Variant, level: Level) -> None:
    for seed in range(3):
        shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=random.Random(seed))
        held = shoe.deal(variant.max_held)
        started = time.process_time()
        arrangement, automatic = computer_setting(variant, level, held, budget_s=BUDGET_S)
        spent = time.process_time() - started
        if automatic is None:
            verify_arrangement(variant, held, arrangement)
        else:
            verify_automatic(variant, held, arrangement, automatic)
        assert spent <= BUDGET_S + 0.5, (level, seed, spent)  # a liveness bound, not a benchmark


def test_the_strong_level_sets_at_least_as_well_as_the_others_by_the_model() -> None:
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(11))
    for _ in range(3):
        held = shoe.deal(SHOWDOWN.max_held)
        worth = {
            level: arrangement_ev(
                SHOWDOWN, computer_setting(SHOWDOWN, level, held, budget_s=2.0)[0]
            )
            for level in Level
        }
        assert worth[Level.STRONG] >= max(worth[Level.CASUAL], worth[Level.STEADY]) - 1e-9


@pytest.mark.parametrize(
    "variant", [SHOWDOWN, CASINO, STANDARD, NO_SURRENDER], ids=lambda variant: variant.name
)
def test_the_steady_level_weighs_top_first_among_other_ways_and_often_finds_better(
    variant: Variant,
) -> None:
    # Steady must sit between casual and strong: top first is its first way, so it never sets
    # worse by the field model, and its other ways must win on some holdings (random legal
    # settings, its ways before, never beat top first in the games with declarations).
    better = 0
    for seed in range(6):
        shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=random.Random(seed))
        held = shoe.deal(variant.max_held)
        casual, _ = computer_setting(variant, Level.CASUAL, held, budget_s=2.0)
        steady, _ = computer_setting(variant, Level.STEADY, held, budget_s=2.0)
        verify_arrangement(variant, held, steady)
        gain = arrangement_ev(variant, steady) - arrangement_ev(variant, casual)
        assert gain >= -1e-9, seed
        better += gain > 1e-9
    assert better >= 2


@pytest.mark.parametrize(("ev", "plays"), [(-6.0, False), (-5.0, True), (-4.0, True)])
def test_a_computer_surrenders_when_its_cards_are_worth_less_than_surrendering(
    monkeypatch: pytest.MonkeyPatch, ev: float, plays: bool
) -> None:
    # Showdown's first declaration against five: surrendering costs 5 to each, 25 in all; the
    # cards' expected points per opponent times five are weighed against that.
    monkeypatch.setattr(players, "solve", lambda *a, **k: SimpleNamespace(ev=ev))
    held = Shoe(decks=3, jokers=4, rng=random.Random(1)).deal(20)
    assert plays_on(SHOWDOWN, 0, held, opponents=5, ante=10, budget_s=BUDGET_S) is plays


@pytest.mark.parametrize(("ev", "plays"), [(-3.0, True), (-3.5, False)])
def test_the_field_models_points_already_carry_the_games_multiplier(
    monkeypatch: pytest.MonkeyPatch, ev: float, plays: bool
) -> None:
    # Standard doubles its points, and the field model's values are points as scored (doubled
    # already): against three, -3 per opponent is 9 chips, less than the 10 a surrender puts in
    # the pot, so the computer plays on; -3.5 is 10.5, so it surrenders.
    monkeypatch.setattr(players, "solve", lambda *a, **k: SimpleNamespace(ev=ev))
    held = Shoe(decks=2, jokers=2, rng=random.Random(1)).deal(13)
    assert plays_on(STANDARD, 0, held, opponents=3, ante=20, budget_s=BUDGET_S) is plays


def test_a_monster_plays_on() -> None:
    strong = parse_cards("W W W W As Ah Ad Ac As Ah Ad Ks Kh Kd Kc Ks Qs Qh Qd Qc")
    assert plays_on(SHOWDOWN, 0, strong, opponents=5, ante=10, budget_s=BUDGET_S)


def test_a_decision_is_the_same_for_the_same_cards() -> None:
    held = Shoe(decks=2, jokers=2, rng=random.Random(4)).deal(7)
    decisions = {plays_on(CASINO, 0, held, opponents=1, ante=10, budget_s=BUDGET_S) for _ in "ab"}
    assert len(decisions) == 1


def test_surrendering_costs_what_the_rulings_say() -> None:
    assert surrender_cost(SHOWDOWN, 0, opponents=4, ante=10) == 5 * 4  # to each who plays on
    assert surrender_cost(SHOWDOWN, 1, opponents=4, ante=10) == 10 * 4
    assert surrender_cost(STANDARD, 0, opponents=4, ante=20) == 10  # into the pot
    assert surrender_cost(CASINO, 0, opponents=1, ante=10) == 10  # the match


def test_a_level_is_named() -> None:
    assert level_named(" Strong ") is Level.STRONG
    with pytest.raises(GameError, match="casual, steady, strong"):
        level_named("genius")
