"""One name per game everywhere: the bot, the engine's command line, the database and the docs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import GameError
from engine.evaluate import HAND_RULES
from engine.names import GAME_NAMES, game_name
from engine.simulate import GAMES as SIMULATED
from engine.variants import VARIANTS
from tables.games import GAMES

ROOT = Path(__file__).resolve().parent.parent


def test_every_layer_knows_the_games_by_the_same_names() -> None:
    assert tuple(GAMES) == GAME_NAMES
    assert tuple(HAND_RULES) == GAME_NAMES
    assert set(VARIANTS) <= set(GAME_NAMES)
    assert set(SIMULATED) <= set(GAME_NAMES)
    assert all(spec.name == name for name, spec in GAMES.items())


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("no_surrender", "no-surrender"),
        ("No Surrender", "no-surrender"),
        ("THREE_CARD", "three-card"),
        ("three card", "three-card"),
        ("pai-gow", "paigow"),
        ("Pai Gow", "paigow"),
        (" showdown ", "showdown"),
    ],
)
def test_the_other_spellings_people_type_are_read_as_the_one_name(typed: str, name: str) -> None:
    assert game_name(typed) == name


def test_an_unknown_game_is_a_sentence_naming_the_games() -> None:
    with pytest.raises(GameError, match="no-surrender, three-card, paigow"):
        game_name("snap")


def test_the_command_line_takes_an_alias_and_answers_with_the_name() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "evaluate", "--variant", "three_card", "As Kd 7c"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    wrong = subprocess.run(
        [sys.executable, "-m", "engine", "evaluate", "--variant", "snap", "As"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "no-surrender" in wrong.stderr


def test_the_docs_spell_each_game_one_way() -> None:
    old = re.compile(r"\b(no_surrender|three_card)\b(?![_(])")
    for doc in ("README.md", "docs/rules.md", "docs/architecture.md", "docs/benchmarks.md"):
        lines = (ROOT / doc).read_text("utf-8").splitlines()
        # The one line that lists the other spellings the bot reads may name them.
        found = [line for line in lines if old.search(line) and "are read too" not in line]
        assert not found, (doc, found)
