"""The one-way imports between packages in STYLE.md's layer table hold for every module."""

from __future__ import annotations

import ast
import functools
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
    # The catalogs are texts: cogs use them, and the pictures may.
    "i18n": frozenset(
        {"discord", "aiosqlite", "asyncpg", "PIL", "render", "storage", "tables", "cogs", "bot"}
    ),
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


@pytest.mark.parametrize("package", ["engine", "i18n", "render", "storage", "tables"])
def test_no_discord_mention_is_built_below_the_cogs(package: str) -> None:
    """Players and channels are ids or plain names below the cogs; only cogs write mentions."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if "<@" in line or "<#" in line
    ]
    assert not found, found


# ----- cycles and the order of layers and modules ---------------------------------------------

#: The product's layers, bottom to top: a module imports from its own layer or the ones below.
#: (STYLE.md's table forbids some imports downwards too: render and storage never meet.)
LAYERS: tuple[str, ...] = ("engine", "i18n", "render", "storage", "tables", "cogs", "demo", "bot")

#: Within these layers, every module in order, bottom to top: a module imports only modules
#: before it. Two import cycles grew in these layers, and the order is what keeps them out; a
#: new module takes its place here.
MODULE_ORDER: dict[str, tuple[str, ...]] = {
    "storage": (
        "storage.errors",
        "storage.health",
        "storage.rows",
        "storage.database",
        "storage.sqlite",
        "storage.postgres",
        "storage.stores",
        "storage.settings",
        "storage.ledger",
        "storage.house",
        "storage.outbox",
        "storage.cluster",
        "storage.commands",
        "storage.locales",
        "storage.messages",
        "storage.games",
        "storage.chips",
        "storage.players",
        "storage.statistics",
        "storage.ratings",
        "storage.achievements",
        "storage.leaderboards",
        "storage.tournaments",
        "storage.audit",
        "storage.challenge",
        "storage.prizes",
        "storage",
    ),
    "tables": (
        "tables.phase",
        "tables.setting",
        "tables.events",
        "tables.hand_names",
        "tables.codec",
        "tables.record",
        "tables.runtime",
        "tables.spec",
        "tables.options",
        "tables.review",
        "tables.rules.pages",
        "tables.rules",
        "tables.rules.pyramid_pages",
        "tables.rules.three_card_pages",
        "tables.rules.paigow_pages",
        "tables.rules.pyramid_review",
        "tables.rules.house_review",
        "tables.rules.pyramid",
        "tables.rules.house",
        "tables.rules.three_card",
        "tables.rules.paigow",
        "tables.games",
        "tables.defaults",
        "tables.computers",
        "tables.config",
        "tables.server",
        "tables.seat",
        "tables.seating",
        "tables.table",
        "tables.snapshot",
        "tables.house_cap",
        "tables.settle",
        "tables.live",
        "tables.subscribers",
        "tables.statistics",
        "tables.ratings",
        "tables.achievements",
        "tables.activity",
        "tables.tournament",
        "tables.tournament_play",
        "tables.features",
        "tables.outbox",
        "tables.deadlines",
        "tables.hands",
        "tables.suggestions",
        "tables.flow",
        "tables.turns",
        "tables.coach",
        "tables.manager",
        "tables.tournament_runner",
        "tables.challenge",
        "tables.cluster",
        "tables",
    ),
}


def product_sources() -> dict[str, str]:
    """Every product module's source by its dotted name (a package by its own name)."""
    paths = [path for layer in LAYERS[:-2] for path in package_modules(layer)]
    paths += [ROOT / "demo.py", ROOT / "bot.py"]
    sources = {}
    for path in paths:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        sources[name] = path.read_text(encoding="utf-8")
    return sources


