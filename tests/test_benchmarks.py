"""The load benchmarks run to their figures on a small load.

They reach into the store (the writing connection, its lock) to say where a click's time goes, so
a change to the store can break them without any other test noticing: bench_load once crashed
before its first table when the writing connection stopped being aiosqlite's. Timings are not
checked (docs/benchmarks.md holds them); only that each run ends and prints its line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(*arguments: str) -> list[str]:
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


@pytest.mark.slow  # a process that plays a table with the solver's workers
def test_bench_load_plays_a_table_and_prints_its_figures() -> None:
    lines = _bench("benchmarks.bench_load", "--tables", "1", "--game", "paigow", "--silent", "0")
    [row] = [line for line in lines if line.startswith("after")]
    fields = row.split()
    assert fields[1] == "1"  # tables
    assert float(fields[2]) > 0  # games a second: the table played to its showdown


@pytest.mark.slow  # a process per mode, each with its workers
def test_bench_cluster_plays_a_table_on_sqlite_and_prints_its_figures() -> None:
    lines = _bench("benchmarks.bench_cluster", "--tables", "1", "--modes", "sqlite")
    [row] = [line for line in lines if line.startswith("sqlite")]
    fields = row.split()
    assert fields[1] == "1"
    assert float(fields[2]) > 0
