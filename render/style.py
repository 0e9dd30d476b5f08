"""The look every picture shares: the bundled fonts, the table's colours, text, panels and PNG."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from babel.numbers import format_decimal
from PIL import Image, ImageDraw, ImageFont

import i18n
from engine.text import Text
from render import fonts

Colour = tuple[int, int, int]
#: A text a picture draws: plain (a player's name, already in its language) or a `Text`, drawn in
#: the picture's language.
Words = str | Text
#: The language pictures are drawn in unless told: English, the source.
ENGLISH: Final = "en-US"

#: DejaVu Sans, bundled with its licence (assets/README.md): it draws ♠♥♦♣, → and ★; what it
#: does not draw (Arabic, CJK, emoji) the fallback fonts do (render/fonts.py).
FONT_DIR: Final = fonts.FONT_DIR
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
#: A leaderboard's every other row, and the top three's medals with their numbers.
ROW_ALTERNATE: Final[Colour] = (12, 56, 38)
MEDALS: Final[dict[int, Colour]] = {1: (240, 192, 64), 2: (198, 204, 212), 3: (205, 127, 70)}
MEDAL_INK: Final[Colour] = (40, 32, 16)

_RED_SUITS: Final = frozenset("♥♦♡♢")
#: What must not end a cut text: an emoji sequence's joiner or variation selector.
_JOINERS: Final = "\u200d\ufe0e\ufe0f"
#: A line as laid: its coverage, its emoji in colour (if any), and their corner from the anchor.
Laid = tuple[Image.Image, int, int, Image.Image | None]
ELLIPSIS: Final = "…"
#: A true minus sign: a hyphen looks too short beside a plus.
MINUS: Final = "\N{MINUS SIGN}"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at a pixel size, loaded once."""
    # Shared by every thread that draws: FreeType faces are not thread-safe, but Pillow keeps the
    # GIL while it uses one; a free-threaded Python would need a lock here.
    return ImageFont.truetype(BOLD_FONT if bold else REGULAR_FONT, size)


def localized(locale: str, text: Words) -> str:
    """A text in the picture's language (a plain ``str`` is drawn as it is)."""
    return text if isinstance(text, str) else i18n.localize(locale, text)


def number(value: int, locale: str = ENGLISH) -> str:
    """A whole number as the language writes it (``1,234``, ``1.234``), a true minus before a
    negative one."""
    return i18n.format_number(locale, value).replace("-", MINUS)


def signed(value: float, places: int = 0, *, locale: str = ENGLISH) -> str:
    """A number with its sign, as in ``+3``, ``0`` or a true minus before a loss, to ``places``
    decimals (``+1.5``), written as the language of ``locale`` writes numbers (``+1,5``); one
    that rounds to nothing has no sign (``0.0``)."""
    if i18n.language_of(locale) != i18n.ENGLISH:
        pattern = "#,##0" + ("." + "0" * places if places else "")
        catalog = i18n.language_of(locale).catalog
        text = str(format_decimal(round(abs(value), places), format=pattern, locale=catalog))
    elif isinstance(value, int) and not places:
        text = f"{abs(value):,}"
    else:
        text = f"{abs(value):,.{places}f}"
    if not text.strip("0.,"):
        return text
    return f"+{text}" if value > 0 else f"{MINUS}{text}"


def gain_colour(value: int) -> Colour:
    """Green for a gain, red for a loss, muted for nothing."""
    return GAIN if value > 0 else LOSS if value < 0 else MUTED


# Remembered, as the texts are: a picture measures a label's slot, a seat's chips and its name
# to size its row and again to draw it, and they repeat from game to game.
@lru_cache(maxsize=4096)
def text_width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """How wide a line of text is drawn, in whole pixels."""
    return round(length(text, face))


@lru_cache(maxsize=4096)
def length(text: str, face: ImageFont.FreeTypeFont) -> float:
    """How far a line of text advances the pen, each run in the font that draws it."""
    return sum(run.length() for run in fonts.runs(text, face))


