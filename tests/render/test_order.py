"""Hands drawn as they play: groups first, runs from the top, each joker where it plays."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.cards import JOKER, Card, Rank, Suit, parse_card, parse_cards
from engine.evaluate import PAI_GOW_RULES, PYRAMID_RULES, THREE_CARD_RULES
from render.cards import Face, PlayedJoker, draw_fan
from render.order import in_play_order


def _written(faces: Sequence[Face]) -> str:
    return " ".join(
        f"W→{face.became}" if isinstance(face, PlayedJoker) else str(face) for face in faces
    )


def test_a_joker_in_a_straight_is_drawn_between_the_cards_it_joins() -> None:
    drawn = in_play_order(parse_cards("W Ts As Js Ks"), PYRAMID_RULES)
    assert _written(drawn) == "As Ks W→Qs Js Ts"
    assert drawn[2] == PlayedJoker(Card(Rank.QUEEN, Suit.SPADES))


def test_a_full_house_is_drawn_trips_first_with_the_joker_among_them() -> None:
    drawn = in_play_order(parse_cards("4c Kh W 4s Kd"), PYRAMID_RULES)
    assert _written(drawn) == "W→Ks Kh Kd 4s 4c"


def test_a_long_straight_flush_shows_the_gap_the_joker_fills() -> None:
    drawn = in_play_order(parse_cards("7s Qs W 9s 8s Js"), PYRAMID_RULES)
    assert _written(drawn) == "Qs Js W→Ts 9s 8s 7s"


def test_two_jokers_of_the_same_card_are_both_marked() -> None:
    drawn = in_play_order(parse_cards("W 3h W 3d 3c"), PYRAMID_RULES)
    assert _written(drawn) == "W→3s W→3s 3h 3d 3c"


def test_a_joker_that_becomes_a_card_also_held_is_drawn_once_as_each() -> None:
    drawn = in_play_order(parse_cards("As W 7d"), PYRAMID_RULES)
    assert _written(drawn) == "As W→As 7d"


def test_the_pai_gow_bug_is_drawn_as_the_ace_it_plays() -> None:
    assert _written(in_play_order((parse_card("5c"), JOKER), PAI_GOW_RULES)) == "W→As 5c"


def test_a_hand_without_jokers_is_drawn_highest_first() -> None:
    assert _written(in_play_order(parse_cards("3d Kc"), THREE_CARD_RULES)) == "Kc 3d"


def test_cards_that_are_not_a_hand_are_drawn_from_the_highest_down_jokers_first() -> None:
    drawn = in_play_order(parse_cards("8h W 2c Jd"), PYRAMID_RULES)
    assert drawn == (JOKER, *parse_cards("Jd 8h 2c"))


def test_a_joker_playing_as_a_card_is_drawn_unlike_the_card_and_unlike_a_joker() -> None:
    king = Card(Rank.KING, Suit.SPADES)
    pictures = []
    for face in (king, PlayedJoker(king), JOKER):
        canvas = Image.new("RGB", (80, 110))
        draw_fan(canvas, [face], (4, 4), width=64, step=28)
        pictures.append(canvas.tobytes())
    assert len(set(pictures)) == 3
