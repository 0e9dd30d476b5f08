"""A sit-and-go through the simulated Discord: an admin opens it with computers, one person
registers and then stays away, it starts at its time in a thread the bot opens, the deadlines
play for the person, a restart comes in the middle, and it ends with the places, the prize paid
from the pool and both audits clean."""

from __future__ import annotations

from typing import Any

import pytest

from render.profile import ordinal
from storage.audit import audit
from storage.rows import TournamentRow, TournamentStatus
from storage.tournaments import chip_scope
from tables.tournament_play import Play
from tests.cogs.helpers import Scene, an_admin
from tests.render.helpers import Drawn
from tests.tables.helpers import QuickComputers

BUY_IN = 100


def _quick(scene: Scene) -> None:
    """The computers decide at once (how they think is tested elsewhere)."""
    scene.tables.turns.offload = QuickComputers(scene.tables.turns.offload)


async def _row(scene: Scene, number: int) -> TournamentRow:
    row = await scene.bot.services.storage.tournaments.get(number)
    assert row is not None
    return row


async def _rounds(scene: Scene, number: int) -> int:
    row = await _row(scene, number)
    return -1 if row.state is None else Play.from_json(row.state).model.hands


async def _play(scene: Scene, number: int, *, until_hands: int) -> None:
    for _ in range(300):
        row = await _row(scene, number)
        if row.status is TournamentStatus.FINISHED or await _rounds(scene, number) >= until_hands:
            return
        await scene.env.advance_time(30)
    raise AssertionError("the tournament never got there")


async def _created(scene: Scene, boss: Any, players: int) -> tuple[Any, int]:
    """An admin's Showdown tournament of ``players`` starting in a minute, computers filling the
    places left: its registration message and its number."""
    created = await boss.slash(
        scene.channel,
        "tournament create",
        game="showdown",
        buy_in=BUY_IN,
        max_players=players,
        start="1",
        level_hands=1,
        computers="casual",
    )
    number = (await scene.bot.services.storage.tournaments.of_guild(scene.guild.id))[0].id
    return created.response.message, number


async def test_a_sit_and_go_with_computers_is_played_to_the_end_in_a_thread(
    scene: Scene, drawn: list[Drawn]
) -> None:
    boss, ann = an_admin(scene), scene.members[0]
    _quick(scene)
    message, number = await _created(scene, boss, 4)
    registered = await ann.click(message, label="Register")
    assert registered.ephemeral
    assert (await _row(scene, number)).status is TournamentStatus.REGISTERING

    await scene.env.advance_time(61)  # its start time: computers take the free places
    assert (await _row(scene, number)).status is TournamentStatus.RUNNING
    threads = scene.channel.threads
    assert [thread.name for thread in threads] == [f"Tournament {number}, table 1"]
    table = await scene.tables.table(scene.guild.id, threads[0].id)
    assert table is not None and sorted(table.players) == [-3, -2, -1, ann.id]
    said = [m.content for m in scene.channel.history()]
    assert any(f"**Tournament {number} has started** at 1 table" in text for text in said)
    # The stacks are tournament chips: the server balance moved by the buy-in alone.
    storage = scene.bot.services.storage
    assert await storage.players.balance(scene.guild.id, ann.id) == 1_000 - BUY_IN
    assert (await storage.players.balances(chip_scope(number), [ann.id]))[ann.id] <= 1_000

    await _play(scene, number, until_hands=2)
    await scene.restart()
    _quick(scene)
    await _play(scene, number, until_hands=10_000)

    finished = await _row(scene, number)
    assert finished.status is TournamentStatus.FINISHED
    storage = scene.bot.services.storage
    entries = await storage.tournaments.entries(number)
    assert sorted(e.place for e in entries) == [1, 2, 3, 4]
    assert sum(e.prize or 0 for e in entries) == 4 * BUY_IN
    winner = next(e for e in entries if e.place == 1)
    wins = f"wins tournament {number}** and its prize of {4 * BUY_IN} chips"
    assert any(wins in m.content for m in scene.channel.history())
    expected = 1_000 - BUY_IN + (4 * BUY_IN if winner.user_id == ann.id else 0)
    assert await storage.players.balance(scene.guild.id, ann.id) == expected
    for scope in (scene.guild.id, chip_scope(number)):
        report = await audit(storage.database, scope)
        assert report.is_consistent, report.problems
    assert await scene.tables.table(scene.guild.id, threads[0].id) is None
    standings = await ann.slash(scene.channel, "tournament standings")
    assert "1. " in standings.response.content
    # Ann's profile lists the tournament with her place and prize.
    drawn.clear()
    await ann.slash(scene.channel, "profile")
    mine = next(e for e in entries if e.user_id == ann.id)
    prize = f"{mine.prize:,} chips" if mine.prize else "no prize"
    texts = [piece.text for piece in drawn]
    assert f"Tournament {number}" in texts
    assert f"{ordinal(mine.place or 0)} of 4 · {prize}" in texts


