"""Computer players: every level sets legal hands within its budget (declaring: test_declaring)."""

from __future__ import annotations

import random
import time

import pytest

from engine.arrangement import verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import Shoe
from engine.errors import GameError
from engine.players import Level, arrangement_ev, computer_setting, level_named
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


@pytest.mark.slow  # every level on three 25-card holdings with a 2 s budget
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
    "variant",
    # Showdown's six 25-card holdings are the slow lane's; the quick lane has the others'.
    [pytest.param(SHOWDOWN, marks=pytest.mark.slow), CASINO, STANDARD, NO_SURRENDER],
    ids=lambda variant: variant.name,
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


def test_a_level_is_named() -> None:
    assert level_named(" Strong ") is Level.STRONG
    with pytest.raises(GameError, match="casual, steady, strong"):
        level_named("genius")
