"""Which bundled font draws each character of a text: DejaVu Sans where it can, then Noto Sans
Arabic, Noto Sans CJK and Noto Color Emoji (assets/README.md), so that a name in any of those
scripts, or with emoji, is drawn rather than shown as boxes.

``assets/fonts/coverage.json`` says which characters each font draws (assets/fonts/build.py
writes it with the fonts); a text is cut into runs, each drawn by the first font of the chain
that has all its characters. The emoji font is a bitmap font made at one size: its runs are drawn
at that size and scaled to the text's (``Run.scale``).
"""

from __future__ import annotations

import bisect
import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

FONT_DIR: Final = Path(__file__).resolve().parent.parent / "assets" / "fonts"
COVERAGE_FILE: Final = FONT_DIR / "coverage.json"
ARABIC: Final = ("NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf")
#: One face for both weights: names are short, and CJK is legible without a bold cut.
CJK: Final = "NotoSansCJK-Subset.otf"
EMOJI: Final = "NotoColorEmoji-Subset.ttf"
#: The one size the emoji font's pictures are made at.
EMOJI_STRIKE: Final = 109

#: Characters that belong to the character before them: the zero-width joiner of an emoji
#: sequence, the text and emoji variation selectors, the keycap and the flags' tags.
_JOINING: Final = frozenset({0x200D, 0xFE0E, 0xFE0F, 0x20E3, *range(0xE0020, 0xE0080)})
#: Skin tones: the emoji font leaves them out, so they are not drawn (👍🏽 is drawn 👍).
_DROPPED: Final = frozenset(range(0x1F3FB, 0x1F400))
_EMOJI_STYLE: Final = 0xFE0F


@dataclass(frozen=True)
class Run:
    """Characters drawn by one font: ``scale`` times its size (below 1 for the emoji)."""

    text: str
    face: ImageFont.FreeTypeFont
    scale: float = 1.0

    @property
    def coloured(self) -> bool:
        """Whether the run is drawn in its own colours (the emoji), not in the text's ink."""
        return self.scale != 1.0

    def length(self) -> float:
        """How far the run advances the pen, in pixels."""
        return self.face.getlength(self.text) * self.scale


@lru_cache(maxsize=1)
def coverage() -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each font's characters as sorted range starts and ends, read once."""
    ranges: dict[str, list[list[int]]] = json.loads(COVERAGE_FILE.read_text("utf-8"))
    return {
        name: (tuple(low for low, _ in found), tuple(high for _, high in found))
        for name, found in ranges.items()
    }


def draws(font_file: str, char: str) -> bool:
    """Whether a bundled font (by file name) has a glyph for a character; a font the chain does
    not know is taken to draw everything."""
    found = coverage().get(font_file)
    if found is None:
        return True
    starts, ends = found
    point = ord(char)
    at = bisect.bisect_right(starts, point) - 1
    return at >= 0 and point <= ends[at]


@lru_cache(maxsize=64)
def _face(file: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_DIR / file, size)


def chain(face: ImageFont.FreeTypeFont) -> tuple[tuple[str, ImageFont.FreeTypeFont, float], ...]:
    """The fonts that draw a face's text, in order: the face itself, then the fallbacks at its
    size, each with its file name and scale."""
    primary = Path(str(face.path)).name
    bold = "Bold" in primary
    size = int(face.size)
    return (
        (primary, face, 1.0),
        (ARABIC[bold], _face(ARABIC[bold], size), 1.0),
        (CJK, _face(CJK, size), 1.0),
        (EMOJI, _face(EMOJI, EMOJI_STRIKE), size / EMOJI_STRIKE),
    )


def _chosen(
    fonts: tuple[tuple[str, ImageFont.FreeTypeFont, float], ...], char: str, following: str
) -> int:
    """Which font of the chain draws a character: an emoji asked for in colour (a following
    variation selector) by the emoji font, else the first that has it, else the face itself
    (which draws its missing-glyph box)."""
    if following == chr(_EMOJI_STYLE) and draws(EMOJI, char):
        return len(fonts) - 1
    for index, (file, _, _) in enumerate(fonts):
        if draws(file, char):
            return index
    return 0


@lru_cache(maxsize=4096)
def runs(text: str, face: ImageFont.FreeTypeFont) -> tuple[Run, ...]:
    """A text cut into runs, each drawn by one font of the face's chain."""
    if text.isascii():
        # The face itself draws every ASCII character: most texts are all ASCII.
        return (Run(text, face),)
    fonts = chain(face)
    kept = "".join(char for char in text if ord(char) not in _DROPPED)
    found: list[tuple[int, str]] = []
    for position, char in enumerate(kept):
        following = kept[position + 1 : position + 2]
        joins = ord(char) in _JOINING or unicodedata.combining(char)
        # A space stays with the run before it where that font has one (not the emoji's, a
        # picture wide): an Arabic name's words are then one run, which the shaper lays right
        # to left as a whole.
        before = fonts[found[-1][0]][0] if found else EMOJI
        stays = joins or (char.isspace() and before != EMOJI and draws(before, char))
        index = found[-1][0] if found and stays else _chosen(fonts, char, following)
        if found and found[-1][0] == index:
            found[-1] = (index, found[-1][1] + char)
        else:
            found.append((index, char))
    return tuple(Run(part, fonts[index][1], fonts[index][2]) for index, part in found)