@pytest.mark.slow  # twelve players at two tables, played out: the quick lane plays the sit-and-go
async def test_twelve_players_play_in_two_threads_until_the_final_table(scene: Scene) -> None:
    boss = an_admin(scene)
    people = scene.members[:3]
    _quick(scene)
    message, number = await _created(scene, boss, 12)
    assert "Up to **12** players, 6 a table, each table in a thread" in message.content
    for person in people:
        assert (await person.click(message, label="Register")).ephemeral
    await scene.env.advance_time(61)
    # Two tables of six, each in a thread the bot opened in the tournament's channel.
    threads = scene.channel.threads
    assert [thread.name for thread in threads] == [
        f"Tournament {number}, table {n}" for n in (1, 2)
    ]
    seated = []
    for thread in threads:
        table = await scene.tables.table(scene.guild.id, thread.id)
        # A table of computers alone may have played its first hand already.
        assert table is not None and table.games_played + table.in_game == 1
        assert len(table.players) == 6
        seated += table.players
    assert sorted(seated) == sorted([*range(-9, 0), *(p.id for p in people)])

    await _play(scene, number, until_hands=10_000)
    assert (await _row(scene, number)).status is TournamentStatus.FINISHED
    said = [m.content for m in scene.channel.history()]
    final = [text for text in said if f"**The final table** of tournament {number}" in text]
    assert len(final) == 1
    assert any(f"<#{thread.id}>" in final[0] for thread in threads)
    entries = await scene.bot.services.storage.tournaments.entries(number)
    assert sorted(e.place for e in entries) == list(range(1, 13))
    assert sum(e.prize or 0 for e in entries) == 12 * BUY_IN
    for thread in threads:
        assert await scene.tables.table(scene.guild.id, thread.id) is None
    for scope in (scene.guild.id, chip_scope(number)):
        report = await audit(scene.bot.services.storage.database, scope)
        assert report.is_consistent, report.problems


# Two tables played on: the quick lane moves a table to a new thread in
# tests/tables/test_tournament_moves.py.
@pytest.mark.slow
async def test_a_deleted_table_thread_moves_the_table_to_a_new_thread_and_play_goes_on(
    scene: Scene,
) -> None:
    boss, ann = an_admin(scene), scene.members[0]
    _quick(scene)
    message, number = await _created(scene, boss, 4)
    await ann.click(message, label="Register")
    await scene.env.advance_time(61)
    [first] = scene.channel.threads
    table = await scene.tables.table(scene.guild.id, first.id)
    assert table is not None and table.in_game  # waiting for Ann, who stays away

    scene.env.backend.delete_channel(first.id)
    await scene.env.settle()
    # The hand under way there is void; the table plays it again in a new thread.
    [second] = scene.channel.threads
    assert second.id != first.id and second.name == f"Tournament {number}, table 1"
    said = [m.content for m in scene.channel.history()]
    assert any(
        f"Table 1 of tournament {number} lost its thread; it plays on in <#{second.id}>." in text
        for text in said
    )
    assert await scene.tables.table(scene.guild.id, first.id) is None
    moved = await scene.tables.table(scene.guild.id, second.id)
    assert moved is not None and moved.in_game
    assert sorted(moved.players) == sorted(table.players)

    await _play(scene, number, until_hands=10_000)
    storage = scene.bot.services.storage
    entries = await storage.tournaments.entries(number)
    assert sorted(e.place for e in entries) == [1, 2, 3, 4]
    assert sum(e.prize or 0 for e in entries) == 4 * BUY_IN
    assert await scene.tables.table(scene.guild.id, second.id) is None
    for scope in (scene.guild.id, chip_scope(number)):
        report = await audit(storage.database, scope)
        assert report.is_consistent, report.problems
