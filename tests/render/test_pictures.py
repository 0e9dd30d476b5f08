"""Hand, arrangement, showdown and leaderboard pictures: PNG, mode, size and bytes."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence

import pytest
from PIL import Image

from engine.cards import JOKER, AnyCard, Shoe, parse_cards
from render import ShowdownRow, hand_png, hands_png, leaderboard_png, showdown_png
from render.cards import card_height
from render.hands import hand_layout

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: The issue's budget for a showdown picture; Discord's own attachment limit is 10 MiB.
ONE_MB = 1_000_000
#: The Showdown Version's largest legal sizes add up to 25 cards: 1, 3, 5, 5, 5 and 6.
SHOWDOWN_SIZES = (1, 3, 5, 5, 5, 6)
LONG_LABELS = (
    "Ace high",
    "Three of a kind, queens (W→Q♦)",
    "Full house, kings over fours (W→K♥)",
    "Full house, nines over fours",
    "Royal flush (W→A♠)",
    "6-card straight flush, seven high (W→7♣, W→3♦)",
)


def _opened(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _six_player_rows(seed: int = 1) -> list[ShowdownRow]:
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(seed))
    rows = []
    for seat in range(6):
        hands = tuple(shoe.deal(size) for size in SHOWDOWN_SIZES)
        rows.append(
            ShowdownRow(
                name=f"Player with a long name {seat}",
                hands=hands,
                labels=LONG_LABELS,
                per_hand=(3, -12, 0, 25, -40, 6),
                net=(-1) ** seat * 125,
                note="dealer" if seat == 0 else "",
            )
        )
    return rows


def _showdown(rows: Sequence[ShowdownRow]) -> bytes:
    names = [row.name for row in rows]
    matrix = [[0 if i == j else i - j for j in range(len(rows))] for i in range(len(rows))]
    return showdown_png(
        rows,
        title="Showdown · Showdown Version",
        matrix=matrix,
        matrix_names=names,
        footer=["Pot 180 chips won by Player 0 ♠", "Points: 218 chips changed hands"],
    )


def test_a_dealt_hand_is_a_png_of_a_row_of_cards() -> None:
    image = _opened(hand_png(parse_cards("As Kh Qd Jc W"), title="Your hand", subtitle="Seat 1"))
    assert image.format == "PNG"
    assert image.mode == "P"
    assert 300 < image.width < 1100
    assert 150 < image.height < 400


def test_a_25_card_hand_stays_within_a_phones_width_in_rows() -> None:
    cards = Shoe(decks=3, jokers=4, rng=random.Random(3)).deal(25)
    image = _opened(hand_png(cards, title="Your hand"))
    # Was one row 1,077 pixels wide.
    assert image.width <= 720
    card_width, _, per_row = hand_layout(25)
    assert per_row < 25 and image.height > 2 * card_height(card_width)
    assert image.width > _opened(hand_png(cards[:5], title="Your hand")).width


def test_an_empty_hand_still_draws() -> None:
    assert _opened(hand_png([])).width > 0


def test_an_arrangement_preview_has_one_row_per_hand_and_one_for_discards() -> None:
    hands = [parse_cards(text) for text in ("As", "Kh Kd 2c", "W Qs Qh")]
    labels = ["Hand 1 · Ace high", "Hand 2 · Pair of kings (2)", "Hand 3 · Trips (W→Q♦)"]
    plain = _opened(hands_png(hands, labels, title="Your arrangement"))
    with_discards = _opened(hands_png(hands, labels, discards=parse_cards("8c 3d")))
    fewer = _opened(hands_png(hands[:2], labels[:2], title="Your arrangement"))
    assert plain.mode == "P"
    assert fewer.height < plain.height
    assert with_discards.height > plain.height - 60  # a row more, a title less


def test_an_arrangement_preview_needs_a_label_per_hand() -> None:
    with pytest.raises(ValueError, match="labels"):
        hands_png([parse_cards("As")], ["Hand 1", "Hand 2"])


def test_a_six_player_showdown_of_25_cards_each_stays_under_one_megabyte() -> None:
    rows = _six_player_rows()
    assert all(sum(len(hand) for hand in row.hands) == 25 for row in rows)
    data = _showdown(rows)
    image = _opened(data)
    assert len(data) < ONE_MB
    assert image.mode == "P"
    # Narrow enough to read on a phone (shown about 400 pixels wide), never wider than the issue's
    # ~1,400 pixels; six seats of two lines of hands each make it tall instead.
    assert 560 <= image.width <= 900
    assert image.height < 4000


def test_a_surrendered_row_shows_the_name_and_note_only() -> None:
    rows = _six_player_rows()
    surrendered = ShowdownRow("Quitter", (), (), (), -10, "surrendered at declaration 1")
    shorter = _opened(_showdown([*rows[:5], surrendered]))
    assert shorter.height < _opened(_showdown(rows)).height


def test_a_showdown_without_matrix_or_footer_is_shorter() -> None:
    rows = _six_player_rows()[:2]
    bare = _opened(showdown_png(rows, title="Showdown"))
    assert bare.height < _opened(_showdown(rows)).height


def test_a_showdown_row_needs_a_label_and_points_per_hand() -> None:
    hands: tuple[tuple[AnyCard, ...], ...] = ((JOKER,), parse_cards("As Ks Qs"))
    with pytest.raises(ValueError, match="do not match"):
        ShowdownRow("Ada", hands, ("Ace high",), (1, 2), 3)


def test_the_net_matrix_must_be_square_with_a_name_per_row() -> None:
    with pytest.raises(ValueError, match="square"):
        showdown_png(_six_player_rows()[:2], title="x", matrix=[[0, 1]], matrix_names=["a", "b"])


def test_a_leaderboard_has_a_row_per_line() -> None:
    lines = [(rank, f"Player {rank}", 10_000 // rank) for rank in range(1, 11)]
    ten = _opened(leaderboard_png("Chips", lines))
    three = _opened(leaderboard_png("Chips", lines[:3]))
    assert ten.mode == "P"
    assert ten.width == three.width
    assert ten.height > three.height


def test_an_empty_leaderboard_still_draws() -> None:
    assert _opened(leaderboard_png("Chips", [(1, "x" * 200, -5)])).height > 0
    assert _opened(leaderboard_png("Chips", [])).height > 0
