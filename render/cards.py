"""The project's own cards drawn in code: faces, the joker, the back, and fans of them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageFilter

from engine.cards import AnyCard, Card, Rank, Suit, card_from_code
from render.style import Colour, font

CARD_WIDTH: Final = 240
CARD_HEIGHT: Final = 336
#: Cards are drawn this many times larger, then reduced: Pillow's shapes have no antialiasing.
_SS: Final = 2
_RADIUS: Final = 18

WHITE: Final[Colour] = (255, 255, 255)
EDGE: Final[Colour] = (178, 182, 190)
RED: Final[Colour] = (200, 32, 48)
BLACK: Final[Colour] = (28, 30, 36)
JOKER_INK: Final[Colour] = (104, 44, 150)
JOKER_GOLD: Final[Colour] = (236, 168, 36)
BACK_INK: Final[Colour] = (134, 26, 44)
BACK_LINE: Final[Colour] = (164, 52, 70)
BACK_GOLD: Final[Colour] = (240, 196, 90)

#: The code drawn as the card back in the caches below (real codes are 0..59).
BACK_CODE: Final = -1
#: A joker that became a card is drawn under this code plus the card's code (72..123).
PLAYED_JOKER_CODE: Final = 64


@dataclass(frozen=True, slots=True)
class PlayedJoker:
    """A joker drawn where it plays in its hand: the face of the card it became, marked wild."""

    became: Card

    is_joker = True

    @property
    def code(self) -> int:
        """The code of this drawing in the sprite caches (never a card's code)."""
        return PLAYED_JOKER_CODE + self.became.code


#: What a picture can show: a card, a joker, or a joker as the card it became.
Face = AnyCard | PlayedJoker

_L, _M, _R = 0.0, 0.5, 1.0
#: Where the pips of 2-10 sit, as (column, row) in the pip area (the usual layout).
_PIPS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    2: ((_M, 0), (_M, 1)),
    3: ((_M, 0), (_M, 0.5), (_M, 1)),
    4: ((_L, 0), (_R, 0), (_L, 1), (_R, 1)),
    5: ((_L, 0), (_R, 0), (_M, 0.5), (_L, 1), (_R, 1)),
    6: ((_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)),
    7: ((_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)),
    8: ((_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_M, 0.75), (_L, 1), (_R, 1)),
    9: (
        *((_L, y) for y in (0, 1 / 3, 2 / 3, 1)),
        (_M, 0.5),
        *((_R, y) for y in (0, 1 / 3, 2 / 3, 1)),
    ),
    10: (
        *((_L, y) for y in (0, 1 / 3, 2 / 3, 1)),
        (_M, 1 / 6),
        (_M, 5 / 6),
        *((_R, y) for y in (0, 1 / 3, 2 / 3, 1)),
    ),
}
#: The court cards' figures, from the font's chess symbols.
_COURT: Final = {Rank.JACK: "♞", Rank.QUEEN: "♛", Rank.KING: "♚"}


def suit_colour(suit: Suit) -> Colour:
    """Red for hearts and diamonds, black for spades and clubs."""
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


def _s(value: float) -> int:
    return round(value * _SS)


def _blank(fill: Colour = WHITE) -> Image.Image:
    card = Image.new("RGBA", (_s(CARD_WIDTH), _s(CARD_HEIGHT)), (0, 0, 0, 0))
    ImageDraw.Draw(card).rounded_rectangle(
        (0, 0, card.width - 1, card.height - 1),
        radius=_s(_RADIUS),
        fill=(*fill, 255),
        outline=(*EDGE, 255),
        width=_s(1.5),
    )
    return card


def _tile(text: str, size: int, colour: Colour, *, bold: bool, max_width: int = 0) -> Image.Image:
    """Text on a tightly cropped transparent tile, squeezed sideways to ``max_width`` (the 10)."""
    face = font(size, bold)
    left, top, right, bottom = (round(edge) for edge in face.getbbox(text, anchor="ls"))
    tile = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((1 - left, 1 - top), text, font=face, fill=colour, anchor="ls")
    if max_width and tile.width > max_width:
        tile = tile.resize((max_width, tile.height), Image.Resampling.LANCZOS)
    return tile


