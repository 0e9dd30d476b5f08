"""A tournament table whose thread goes away (deleted, or out of the bot's reach: the table is
abandoned) plays on in a new thread: the hand under way there is void and its antes go back to
the tournament's chips, the channel is told where the table went, the same players sit down
there and play the round's hand once, and the tournament ends with every player placed once,
the prizes the buy-ins and both audits clean, through a restart and on both stores."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from storage.rows import GameStatus, TournamentStatus
from storage.tournaments import chip_scope
from tables.events import TableAbandoned
from tables.subscribers import Delivery
from tables.tournament_play import Play, TournamentPlay
from tables.tournament_runner import TournamentRunner
from tests.tables.helpers import GUILD, HOST, World
from tests.tables.tournaments import (
    BUY_IN,
    MOVED,
    THREAD,
    Dealt,
    FakeVenue,
    assert_clean,
    open_tournament,
    play_until,
    row_of,
    runner_of,
)

#: Two tables of four: the person's, which waits for their deadline, and one of computers alone.
ENTRANTS = 8
GONE = "its thread was deleted"


async def _started(world: World, runner: TournamentRunner) -> int:
    """A tournament of `ENTRANTS` at two tables, its first hand dealt at both."""
    tid = await open_tournament(world, starts_in=60, max_players=ENTRANTS)
    runner.arm(await row_of(world, tid))
    await world.scheduler.pass_deadline()  # its start time: computers fill the free places
    await runner.wait()
    await world.manager.turns.wait()
    return tid


async def _play(world: World, tid: int) -> Play:
    row = await row_of(world, tid)
    assert row.state is not None
    return Play.from_json(row.state)


async def _scope_games(world: World, tid: int) -> dict[int, GameStatus]:
    rows = await world.database.fetchall(
        "SELECT id, status FROM games WHERE scope = ?", (chip_scope(tid),)
    )
    return {game: GameStatus(status) for game, status in rows}


async def _ends_clean(world: World, venue: FakeVenue, tid: int, *, refunded: Iterable[int]) -> None:
    """Over: every player placed once, the prizes the buy-ins, every hand settled once and
    taken in once (but the void ones, refunded), every table closed, the scope empty."""
    finished = await row_of(world, tid)
    assert finished.status is TournamentStatus.FINISHED and finished.state is not None
    play = Play.from_json(finished.state)
    entries = await world.storage.tournaments.entries(tid)
    assert sorted(e.place for e in entries) == list(range(1, ENTRANTS + 1))
    assert sum(e.prize or 0 for e in entries) == ENTRANTS * BUY_IN
    games = await _scope_games(world, tid)
    void = {game for game, status in games.items() if status is GameStatus.REFUNDED}
    assert void == set(refunded)
    settled = [game for game, status in games.items() if status is GameStatus.SETTLED]
    assert len(settled) + len(void) == len(games)
    assert sorted(play.taken) == sorted(settled)
    for channel in venue.opened:
        assert await world.manager.table(GUILD, channel) is None
    left = await world.storage.players.balances(chip_scope(tid), [e.user_id for e in entries])
    assert set(left.values()) == {0}
    await assert_clean(world, GUILD, chip_scope(tid))


async def test_a_table_whose_thread_is_deleted_mid_hand_plays_the_hand_again_in_a_new_thread(
    world: World,
) -> None:
    venue = FakeVenue()
    runner = runner_of(world, venue)
    tid = await _started(world, runner)
    play = await _play(world, tid)
    number = play.model.table_of(HOST)
    assert number is not None and number not in play.model.settled
    lost = play.channels[number]
    table = await world.manager.table(GUILD, lost)
    assert table is not None and table.in_game and table.game_id is not None
    void, seated = table.game_id, sorted(table.players)

    # The thread goes while the bot is stopping: the runner takes no step before the restart.
    runner.close()
    await world.manager.abandon(GUILD, lost, GONE)
    assert await world.status(void) is GameStatus.REFUNDED
    play = await _play(world, tid)
    assert number not in play.channels and lost not in play.channels.values()
    # The void hand's antes are back: each player's tournament chips are their stack again.
    stacks = await world.storage.players.balances(chip_scope(tid), seated)
    assert stacks == {player: play.model.stacks[player] for player in seated}
    await assert_clean(world, GUILD, chip_scope(tid))

    await world.restart()
    runner = runner_of(world, venue)
    assert await runner.resume() == 1
    moved = THREAD + number + MOVED
    assert venue.opened[-1] == moved and len(venue.opened) == 3
    assert {"kind": "moved", "table": number, "channel": moved} in venue.news
    again = await world.manager.table(GUILD, moved)
    assert again is not None and again.in_game
    assert sorted(again.players) == seated and again.game_id != void
    assert await world.manager.table(GUILD, lost) is None
    assert (await _play(world, tid)).channels[number] == moved

    # The abandonment handed again (at least once) moves nothing more; nor does a restart.
    [gone] = world.publisher.of(TableAbandoned, lost)
    delivery = Delivery(0, GUILD, lost, void, datetime.now(UTC))
    async with world.database.transaction():
        await TournamentPlay(world.storage).handle(gone, delivery)
    await runner.step(tid)
    await world.restart()
    runner = runner_of(world, venue)
    await runner.resume()
    assert len(venue.opened) == 3
    assert [item["kind"] for item in venue.news].count("moved") == 1

    await play_until(world, runner, tid, until_hands=10_000)
    await _ends_clean(world, venue, tid, refunded=[void])


async def test_a_table_whose_thread_is_deleted_between_hands_deals_the_next_one_in_a_new_thread(
    world: World,
) -> None:
    venue, dealt = FakeVenue(), Dealt()
    runner = runner_of(world, venue, dealt)
    tid = await _started(world, runner)
    play = await _play(world, tid)
    waiting = play.model.table_of(HOST)
    [number] = [n for n in play.model.tables if n != waiting]
    # The table of computers alone has played the round's hand; the person's table has not.
    assert play.model.settled == {number}
    lost = play.channels[number]
    table = await world.manager.table(GUILD, lost)
    assert table is not None and not table.in_game and table.games_played == 1

    await world.manager.abandon(GUILD, lost, GONE)
    await runner.wait()
    moved = THREAD + number + MOVED
    assert {"kind": "moved", "table": number, "channel": moved} in venue.news
    # Seated in its new thread, it waits for the round to end before its next hand.
    again = await world.manager.table(GUILD, moved)
    assert again is not None and not again.in_game and again.games_played == 0
    assert sorted(again.players) == sorted(table.players)

    await play_until(world, runner, tid, until_hands=1)
    again = await world.manager.table(GUILD, moved)
    assert again is not None and (again.in_game or again.games_played == 1)
    assert moved in dealt.rounds[0] and lost in dealt.rounds[0]

    await play_until(world, runner, tid, until_hands=10_000)
    await _ends_clean(world, venue, tid, refunded=[])
