"""Hands typed strongest first are read as the player meant where their sizes tell the order;
where they cannot, the hands read weakest first, as the form asks."""

from __future__ import annotations

import random

import pytest

from engine.arrangement import DISCARD_MARK
from engine.cards import AnyCard, Shoe, format_cards, format_hands
from tables.games import GAMES, GameSpec
from tables.hands import read_setting, typed_strongest_first
from tables.setting import Setting, SlotShape, strongest_first
from tests.tables.helpers import quick_arranger


def deal(spec: GameSpec, rng: random.Random) -> tuple[AnyCard, ...]:
    """The cards a player sets at the end of a game of ``spec`` (every draw taken)."""
    held = spec.variant.max_held if spec.variant is not None else spec.deal
    return tuple(Shoe(decks=spec.decks, jokers=spec.jokers, rng=rng).deal(held))


def reversed_text(setting: Setting) -> str:
    text = format_hands(setting.hands[::-1])
    return f"{text} {DISCARD_MARK} {format_cards(setting.discards)}" if setting.discards else text


@pytest.mark.parametrize("game", ["showdown", "standard", "casino", "paigow", "three-card"])
def test_a_setting_typed_strongest_first_reads_as_the_same_setting(game: str) -> None:
    spec = GAMES[game]
    rng = random.Random(7)
    told = 0
    for _ in range(20):
        held = deal(spec, rng)
        setting = quick_arranger(spec, held)
        assert read_setting(spec, held, setting.text) == setting
        assert not typed_strongest_first(spec, setting.text)
        if not typed_strongest_first(spec, reversed_text(setting)):
            continue  # these sizes fit the game's hands both ways: weakest first it is
        told += 1
        # Was: "Hand 1 holds 5; it must hold 1 card." (or the like) for the reversed text.
        assert read_setting(spec, held, reversed_text(setting)) == setting
    assert told > 0, "no deal had sizes that tell the order"


def test_sizes_that_fit_both_ways_read_weakest_first() -> None:
    shape = (SlotShape("low", (3, 5)), SlotShape("mid", (5, 6)), SlotShape("back", (5, 8)))
    assert strongest_first(shape, [8, 5, 3])
    assert not strongest_first(shape, [3, 5, 8])
    assert not strongest_first(shape, [5, 5, 5])
    assert not strongest_first(shape, [8, 8, 8])