@lru_cache(maxsize=1024)
def ellipsize(text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    """The text, cut with an ellipsis so that it fits in ``width`` pixels."""
    if length(text, face) <= width:
        return text
    while text and length(text + ELLIPSIS, face) > width:
        text = text[:-1]
    return text.rstrip().rstrip(_JOINERS) + ELLIPSIS


#: Where a line may break without a space: before or after a CJK character (Chinese, Japanese),
#: but not before closing punctuation nor after opening punctuation.
_CJK_WORD: Final = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")
#: Spaces a line breaks at: not the no-break ones (French puts a narrow one before ``:`` and
#: between a number's thousands).
_SPACES: Final = re.compile(r"[^\S\u00a0\u2007\u202f]+")
_NO_BREAK_BEFORE: Final = frozenset("，。、；：！？）」』》〉】,.;:!?)…·")
_NO_BREAK_AFTER: Final = frozenset("（「『《〈【(")


def _words(text: str) -> list[tuple[str, bool]]:
    """The pieces a line may break between, each with whether a space stood before it: words
    between spaces, and in CJK each character (with the punctuation that must not begin or end
    a line)."""
    pieces: list[tuple[str, bool]] = []
    for word in _SPACES.split(text):
        if not word:
            continue
        if not _CJK_WORD.search(word):
            pieces.append((word, True))
            continue
        spaced = True
        current = ""
        for char in word:
            cjk = bool(_CJK_WORD.match(char))
            joins = (
                not current
                or char in _NO_BREAK_BEFORE
                or current[-1] in _NO_BREAK_AFTER
                or not (cjk or _CJK_WORD.match(current[-1]))
            )
            if joins:
                current += char
            else:
                pieces.append((current, spaced))
                spaced = False
                current = char
        pieces.append((current, spaced))
    return pieces


def _break(text: str, face: ImageFont.FreeTypeFont, widths: Sequence[int]) -> list[str]:
    """Whole words on lines no wider than ``widths`` (the last width repeats); a word wider
    than its line stays whole (the caller cuts it)."""
    lines: list[str] = []
    current = ""
    for word, spaced in _words(text):
        width = widths[min(len(lines), len(widths) - 1)]
        trial = (f"{current} {word}" if spaced else current + word) if current else word
        if length(trial, face) <= width:
            current = trial
        elif current:
            lines.append(current)
            current = word
        elif not lines and len(widths) > 1:
            # Not even one word fits after an indent: the first line stays empty.
            lines.append("")
            current = word
        else:
            current = word
    if current:
        lines.append(current)
    return lines


def wrap(
    text: str,
    face: ImageFont.FreeTypeFont,
    width: int,
    *,
    max_lines: int = 2,
    indent: int = 0,
) -> list[str]:
    """Break text into at most ``max_lines`` lines of ``width`` pixels, the last one cut.

    ``indent``: the first line is that much shorter (a prefix is drawn before it).
    """
    return list(_wrapped(text, face, width, max_lines, indent))


@lru_cache(maxsize=4096)
def _wrapped(
    text: str, face: ImageFont.FreeTypeFont, width: int, max_lines: int, indent: int
) -> tuple[str, ...]:
    # Remembered: a picture measures each label once to size its row and again to draw it, and
    # hand names repeat from game to game.
    widths = [width - indent, width] if indent else [width]
    lines = _break(text, face, widths)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :]) + " " + ELLIPSIS]
    return tuple(
        ellipsize(line, face, widths[0] if index == 0 else width)
        for index, line in enumerate(lines)
    )


def fit_title(title: str, width: int, size: int = 28) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """A bold title's face and lines: whole words on at most two lines, the type made smaller
    (down to two thirds) before any word is cut."""
    smallest = round(size * 2 / 3)
    for step in range(size, smallest - 1, -2):
        face = font(step, True)
        lines = _break(title, face, [width])
        if len(lines) <= 2 and all(length(line, face) <= width for line in lines):
            return face, lines
    face = font(smallest, True)
    return face, [ellipsize(line, face, width) for line in _break(title, face, [width])]


@lru_cache(maxsize=4096)
def text_coverage(text: str, face: ImageFont.FreeTypeFont, anchor: str = "la") -> Laid:
    """One line of text as FreeType draws it: its coverage (a grey mask, colourless), the emoji
    in their own colours if it has any, and where their corner sits from the anchor point. Every
    text of a picture is laid from here."""
    # Remembered: names, slots, hand names and chips repeat within a picture and from game to
    # game, and FreeType takes a tenth of a millisecond to draw even a short run.
    pieces = fonts.runs(text, face)
    if len(pieces) != 1 or pieces[0].face is not face:
        return _composed(pieces, face, anchor)
    left, top, right, bottom = (round(edge) for edge in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top, None


def _drawn_run(run: fonts.Run) -> tuple[Image.Image, int, int]:
    """One run drawn on its baseline: a mask, or the emoji in colour scaled to the text's size,
    and its corner from the pen's point on the baseline."""
    left, top, right, bottom = (round(edge) for edge in run.face.getbbox(run.text, anchor="ls"))
    size = (max(right - left, 1), max(bottom - top, 1))
    if not run.coloured:
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).text((-left, -top), run.text, font=run.face, fill=255, anchor="ls")
        return mask, left, top
    drawn = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(drawn).text(
        (-left, -top), run.text, font=run.face, embedded_color=True, anchor="ls"
    )
    scaled = (max(round(size[0] * run.scale), 1), max(round(size[1] * run.scale), 1))
    return (
        drawn.resize(scaled, Image.Resampling.LANCZOS),
        round(left * run.scale),
        round(top * run.scale),
    )


