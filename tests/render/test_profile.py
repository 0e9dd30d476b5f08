"""The profile card: every section drawn from the data it is given (ratings with the season's
rank, the daily challenge, achievements), sections with no data left out, phone-sized type."""

from __future__ import annotations

import io

from PIL import Image

from render.profile import (
    WIDTH,
    Badge,
    ChallengeFigures,
    Profile,
    RatingLine,
    TournamentLine,
    ordinal,
    profile_png,
)
from tests.render.helpers import Drawn

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
    tournaments=(TournamentLine(7, 1, 24, 960), TournamentLine(3, 12, 12, 0)),
)


def _image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_every_section_is_drawn_from_the_data_given(drawn: list[Drawn]) -> None:
    data = profile_png(FULL)
    image = _image(data)
    assert image.width == WIDTH and len(data) < 500_000
    texts = [piece.text for piece in drawn]
    assert "Ann the Magnificent" in texts
    assert {"1,234", "567", "\N{MINUS SIGN}89"} <= set(texts)
    assert "1,523 · #3 of 40 this season" in texts
    assert "1,480 · not ranked this season" in texts
    assert {"+12 against par", "4 days", "Achievements · 18 of 18"} <= set(texts)
    assert {"Tournaments", "Tournament 7", "1st of 24 · 960 chips"} <= set(texts)
    assert {"Tournament 3", "12th of 12 · no prize"} <= set(texts)
    for badge in BADGES:
        assert badge.name in texts and badge.description in texts
    # Read on a phone, every text is 11 pixels or more.
    assert min(piece.size for piece in drawn) * PHONE_WIDTH / WIDTH >= SMALLEST


def test_sections_with_no_data_are_left_out(drawn: list[Drawn]) -> None:
    bare = Profile(name="Bob", played=0, won=0, net=0, achievements=18)
    short = _image(profile_png(bare))
    texts = [piece.text for piece in drawn]
    assert "Ratings" not in texts and "Daily challenge" not in texts
    assert "Tournaments" not in texts
    assert "Achievements · 0 of 18" in texts and "None yet: play a game!" in texts
    assert short.height < _image(profile_png(FULL)).height


def test_places_read_as_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "101st",
        "111th",
    ]
