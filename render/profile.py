"""A player's profile card: games and wins, ratings per game with the season's rank, the daily
challenge's best score and streak, and the achievements earned. Sections with nothing to say
(no ratings kept, no challenge played) are left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PIL import Image

import i18n
from engine.text import Text, tr, tr_plural
from render.palette import to_png
from render.style import (
    ENGLISH,
    GOLD,
    MUTED,
    TEXT,
    Words,
    draw_text,
    draw_title,
    ellipsize,
    felt,
    font,
    gain_colour,
    localized,
    number,
    panel,
    signed,
    title_height,
    wrap,
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

    game: Words
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

    name: Words
    description: Words


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


def _tournament_text(line: TournamentLine, locale: str) -> Text:
    prize = tr_plural("{count} chip", "{count} chips", line.prize) if line.prize else tr("no prize")
    return tr(
        "{place} of {entrants} · {prize}",
        place=ordinal(line.place, locale),
        entrants=line.entrants,
        prize=prize,
    )


def ordinal(number: int, locale: str = ENGLISH) -> str:
    """A place as the language writes it: 1st, 2nd, 3rd, 4th, ..., 11th, 21st in English; 1. in
    German, 1er and 2e in French, 1.º in Spanish, 1º in Portuguese; Chinese's 第…名 is in the
    sentence that holds the place, so the number is left bare."""
    language = i18n.language_of(locale).discord
    if language == "de":
        return f"{number}."
    if language == "fr":
        return "1er" if number == 1 else f"{number}e"
    if language == "es-ES":
        return f"{number}.º"
    if language == "pt-BR":
        return f"{number}º"
    if language == "zh-CN":
        return str(number)
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _rating_text(line: RatingLine) -> Text:
    if line.rank is None:
        return tr("{rating} · not ranked this season", rating=line.rating)
    if line.ranked is None:
        return tr("{rating} · #{rank} this season", rating=line.rating, rank=line.rank)
    return tr(
        "{rating} · #{rank} of {ranked} this season",
        rating=line.rating,
        rank=line.rank,
        ranked=line.ranked,
    )


#: A section: its heading, whether each line takes two rows (an achievement's name, then what
#: earned it), and its lines (a name or figure, and what it says), in the picture's language.
Section = tuple[str, bool, list[tuple[str, str]]]


def _sections(profile: Profile, locale: str) -> list[Section]:
    """Each section's heading and its lines, in the language of ``locale``."""

    def say(text: Words) -> str:
        return localized(locale, text)

    sections: list[Section] = []
    if profile.ratings is not None:
        lines = [(say(r.game), say(_rating_text(r))) for r in profile.ratings]
        sections.append((say(tr("Ratings")), False, lines or [("", say(tr("No rated games yet")))]))
    if profile.challenge is not None:
        best, streak = profile.challenge.best, profile.challenge.streak
        score = tr("{score} against par", score=signed(best, locale=locale))
        days = tr_plural("{count} day", "{count} days", streak)
        lines = [(say(tr("Best score")), say(score)), (say(tr("Streak")), say(days))]
        sections.append((say(tr("Daily challenge")), False, lines))
    if profile.tournaments:
        lines = [
            (
                say(tr("Tournament {number}", number=str(t.tournament))),
                say(_tournament_text(t, locale)),
            )
            for t in profile.tournaments
        ]
        sections.append((say(tr("Tournaments")), False, lines))
    badges = [(say(badge.name), say(badge.description)) for badge in profile.earned]
    heading = tr(
        "Achievements · {earned} of {total}",
        earned=len(profile.earned),
        total=profile.achievements,
    )
    sections.append((say(heading), True, badges or [("", say(tr("None yet: play a game!")))]))
    return sections


#: A line's figure wraps onto a second line where the language's words are longer than its room.
_MAX_TEXT_LINES: Final = 2
_WRAPPED_LINE: Final = 28


def _columns(name: str) -> tuple[int, int]:
    """Where a line's figure starts from the left, and how wide it may be."""
    room = WIDTH - 2 * (_PAD + _INSET)
    name_width = room * 9 // 20 if name else 0
    return name_width, room - name_width


def _text_lines(name: str, text: str) -> list[str]:
    """A line's figure on as many lines as its words need (two at most, the last cut)."""
    _, width = _columns(name)
    return wrap(text, font(_BODY), width, max_lines=_MAX_TEXT_LINES) or [""]


def _line_height(name: str, text: str) -> int:
    return _LINE + (len(_text_lines(name, text)) - 1) * _WRAPPED_LINE


def _section_height(lines: list[tuple[str, str]], two_rows: bool) -> int:
    if two_rows:
        body = len(lines) * (2 * _LINE - 6)
    else:
        body = sum(_line_height(name, text) for name, text in lines)
    return _HEADING + 20 + body + _INSET


def profile_png(profile: Profile, *, locale: str = ENGLISH) -> bytes:
    """The profile card as PNG bytes, its words and numbers in the language of ``locale``."""
    inner = WIDTH - 2 * _PAD
    title = profile.name
    subtitle = localized(locale, tr("Profile"))
    top = title_height(title, subtitle, width=inner, sub_size=_SMALL)
    sections = _sections(profile, locale)
    figures = 96
    height = _PAD + top + figures + 16
    # Achievements take two rows each (the name, then what earned it); other lines one.
    for _, two_rows, lines in sections:
        height += _section_height(lines, two_rows) + 16
    height += _PAD - 16
    canvas = felt(WIDTH, height)
    draw_title(canvas, _PAD, _PAD - 4, title, subtitle, width=inner, sub_size=_SMALL)
    y = _PAD + top
    _figures(canvas, y, profile, locale)
    y += figures + 16
    for heading, two_rows, lines in sections:
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
                line_y += _line_height(name, text)
        y = bottom + 16
    return to_png(canvas)


def _figures(canvas: Image.Image, y: int, profile: Profile, locale: str) -> None:
    """Games, wins and net chips side by side, each in its own panel."""
    boxes = (
        (localized(locale, tr("Games")), number(profile.played, locale), TEXT),
        (localized(locale, tr("Wins")), number(profile.won, locale), TEXT),
        (
            localized(locale, tr("Net chips")),
            signed(profile.net, locale=locale),
            gain_colour(profile.net),
        ),
    )
    gap = 12
    width = (WIDTH - 2 * _PAD - gap * (len(boxes) - 1)) // len(boxes)
    for index, (label, value, colour) in enumerate(boxes):
        left = _PAD + index * (width + gap)
        panel(canvas, (left, y, left + width, y + 96), radius=14)
        middle = left + width // 2
        shown = ellipsize(label, font(_SMALL), width - 16)
        draw_text(canvas, (middle, y + 14), shown, face=font(_SMALL), fill=MUTED, anchor="mt")
        draw_text(canvas, (middle, y + 44), value, face=font(32, True), fill=colour, anchor="mt")


def _line(canvas: Image.Image, y: int, name: str, text: str) -> None:
    """A name at the left, its figure after it (wrapped where it is too long for its room)."""
    left = _PAD + _INSET
    name_width, _ = _columns(name)
    if name:
        shown = ellipsize(name, font(_BODY, True), name_width - 12)
        draw_text(canvas, (left, y), shown, face=font(_BODY, True), fill=TEXT)
    for index, line in enumerate(_text_lines(name, text)):
        line_y = y + index * _WRAPPED_LINE
        draw_text(canvas, (left + name_width, line_y), line, face=font(_BODY), fill=MUTED)


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