def _composed(pieces: Sequence[fonts.Run], face: ImageFont.FreeTypeFont, anchor: str) -> Laid:
    """A line drawn by several fonts: each run after the other on one baseline, the emoji on a
    layer of their own, placed from the anchor as the face itself would place it."""
    placed: list[tuple[Image.Image, int, int, bool]] = []
    pen = 0.0
    for run in pieces:
        image, left, top = _drawn_run(run)
        placed.append((image, round(pen) + left, top, run.coloured))
        pen += run.length()
    left = min(x for _, x, _, _ in placed)
    top = min(y for _, _, y, _ in placed)
    right = max(x + image.width for image, x, _, _ in placed)
    bottom = max(y + image.height for image, _, y, _ in placed)
    mask = Image.new("L", (right - left, bottom - top), 0)
    colour = None
    for image, x, y, coloured in placed:
        if coloured:
            colour = colour or Image.new("RGBA", mask.size, (0, 0, 0, 0))
            colour.alpha_composite(image, (x - left, y - top))
        else:
            mask.paste(255, (x - left, y - top), image)
    # From the baseline's left end to the anchor: along the line by the width, and up or down
    # as far as the face itself puts that anchor from its baseline.
    across = {"l": 0.0, "m": pen / 2, "r": pen}[anchor[0]]
    down = face.getbbox("x", anchor="l" + anchor[1])[1] - face.getbbox("x", anchor="ls")[1]
    return mask, left - round(across), top + round(down), colour


def _lay(
    canvas: Image.Image,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str,
) -> None:
    mask, left, top, colour = text_coverage(text, face, anchor)
    corner = (round(xy[0]) + left, round(xy[1]) + top)
    canvas.paste(fill, corner, mask)
    if colour is not None:
        canvas.paste(colour, corner, colour)


def draw_text(
    canvas: Image.Image,
    xy: tuple[float, float],
    text: str,
    *,
    face: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
    red: Colour = RED_ON_FELT,
) -> None:
    """Draw one line, with ♥ and ♦ in red wherever they appear (joker notes, footers)."""
    if not text:
        return
    if not _RED_SUITS.intersection(text):
        _lay(canvas, xy, text, face, fill, anchor)
        return
    x, y = xy
    if anchor[0] in "mr":
        x -= length(text, face) / (2 if anchor[0] == "m" else 1)
    vertical = "l" + anchor[1]
    run = ""
    for char in text + "\0":
        if run and (char == "\0" or (char in _RED_SUITS) != (run[-1] in _RED_SUITS)):
            colour = red if run[-1] in _RED_SUITS else fill
            _lay(canvas, (x, y), run, face, colour, vertical)
            x += length(run, face)
            run = ""
        run += char


def label_lines(
    slot: str, label: str, *, size: int, width: int, max_lines: int
) -> tuple[str, int, list[str]]:
    """A hand's label as ``draw_label`` lays it out: the bold slot prefix, its width, and the
    label's lines after it (the first one shortened by the prefix)."""
    prefix = f"{slot} · " if slot and label else slot
    indent = text_width(prefix, font(size, True)) if prefix else 0
    lines = wrap(label, font(size), width, max_lines=max_lines, indent=indent) if label else []
    if lines and not lines[0]:
        # The name starts on the next line, with all its lines: the slot stands alone, dotless.
        prefix = slot
        lines = ["", *wrap(label, font(size), width, max_lines=max_lines)]
    return prefix, indent, lines or [""]


def label_height(slot: str, label: str, *, size: int, width: int, max_lines: int) -> int:
    """How tall ``draw_label`` draws a label."""
    _, _, lines = label_lines(slot, label, size=size, width=width, max_lines=max_lines)
    return len(lines) * round(size * 1.25)


