"""``python bot.py --demo VARIANT``: a whole game with solver players and no Discord."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from demo import play_demo
from tables.games import GAMES
from tests.i18n.reading import foreign_words
from tests.render.helpers import Drawn

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000


# The quick loop plays the README's game; every game is in the full run.
@pytest.mark.parametrize(
    "game",
    [g if g == "showdown" else pytest.param(g, marks=pytest.mark.slow) for g in sorted(GAMES)],
)
async def test_the_demo_plays_a_whole_game_and_writes_its_pictures(
    game: str, tmp_path: Path
) -> None:
    written = await play_demo(game, tmp_path, players=GAMES[game].min_players + 1)
    names = [path.name for path in written]
    # The channel's picture (and the full one when that is the summary).
    showdown = [
        path for path in written if path.name.startswith("showdown-") and "-full" not in path.name
    ]
    dms = [path for path in written if path.name.startswith("dm-")]
    assert len(showdown) == 1 and dms, names
    for path in (*showdown, *dms):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 200
        assert path.stat().st_size < MB
    transcript = (tmp_path / "transcript.txt").read_text(encoding="utf-8")
    assert "ShowdownSettled" in transcript and "GameCancelled" not in transcript


@pytest.mark.slow  # six players' 25-card settings
async def test_a_six_player_showdown_demo_draws_pictures_a_phone_shows_whole(
    tmp_path: Path,
) -> None:
    written = await play_demo("showdown", tmp_path, players=6)
    sizes = {path.name: Image.open(path).size for path in written if path.suffix == ".png"}
    [summary] = [name for name in sizes if name.startswith("showdown-") and "-full" not in name]
    [full] = [name for name in sizes if name.endswith("-full.png")]
    # Was 716 by 3,227: now a summary within 1,400 pixels, the full picture a button away.
    assert sizes[summary][1] <= 1400 < sizes[full][1], sizes
    dms = [size for name, size in sizes.items() if name.startswith("dm-")]
    assert dms and all(width <= 720 for width, _ in dms), dms


@pytest.mark.slow
def test_the_demo_command_needs_no_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    out = tmp_path / "demo"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--demo", "three-card", "--out", str(out)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Played one game of" in result.stdout and "Traceback" not in result.stderr
    assert any(path.name.startswith("showdown-") for path in out.iterdir())


@pytest.mark.slow
def test_the_demo_refuses_an_unknown_game(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--demo", "blackjack", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2 and "There is no game called 'blackjack'" in result.stdout


async def test_the_demo_draws_its_pictures_in_the_language_asked_for(
    tmp_path: Path, drawn: list[Drawn]
) -> None:
    await play_demo("standard", tmp_path, players=2, locale="de")
    laid = " ".join(piece.text for piece in drawn)
    # The players' names, the cards' ranks and a cut line's fragment aside, every word German.
    names = frozenset({"ann", "bob"})
    assert laid and foreign_words(laid.replace("…", " "), "de", names) == [], laid
