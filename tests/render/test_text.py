"""Text laid from its remembered coverage: the pixels Pillow draws, FreeType asked once."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render.style import (
    FELT,
    GOLD,
    MINUS,
    PANEL,
    RED_ON_FELT,
    TEXT,
    draw_text,
    font,
    text_coverage,
)


@pytest.mark.parametrize("anchor", ["la", "ls", "lm", "mm", "rs", "rm"])
@pytest.mark.parametrize("bold", [False, True])
def test_a_text_is_laid_exactly_as_pillow_draws_it(anchor: str, bold: bool) -> None:
    face = font(21, bold)
    laid = Image.new("RGB", (320, 80), PANEL)
    drawn = laid.copy()
    for xy, text in (((160, 40), "Hand 6 · Straight flush"), ((20, 12), f"{MINUS}1,234 chips")):
        draw_text(laid, xy, text, face=face, fill=GOLD, anchor=anchor)
        ImageDraw.Draw(drawn).text(xy, text, font=face, fill=GOLD, anchor=anchor)
    assert laid.tobytes() == drawn.tobytes()


def test_a_text_is_drawn_by_freetype_once_and_then_remembered() -> None:
    face = font(19)
    assert text_coverage("Three of a kind, queens", face) is text_coverage(
        "Three of a kind, queens", face
    )


def test_red_suits_are_laid_in_red_and_the_rest_in_the_ink() -> None:
    canvas = Image.new("RGB", (200, 40), FELT)
    draw_text(canvas, (4, 4), "W→K♥", face=font(24), fill=TEXT)
    colours = {colour for _, colour in canvas.getcolors(4096) or []}
    assert RED_ON_FELT in colours and TEXT in colours


def test_an_empty_text_lays_nothing() -> None:
    canvas = Image.new("RGB", (40, 40), FELT)
    draw_text(canvas, (4, 4), "", face=font(24), fill=TEXT)
    assert canvas.getcolors() == [(1600, FELT)]