def _glyph(text: str, size: int, colour: Colour, *, bold: bool, max_width: int = 0) -> Image.Image:
    """A glyph tile for a full-size card, sizes given in card pixels."""
    return _tile(text, _s(size), colour, bold=bold, max_width=_s(max_width))


def _paste_centred(card: Image.Image, tile: Image.Image, cx: float, cy: float) -> None:
    card.alpha_composite(tile, (round(_s(cx) - tile.width / 2), round(_s(cy) - tile.height / 2)))


def _index_tile(rank: str, mark: str, colour: Colour, mark_colour: Colour) -> Image.Image:
    """The corner index: the rank over its suit, on a transparent tile 56 by 112."""
    tile = Image.new("RGBA", (_s(56), _s(112)), (0, 0, 0, 0))
    letter = _glyph(rank, 50, colour, bold=True, max_width=46)
    tile.alpha_composite(letter, (round((tile.width - letter.width) / 2), _s(8)))
    symbol = _glyph(mark, 40, mark_colour, bold=False)
    tile.alpha_composite(
        symbol, (round((tile.width - symbol.width) / 2), letter.height + _s(8) + _s(10))
    )
    return tile


def _add_indices(card: Image.Image, tile: Image.Image) -> None:
    card.alpha_composite(tile, (_s(4), _s(6)))
    turned = tile.rotate(180)
    card.alpha_composite(
        turned, (card.width - turned.width - _s(4), card.height - turned.height - _s(6))
    )


def _draw_pips(card: Image.Image, rank: int, suit: Suit) -> None:
    pip = _glyph(suit.symbol, 48, suit_colour(suit), bold=False)
    turned = pip.rotate(180)
    left, right, top, bottom = 82, 158, 66, 270
    for column, row in _PIPS[rank]:
        x = left + (right - left) * column
        y = top + (bottom - top) * row
        _paste_centred(card, turned if row > 0.5 else pip, x, y)


def _draw_ace(card: Image.Image, suit: Suit) -> None:
    _paste_centred(card, _glyph(suit.symbol, 130, suit_colour(suit), bold=False), 120, 168)