def draw_label(
    canvas: Image.Image,
    xy: tuple[int, int],
    slot: str,
    label: str,
    *,
    size: int,
    width: int,
    max_lines: int,
    middle: bool = False,
    slot_fill: Colour = GOLD,
) -> int:
    """A hand's slot in bold and its name after it, as in "Back · Full house", wrapped to
    ``width``; ``middle`` centres the lines on ``xy``. Returns the height drawn."""
    prefix, indent, lines = label_lines(slot, label, size=size, width=width, max_lines=max_lines)
    line_height = round(size * 1.25)
    x, y = xy
    if middle:
        y -= len(lines) * line_height // 2
    if prefix:
        draw_text(canvas, (x, y), prefix, face=font(size, True), fill=slot_fill)
    for index, line in enumerate(lines):
        if line:
            left = x + (indent if index == 0 else 0)
            draw_text(canvas, (left, y + index * line_height), line, face=font(size), fill=TEXT)
    return len(lines) * line_height


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


@lru_cache(maxsize=32)
def _corners(radius: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """The four corners of a rounded mask (top left, top right, bottom left, bottom right)."""
    size = 2 * radius + 2
    mask = rounded_mask(size, size, radius)
    return (
        mask.crop((0, 0, radius, radius)),
        mask.crop((size - radius, 0, size, radius)),
        mask.crop((0, size - radius, radius, size)),
        mask.crop((size - radius, size - radius, size, size)),
    )


def _rounded_fill(
    canvas: Image.Image, box: tuple[int, int, int, int], radius: int, colour: Colour
) -> None:
    """Fill a rounded rectangle: flat fills, and a mask only at the corners (a mask the size of
    the whole panel costs a seat's row several milliseconds)."""
    left, top, right, bottom = box
    radius = max(0, min(radius, (right - left) // 2, (bottom - top) // 2))
    if not radius:
        canvas.paste(colour, box)
        return
    canvas.paste(colour, (left + radius, top, right - radius, bottom))
    canvas.paste(colour, (left, top + radius, left + radius, bottom - radius))
    canvas.paste(colour, (right - radius, top + radius, right, bottom - radius))
    top_left, top_right, bottom_left, bottom_right = _corners(radius)
    canvas.paste(colour, (left, top, left + radius, top + radius), top_left)
    canvas.paste(colour, (right - radius, top, right, top + radius), top_right)
    canvas.paste(colour, (left, bottom - radius, left + radius, bottom), bottom_left)
    canvas.paste(colour, (right - radius, bottom - radius, right, bottom), bottom_right)


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
    if edge is not None:
        _rounded_fill(canvas, box, radius, edge)
        left, top, right, bottom = left + 1, top + 1, right - 1, bottom - 1
    _rounded_fill(canvas, (left, top, right, bottom), radius, fill)


def _title_lines(
    title: str, subtitle: str, width: int, size: int, sub_size: int
) -> tuple[ImageFont.FreeTypeFont, list[str], list[str]]:
    face, lines = fit_title(title, width, size) if title else (font(size, True), [])
    subtitles = wrap(subtitle, font(sub_size), width) if subtitle else []
    return face, lines, subtitles


def title_height(
    title: str, subtitle: str = "", *, width: int, size: int = 28, sub_size: int = 17
) -> int:
    """The height a title block takes (nothing when both lines are empty)."""
    face, lines, subtitles = _title_lines(title, subtitle, width, size, sub_size)
    height = len(lines) * round(face.size * 1.3) + (4 if lines else 0)
    height += len(subtitles) * round(sub_size * 1.5)
    return height + (12 if lines or subtitles else 0)


def draw_title(
    canvas: Image.Image,
    x: int,
    y: int,
    title: str,
    subtitle: str = "",
    *,
    width: int,
    size: int = 28,
    sub_size: int = 17,
) -> None:
    """A bold title in cream (wrapped or made smaller, never cut) with a muted subtitle."""
    face, lines, subtitles = _title_lines(title, subtitle, width, size, sub_size)
    for line in lines:
        draw_text(canvas, (x, y), line, face=face, fill=TEXT)
        y += round(face.size * 1.3)
    y += 4 if lines else 0
    for line in subtitles:
        draw_text(canvas, (x, y), line, face=font(sub_size), fill=MUTED)
        y += round(sub_size * 1.5)


def lines_height(lines: Sequence[str], line_height: int) -> int:
    """How tall a block of lines is."""
    return len(lines) * line_height
