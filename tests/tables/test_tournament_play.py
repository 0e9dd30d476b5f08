"""A sit-and-go played to the end at a table the tournament runs, on both stores: it starts when
its time comes with computers in the free places, plays with tournament chips in a ledger scope
of its own (never the server's), antes rising by level, places every knock-out, pays the pool
through the ledger, and a restart in the middle loses nothing and settles nothing twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.rows import GameStatus, TournamentRow, TournamentStatus
from storage.tournaments import chip_scope
from tables.tournament import ante_at
from tables.tournament_play import News, Play
from tests.tables.helpers import GUILD, HOST, World
from tests.tables.tournaments import (
    BUY_IN,
    THREAD,
    FakeVenue,
    assert_clean,
    open_tournament,
    play_until,
    row_of,
    runner_of,
)


async def test_a_sit_and_go_plays_to_the_end_through_a_restart(world: World) -> None:
    venue = FakeVenue()
    runner = runner_of(world, venue)
    tid = await open_tournament(world, starts_in=60)
    runner.arm(await row_of(world, tid))
    assert (await row_of(world, tid)).status is TournamentStatus.REGISTERING
    await world.scheduler.pass_deadline()  # its start time
    await runner.wait()
    started = await row_of(world, tid)
    assert started.status is TournamentStatus.RUNNING
    entrants = [e.user_id for e in await world.storage.tournaments.entries(tid)]
    assert sorted(entrants) == [-3, -2, -1, HOST], "computers filled the free places"
    scope = chip_scope(tid)
    # The stacks are tournament chips: the person's server balance moved by the buy-in only.
    assert await world.storage.players.balance(GUILD, HOST) == 1_000 - BUY_IN
    table = await world.manager.table(GUILD, THREAD + 1)
    assert table is not None and table.in_game
    assert sorted(table.players) == sorted(entrants)
    assert await world.storage.snapshots.keys() == [(GUILD, THREAD + 1)]

    await play_until(world, runner, tid, until_hands=2)
    assert (await row_of(world, tid)).status is TournamentStatus.RUNNING
    await assert_clean(world, GUILD, scope)
    # A restart mid-tournament: a new process carries on from the database alone.
    await world.restart()
    venue = FakeVenue()
    runner = runner_of(world, venue)
    assert await runner.resume() == 1
    await play_until(world, runner, tid, until_hands=10_000)

    finished = await row_of(world, tid)
    assert finished.status is TournamentStatus.FINISHED
    assert finished.state is not None
    play = Play.from_json(finished.state)
    entries = await world.storage.tournaments.entries(tid)
    # Every entrant placed exactly once; the winner took the whole pool (up to 6: winner
    # takes all), and the prizes are the buy-ins.
    assert sorted(e.place for e in entries) == [1, 2, 3, 4]
    assert sum(e.prize or 0 for e in entries) == BUY_IN * 4
    winner = next(e for e in entries if e.place == 1)
    assert winner.prize == BUY_IN * 4
    assert any(item["kind"] == "winner" for item in venue.news)
    if winner.user_id == HOST:
        assert await world.storage.players.balance(GUILD, HOST) == 1_000 - BUY_IN + 4 * BUY_IN
    else:
        assert await world.storage.players.balance(GUILD, HOST) == 1_000 - BUY_IN
    # Every game of the tournament settled once, and was taken in once.
    games = await _scope_games(world, scope)
    assert games and all(status is GameStatus.SETTLED for status in games.values())
    assert sorted(play.taken) == sorted(games)
    # The antes rose by level: each hand's ante is its level's.
    antes = await _antes(world, scope)
    assert antes == [ante_at(10, level) for level in range(1, len(antes) + 1)]
    assert len(set(antes)) > 1
    # Every tournament chip went back out of the scope; both audits balance.
    left = await world.storage.players.balances(scope, entrants)
    assert set(left.values()) == {0}
    await assert_clean(world, GUILD, scope)
    # The table closed with the tournament.
    assert await world.manager.table(GUILD, THREAD + 1) is None
    # Its hands moved tournament chips: none counted in the server's statistics or earned an
    # achievement (a person's first game at a server table would have both).
    await world.manager.outbox.flush()
    assert await world.database.fetchall("SELECT * FROM player_stats") == []
    assert await world.storage.achievements.earned(GUILD, HOST) == []


async def test_a_tournament_with_too_few_players_is_cancelled_at_its_start(world: World) -> None:
    venue = FakeVenue()
    runner = runner_of(world, venue)
    tid = await open_tournament(world, starts_in=60, computers=None)
    await runner.resume()  # arms its start, as after a restart
    await world.scheduler.pass_deadline()
    await runner.wait()
    assert (await row_of(world, tid)).status is TournamentStatus.CANCELLED
    assert await world.storage.players.balance(GUILD, HOST) == 1_000
    assert venue.news == [{"kind": "cancelled", "players": [HOST]}]
    assert venue.opened == []
    await assert_clean(world, GUILD)


async def test_a_full_tournament_starts_at_once(world: World) -> None:
    venue = FakeVenue()
    runner = runner_of(world, venue)
    tid = await open_tournament(
        world, starts_in=None, max_players=2, people=(), level_hands=5, computers=None
    )
    for user in (HOST, 12):
        await world.storage.players.get_or_create(GUILD, user)
        await world.storage.tournaments.register(tid, user)
        await runner.registered(tid)
    assert (await row_of(world, tid)).status is TournamentStatus.RUNNING
    table = await world.manager.table(GUILD, THREAD + 1)
    assert table is not None and table.in_game
    assert table.config.scope == chip_scope(tid)
    # Nobody hosts a table the tournament runs: a player cannot leave it, nor cancel it.
    assert table.config.run_by == f"tournament {tid}"
    assert venue.news == [{"kind": "started", "tables": 1}]
    await assert_clean(world, GUILD, chip_scope(tid))


async def _scope_games(world: World, scope: int) -> dict[int, GameStatus]:
    rows = await world.database.fetchall(
        "SELECT id, status FROM games WHERE scope = ? ORDER BY id", (scope,)
    )
    return {row[0]: GameStatus(row[1]) for row in rows}


async def _antes(world: World, scope: int) -> list[Any]:
    """Each tournament game's ante, in the order the games were dealt."""
    rows = await world.database.fetchall(
        "SELECT game_id, MAX(amount) FROM ledger WHERE guild_id = ? AND account = 'escrow'"
        " AND kind = 'escrow' AND reason = 'ante' GROUP BY game_id ORDER BY game_id",
        (scope,),
    )
    return [row[1] for row in rows]


