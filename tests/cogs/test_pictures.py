"""The cogs' pictures: what they hand the render functions, from cards and events."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.pictures
from cogs.pictures import hand_picture, phase_subtitle
from engine.cards import format_cards, parse_cards
from tables.events import ArrangingOpened, DeclarationsOpened


@pytest.fixture
def hand_png_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """What ``hand_picture`` hands the renderer (a picture is still drawn)."""
    calls: list[tuple[Any, dict[str, Any]]] = []
    original = cogs.pictures.hand_png

    def spy(cards: Any, **kwargs: Any) -> bytes:
        calls.append((cards, kwargs))
        return original(cards, **kwargs)

    monkeypatch.setattr(cogs.pictures, "hand_png", spy)
    return calls


def test_a_hand_picture_draws_the_cards_by_rank_jokers_first(
    hand_png_calls: list[tuple[Any, dict[str, Any]]],
) -> None:
    data = hand_picture(parse_cards("3c As W Kh Ad"), subtitle="Showdown Version · declaration 1")
    assert data.startswith(b"\x89PNG")
    (cards, options), *_ = hand_png_calls
    assert format_cards(cards) == "W As Ad Kh 3c"
    assert options == {"title": "Your cards", "subtitle": "Showdown Version · declaration 1"}


def test_a_hand_picture_can_group_the_cards_by_suit(
    hand_png_calls: list[tuple[Any, dict[str, Any]]],
) -> None:
    hand_picture(parse_cards("3c As W Kh Ad 2s"), by="suit")
    assert format_cards(hand_png_calls[0][0]) == "W As 2s Kh Ad 3c"


def test_the_subtitle_names_the_declaration_or_the_setting_of_hands() -> None:
    declaring = DeclarationsOpened(1, (1, 2), 0.0, 5, 2, 2)
    assert phase_subtitle("Showdown Version", declaring) == "Showdown Version · declaration 2"
    arranging = ArrangingOpened((1, 2), 0.0)
    assert phase_subtitle("Pai Gow poker", arranging) == "Pai Gow poker · set your hands"
