"""A tournament's runner as the bot shuts down: a step under way finishes before the tables
close, and one the closing cuts short is left for the next start without an error logged
(nothing is lost: the next start reads the tournament again and carries on)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from engine.errors import GameError
from tables.runtime import ProcessOffload
from tables.tournament_runner import TournamentRunner
from tests.tables.helpers import World
from tests.tables.tournaments import FakeVenue, open_tournament, row_of, runner_of


async def _started(tmp_path: Path) -> tuple[World, TournamentRunner, int]:
    world = await World.open(tmp_path / "shutdown.sqlite3", seed=3)
    runner = runner_of(world, FakeVenue())
    tid = await open_tournament(world, starts_in=60, max_players=4)
    runner.arm(await row_of(world, tid))
    await world.scheduler.pass_deadline()
    await runner.wait()
    return world, runner, tid


async def test_a_step_cut_short_by_the_closing_logs_no_error_and_is_not_retried(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    world, runner, tid = await _started(tmp_path)
    caplog.set_level(logging.INFO, logger="tables.tournament_runner")
    try:
        runner.kick(tid)  # a showdown moved it: a step is on its way
        runner.close()
        await world.manager.close()  # the tables refuse every action from now on
        await runner.wait()
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
        assert any("next start" in r.getMessage() for r in caplog.records)
        assert world.scheduler.pending == [], "no retry after the closing"
    finally:
        await world.database.close()


async def test_stopping_the_runner_lets_the_step_under_way_finish(tmp_path: Path) -> None:
    world, runner, tid = await _started(tmp_path)
    try:
        runner.kick(tid)
        await runner.stop()
        assert not runner._tasks, "the step finished before stop returned"
        runner.kick(tid)
        assert not runner._tasks, "no step starts once stopped"
    finally:
        await world.close()


async def test_work_handed_to_closed_workers_is_refused_with_a_sentence() -> None:
    offload = ProcessOffload(workers=1)
    offload.close()
    with pytest.raises(GameError, match=r"^The bot is restarting; try again in a moment\.$"):
        await offload(pow, 2, 3)
