"""The profile card: every section drawn from the data it is given (ratings with the season's
rank, the daily challenge, achievements), sections with no data left out, phone-sized type."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from render import style
from render.profile import WIDTH, Badge, ChallengeFigures, Profile, RatingLine, profile_png

#: Where Discord shows a picture on a phone, in pixels across, and the least type there.
PHONE_WIDTH, SMALLEST = 400, 11
BADGES = tuple(
    Badge(f"Badge {n}", f"Earned by doing thing number {n} at a table.") for n in range(18)
)
FULL = Profile(
    name="Ann the Magnificent",
    played=1234,
    won=567,
    net=-89,
    earned=BADGES,
    achievements=18,
    ratings=(RatingLine("First game", 1523, 3, 40), RatingLine("Second game", 1480)),
    challenge=ChallengeFigures(best=12, streak=4),
)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every text laid meanwhile, with its type size."""
    texts: list[tuple[str, int]] = []
    lock = threading.Lock()
    original = style.text_coverage

    def coverage(text: str, face: Any, anchor: str = "la") -> Any:
        with lock:
            texts.append((text, face.size))
        return original(text, face, anchor)

    monkeypatch.setattr(style, "text_coverage", coverage)
    yield texts


def _image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_every_section_is_drawn_from_the_data_given(drawn: list[tuple[str, int]]) -> None:
    data = profile_png(FULL)
    image = _image(data)
    assert image.width == WIDTH and len(data) < 500_000
    texts = [text for text, _ in drawn]
    assert "Ann the Magnificent" in texts
    assert {"1,234", "567", "\N{MINUS SIGN}89"} <= set(texts)
    assert "1,523 · #3 of 40 this season" in texts
    assert "1,480 · not ranked this season" in texts
    assert {"+12 against par", "4 days", "Achievements · 18 of 18"} <= set(texts)
    for badge in BADGES:
        assert badge.name in texts and badge.description in texts
    # Read on a phone, every text is 11 pixels or more.
    assert min(size for _, size in drawn) * PHONE_WIDTH / WIDTH >= SMALLEST


def test_sections_with_no_data_are_left_out(drawn: list[tuple[str, int]]) -> None:
    bare = Profile(name="Bob", played=0, won=0, net=0, achievements=18)
    short = _image(profile_png(bare))
    texts = [text for text, _ in drawn]
    assert "Ratings" not in texts and "Daily challenge" not in texts
    assert "Achievements · 0 of 18" in texts and "None yet: play a game!" in texts
    assert short.height < _image(profile_png(FULL)).height