def _importing(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute name a ``from ... import`` reads from (a relative one resolved)."""
    if not node.level:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def import_graph(sources: dict[str, str]) -> dict[str, dict[str, int]]:
    """Each module's imports of other product modules, with the line of the first.

    Every import counts wherever it stands: at the top, inside a function, or under
    ``TYPE_CHECKING`` (a type needed only for checking is a dependency all the same).
    """

    def known(name: str) -> str | None:
        # ``import a.b.c`` or ``from a.b import c`` depends on the innermost product module.
        while name and name not in sources:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for module, source in sources.items():
        edges: dict[str, int] = {}
        is_package = any(other.startswith(f"{module}.") for other in sources)
        for node in ast.walk(ast.parse(source, filename=module)):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [known(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                origin = _importing(module, node, is_package)
                targets = [known(f"{origin}.{alias.name}") for alias in node.names]
            for target in targets:
                if target is not None and target != module:
                    edges.setdefault(target, node.lineno)
        graph[module] = edges
    return graph


def import_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The modules caught in each import cycle (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        # Iterative, so a long chain of imports cannot exhaust Python's recursion limit.
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _place(module: str) -> tuple[int, int]:
    """A module's layer, and its place in its layer's order (0 where the layer has none)."""
    layer = LAYERS.index(module.partition(".")[0])
    order = MODULE_ORDER.get(LAYERS[layer], ())
    return layer, order.index(module) if module in order else 0


def upward_imports(graph: dict[str, dict[str, int]]) -> list[str]:
    """Every import from a module to one above it: in a higher layer, or later in its order."""
    found = []
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            if _place(target) <= _place(module):
                continue
            if _place(target)[0] > _place(module)[0]:
                reason = f"{target.partition('.')[0]} is a layer above {module.partition('.')[0]}"
            else:
                reason = f"{target} comes after it in MODULE_ORDER"
            found.append(f"{module} (line {line}) imports {target}: {reason}")
    return found


@functools.cache
def product_graph() -> dict[str, dict[str, int]]:
    """The product's import graph, read once for the tests that walk it."""
    return import_graph(product_sources())


def test_no_import_cycle_among_the_product_modules() -> None:
    cycles = import_cycles(product_graph())
    assert not cycles, "Import cycles among the product's modules:\n" + "\n".join(
        " <-> ".join(cycle) for cycle in cycles
    )


def test_no_import_points_up_a_layer_or_up_a_layers_order() -> None:
    upward = upward_imports(product_graph())
    assert not upward, "Imports that point upwards:\n" + "\n".join(upward)


@pytest.mark.parametrize("layer", sorted(MODULE_ORDER))
def test_every_module_of_an_ordered_layer_has_its_place(layer: str) -> None:
    modules = {name for name in product_sources() if name.partition(".")[0] == layer}
    order = MODULE_ORDER[layer]
    assert len(set(order)) == len(order), "a module is listed twice"
    assert modules == set(order), (
        f"missing from MODULE_ORDER[{layer!r}]: {sorted(modules - set(order))}; "
        f"listed but gone: {sorted(set(order) - modules)}"
    )


PLANTED = {
    "tables.table": "from tables.rules import rules_of\n",
    "tables.rules": (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from tables.review import Review\n"
        "def rules_of():\n"
        "    from tables import table\n"
    ),
    "tables.review": "import engine.cards\nfrom tables.rules import rules_of\n",
    "engine.cards": "import random\n",
}


def test_checker_finds_a_cycle_through_type_checking_and_function_local_imports() -> None:
    graph = import_graph(PLANTED)
    assert graph["tables.rules"] == {"tables.review": 3, "tables.table": 5}
    assert import_cycles(graph) == [["tables.review", "tables.rules", "tables.table"]]


def test_checker_finds_no_cycle_once_the_loop_is_cut() -> None:
    cut = {**PLANTED, "tables.rules": "def rules_of():\n    pass\n"}
    assert import_cycles(import_graph(cut)) == []


def test_checker_finds_an_import_up_a_layer_and_up_a_layers_order() -> None:
    sources = {
        "engine.cards": "import tables.setting\n",
        "tables.setting": "from tables.table import Table\n",
        "tables.table": "from tables import setting\n",
    }
    assert upward_imports(import_graph(sources)) == [
        "engine.cards (line 1) imports tables.setting: tables is a layer above engine",
        "tables.setting (line 1) imports tables.table: tables.table comes after it in MODULE_ORDER",
    ]
