"""What the top-level tests share: running a benchmark as a process, to its printed lines, and a
game's section of docs/rules.md (the full rules for people who read them at length)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tables.games import entry_of

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"


def bench(*arguments: str) -> list[str]:
    """The lines a benchmark module prints when run with these arguments (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-m", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stdout.splitlines()


def rules_section(game: str) -> str:
    """A game's section of docs/rules.md, from the heading its entry names to the next one."""
    text = RULES.read_text("utf-8")
    start = text.index(entry_of(game).section)
    following = text.find("\n## ", start + 1)
    section = text[start : following if following != -1 else len(text)].strip()
    return section.split("\n", 1)[1].strip() if "\n" in section else section
