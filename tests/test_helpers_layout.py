"""Tests share their steps and doubles through helpers modules (``tests/<package>/helpers.py``),
never by importing a test module or a conftest: a test module is free to change on its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

TESTS = Path(__file__).resolve().parent
#: An import of a module of tests/, at any indentation (a function's own imports too).
IMPORT: Final = re.compile(r"^\s*(?:from|import)\s+(tests(?:\.\w+)+)", re.MULTILINE)


def shared_from_tests(path: Path) -> list[str]:
    """The test modules and conftests that ``path`` imports."""
    modules = IMPORT.findall(path.read_text(encoding="utf-8"))
    return [
        m for m in modules if m.rsplit(".", 1)[-1].startswith("test_") or m.endswith("conftest")
    ]


def test_no_test_module_or_conftest_is_imported_by_another_module() -> None:
    imported = {
        str(path.relative_to(TESTS)): names
        for path in sorted(TESTS.rglob("*.py"))
        if (names := shared_from_tests(path))
    }
    assert imported == {}
