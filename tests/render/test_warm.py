"""The warm-up draws ahead what the first game's pictures would draw for the first time."""

from __future__ import annotations

import random
from typing import Any

import pytest

import render.cards
from engine.cards import Shoe
from render import ShowdownRow, hand_png, showdown_png
from render.palette import palette
from render.warm import draw_ahead, draw_hands_ahead


def test_after_drawing_ahead_a_showdown_and_a_dealt_hand_draw_no_card_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    draw_ahead()

    def refuse(*args: Any) -> None:
        raise AssertionError("a card was drawn after drawing ahead")

    for drawing in ("_draw_compact", "_draw_face", "_draw_joker"):
        monkeypatch.setattr(render.cards, drawing, refuse)
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(11))
    rows = [
        ShowdownRow(f"Seat {seat}", tuple(shoe.deal(n) for n in (1, 3, 5)), ("",) * 3, (), 0)
        for seat in range(6)
    ]
    showdown_png(rows, title="Showdown")
    for dealt in (20, 17, 9, 7):
        hand_png(shoe.deal(dealt), title="Your cards")
    assert palette() is palette()


def test_drawing_hands_ahead_covers_the_card_width_of_each_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    draw_hands_ahead([23, 25])

    def refuse(*args: Any) -> None:
        raise AssertionError("a card was drawn after drawing ahead")

    for drawing in ("_draw_compact", "_draw_face", "_draw_joker"):
        monkeypatch.setattr(render.cards, drawing, refuse)
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(12))
    for dealt in (23, 25):
        hand_png(shoe.deal(dealt), title="Your cards")
