"""The registry of games (tables/games.py): each game has everything the bot asks of it, and no
product file outside the few docs/architecture.md lists names a game."""

from __future__ import annotations

import ast
import dataclasses
import fnmatch
import functools
import re
from pathlib import Path

import pytest

from cogs import chips, info, lobby, settings
from cogs.pictures import held_sizes
from engine.evaluate import HAND_RULES
from engine.names import GAME_NAMES, game_name
from engine.simulate import GAMES as SIMULATED
from tables.games import (
    ENTRIES,
    GAME_OPTIONS,
    GameEntry,
    game_named,
    option_help,
    rules_card,
    rules_of,
    takers,
)
from tables.options import Options, own_options
from tests.helpers import rules_section

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
RULES = ROOT / "docs" / "rules.md"
PRODUCT = ("render", "storage", "tables", "cogs")
#: Where a game's name is written for another reason than listing or telling the games apart.
NAMED_ELSEWHERE = {
    ("tables/coach.py", "showdown"): "a game record's key for its showdown event",
    ("tables/record.py", "showdown"): "a game record's key for its showdown event",
    ("cogs/info.py", "showdown"): "/evaluate reads a hand by Showdown's ranking unless told",
    ("cogs/samples.py", "showdown"): "the committed sample pictures are of a Showdown game",
}

by_name = pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])


@by_name
def test_every_game_has_its_section_in_the_rules(entry: GameEntry) -> None:
    lines = RULES.read_text("utf-8").splitlines()
    starting = [line for line in lines if line.startswith(entry.section)]
    assert len(starting) == 1, f"docs/rules.md has no single heading {entry.section!r}"
    assert len(rules_section(entry.name)) > 200


@by_name
def test_every_game_has_its_pictures(entry: GameEntry) -> None:
    rules = rules_of(entry.spec)
    assert len(rules.slot_names()) == len(rules.shape())
    assert rules.hand_rules() == HAND_RULES[entry.name]
    assert held_sizes(entry.spec)[0] == entry.spec.deal


@by_name
def test_every_game_has_its_rules_card(entry: GameEntry) -> None:
    card = rules_card(entry.spec)
    assert card.title == entry.spec.title and str(card.pages[0].name) == "How a game goes"
    assert rules_of(entry.spec).called()


@by_name
def test_every_game_has_its_name_in_every_list(entry: GameEntry) -> None:
    name = entry.name
    for spelling in (name, *entry.aliases, name.upper().replace("-", " ")):
        assert game_named(spelling) is entry.spec
        assert game_name(spelling) == name  # the engine's command line reads the same
    assert name in GAME_NAMES and name in HAND_RULES
    for choices in (lobby.GAME_CHOICES, info.GAME_CHOICES, chips.GAME_CHOICES):
        assert name in {choice.value for choice in choices}
    with_ante = {choice.value for choice in settings.GAME_CHOICES}
    assert (name in with_ante) == bool(entry.spec.default_ante)
    # The simulator plays every game against the house, for its edge.
    assert (name in SIMULATED) == entry.spec.has_dealer


@by_name
def test_every_game_declares_its_options(entry: GameEntry) -> None:
    kind = entry.options
    assert issubclass(kind, Options) and dataclasses.is_dataclass(kind)
    # A game's options at their defaults, the ante and seats its own, make its game.
    options = kind(ante=entry.spec.default_ante, seats=entry.spec.max_players)
    assert options.game(entry.spec).name == entry.name
    for declared in own_options(kind):
        assert GAME_OPTIONS[declared.name] is declared, "games that share an option share it"
        assert declared.check(declared.default) == declared.default
        assert entry in takers(declared.name)
        assert option_help(declared.name).startswith(entry.label or entry.spec.title)


def listed_files() -> list[str]:
    """The files docs/architecture.md says a new game touches."""
    text = ARCHITECTURE.read_text("utf-8")
    start = text.index("<!-- The files a new game touches")
    table = text[start:].split("\n\n", 2)[1]
    return re.findall(r"^\| `([^`]+)` \|", table, re.M)


def product_files() -> list[Path]:
    paths = [path for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))]
    return [*paths, ROOT / "bot.py", ROOT / "demo.py"]


@functools.cache
def mentions(path: Path) -> frozenset[str]:
    """Every string (docstrings aside) and every name a module holds, read once for every
    game's check."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                found.add(node.value.strip())
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.alias | ast.ClassDef):
            found.add(node.name)
    return frozenset(found)


def names_of(entry: GameEntry, path: Path) -> set[str]:
    """How a module names the game: its name, an alias or its title as a string (docstrings
    aside), or its rules or options class."""
    classes = {getattr(entry.rules, "__name__", ""), entry.options.__name__} - {"Options"}
    return set(mentions(path) & {entry.name, *entry.aliases, entry.spec.title, *classes})


def test_a_new_game_touches_few_product_files_outside_the_engine() -> None:
    listed = listed_files()
    assert "tables/games.py" in listed and "docs/rules.md" in listed
    product = [f for f in listed if f.partition("/")[0] in PRODUCT or f.endswith(".py")]
    outside_engine = [f for f in product if not f.startswith("engine/")]
    assert 1 <= len(outside_engine) <= 5, outside_engine


@by_name
def test_no_product_file_outside_the_list_names_a_game(entry: GameEntry) -> None:
    listed = [pattern.replace("<game>", "*") for pattern in listed_files()]
    naming = {}
    for path in product_files():
        relative = str(path.relative_to(ROOT))
        if any(fnmatch.fnmatch(relative, pattern) for pattern in listed):
            continue
        found = {w for w in names_of(entry, path) if (relative, w) not in NAMED_ELSEWHERE}
        if found:
            naming[relative] = sorted(found)
    assert not naming, (
        f"These files name {entry.name}, but docs/architecture.md says a new game touches only "
        f"{listed}: {naming}"
    )


def test_the_check_sees_a_game_named_in_a_list(tmp_path: Path) -> None:
    [pai_gow] = [entry for entry in ENTRIES if entry.name == "paigow"]
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""Pai Gow poker"""\nfrom tables.rules.paigow import PaiGowRules\n'
        'SECTIONS = {"paigow": "## Pai Gow poker", "other": "Pai Gow poker"}\n'
    )
    assert names_of(pai_gow, planted) == {"paigow", "Pai Gow poker", "PaiGowRules"}
