"""A 24-player tournament at four tables, each in a thread of its own, played to the end on both
stores: 6 people (away, so the deadlines play for them) and 18 computers. Every hand each table
is really dealt is noted: after every round the tables are balanced (no two differ by more than
one player) and seat exactly the players still in, no hand is dealt twice, tables break as
players go out and the final table is announced. A restart comes in the middle, and on
PostgreSQL a second process takes the tournament over from one that died (its connection gone,
never closed). At the end every player has one place, the prizes are the buy-ins and both
audits balance."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from storage.rows import GameStatus, TournamentStatus
from storage.tournaments import chip_scope
from tables.tournament import prizes
from tables.tournament_play import Play
from tables.tournament_runner import TournamentRunner
from tests.tables.helpers import GUILD, PLAYERS, World
from tests.tables.tournaments import (
    BUY_IN,
    THREAD,
    Dealt,
    FakeVenue,
    assert_balanced_rounds,
    assert_clean,
    open_tournament,
    play_until,
    row_of,
    runner_of,
)

ENTRANTS = 24
TABLES = 4


async def _take_over(world: World, runner: TournamentRunner) -> World:
    """Another process on the same database carries on; this one dies: nothing of it closes
    cleanly, its connection just goes (PostgreSQL lets its locks go with it)."""
    runner.close()
    heir = await World.open(world.path, clock=world.clock)
    await world.database.close()
    await heir.manager.resume()
    await heir.manager.publish_pending()
    return heir


# 24 players at four tables, played out: the quick lane keeps test_tournament_play.py's.
@pytest.mark.slow
async def test_a_24_player_tournament_across_four_threads_survives_a_restart_and_a_takeover(
    database_target: str | Path,
) -> None:
    world = await World.open(database_target, seed=7)
    try:
        venue, dealt = FakeVenue(), Dealt()
        runner = runner_of(world, venue, dealt)
        tid = await open_tournament(world, starts_in=60, max_players=ENTRANTS, people=PLAYERS)
        runner.arm(await row_of(world, tid))
        await world.scheduler.pass_deadline()  # its start time: computers fill 18 places
        await runner.wait()
        entries = await world.storage.tournaments.entries(tid)
        entrants = [e.user_id for e in entries]
        assert len(entrants) == ENTRANTS and sum(p > 0 for p in entrants) == len(PLAYERS)
        assert venue.opened == [THREAD + n for n in range(1, TABLES + 1)]
        for n in range(1, TABLES + 1):
            table = await world.manager.table(GUILD, THREAD + n)
            assert table is not None and table.in_game and len(table.players) == 6

        await play_until(world, runner, tid, until_hands=3)
        await assert_clean(world, GUILD, chip_scope(tid))
        await world.restart()  # a clean restart
        venue = FakeVenue()
        runner = runner_of(world, venue, dealt)
        assert await runner.resume() == 1
        await play_until(world, runner, tid, until_hands=7)
        if not isinstance(database_target, Path):
            # PostgreSQL: the process dies and another one, already running, takes over.
            world = await _take_over(world, runner)
            runner = runner_of(world, venue, dealt)
            assert await runner.resume() == 1
        await play_until(world, runner, tid, until_hands=10_000, limit=2_000)

        finished = await row_of(world, tid)
        assert finished.status is TournamentStatus.FINISHED and finished.state is not None
        play = Play.from_json(finished.state)
        assert_balanced_rounds(dealt.rounds, entrants, TABLES)
        # The tables came down to one, and the channel was told.
        assert len(dealt.rounds[max(dealt.rounds)]) == 1
        assert any(item["kind"] == "final" for item in venue.news)
        assert any(item["kind"] == "winner" for item in venue.news)
        # Every player placed exactly once; the prizes are the buy-ins, by the structure.
        entries = await world.storage.tournaments.entries(tid)
        assert sorted(e.place for e in entries) == list(range(1, ENTRANTS + 1))
        paid = sorted((e.place, e.prize or 0) for e in entries if e.place is not None)
        assert sum(prize for _, prize in paid) == ENTRANTS * BUY_IN
        assert tuple(prize for _, prize in paid[:5]) == prizes(ENTRANTS * BUY_IN, ENTRANTS)
        for entry in entries:
            if entry.user_id > 0:
                balance = await world.storage.players.balance(GUILD, entry.user_id)
                assert balance == 1_000 - BUY_IN + (entry.prize or 0)
        # Every game settled once and was taken in once; every table closed.
        rows = await world.database.fetchall(
            "SELECT id, status FROM games WHERE scope = ?", (chip_scope(tid),)
        )
        assert {GameStatus(status) for _, status in rows} == {GameStatus.SETTLED}
        assert sorted(play.taken) == sorted(game for game, _ in rows)
        assert len(rows) == sum(len(tables) for tables in dealt.rounds.values())
        for n in range(1, TABLES + 1):
            assert await world.manager.table(GUILD, THREAD + n) is None
        left = await world.storage.players.balances(chip_scope(tid), entrants)
        assert set(left.values()) == {0}
        await assert_clean(world, GUILD, chip_scope(tid))
    finally:
        await world.close()


def test_rounds_check_refuses_unbalanced_tables() -> None:
    dealt = Dealt()
    entrants = list(range(1, 25))
    rng = random.Random(1)
    rng.shuffle(entrants)
    dealt.rounds[0] = {
        1: tuple(entrants[:7]),
        2: tuple(entrants[7:12]),
        3: tuple(entrants[12:18]),
        4: tuple(entrants[18:]),
    }
    try:
        assert_balanced_rounds(dealt.rounds, entrants, TABLES)
    except AssertionError:
        return
    raise AssertionError("7 and 5 players at two tables passed as balanced")
