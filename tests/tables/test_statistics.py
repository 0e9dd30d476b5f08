"""The leaderboards read the players' statistics that the statistics subscriber keeps, and answer
exactly what the ledger's result rows answered, for every period, game and server; a database
upgraded from before the statistics has them back-filled from its ledger."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from engine import declaring
from storage.leaderboards import Period
from tables.config import make_config
from tables.events import ShowdownSettled
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    HOST,
    OTHER_CHANNEL,
    OTHER_GUILD,
    PLAYERS,
    FakeClock,
    Features,
    World,
)
from tests.tables.statistics import assert_the_same_as_the_ledgers

# ----- games --------------------------------------------------------------------------------


def at(clock: FakeClock, when: str) -> None:
    clock.now = datetime.fromisoformat(when).timestamp()


async def play(
    world: World,
    game: str,
    players: tuple[int, ...],
    *,
    guild: int = GUILD,
    channel: int = CHANNEL,
    computers: int = 0,
    afk_plays_on: bool | None = None,
    practice: bool = False,
) -> None:
    """A game that the deadlines play to its end, then its table closed."""
    host, *others = players
    config = make_config(game, afk_plays_on=afk_plays_on, practice=practice)
    await world.manager.create(guild, channel, host, config)
    for user in others:
        await world.manager.join(guild, channel, user)
    for _ in range(computers):
        await world.manager.add_computer(guild, channel, host, "steady")
    await world.manager.start(guild, channel, host)
    while (table := await world.manager.table(guild, channel)) is not None and table.in_game:
        await world.scheduler.pass_deadline()
    await world.manager.cancel(guild, channel, host)


@pytest.fixture
def cheap_computers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computers that surrender at once, without the solver (what they do is not the point)."""
    monkeypatch.setattr(declaring, "solve", lambda *args, **kwargs: None)
    monkeypatch.setattr(declaring, "_worth", lambda *args, **kwargs: -1_000.0)


async def play_a_week(world: World) -> None:
    """Games on a Sunday, a Monday and a Tuesday, on two servers: surrenders, the house games,
    a computer, a practice table and a refunded game among them."""
    clock = world.clock
    at(clock, "2027-01-17T23:00:00+00:00")  # Sunday: last week
    await play(world, "casino", (HOST, PLAYERS[1]))
    at(clock, "2027-01-18T09:00:00+00:00")  # Monday: this week
    await play(world, "no-surrender", (HOST, PLAYERS[1], PLAYERS[2]))
    await play(world, "casino", (PLAYERS[3], HOST), guild=OTHER_GUILD, channel=OTHER_CHANNEL)
    at(clock, "2027-01-19T00:00:00+00:00")  # Tuesday: today, from midnight on
    await play(world, "standard", (HOST, PLAYERS[2]), afk_plays_on=False)
    await play(world, "three-card", (PLAYERS[1], PLAYERS[2]))
    await play(world, "paigow", (HOST, PLAYERS[3]))
    await play(world, "casino", (PLAYERS[2],), computers=1)
    await play(world, "casino", (HOST,), practice=True, computers=1)
    # A game cancelled before its showdown is refunded: it counts nowhere.
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    at(clock, "2027-01-19T20:00:00+00:00")


async def open_world(path: str | Path, features: Features | None = None) -> World:
    """A world whose store stamps its rows by the world's clock (the days of the week)."""
    clock = FakeClock()
    return await World.open(
        path, clock=clock, stamps=lambda: datetime.fromtimestamp(clock(), UTC), features=features
    )


@pytest.mark.usefixtures("cheap_computers")
async def test_the_statistics_answer_what_the_ledger_answered_for_every_period(
    database_target: str | Path,
) -> None:
    world = await open_world(database_target)
    try:
        await play_a_week(world)
        boards = world.storage.leaderboards
        # Not a trivial week: the day, the week and all time differ.
        week = await boards.by_net(GUILD, period=Period.WEEK)
        assert await boards.by_net(GUILD, period=Period.DAY) != week
        assert week != await boards.by_net(GUILD, period=Period.ALL)
        assert [s.user_id for s in await boards.by_net(GUILD, period=Period.ALL)] != []
        await assert_the_same_as_the_ledgers(world)
    finally:
        await world.close()


async def forget_the_statistics(target: str | Path) -> None:
    """Take the database back to before migration 0010 (as the previous version left it): the
    tables of 0010 and of the later migrations that made new ones go."""
    dropped = (
        "outbox_positions",
        "player_stats",
        "player_stats_games",
        "command_syncs",
        "table_messages",
        "season_standings",
        "rating_seasons",
        "ratings",
        "rated_games",
        "achievements",
        "achievement_games",
        "challenge_deals",
        "challenge_plays",
        "challenge_channels",
        "challenge_prizes",
        "challenge_winners",
        "challenge_awards",
        "tournament_entries",
        "tournaments",
        "user_locales",
    )
    #: Columns later migrations added to tables that were there before.
    added = (
        ("guild_settings", "season_days"),
        ("guild_settings", "announce_achievements"),
        ("guild_settings", "language"),
        ("games", "scope"),
    )
    if isinstance(target, Path):
        connection = sqlite3.connect(target)
        try:
            for table in dropped:
                connection.execute(f"DROP TABLE {table}")
            for table, column in added:
                connection.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
            connection.execute("PRAGMA user_version = 9")
            connection.commit()
        finally:
            connection.close()
        return
    server = await asyncpg.connect(target)
    try:
        for table in dropped:
            await server.execute(f"DROP TABLE {table}")
        for table, column in added:
            await server.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        await server.execute("DELETE FROM schema_version WHERE version >= 10")
    finally:
        await server.close()


@pytest.mark.usefixtures("cheap_computers")
async def test_an_upgraded_database_counts_every_game_it_had_and_its_queued_showdown_once(
    database_target: str | Path,
) -> None:
    # The previous version: no statistics, and Discord refusing the last showdown.
    world = await open_world(database_target, features=lambda storage: ())
    await play_a_week(world)
    at(world.clock, "2027-01-19T21:00:00+00:00")
    world.publisher.refuse(ShowdownSettled, times=None)
    await play(world, "casino", (HOST, PLAYERS[1]))
    assert await world.storage.outbox.pending(GUILD, CHANNEL)
    await world.close()
    await forget_the_statistics(world.path)
    # The upgrade migrates (back-filling from the ledger), then delivers what was queued.
    world = await open_world(world.path)
    try:
        await world.manager.resume()
        await world.manager.publish_pending()
        assert len(world.publisher.of(ShowdownSettled)) == 1
        assert await world.storage.outbox.pending(GUILD, CHANNEL) == []
        await assert_the_same_as_the_ledgers(world)
    finally:
        await world.close()
