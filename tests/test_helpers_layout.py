"""Tests share their steps and doubles through helpers modules (``tests/<package>/helpers.py``),
never by importing a test module or a conftest: a test module is free to change on its own."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def shared_from_tests(path: Path) -> list[str]:
    """The test modules and conftests that ``path`` imports."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            last = name.rsplit(".", 1)[-1]
            if name.startswith("tests.") and (last.startswith("test_") or last == "conftest"):
                found.append(name)
    return found


def test_no_test_module_or_conftest_is_imported_by_another_module() -> None:
    imported = {
        str(path.relative_to(TESTS)): names
        for path in sorted(TESTS.rglob("*.py"))
        if (names := shared_from_tests(path))
    }
    assert imported == {}
