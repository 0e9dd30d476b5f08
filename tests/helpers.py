"""What the top-level tests share: running a benchmark as a process, to its printed lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
