"""The look every picture shares: the bundled font, the table's colours, text, panels and PNG."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]

#: DejaVu Sans, bundled with its licence (assets/README.md): it draws ♠♥♦♣, → and ★.
FONT_DIR: Final = Path(__file__).resolve().parent.parent / "assets" / "fonts"
REGULAR_FONT: Final = FONT_DIR / "DejaVuSans.ttf"
BOLD_FONT: Final = FONT_DIR / "DejaVuSans-Bold.ttf"

FELT: Final[Colour] = (16, 84, 57)
PANEL: Final[Colour] = (8, 48, 32)
PANEL_EDGE: Final[Colour] = (36, 120, 84)
TEXT: Final[Colour] = (247, 242, 226)
MUTED: Final[Colour] = (168, 199, 181)
GOLD: Final[Colour] = (242, 196, 84)
GAIN: Final[Colour] = (102, 230, 142)
LOSS: Final[Colour] = (255, 118, 118)
#: Red suits in text on the felt; on a white card they are darker (``render.cards``).
RED_ON_FELT: Final[Colour] = (255, 128, 128)

_RED_SUITS: Final = frozenset("♥♦♡♢")
ELLIPSIS: Final = "…"
#: A true minus sign: a hyphen looks too short beside a plus.
MINUS: Final = "\N{MINUS SIGN}"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at a pixel size, loaded once."""
    # Shared by every thread that draws: FreeType faces are not thread-safe, but Pillow keeps the
    # GIL while it uses one; a free-threaded Python would need a lock here.
    return ImageFont.truetype(BOLD_FONT if bold else REGULAR_FONT, size)


def signed(value: int) -> str:
    """A number with its sign, as in ``+3``, ``0`` or a true minus before a loss."""
    if value > 0:
        return f"+{value:,}"
    if value < 0:
        return f"{MINUS}{-value:,}"
    return "0"


def gain_colour(value: int) -> Colour:
    """Green for a gain, red for a loss, muted for nothing."""
    return GAIN if value > 0 else LOSS if value < 0 else MUTED


def text_width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """How wide a line of text is drawn, in whole pixels."""
    return round(face.getlength(text))


def ellipsize(text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    """The text, cut with an ellipsis so that it fits in ``width`` pixels."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def wrap(text: str, face: ImageFont.FreeTypeFont, width: int, *, max_lines: int = 2) -> list[str]:
    """Break text into at most ``max_lines`` lines of ``width`` pixels, the last one cut."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and face.getlength(trial) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :]) + " " + ELLIPSIS]
    return [ellipsize(line, face, width) for line in lines]


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    face: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
    red: Colour = RED_ON_FELT,
) -> None:
    """Draw one line, with ♥ and ♦ in red wherever they appear (joker notes, footers)."""
    if not _RED_SUITS.intersection(text):
        draw.text(xy, text, font=face, fill=fill, anchor=anchor)
        return
    x, y = xy
    if anchor[0] in "mr":
        x -= face.getlength(text) / (2 if anchor[0] == "m" else 1)
    vertical = "l" + anchor[1]
    run = ""
    for char in text + "\0":
        if run and (char == "\0" or (char in _RED_SUITS) != (run[-1] in _RED_SUITS)):
            colour = red if run[-1] in _RED_SUITS else fill
            draw.text((x, y), run, font=face, fill=colour, anchor=vertical)
            x += face.getlength(run)
            run = ""
        run += char


def felt(width: int, height: int) -> Image.Image:
    """A blank card table: flat felt, which stays crisp in a palette and compresses well."""
    return Image.new("RGB", (width, height), FELT)


@lru_cache(maxsize=128)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """A smooth-edged rounded-rectangle mask (drawn four times larger, then reduced)."""
    big = Image.new("L", (width * 4, height * 4), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * 4 - 1, height * 4 - 1), radius=radius * 4, fill=255
    )
    return big.reduce(4)


def panel(
    canvas: Image.Image,
    box: tuple[int, int, int, int],
    *,
    radius: int = 14,
    fill: Colour = PANEL,
    edge: Colour | None = PANEL_EDGE,
) -> None:
    """Lay a rounded panel (with a one-pixel edge) on the canvas."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    if edge is not None:
        canvas.paste(edge, box, rounded_mask(width, height, radius))
        left, top, width, height = left + 1, top + 1, width - 2, height - 2
    canvas.paste(fill, (left, top, left + width, top + height), rounded_mask(width, height, radius))


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of a picture, reduced to a 256-colour palette to stay small."""
    # Discord's attachment limit is 10 MiB and a small file shows sooner; the pictures are flat
    # colours and text, so a palette loses nothing a player would see.
    paletted = image.convert("RGB").quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    buffer = io.BytesIO()
    paletted.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def title_height(title: str, subtitle: str = "") -> int:
    """The height a title block takes (nothing when both lines are empty)."""
    return (40 if title else 0) + (26 if subtitle else 0) + (12 if title or subtitle else 0)


def draw_title(
    canvas: Image.Image, x: int, y: int, title: str, subtitle: str = "", *, width: int
) -> None:
    """A bold title in cream with a muted subtitle under it."""
    draw = ImageDraw.Draw(canvas)
    if title:
        draw_text(
            draw, (x, y), ellipsize(title, font(28, True), width), face=font(28, True), fill=TEXT
        )
        y += 40
    if subtitle:
        draw_text(draw, (x, y), ellipsize(subtitle, font(17), width), face=font(17), fill=MUTED)


def lines_height(lines: Sequence[str], line_height: int) -> int:
    """How tall a block of lines is."""
    return len(lines) * line_height
