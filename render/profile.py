"""A player's profile card: games and wins, ratings per game with the season's rank, the daily
challenge's best score and streak, and the achievements earned. Sections with nothing to say
(no ratings kept, no challenge played) are left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PIL import Image

from render.palette import to_png
from render.style import (
    GOLD,
    MUTED,
    TEXT,
    draw_text,
    draw_title,
    ellipsize,
    felt,
    font,
    gain_colour,
    panel,
    signed,
    title_height,
)

#: About 700 pixels across, as the showdown: read on a phone at about 400, the smallest type
#: (20 pixels) is 11 or more there.
WIDTH: Final = 700
_PAD: Final = 24
_INSET: Final = 20
_HEADING: Final = 24
_LINE: Final = 34
_SMALL: Final = 20
_BODY: Final = 22


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A player's rating in one game and their place in the season's standings."""

    game: str
    rating: int
    #: The place in the season's standings and among how many (None: not ranked yet).
    rank: int | None = None
    ranked: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentLine:
    """A tournament the player finished: its number, their place among its entrants, the prize."""

    tournament: int
    place: int
    entrants: int
    prize: int


@dataclass(frozen=True, slots=True)
class ChallengeFigures:
    """The daily challenge: the best score against par and the current streak of days."""

    best: int
    streak: int


@dataclass(frozen=True, slots=True)
class Badge:
    """An achievement as a profile lists it."""

    name: str
    description: str


@dataclass(frozen=True, slots=True)
class Profile:
    """What a profile card shows; a section that is None is not drawn."""

    name: str
    played: int
    won: int
    net: int
    #: The achievements earned, in the order the bot lists them, and how many there are.
    earned: tuple[Badge, ...] = ()
    achievements: int = 0
    ratings: tuple[RatingLine, ...] | None = None
    challenge: ChallengeFigures | None = None
    #: The latest tournaments finished on the server, newest first (None: none yet).
    tournaments: tuple[TournamentLine, ...] | None = None


def _tournament_text(line: TournamentLine) -> str:
    prize = f"{line.prize:,} chips" if line.prize else "no prize"
    return f"{ordinal(line.place)} of {line.entrants} · {prize}"


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _rating_text(line: RatingLine) -> str:
    if line.rank is None:
        return f"{line.rating:,} · not ranked this season"
    of = "" if line.ranked is None else f" of {line.ranked:,}"
    return f"{line.rating:,} · #{line.rank:,}{of} this season"


def _sections(profile: Profile) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each section's heading and its lines (a name or figure, and what it says)."""
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    if profile.ratings is not None:
        lines = [(r.game, _rating_text(r)) for r in profile.ratings]
        sections.append(("Ratings", lines or [("", "No rated games yet")]))
    if profile.challenge is not None:
        best, streak = profile.challenge.best, profile.challenge.streak
        days = "day" if streak == 1 else "days"
        sections.append(
            (
                "Daily challenge",
                [("Best score", f"{signed(best)} against par"), ("Streak", f"{streak} {days}")],
            )
        )
    if profile.tournaments:
        lines = [(f"Tournament {t.tournament}", _tournament_text(t)) for t in profile.tournaments]
        sections.append(("Tournaments", lines))
    badges = [(badge.name, badge.description) for badge in profile.earned]
    sections.append(
        (
            f"Achievements · {len(profile.earned)} of {profile.achievements}",
            badges or [("", "None yet: play a game!")],
        )
    )
    return sections


def _section_height(lines: list[tuple[str, str]], two_rows: bool) -> int:
    per = 2 * _LINE - 6 if two_rows else _LINE
    return _HEADING + 20 + len(lines) * per + _INSET


def profile_png(profile: Profile) -> bytes:
    """The profile card as PNG bytes."""
    inner = WIDTH - 2 * _PAD
    title = profile.name
    top = title_height(title, "Profile", width=inner, sub_size=_SMALL)
    sections = _sections(profile)
    figures = 96
    height = _PAD + top + figures + 16
    # Achievements take two rows each (the name, then what earned it); other lines one.
    for heading, lines in sections:
        height += _section_height(lines, heading.startswith("Achievements")) + 16
    height += _PAD - 16
    canvas = felt(WIDTH, height)
    draw_title(canvas, _PAD, _PAD - 4, title, "Profile", width=inner, sub_size=_SMALL)
    y = _PAD + top
    _figures(canvas, y, profile)
    y += figures + 16
    for heading, lines in sections:
        two_rows = heading.startswith("Achievements")
        bottom = y + _section_height(lines, two_rows)
        panel(canvas, (_PAD, y, WIDTH - _PAD, bottom), radius=14)
        draw_text(canvas, (_PAD + _INSET, y + 14), heading, face=font(_HEADING, True), fill=GOLD)
        line_y = y + 14 + _HEADING + 14
        for name, text in lines:
            if two_rows:
                _badge(canvas, line_y, name, text)
                line_y += 2 * _LINE - 6
            else:
                _line(canvas, line_y, name, text)
                line_y += _LINE
        y = bottom + 16
    return to_png(canvas)


def _figures(canvas: Image.Image, y: int, profile: Profile) -> None:
    """Games, wins and net chips side by side, each in its own panel."""
    boxes = (
        ("Games", f"{profile.played:,}", TEXT),
        ("Wins", f"{profile.won:,}", TEXT),
        ("Net chips", signed(profile.net), gain_colour(profile.net)),
    )
    gap = 12
    width = (WIDTH - 2 * _PAD - gap * (len(boxes) - 1)) // len(boxes)
    for index, (label, value, colour) in enumerate(boxes):
        left = _PAD + index * (width + gap)
        panel(canvas, (left, y, left + width, y + 96), radius=14)
        middle = left + width // 2
        draw_text(canvas, (middle, y + 14), label, face=font(_SMALL), fill=MUTED, anchor="mt")
        draw_text(canvas, (middle, y + 44), value, face=font(32, True), fill=colour, anchor="mt")


def _line(canvas: Image.Image, y: int, name: str, text: str) -> None:
    """A name at the left, its figure after it."""
    left = _PAD + _INSET
    room = WIDTH - 2 * (_PAD + _INSET)
    name_width = room * 9 // 20 if name else 0
    if name:
        shown = ellipsize(name, font(_BODY, True), name_width - 12)
        draw_text(canvas, (left, y), shown, face=font(_BODY, True), fill=TEXT)
    shown = ellipsize(text, font(_BODY), room - name_width)
    draw_text(canvas, (left + name_width, y), shown, face=font(_BODY), fill=MUTED)


def _badge(canvas: Image.Image, y: int, name: str, text: str) -> None:
    """An achievement: its name, and what earned it under it."""
    left = _PAD + _INSET
    room = WIDTH - 2 * (_PAD + _INSET)
    if name:
        draw_text(
            canvas,
            (left, y),
            ellipsize(name, font(_BODY, True), room),
            face=font(_BODY, True),
            fill=TEXT,
        )
        y += _LINE - 4
    draw_text(canvas, (left, y), ellipsize(text, font(_SMALL), room), face=font(_SMALL), fill=MUTED)