class DiscordAwayForTheWinner(FakeVenue):
    """Discord refuses the winner's news (and the process stops before trying again)."""

    async def announce(self, tournament: TournamentRow, news: Sequence[News]) -> None:
        if any(item["kind"] == "winner" for item in news):
            raise ConnectionError("Discord is away")
        await super().announce(tournament, news)


async def test_a_stop_before_a_finished_tournament_closes_is_made_good_at_the_next_start(
    world: World,
) -> None:
    venue = DiscordAwayForTheWinner()
    runner = runner_of(world, venue)
    tid = await open_tournament(world, starts_in=60)
    runner.arm(await row_of(world, tid))
    await world.scheduler.pass_deadline()
    await runner.wait()
    await play_until(world, runner, tid, until_hands=10_000)
    await world.manager.turns.wait()
    await runner.wait()
    assert (await row_of(world, tid)).status is TournamentStatus.FINISHED
    # The closing failed: no winner told, the table still open, and the process stops.
    assert not any(item["kind"] == "winner" for item in venue.news)
    assert await world.manager.table(GUILD, THREAD + 1) is not None
    runner.close()
    await world.restart()
    told = FakeVenue()
    again = runner_of(world, told)
    assert await again.resume() == 1
    kinds = [item["kind"] for item in told.news]
    assert kinds[-1] == "winner" and kinds.count("winner") == 1, kinds
    assert await world.manager.table(GUILD, THREAD + 1) is None
    # Closed now: the next start has nothing of it to take up, and tells nothing twice.
    assert await world.storage.tournaments.unfinished() == []
    await again.resume()
    assert [item["kind"] for item in told.news] == kinds
    await assert_clean(world, GUILD, chip_scope(tid))
