"""Every picture in every language: its words translated, its numbers as the language writes
them, every character drawn by a font that has it, and every text within its place."""

from __future__ import annotations

import pickle
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageFont

import i18n
from cogs.pictures import (
    builder_picture,
    challenge_picture,
    hand_picture,
    phase_subtitle,
    review_picture,
    setting_picture,
    showdown_picture,
    slot_words,
)
from cogs.samples import play_sample
from engine.cards import JOKER, parse_cards
from engine.text import Text, tr
from render import hand_png, hands_png, leaderboard_png
from render import style as style_module
from render.fonts import FONT_DIR, draws, runs
from render.hands import _LABEL_SIZE, _LABEL_WIDTH
from render.profile import Badge, ChallengeFigures, Profile, RatingLine, TournamentLine, profile_png
from render.showdown import _LABEL, _MATRIX_CELL, _MIN_CELL
from render.style import font, text_width
from tables.challenge import make_challenge_day
from tables.events import DeclarationsOpened, Note, SeatResult, ShowdownSettled
from tables.games import GAMES
from tables.hands import hand_labels
from tables.review import Review, Way
from tests.render.helpers import UNDRAWN

ENGLISH = "en-US"
LOCALES = (ENGLISH, *(language.discord for language in i18n.LANGUAGES))
#: The joiners and selectors an emoji sequence holds: drawn as part of the emoji, not alone.
_JOINERS = frozenset({"\u200d", "\ufe0e", "\ufe0f", "\u20e3"})


@dataclass(frozen=True, slots=True)
class Laid:
    """A line of text laid on a picture: its face, and the box its ink fills on the canvas."""

    text: str
    face: ImageFont.FreeTypeFont
    box: tuple[int, int, int, int]
    canvas: tuple[int, int]


def record_laid(monkeypatch: pytest.MonkeyPatch) -> list[Laid]:
    """A list that gets every text the pictures lay from now on, where it lands."""
    laid: list[Laid] = []
    lock = threading.Lock()
    original = style_module._lay

    def lay(
        canvas: Image.Image,
        xy: tuple[float, float],
        text: str,
        face: ImageFont.FreeTypeFont,
        fill: style_module.Colour,
        anchor: str,
    ) -> None:
        mask, left, top, _ = style_module.text_coverage(text, face, anchor)
        inked = mask.getbbox() or (0, 0, 0, 0)
        x, y = round(xy[0]) + left, round(xy[1]) + top
        box = (x + inked[0], y + inked[1], x + inked[2], y + inked[3])
        with lock:
            laid.append(Laid(text, face, box, canvas.size))
        original(canvas, xy, text, face, fill, anchor)

    monkeypatch.setattr(style_module, "_lay", lay)
    return laid


# The pictures, each drawn in a language: every kind the bot draws, with every word it can show.

_STANDARD = GAMES["standard"]
_HANDS = [parse_cards(text) for text in ("Ad Kc 2h", "W Js Ts 9s 8s", "Qs Qh Qd 4c 4h")]


def _hand(locale: str) -> bytes:
    declaring = DeclarationsOpened(1, (1, 2), 0.0, None, 2, 7, "showdown")
    subtitle = phase_subtitle(GAMES["showdown"].title, declaring, locale=locale)
    return hand_picture(parse_cards("3c As W Kh Ad 10d"), subtitle=subtitle, locale=locale)


def _builder(locale: str) -> bytes:
    labels = hand_labels(_STANDARD, _HANDS)
    return builder_picture(_STANDARD, _HANDS[:2], labels[:2], locale=locale)


def _setting(locale: str) -> bytes:
    return setting_picture(_STANDARD, _HANDS, title=tr("Your hands (not set yet)"), locale=locale)


def _discards(locale: str) -> bytes:
    return hands_png(
        _HANDS[:1],
        ["High card"],
        slots=slot_words(_STANDARD)[:1],
        discards=parse_cards("2c 3d"),
        locale=locale,
    )


def _leaderboard(locale: str) -> bytes:
    lines = [(1, "Ada", 12_345), (2, "Bo", 1_200), (3, "小明", 0), (4, "Zoë", -2_500)]
    return leaderboard_png(tr("Net chips"), lines, locale=locale)


