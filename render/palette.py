"""The one 256-colour palette every picture is written with, made once, and the PNG bytes."""

from __future__ import annotations

import io
from functools import cache
from itertools import product
from typing import Final

from PIL import Image

from engine.cards import JOKER, Card, Rank, Suit
from render.cards import (
    BACK_GOLD,
    BACK_INK,
    BACK_LINE,
    BLACK,
    EDGE,
    JOKER_GOLD,
    JOKER_INK,
    JOKER_TINT,
    RED,
    WHITE,
    Face,
    PlayedJoker,
    card_height,
    draw_fan,
)
from render.style import (
    FELT,
    GAIN,
    GOLD,
    LOSS,
    MEDAL_INK,
    MEDALS,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RED_ON_FELT,
    ROW_ALTERNATE,
    TEXT,
    Colour,
)

#: Colours that fill whole areas: each is its own palette entry, written exactly.
FLAT: Final[tuple[Colour, ...]] = (
    FELT,
    PANEL,
    PANEL_EDGE,
    ROW_ALTERNATE,
    TEXT,
    MUTED,
    GOLD,
    GAIN,
    LOSS,
    RED_ON_FELT,
    *MEDALS.values(),
    MEDAL_INK,
    WHITE,
    EDGE,
    RED,
    BLACK,
    JOKER_INK,
    JOKER_GOLD,
    JOKER_TINT,
    BACK_INK,
    BACK_LINE,
    BACK_GOLD,
)
#: What is drawn on what, antialiased: text and panel edges on the table's grounds.
_GROUNDS: Final = (FELT, PANEL, ROW_ALTERNATE)
_INKS: Final = (TEXT, MUTED, GOLD, GAIN, LOSS, RED_ON_FELT, PANEL_EDGE)
#: Cards that between them have every ink and shadow of a compact card (red and black pips,
#: courts and aces, a joker, a joker played as a red and a black card), and the back.
_SPECIMENS: Final[tuple[Face | None, ...]] = (
    Card(Rank.ACE, Suit.SPADES),
    Card(Rank.KING, Suit.HEARTS),
    Card(Rank.QUEEN, Suit.SPADES),
    Card(Rank.JACK, Suit.DIAMONDS),
    Card(Rank.TEN, Suit.CLUBS),
    Card(Rank.SEVEN, Suit.HEARTS),
    Card(Rank.TWO, Suit.SPADES),
    JOKER,
    PlayedJoker(Card(Rank.KING, Suit.HEARTS)),
    PlayedJoker(Card(Rank.TWO, Suit.SPADES)),
    None,
)
#: The showdown's card width (compact design): other sizes and the full design draw the same
#: inks on the same grounds, and the palette holds them well enough (tests/render/test_palette.py).
_CARD_WIDTH: Final = 64
#: A palette entry this close to a flat colour (in every channel) can take that colour's pixels:
#: Pillow maps colours through a cache of small cubes of colours (it took TEXT's and WHITE's).
_CLEARANCE: Final = 4


def _blends(ink: Colour, ground: Colour) -> Image.Image:
    """Every shade an antialiased edge of ``ink`` takes on ``ground``, as Pillow blends it."""
    coverage = Image.new("L", (256, 1))
    coverage.putdata(range(256))
    strip = Image.new("RGB", (256, 1), ground)
    strip.paste(ink, (0, 0, 256, 1), coverage)
    return strip


def _swatch() -> Image.Image:
    """What pictures draw: the blends of every ink on every ground, and the specimen cards
    fanned and apart on the felt and on a panel."""
    pairs = [
        *product(_INKS, _GROUNDS),
        (GOLD, PANEL_EDGE),
        *((MEDAL_INK, medal) for medal in MEDALS.values()),
    ]
    band = 2 * card_height(_CARD_WIDTH) + 40
    width = (_CARD_WIDTH + 10) * len(_SPECIMENS)
    swatch = Image.new("RGB", (width, len(pairs) + 2 * band), FELT)
    for y, (ink, ground) in enumerate(pairs):
        swatch.paste(_blends(ink, ground), (0, y))
    for index, ground in enumerate((FELT, PANEL)):
        top = len(pairs) + index * band
        swatch.paste(ground, (0, top, swatch.width, top + band))
        fanned, apart = _CARD_WIDTH * 2 // 5, _CARD_WIDTH + 10
        draw_fan(swatch, _SPECIMENS, (10, top + 10), width=_CARD_WIDTH, step=fanned)
        below = top + band // 2 + 10
        draw_fan(swatch, _SPECIMENS, (5, below), width=_CARD_WIDTH, step=apart)
    return swatch


def _apart(entry: tuple[int, ...], flat: Colour) -> bool:
    return max(abs(a - b) for a, b in zip(entry, flat, strict=True)) > _CLEARANCE


@cache
def palette() -> Image.Image:
    """The palette image every picture is mapped onto: the flat colours exactly, and 256 in
    all, chosen from the swatch's colours (made once per process: about 80 ms of CPU)."""
    # Two threads drawing their first pictures at once may both make it: the same palette.
    swatch = _swatch()
    colours = swatch.getcolors(1 << 16)
    assert colours is not None, "more than 65,536 colours in the swatch"
    drawn = {colour for _, colour in colours if isinstance(colour, tuple)}
    blends = sorted(drawn - set(FLAT))
    strip = Image.new("RGB", (len(blends), 1))
    strip.putdata(blends)
    chosen = strip.quantize(
        256 - len(FLAT), method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE
    )
    values = chosen.getpalette() or []
    entries = [tuple(values[i : i + 3]) for i in range(0, len(values), 3)]
    kept = [entry for entry in entries if all(_apart(entry, flat) for flat in FLAT)]
    image = Image.new("P", (1, 1))
    image.putpalette([value for colour in (*FLAT, *kept) for value in colour])
    return image


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of a picture, its colours mapped onto the shared palette."""
    # Discord's attachment limit is 10 MiB and a small file shows sooner; the pictures are flat
    # colours, text and small cards, which 256 colours hold (tests/render/test_palette.py).
    # One palette made once costs a picture a lookup per pixel (3 ms for a six-player
    # showdown), where choosing each picture's own colours cost it 14 ms.
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    paletted = rgb.quantize(palette=palette(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    # zlib's fast levels (1-3) pack a six-player showdown in 8 ms to 129 KB, level 6 in 18 ms to
    # 107 KB: a fifth more bytes, far under the 1 MB budget, for the biggest saving in CPU.
    paletted.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