def _draw_court(card: Image.Image, rank: Rank, suit: Suit) -> None:
    colour = suit_colour(suit)
    tint = (253, 236, 236) if colour == RED else (234, 237, 246)
    draw = ImageDraw.Draw(card)
    box = (_s(58), _s(40), _s(182), _s(296))
    draw.rounded_rectangle(
        box, radius=_s(8), fill=(*tint, 255), outline=(*colour, 255), width=_s(2)
    )
    # ImageDraw replaces pixels rather than blending them, so the faint line is mixed by hand.
    faint = tuple((c + 2 * t) // 3 for c, t in zip(colour, tint, strict=True))
    draw.line((_s(64), _s(168), _s(176), _s(168)), fill=(*faint, 255), width=_s(1))
    half = Image.new("RGBA", (_s(120), _s(124)), (0, 0, 0, 0))
    figure = _glyph(_COURT[rank], 86, colour, bold=False)
    half.alpha_composite(figure, (round((half.width - figure.width) / 2), _s(18)))
    small = _glyph(suit.symbol, 28, colour, bold=False)
    half.alpha_composite(small, (_s(10), _s(10)))
    card.alpha_composite(half, (_s(60), _s(42)))
    card.alpha_composite(half.rotate(180), (_s(60), _s(170)))


def _draw_face(card_value: Card) -> Image.Image:
    card = _blank()
    rank, suit = card_value.rank, card_value.suit
    colour = suit_colour(suit)
    label = "10" if rank == Rank.TEN else rank.letter
    _add_indices(card, _index_tile(label, suit.symbol, colour, colour))
    if rank == Rank.ACE:
        _draw_ace(card, suit)
    elif rank in _COURT:
        _draw_court(card, rank, suit)
    else:
        _draw_pips(card, int(rank), suit)
    return card


def _draw_joker() -> Image.Image:
    card = _blank()
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle(
        (_s(58), _s(40), _s(182), _s(296)),
        radius=_s(10),
        fill=(250, 244, 255, 255),
        outline=(*JOKER_INK, 255),
        width=_s(2),
    )
    _add_indices(card, _index_tile("W", "★", JOKER_INK, JOKER_GOLD))
    star = _glyph("★", 112, JOKER_GOLD, bold=False)
    ring = _glyph("★", 112, JOKER_INK, bold=False).filter(ImageFilter.MaxFilter(_s(3) | 1))
    _paste_centred(card, ring, 120, 142)
    _paste_centred(card, star, 120, 142)
    _paste_centred(card, _glyph("J O K E R", 19, JOKER_INK, bold=True), 120, 246)
    return card


def _draw_back() -> Image.Image:
    card = _blank()
    inner = Image.new("RGBA", (_s(CARD_WIDTH - 24), _s(CARD_HEIGHT - 24)), (*BACK_INK, 255))
    draw = ImageDraw.Draw(inner)
    step = _s(18)
    for offset in range(-inner.height, inner.width + inner.height, step):
        draw.line((offset, 0, offset + inner.height, inner.height), fill=BACK_LINE, width=_s(2))
        draw.line((offset, inner.height, offset + inner.height, 0), fill=BACK_LINE, width=_s(2))
    cx, cy = inner.width / 2, inner.height / 2
    draw.ellipse(
        (cx - _s(62), cy - _s(62), cx + _s(62), cy + _s(62)),
        fill=BACK_INK,
        outline=BACK_GOLD,
        width=_s(3),
    )
    # A stepped pyramid, for Pyramid Poker.
    for level in range(4):
        half = _s(14 + level * 11)
        top = cy - _s(34) + level * _s(17)
        draw.rectangle((cx - half, top, cx + half, top + _s(13)), fill=BACK_GOLD)
    mask = Image.new("L", inner.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, inner.width - 1, inner.height - 1), radius=_s(10), fill=255
    )
    card.paste(inner, (_s(12), _s(12)), mask)
    return card


@cache
def _card_by_code(code: int) -> Image.Image:
    if code == BACK_CODE:
        big = _draw_back()
    else:
        card = card_from_code(code)
        big = _draw_face(card) if isinstance(card, Card) else _draw_joker()
    return big.resize((CARD_WIDTH, CARD_HEIGHT), Image.Resampling.LANCZOS)


def card_image(card: AnyCard) -> Image.Image:
    """One card's face, RGBA 240 by 336, drawn once per card code (shared: copy before drawing)."""
    return _card_by_code(card.code)


def card_back() -> Image.Image:
    """The back of every card, RGBA 240 by 336 (shared: copy before drawing)."""
    return _card_by_code(BACK_CODE)


def card_height(width: int) -> int:
    """The height of a card drawn ``width`` pixels wide."""
    return round(width * CARD_HEIGHT / CARD_WIDTH)


