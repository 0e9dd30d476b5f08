"""The one-way imports between packages in STYLE.md's layer table hold for every module."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# bot.py wires everything together, so no package may import it back.
NEVER_IMPORTS: dict[str, frozenset[str]] = {
    "engine": frozenset(
        {
            *("discord", "aiosqlite", "asyncpg", "PIL", "asyncio"),
            *("render", "storage", "tables", "cogs", "bot"),
        }
    ),
    "render": frozenset({"discord", "storage", "tables", "cogs", "aiosqlite", "asyncpg", "bot"}),
    "storage": frozenset({"discord", "tables", "cogs", "render", "PIL", "bot"}),
    # Tables reach the stores only through storage's repositories and locks.
    "tables": frozenset({"discord", "PIL", "render", "cogs", "bot", "aiosqlite", "asyncpg"}),
    "cogs": frozenset({"sqlite3", "aiosqlite", "asyncpg", "bot"}),
}

# The engine is pure rules: the standard library, plus numpy where a benchmark proved the need
# (the house games' simulator, engine/simulate_house.py; numba was measured and not adopted).
ENGINE_THIRD_PARTY_ALLOWED = frozenset({"numpy", "numba"})


@dataclass(frozen=True, slots=True)
class Violation:
    """One import that breaks the layer table."""

    filename: str
    line: int
    module: str
    reason: str

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}: imports {self.module!r}: {self.reason}"


def imported_top_level_modules(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """Return (line, top-level module name) for every absolute import in the source."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name.partition(".")[0]) for alias in node.names)
        # A relative import always stays inside its own top-level package, so it cannot cross.
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.partition(".")[0]))
    return found


def find_violations(package: str, source: str, filename: str = "<source>") -> list[Violation]:
    """Return every import in a module of `package` that STYLE.md's layer table forbids."""
    violations: list[Violation] = []
    for line, module in imported_top_level_modules(source, filename):
        if module in NEVER_IMPORTS[package]:
            reason = f"{package}/ never imports {module}"
        elif (
            package == "engine"
            and module != "engine"
            and module not in sys.stdlib_module_names
            and module not in ENGINE_THIRD_PARTY_ALLOWED
        ):
            reason = "engine/ imports only the standard library (and numpy in the simulator)"
        else:
            continue
        violations.append(Violation(filename, line, module, reason))
    return violations


def package_modules(package: str) -> list[Path]:
    """Every Python file of a top-level package, in a stable order."""
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(NEVER_IMPORTS))
def test_package_imports_only_what_its_layer_allows(package: str) -> None:
    violations = [
        violation
        for path in package_modules(package)
        for violation in find_violations(
            package, path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))
        )
    ]
    assert not violations, "Imports that break STYLE.md's layer table:\n" + "\n".join(
        str(violation) for violation in violations
    )


def test_checker_catches_a_forbidden_import() -> None:
    source = "import os\nimport discord.ext.commands\nfrom PIL import Image\n"
    violations = find_violations("engine", source, "engine/cards.py")
    assert [(v.line, v.module) for v in violations] == [(2, "discord"), (3, "PIL")]
    assert str(violations[0]) == (
        "engine/cards.py:2: imports 'discord': engine/ never imports discord"
    )


def test_checker_catches_a_third_party_import_in_the_engine() -> None:
    violations = find_violations("engine", "import requests\n")
    assert [v.module for v in violations] == ["requests"]


def test_checker_allows_the_standard_library_and_numpy_in_the_engine() -> None:
    source = "from __future__ import annotations\nimport random\nimport numpy as np\n"
    assert find_violations("engine", source) == []


def test_checker_catches_asyncio_in_the_engine_but_not_in_tables() -> None:
    source = "import asyncio\n"
    assert [v.module for v in find_violations("engine", source)] == ["asyncio"]
    assert find_violations("tables", source) == []


def test_checker_catches_sql_drivers_in_cogs() -> None:
    source = "import sqlite3\nfrom aiosqlite import connect\nimport discord\n"
    assert [v.module for v in find_violations("cogs", source)] == ["sqlite3", "aiosqlite"]


def test_checker_ignores_relative_imports() -> None:
    assert find_violations("engine", "from . import cards\nfrom .hands import Hand\n") == []


@pytest.mark.parametrize("package", ["engine", "render", "storage", "tables"])
def test_no_discord_mention_is_built_below_the_cogs(package: str) -> None:
    """Players and channels are ids or plain names below the cogs; only cogs write mentions."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if "<@" in line or "<#" in line
    ]
    assert not found, found
