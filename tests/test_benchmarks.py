"""The load benchmarks run to their figures on a small load.

They reach into the store (the writing connection, its lock) to say where a click's time goes, so
a change to the store can break them without any other test noticing: bench_load once crashed
before its first table when the writing connection stopped being aiosqlite's. Timings are not
checked (docs/benchmarks.md holds them); only that each run ends and prints its line.
"""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import check_simulator
from engine.simulate_house import pai_gow_results
from tests.helpers import bench


@pytest.mark.slow  # a process that plays a table with the solver's workers
def test_bench_load_plays_a_table_and_prints_its_figures() -> None:
    lines = bench("benchmarks.bench_load", "--tables", "1", "--game", "paigow", "--silent", "0")
    [row] = [line for line in lines if line.startswith("after")]
    fields = row.split()
    assert fields[1] == "1"  # tables
    assert float(fields[2]) > 0  # games a second: the table played to its showdown


@pytest.mark.slow  # a process per mode, each with its workers
def test_bench_cluster_plays_a_table_on_sqlite_and_prints_its_figures() -> None:
    lines = bench("benchmarks.bench_cluster", "--tables", "1", "--modes", "sqlite")
    [row] = [line for line in lines if line.startswith("sqlite")]
    fields = row.split()
    assert fields[1] == "1"
    assert float(fields[2]) > 0
    # What its players waited for, as bench_load says it, each figure beside its target.
    [players] = [line for line in lines if line.startswith("  players at 1 tables:")]
    assert "own hands" in players and "loop stall p99/max" in players and "load" in players
    [targets] = [line for line in lines if line.startswith("  targets:")]
    for column in ("dm95", "sug95", "own", "lag99"):
        assert f"{column} " in targets


def _settled_the_other_way(*arguments: object) -> object:
    """A broken simulator: every Pai Gow round won where it was lost, and lost otherwise."""
    results = pai_gow_results(*arguments)
    return np.where(results < 0, 1, -1)


def test_check_simulator_rounds_checks_the_pai_gow_simulator_when_asked_for_pai_gow(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each round the simulator settles otherwise than the bot's rules must be counted.
    monkeypatch.setattr(check_simulator, "pai_gow_results", _settled_the_other_way)
    check_simulator.rounds("paigow", 300, 1)
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "paigow: 300 rounds, 300 differ from the bot's rules"


def test_check_simulator_exits_with_1_when_a_round_differs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(check_simulator, "pai_gow_results", _settled_the_other_way)
    monkeypatch.setattr("sys.argv", ["check_simulator", "rounds", "--hands", "200"])
    assert check_simulator.main() == 1
    monkeypatch.undo()
    monkeypatch.setattr("sys.argv", ["check_simulator", "rounds", "--hands", "200"])
    assert check_simulator.main() == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "paigow: 200 rounds, 200 differ from the bot's rules"
    assert "paigow: 200 rounds, 0 differ from the bot's rules" in out


def test_check_simulator_rounds_finds_the_simulators_equal_to_the_bots_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for game in ("paigow", "three-card"):
        assert check_simulator.rounds(game, 300, 2) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"{game}: 300 rounds, 0 differ from the bot's rules\n"), out
        assert "speed-up of the simulator" in out