def _empty_leaderboard(locale: str) -> bytes:
    return leaderboard_png("Chips", [], locale=locale)


def _profile(locale: str) -> bytes:
    profile = Profile(
        name="Ada Lovelace",
        played=1_234,
        won=567,
        net=-12_345,
        earned=(Badge("First blood", "Won a game"),),
        achievements=12,
        ratings=(
            RatingLine(GAMES["showdown"].title, 1_612, 3, 1_250),
            RatingLine(GAMES["paigow"].title, 1_480, None),
            RatingLine(GAMES["casino"].title, 1_500, 12, None),
        ),
        challenge=ChallengeFigures(best=-3, streak=2),
        tournaments=(TournamentLine(12, 1, 16, 2_000), TournamentLine(11, 3, 8, 0)),
    )
    return profile_png(profile, locale=locale)


def _new_profile(locale: str) -> bytes:
    profile = Profile("Bo", 0, 0, 0, ratings=(), challenge=ChallengeFigures(0, 1))
    return profile_png(profile, locale=locale)


def _showdown_event() -> ShowdownSettled:
    """Three Standard seats: one surrendered, one with an automatic, a pot and a note."""
    spec = GAMES["standard"]
    labels = hand_labels(spec, _HANDS)
    seats = (
        SeatResult(1, None, tuple(_HANDS), labels, "three_straights", 1_250, (3, -1, 2)),
        SeatResult(2, 0, (), (), None, -5),
        SeatResult(3, None, tuple(_HANDS), labels, None, -1_245, (-3, 1, -2)),
    )
    matrix = ((0, 25), (-25, 0))
    nets = {1: 1_250, 2: -5, 3: -1_245}
    notes = (Note("paid the dragon bonus", 3), Note("The pot carries over."))
    return ShowdownSettled(4_021, "standard", seats, matrix, (1, 3), nets, 0, 10, (1,), notes=notes)


_NAMES = {1: "Ada", 2: "Bo", 3: "小明"}


def _showdown(locale: str) -> bytes:
    return showdown_picture(_showdown_event(), _NAMES, locale=locale)


def _summary(locale: str) -> bytes:
    return showdown_picture(_showdown_event(), _NAMES, summary=True, locale=locale)


@cache
def _house_game() -> tuple[ShowdownSettled, dict[int, str]]:
    game = play_sample("three-card", players=2)
    return game.showdown, dict(game.names)


def _house(locale: str) -> bytes:
    event, names = _house_game()
    return showdown_picture(event, names, locale=locale)


def _review(locale: str) -> bytes:
    labels = hand_labels(_STANDARD, _HANDS)
    yours = Way(tuple(_HANDS), labels, "dragon", (1, -2, 3), at_table=2, expected=1.25)
    best = Way(tuple(_HANDS), labels, None, (2, 2, 3), at_table=7, expected=-0.5)
    review = Review(4_021, "standard", 1, yours, best)
    return review_picture(review, "Ada", locale=locale)


def _review_of_a_surrender(locale: str) -> bytes:
    labels = hand_labels(_STANDARD, _HANDS)
    best = Way(tuple(_HANDS), labels, None, (2, 2, 3), at_table=7, expected=3.5)
    return review_picture(Review(4_022, "standard", 1, None, best), "Ada", locale=locale)


@cache
def _challenge_day():  # type: ignore[no-untyped-def]
    return make_challenge_day("standard", "2026-11-27", 0.05)


def _challenge(locale: str) -> bytes:
    day = _challenge_day()
    return challenge_picture(day, day.par, locale=locale)


PICTURES: dict[str, Callable[[str], bytes]] = {
    "hand": _hand,
    "builder": _builder,
    "setting": _setting,
    "discards": _discards,
    "leaderboard": _leaderboard,
    "empty leaderboard": _empty_leaderboard,
    "profile": _profile,
    "new profile": _new_profile,
    "showdown": _showdown,
    "summary": _summary,
    "house": _house,
    "review": _review,
    "review of a surrender": _review_of_a_surrender,
    "challenge": _challenge,
}


