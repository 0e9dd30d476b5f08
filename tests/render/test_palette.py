"""One palette for all pictures: made once, the design's colours exact, cards and text close."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.cards import JOKER, Card, Rank, Suit
from render.cards import Face, PlayedJoker, card_height, draw_fan
from render.palette import FLAT, palette, to_png
from render.style import (
    FELT,
    GAIN,
    GOLD,
    LOSS,
    MEDAL_INK,
    MEDALS,
    MUTED,
    PANEL,
    RED_ON_FELT,
    ROW_ALTERNATE,
    TEXT,
    font,
    panel,
)

EVERY_CARD = [Card(rank, suit) for rank in Rank for suit in Suit]
EVERY_FACE: list[Face | None] = [
    *EVERY_CARD,
    JOKER,
    *(PlayedJoker(card) for card in EVERY_CARD),
    None,
]
#: Every rank, each suit three times over, the joker played as a red and a black card.
SOME_FACES: list[Face | None] = [
    *(Card(rank, Suit(index % 4)) for index, rank in enumerate(Rank)),
    JOKER,
    PlayedJoker(Card(Rank.QUEEN, Suit.DIAMONDS)),
    PlayedJoker(Card(Rank.FIVE, Suit.CLUBS)),
    None,
]
#: The card widths pictures draw: the showdown's, the preview's, a 24- and a 25-card hand's
#: (compact), and a hand of up to 20 cards, in the full design.
WIDTHS = (64, 84, 98, 95, 112)


def _written(image: Image.Image) -> Image.Image:
    with Image.open(io.BytesIO(to_png(image))) as written:
        assert written.mode == "P"
        return written.convert("RGB")


def _errors(drawn: Image.Image) -> list[int]:
    """How many pixels are off by 0, 1, ... 255 in their worst channel once written."""
    red, green, blue = ImageChops.difference(drawn, _written(drawn)).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()


def _fans(faces: Sequence[Face | None], ground: tuple[int, int, int]) -> Image.Image:
    rows = [faces[start : start + 27] for start in range(0, len(faces), 27)]
    height = sum(card_height(width) + 20 for width in WIDTHS) * len(rows) * 2
    canvas = Image.new("RGB", (27 * 120 + 40, height), ground)
    y = 10
    for width in WIDTHS:
        for row in rows:
            draw_fan(canvas, row, (10, y), width=width, step=width * 2 // 5)
            y += card_height(width) + 20
            draw_fan(canvas, row, (10, y), width=width, step=width + 6)
            y += card_height(width) + 20
    return canvas


def test_the_palette_is_made_once_and_holds_256_colours_at_most() -> None:
    assert palette() is palette()
    assert len(palette().getpalette() or []) <= 3 * 256


def test_every_flat_colour_of_the_design_is_written_exactly() -> None:
    swatch = Image.new("RGB", (len(FLAT), 1))
    swatch.putdata(list(FLAT))
    assert list(_written(swatch).get_flattened_data()) == list(FLAT)


def _assert_close(errors: list[int]) -> None:
    """A colour is one of 256: an antialiased edge may move a few levels. The full design's
    sharpened edges (Lanczos rings a little past the ink) move the most."""
    pixels = sum(errors)
    assert sum(level * count for level, count in enumerate(errors)) / pixels < 1.5
    assert sum(errors[13:]) / pixels < 0.005
    assert sum(errors[25:]) / pixels < 0.0005
    assert not any(errors[41:])


def test_cards_of_every_rank_suit_and_size_keep_their_colours_on_felt_and_panel() -> None:
    for ground in (FELT, PANEL):
        _assert_close(_errors(_fans(SOME_FACES, ground)))


# Some 500 card drawings: about 8 s.
@pytest.mark.slow
def test_every_card_at_every_size_keeps_its_colours_on_felt_and_panel() -> None:
    for ground in (FELT, PANEL):
        _assert_close(_errors(_fans(EVERY_FACE, ground)))


def test_text_of_every_colour_on_every_ground_keeps_its_colours() -> None:
    inks = [TEXT, GOLD, MUTED, GAIN, LOSS, RED_ON_FELT]
    canvas = Image.new("RGB", (900, 400), FELT)
    panel(canvas, (0, 130, 900, 260), edge=GOLD)
    canvas.paste(ROW_ALTERNATE, (0, 260, 900, 400))
    draw = ImageDraw.Draw(canvas)
    for row, top in enumerate((10, 140, 270)):
        for column, ink in enumerate(inks):
            for size, line in ((16, 0), (26, 40), (34, 80)):
                face = font(size, bold=row == 1)
                draw.text((10 + 145 * column, top + line), "Ag♥+3", font=face, fill=ink)
    for rank, medal in MEDALS.items():
        x = 700 + 40 * rank
        draw.ellipse((x, 300, x + 30, 330), fill=medal)
        draw.text((x + 15, 315), str(rank), font=font(16, True), fill=MEDAL_INK, anchor="mm")
    _assert_close(_errors(canvas))
