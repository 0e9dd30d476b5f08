"""Steps the render tests share: every text a picture lays, and whether a text is drawn with no
missing-glyph box."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from render import style
from render.fonts import draws, runs

#: A character no bundled font has (a private-use code point): the box is drawn for it.
UNDRAWN = "\ue000"
_JOINERS = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}


def ink(face: ImageFont.FreeTypeFont, text: str, coloured: bool) -> bytes:
    """A text drawn alone by one font, as its coverage (its alpha, for the emoji)."""
    left, top, right, bottom = (round(edge) for edge in face.getbbox(text))
    image = Image.new("RGBA", (max(right - left, 1), max(bottom - top, 1)), (0, 0, 0, 0))
    ImageDraw.Draw(image).text(
        (-left, -top), text, font=face, fill=(255, 255, 255, 255), embedded_color=coloured
    )
    return image.getchannel("A").tobytes() + bytes(image.size)


def _clusters(text: str) -> Iterator[str]:
    """Characters with what joins them (an emoji sequence's joiners and selectors)."""
    cluster = ""
    for char in text:
        if cluster and (char in _JOINERS or cluster[-1] == "\u200d"):
            cluster += char
            continue
        if cluster:
            yield cluster
        cluster = char
    if cluster:
        yield cluster


def boxes(text: str, face: ImageFont.FreeTypeFont) -> list[str]:
    """The characters of a text drawn as their font's missing-glyph box: each is drawn alone by
    the font its run chose and compared with what that font draws for a character it lacks."""
    found = []
    for run in runs(text, face):
        missing = ink(run.face, UNDRAWN, run.coloured)
        for cluster in _clusters(run.text):
            if cluster.isspace():
                continue
            file = Path(str(run.face.path)).name
            lacking = any(c not in _JOINERS and not draws(file, c) for c in cluster)
            drawn = ink(run.face, cluster, run.coloured)
            if lacking or drawn == missing or not any(drawn[:-2]):
                found.append(cluster)
    return found


@dataclass(frozen=True, slots=True)
class Drawn:
    """One piece of text Pillow laid, and the face it was laid in."""

    text: str
    face: ImageFont.FreeTypeFont

    @property
    def size(self) -> int:
        """The type size in pixels."""
        return int(self.face.size)


def record_drawn(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """A list that gets every text the pictures lay from now on, with its face (each text is laid
    from its coverage, drawn by FreeType once and remembered; pictures are drawn in threads, so
    the list is guarded)."""
    texts: list[Drawn] = []
    lock = threading.Lock()
    original = style.text_coverage

    def coverage(text: str, face: ImageFont.FreeTypeFont, anchor: str = "la") -> style.Laid:
        with lock:
            texts.append(Drawn(text, face))
        return original(text, face, anchor)

    monkeypatch.setattr(style, "text_coverage", coverage)
    return texts