# The glyph check: each character by the font its run chose, in the coverage data and the
# font's own character map, and inked by it.


@cache
def _cmap(file: str) -> frozenset[int]:
    with TTFont(FONT_DIR / file, fontNumber=0, lazy=True) as found:
        return frozenset(found.getBestCmap())


def missing_glyphs(text: str, face: ImageFont.FreeTypeFont) -> list[str]:
    """The characters of a text that the font chosen to draw them has no glyph for."""
    missing = []
    for run in runs(text, face):
        file = Path(str(run.face.path)).name
        for char in run.text:
            if char in _JOINERS or unicodedata.combining(char):
                continue
            held = draws(file, char) and ord(char) in _cmap(file)
            # An ink check on the chosen face: a glyph that is there draws something (the emoji
            # font's pictures are drawn in colour, and a space draws nothing).
            if held and not run.coloured and not char.isspace():
                held = run.face.getmask(char).getbbox() is not None
            if not held:
                missing.append(char)
    return missing


def test_the_glyph_check_finds_a_character_no_font_draws() -> None:
    assert missing_glyphs(f"牌{UNDRAWN}A", font(20)) == [UNDRAWN]
    assert missing_glyphs(f"Ansage{UNDRAWN}", font(20, True)) == [UNDRAWN]
    assert missing_glyphs("第 2 次宣告：葫芦，Ä ♠ ★ 1\u202f234", font(20)) == []


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", PICTURES)
def test_every_character_of_every_picture_is_drawn_by_a_font_that_has_it(
    kind: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid = record_laid(monkeypatch)
    PICTURES[kind](locale)
    assert laid
    assert {item.text: missing_glyphs(item.text, item.face) for item in laid} == {
        item.text: [] for item in laid
    }


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", PICTURES)
def test_every_text_lies_within_the_picture_and_none_overlaps_another(
    kind: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid = record_laid(monkeypatch)
    PICTURES[kind](locale)
    for item in laid:
        left, top, right, bottom = item.box
        width, height = item.canvas
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, item.text
    # Two texts' ink may touch where one follows the other on a line (a slot and its hand's
    # name, a red suit's run), never cross by more than a couple of pixels.
    for index, one in enumerate(laid):
        for other in laid[index + 1 :]:
            across = min(one.box[2], other.box[2]) - max(one.box[0], other.box[0])
            down = min(one.box[3], other.box[3]) - max(one.box[1], other.box[1])
            assert across <= 2 or down <= 2, (one.text, other.text)


def _texts(kind: str, locale: str, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, list[str]]:
    with monkeypatch.context() as patch:
        laid = record_laid(patch)
        png = PICTURES[kind](locale)
    return png, [item.text for item in laid]


@pytest.mark.parametrize("locale", ["de", "zh-CN", "fr"])
@pytest.mark.parametrize("kind", PICTURES)
def test_a_picture_with_words_is_drawn_in_the_readers_language(
    kind: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    english_png, english = _texts(kind, ENGLISH, monkeypatch)
    png, texts = _texts(kind, locale, monkeypatch)
    assert png != english_png
    # The picture's own words (the pictures catalog's) are not left in English.
    own = {
        str(message.id)
        for message in i18n.read_catalog(i18n.template_path("pictures"))
        if message.id and isinstance(message.id, str) and "{" not in message.id
    }
    left = [
        text
        for text in texts
        if text in own and text in english and i18n.translate(locale, text) != text
    ]
    assert left == []


#: Words only the Chinese pictures draw, picture by picture.
_CHINESE = {
    "hand": "你的牌",
    "setting": "头道",
    "leaderboard": "净筹码",
    "profile": "个人资料",
    "showdown": "计分表",
    "summary": "筹码",
    "house": "庄家",
    "review": "你的",
    "challenge": "标准",
}


@pytest.mark.parametrize(("kind", "word"), _CHINESE.items())
def test_the_chinese_pictures_draw_their_words_in_chinese(
    kind: str, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, texts = _texts(kind, "zh-CN", monkeypatch)
    assert any(word in text for text in texts), texts


def test_numbers_are_written_as_the_language_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    _, english = _texts("leaderboard", ENGLISH, monkeypatch)
    _, german = _texts("leaderboard", "de", monkeypatch)
    _, french = _texts("leaderboard", "fr", monkeypatch)
    assert "12,345" in english and "12.345" in german and "12\u202f345" in french
    _, texts = _texts("profile", "de", monkeypatch)
    assert "1.234" in texts and "\N{MINUS SIGN}12.345" in texts


def test_a_picture_of_cards_alone_is_the_same_in_every_language() -> None:
    cards = parse_cards("3c As Kh Ad 10d 7s")
    hands = [parse_cards("As Ks Qs Js 10s"), (JOKER, *parse_cards("2c 2d"))]
    english_hand = hand_png(cards)
    english_hands = hands_png(hands, ["", ""])
    for locale in LOCALES[1:]:
        assert hand_png(cards, locale=locale) == english_hand
        assert hands_png(hands, ["", ""], locale=locale) == english_hands


def _slots() -> set[Text | str]:
    return {slot for spec in GAMES.values() for slot in slot_words(spec)}


#: What a slot leaves of the showdown's narrowest cell for its hand's name: a short word.
_ROOM_AFTER_SLOT = 30


@pytest.mark.parametrize("locale", LOCALES)
def test_every_slot_fits_beside_its_hand_in_every_language(locale: str) -> None:
    for slot in _slots():
        shown = i18n.localize(locale, slot)
        prefix = f"{shown} · "
        assert text_width(prefix, font(_LABEL, True)) <= _MIN_CELL - _ROOM_AFTER_SLOT, shown
        assert text_width(prefix, font(_LABEL_SIZE, True)) <= _LABEL_WIDTH // 3, shown


@pytest.mark.parametrize("locale", LOCALES)
def test_the_words_of_fixed_boxes_fit_them_in_every_language(
    locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid = record_laid(monkeypatch)
    _showdown(locale)
    total = i18n.localize(locale, tr("Total"))
    (drawn,) = [item for item in laid if item.text == total]
    assert drawn.box[2] - drawn.box[0] <= _MATRIX_CELL - 6, total
    laid.clear()
    _profile(locale)
    for word in ("Games", "Wins", "Net chips"):
        shown = i18n.localize(locale, tr(word))
        (drawn,) = [item for item in laid if item.text == shown]
        # The profile's three figures share its width: 209 pixels each.
        assert drawn.box[2] - drawn.box[0] <= 209 - 16, shown


def test_a_line_of_chinese_breaks_between_characters() -> None:
    text = "你的牌型（尚未确定）：葫芦，三条带一对"
    lines = style_module.wrap(text, font(22), 120, max_lines=8)
    assert len(lines) > 1 and "".join(lines) == text
    assert not any(line.startswith(("，", "）", "：")) for line in lines)
    assert all(text_width(line, font(22)) <= 120 for line in lines)


def test_a_french_no_break_space_holds_its_words_together() -> None:
    lines = style_module.wrap("Pot\u202f: 1\u202f234 jetons pour Ada.", font(22), 90, max_lines=4)
    assert "Pot\u202f:" in lines and "1\u202f234" in lines


@pytest.mark.parametrize("locale", LOCALES[1:])
@pytest.mark.parametrize("kind", PICTURES)
def test_no_word_is_cut_where_the_english_picture_cuts_none(
    kind: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, english = _texts(kind, ENGLISH, monkeypatch)
    _, texts = _texts(kind, locale, monkeypatch)
    cut = [text for text in texts if text.endswith(style_module.ELLIPSIS)]
    if not any(text.endswith(style_module.ELLIPSIS) for text in english):
        assert cut == []


def test_a_pictures_words_and_locale_pickle_for_a_worker_process() -> None:
    declaring = DeclarationsOpened(1, (1, 2), 0.0, None, 2, 7, "showdown")
    arguments = (
        parse_cards("As Kd 7c W"),
        {"title": tr("Your hands so far"), "subtitle": phase_subtitle("x", declaring)},
        "de",
    )
    cards, options, locale = pickle.loads(pickle.dumps(arguments))
    assert hand_picture(cards, **options, locale=locale) == hand_picture(
        arguments[0], **arguments[1], locale="de"
    )
