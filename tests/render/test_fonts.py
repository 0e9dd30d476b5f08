"""Names in any script: every character of a name is drawn by a font that has it (DejaVu Sans,
then Noto Sans Arabic, Noto Sans CJK, Noto Color Emoji), never as the missing-glyph box."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from engine.cards import Shoe
from render import ShowdownRow, leaderboard_png, showdown_png, style
from render.fonts import COVERAGE_FILE, EMOJI, FONT_DIR, coverage, runs
from render.style import ELLIPSIS, font
from tests.render.helpers import UNDRAWN, Drawn, boxes, ink

#: A name in each script the issue names, and a few mixed as people write them.
NAMES = {
    "Latin": "Zoë Ångström",
    "Cyrillic": "Дмитрий Иванов",
    "Greek": "Νίκος Παπαδόπουλος",
    "Chinese": "王小明",
    "Japanese": "さくら・サクラ",
    "Korean": "김민준",
    "Arabic": "محمد الأحمد",
    "emoji": "🔥🎲❤️👨‍👩‍👧🇯🇵",
    "mixed": "Zoë 李 ع 🎲",
}


@pytest.mark.parametrize("script", NAMES)
@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_a_name_in_any_script_has_no_missing_glyph(script: str, bold: bool) -> None:
    assert boxes(NAMES[script], font(21, bold)) == []


def test_the_check_sees_the_missing_glyph_box() -> None:
    assert boxes(f"Ann{UNDRAWN}", font(21)) == [UNDRAWN]
    # DejaVu Sans alone draws boxes for the names the fallbacks draw.
    face = font(21)
    for name in ("王小明", "김민준", "🔥"):
        assert ink(face, name[0], False) == ink(face, UNDRAWN, False)


def test_each_script_is_drawn_by_its_own_font() -> None:
    files = {
        script: [Path(str(run.face.path)).name for run in runs(name, font(21))]
        for script, name in NAMES.items()
    }
    assert files["Cyrillic"] == files["Greek"] == ["DejaVuSans.ttf"]
    assert files["Chinese"] == files["Korean"] == ["NotoSansCJK-Subset.otf"]
    assert files["Arabic"] == ["NotoSansArabic-Regular.ttf"]
    assert files["emoji"] == [EMOJI]
    assert files["mixed"] == [
        "DejaVuSans.ttf",
        "NotoSansCJK-Subset.otf",
        "DejaVuSans.ttf",  # the CJK font has no space of its own
        "NotoSansArabic-Regular.ttf",
        EMOJI,
    ]
    # An Arabic name is one run, its words laid right to left by the shaper.
    assert runs(NAMES["Arabic"], font(21))[0].text == NAMES["Arabic"]


def test_an_emoji_is_drawn_in_colour_at_the_texts_size() -> None:
    canvas = style.felt(200, 60)
    style.draw_text(canvas, (10, 10), "🎲 A", face=font(21), fill=style.TEXT)
    inks = (style.FELT, style.TEXT)
    colours = {pixel for pixel in canvas.get_flattened_data() if pixel not in inks}
    assert any(r > 150 and g < 100 for r, g, _ in colours), "the die's red pips are not drawn"
    mask, _, top, colour = style.text_coverage("🎲 A", font(21), "la")
    assert colour is not None and abs(colour.height - 21) <= 6 and mask.height <= 30
    assert top >= -2  # on the line, as DejaVu's own text is


def test_a_space_after_an_emoji_is_as_wide_as_any_other() -> None:
    face = font(21)
    assert style.length("🎲 A", face) - style.length("🎲A", face) == pytest.approx(
        style.length(" ", face)
    )


def test_a_cut_name_keeps_its_emoji_whole() -> None:
    cut = style.ellipsize("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", font(21), 60)
    assert cut.endswith(ELLIPSIS) and "\u200d" + ELLIPSIS not in cut
    assert style.text_width(cut, font(21)) <= 60


def test_the_showdown_and_the_leaderboard_draw_every_name_whole(
    drawn: list[Drawn],
) -> None:
    names = list(NAMES.values())[:6]
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(3))
    rows = [
        ShowdownRow(
            name=name,
            hands=tuple(shoe.deal(size) for size in (1, 3, 5)),
            labels=("Ace high", "Trips", "Flush"),
            per_hand=(1, -2, 3),
            net=5 - seat,
            slots=("Hand 1", "Hand 2", "Hand 3"),
        )
        for seat, name in enumerate(names)
    ]
    showdown_png(rows, title="Game 1")
    leaderboard_png("Leaderboard", [(rank, name, 100 - rank) for rank, name in enumerate(names)])
    texts = {piece.text for piece in drawn}
    for name in names:
        assert name in texts, f"{name!r} was not drawn whole"
    assert [(p.text, boxes(p.text, p.face)) for p in drawn if boxes(p.text, p.face)] == []


def test_the_coverage_file_is_what_each_font_draws() -> None:
    """assets/fonts/coverage.json, which chooses the font of each character, matches the fonts
    (assets/fonts/build.py writes both); DejaVu Sans leaves Arabic to Noto Sans Arabic."""
    listed = coverage()
    fonts = sorted(path.name for path in FONT_DIR.glob("*.[ot]tf"))
    assert sorted(listed) == fonts
    for name in fonts:
        points = set(TTFont(FONT_DIR / name, lazy=True).getBestCmap())
        starts, ends = listed[name]
        covered = {p for low, high in zip(starts, ends, strict=True) for p in range(low, high + 1)}
        assert covered <= points, name
        left_out = points - covered
        if name.startswith("DejaVuSans"):
            assert 0x0627 in left_out  # alif
            assert all("ARABIC" in unicodedata.name(chr(p), "") for p in left_out)
        else:
            assert not left_out, name
    assert COVERAGE_FILE.stat().st_size < 64_000
