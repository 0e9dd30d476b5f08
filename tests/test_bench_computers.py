"""The computers' benchmarks run to their figures on a deal or two.

They play the engine's rules through the tables' settlement and cap code, so a change there can
break them without any other test noticing (tournament_levels once imported a rule that had
moved). Figures are not checked (docs/benchmarks.md holds them); only that each run ends and
prints its lines.
"""

from __future__ import annotations

import pytest

from tests.helpers import bench


@pytest.mark.slow  # the solver on a few holdings, in a process with its workers
def test_bench_surrender_weighs_both_rules_and_prints_its_figures() -> None:
    lines = bench(
        "benchmarks.bench_surrender",
        *("--deals", "2", "--tables", "standard:3", "--workers", "1", "--again", "1"),
    )
    assert any(line.startswith("Standard (17 cards), 3 seats") for line in lines)
    assert sum(line.split()[0] in ("casual", "steady", "strong") for line in lines) == 3


@pytest.mark.slow  # the solver on a few holdings, in a process with its workers
def test_bench_house_cap_plays_days_and_never_pays_past_the_cap() -> None:
    lines = bench(
        "benchmarks.bench_house_cap",
        *("--deals", "4", "--day", "2", "--cap", "5", "--tables", "no-surrender:3"),
        *("--workers", "1"),
    )
    rows = [line.split() for line in lines if line.split()[:1] in (["casual"], ["steady"])]
    assert len(rows) == 2
    for row in rows:
        assert int(row[-5]) <= 5 and int(row[-4]) <= 5  # the best day, the most up


@pytest.mark.slow  # the solver on a few holdings, in a process with its workers
def test_tournament_levels_plays_a_deal_and_prints_its_figures() -> None:
    lines = bench(
        "benchmarks.tournament_levels",
        *("--deals", "2", "--games", "standard", "--workers", "1"),
    )
    assert any("holdings surrendered" in line for line in lines)