def _shadow_margin(width: int) -> int:
    """How far a sprite's soft shadow reaches beyond the card on each side."""
    return max(2, width // 16)


#: Below this width, or when mostly covered, a card is drawn in its compact design: a large
#: corner index and one big suit, since the index is all that shows of an overlapped card.
COMPACT_WIDTH: Final = 100
JOKER_TINT: Final[Colour] = (244, 236, 255)


def _draw_compact(code: int, width: int) -> Image.Image:
    """A small card that stays legible in a fan: the index is what shows of an overlapped card.

    A joker that became a card shows that card's index on the joker's tint, inside a purple
    frame, with the joker's star under the index and in the middle: a glance at a fan tells
    both what the card plays as and that it is wild.
    """
    k = 4  # drawn four times larger, then reduced
    w, h = width * k, card_height(width) * k
    played = code >= PLAYED_JOKER_CODE
    card = card_from_code(code - PLAYED_JOKER_CODE if played else code)
    is_joker = played or not isinstance(card, Card)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=round(w * 0.09),
        fill=(*(JOKER_TINT if is_joker else WHITE), 255),
        outline=(*(JOKER_INK if played else EDGE), 255),
        width=round(w * 0.045) if played else max(k, round(w * 0.012)),
    )
    if isinstance(card, Card):
        colour = suit_colour(card.suit)
        rank = "10" if card.rank == Rank.TEN else card.rank.letter
        mark, mark_colour, big_colour = card.suit.symbol, colour, colour
    else:
        rank, mark, colour, mark_colour, big_colour = "W", "★", JOKER_INK, JOKER_GOLD, JOKER_GOLD

    def glyph(
        text: str, size: float, fill: Colour, *, bold: bool, squeeze: float = 0
    ) -> Image.Image:
        return _tile(text, round(size * w), fill, bold=bold, max_width=round(squeeze * w))

    column = 0.235 * w
    letter = glyph(rank, 0.44, colour, bold=True, squeeze=0.38)
    image.alpha_composite(letter, (round(column - letter.width / 2), round(0.09 * w)))
    symbol = glyph(mark, 0.36, mark_colour, bold=False)
    image.alpha_composite(
        symbol, (round(column - symbol.width / 2), round(0.09 * w + letter.height + 0.07 * w))
    )
    if played:
        star_top = 0.09 * w + letter.height + 0.07 * w + symbol.height + 0.06 * w
        _starred(image, glyph, 0.3, (column, star_top + 0.15 * w))
        _starred(image, glyph, 0.5, (0.7 * w, 1.02 * w))
        return image.reduce(k)
    if is_joker:
        _starred(image, glyph, 0.58, (0.7 * w, 1.02 * w))
        return image.reduce(k)
    big = glyph(mark, 0.58, big_colour, bold=False)
    image.alpha_composite(big, (round(0.7 * w - big.width / 2), round(1.02 * w - big.height / 2)))
    return image.reduce(k)


def _starred(
    image: Image.Image, glyph: Callable[..., Image.Image], size: float, centre: tuple[float, float]
) -> None:
    """The joker's gold star with a purple ring, centred on ``centre``."""
    star = glyph("★", size, JOKER_GOLD, bold=False)
    ring = glyph("★", size, JOKER_INK, bold=False).filter(ImageFilter.MaxFilter(5))
    for tile in (ring, star):
        image.alpha_composite(
            tile, (round(centre[0] - tile.width / 2), round(centre[1] - tile.height / 2))
        )


@lru_cache(maxsize=1024)
def _sprite(code: int, width: int, compact: bool) -> Image.Image:
    if (compact and code != BACK_CODE) or code >= PLAYED_JOKER_CODE:
        face = _draw_compact(code, width)
    else:
        face = _card_by_code(code).resize((width, card_height(width)), Image.Resampling.LANCZOS)
    margin = _shadow_margin(width)
    sprite = Image.new("RGBA", (face.width + 2 * margin, face.height + 2 * margin), (0, 0, 0, 0))
    shadow = Image.new("RGBA", face.size, (0, 0, 0, 110))
    shadow.putalpha(face.getchannel("A").point(lambda a: a * 110 // 255))
    sprite.alpha_composite(shadow, (margin, margin + max(1, margin // 2)))
    sprite = sprite.filter(ImageFilter.GaussianBlur(margin / 2))
    sprite.alpha_composite(face, (margin, margin))
    return sprite


def fan_width(count: int, width: int, step: int) -> int:
    """How wide ``count`` cards are when each one overlaps the last by ``width - step``."""
    return 0 if count == 0 else width + (count - 1) * step


def draw_fan(
    canvas: Image.Image,
    cards: Sequence[Face | None],
    xy: tuple[int, int],
    *,
    width: int,
    step: int,
    compact: bool = False,
) -> None:
    """Lay cards left to right from ``xy`` (None is a card back), each ``step`` after the last;
    in the compact design (its index and suit larger) when ``compact``, small or mostly covered."""
    x, y = xy
    margin = _shadow_margin(width)
    compact = compact or width < COMPACT_WIDTH or (len(cards) > 1 and step < width * 3 // 5)
    for index, card in enumerate(cards):
        sprite = _sprite(BACK_CODE if card is None else card.code, width, compact)
        canvas.paste(sprite, (x + index * step - margin, y - margin), sprite)
