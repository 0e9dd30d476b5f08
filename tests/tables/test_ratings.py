"""The ratings subscriber: a settled game between people moves their ratings once, however often
its showdown comes; computers and practice tables are never rated; a season ends once, on the
store's clock, keeping its final standings and softening every rating (both stores)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage import Storage
from storage.database import Database
from storage.errors import StorageError
from storage.rows import Skill
from storage.stores import open_database
from tables.events import ShowdownSettled
from tables.ratings import (
    MODEL,
    PlayerRatings,
    Ratings,
    new_skill,
    places,
    rate_game,
    soften,
)
from tables.subscribers import Delivery
from tests.storage.helpers import CHANNEL, GUILD, FakeClock
from tests.tables.helpers import settled

ANN, BOB, CY = 11, 12, 13
COMPUTER = -1


def showdown(game_id: int, nets: dict[int, int], *, practice: bool = False) -> ShowdownSettled:
    """A settled game's showdown with these nets (the hands do not matter to a rating)."""
    return settled(game_id, nets, practice=practice)


def delivery(game_id: int, clock: FakeClock) -> Delivery:
    return Delivery(game_id, GUILD, CHANNEL, game_id, clock())


async def settle(store: Storage, clock: FakeClock, nets: dict[int, int], **kw: bool) -> int:
    """A game row (what a rating is noted against), then its showdown handed to the ratings."""
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="standard")
    async with store.database.transaction():
        await PlayerRatings(store.ratings).handle(
            showdown(game.id, nets, **kw), delivery(game.id, clock)
        )
    return game.id


async def shown_of(store: Storage, user: int) -> int | None:
    [*found] = await store.ratings.player(GUILD, user)
    return found[0].shown if found else None


# ----- the model ------------------------------------------------------------------------------


def test_places_go_by_chips_won_and_equal_nets_share_a_place() -> None:
    assert places({ANN: 30, BOB: -10, CY: -10, 14: -10}) == {ANN: 1, BOB: 2, CY: 2, 14: 2}
    assert places({ANN: 0, BOB: 5}) == {ANN: 2, BOB: 1}


def test_the_winner_goes_up_and_the_loser_down_from_a_new_players_thousand() -> None:
    assert new_skill().shown == 1_000
    after = rate_game({ANN: 20, BOB: -20}, {ANN: None, BOB: None})
    assert after[ANN].mu > MODEL.mu > after[BOB].mu
    assert after[ANN].shown > 1_000 > after[BOB].shown


def test_a_new_season_moves_mu_halfway_home_and_sigma_halfway_back_up() -> None:
    softened = soften(Skill(35.0, 3.0, 0))
    assert softened.mu == pytest.approx(30.0)
    assert softened.sigma == pytest.approx((3.0 + MODEL.sigma) / 2)
    assert softened.shown == round(1_000 + 20 * (30.0 - 3 * softened.sigma))


# ----- the subscriber, on both stores ---------------------------------------------------------


async def test_a_showdown_delivered_twice_moves_the_ratings_once(
    store: Storage, clock: FakeClock
) -> None:
    game_id = await settle(store, clock, {ANN: 25, BOB: -25})
    once = await store.ratings.player(GUILD, ANN), await store.ratings.player(GUILD, BOB)
    assert once[0][0].shown > 1_000 > once[1][0].shown
    assert once[0][0].games == 1 and once[0][0].rank == 1 and once[1][0].rank == 2
    # The same game again (a replay after a crash, another process's lost lock).
    async with store.database.transaction():
        await PlayerRatings(store.ratings).handle(
            showdown(game_id, {ANN: 25, BOB: -25}), delivery(game_id, clock)
        )
    again = await store.ratings.player(GUILD, ANN), await store.ratings.player(GUILD, BOB)
    assert again == once


async def test_a_game_with_computers_rates_only_its_people(
    store: Storage, clock: FakeClock
) -> None:
    await settle(store, clock, {ANN: 40, COMPUTER: -50, BOB: 10})
    assert [r.shown > 1_000 for r in await store.ratings.player(GUILD, ANN)] == [True]
    assert [r.shown < 1_000 for r in await store.ratings.player(GUILD, BOB)] == [True]
    assert await store.ratings.player(GUILD, COMPUTER) == []


async def test_practice_and_a_lone_person_rate_nobody(store: Storage, clock: FakeClock) -> None:
    await settle(store, clock, {ANN: 25, BOB: -25}, practice=True)
    await settle(store, clock, {ANN: 25, COMPUTER: -25})
    assert await store.ratings.player(GUILD, ANN) == []
    assert await store.ratings.player(GUILD, BOB) == []
    assert await store.database.fetchall("SELECT * FROM rated_games") == []


# ----- seasons --------------------------------------------------------------------------------


async def test_a_season_ends_on_the_clock_keeping_its_standings_and_softening_every_rating(
    store: Storage, clock: FakeClock
) -> None:
    ratings = Ratings(store.ratings)
    await settle(store, clock, {ANN: 30, BOB: 0, CY: -30})
    first = await ratings.season(GUILD)
    assert (first.number, first.starts) == (1, datetime(2026, 3, 1, tzinfo=UTC))
    [before] = await store.ratings.player(GUILD, ANN)
    # Not yet: the last minute of March.
    clock.now = datetime(2026, 3, 31, 23, 59, tzinfo=UTC)
    assert (await ratings.season(GUILD)).number == 1
    clock.now = datetime(2026, 4, 1, 0, 0, tzinfo=UTC)
    season, [after] = await ratings.player(GUILD, ANN)
    assert (season.number, season.starts) == (2, datetime(2026, 4, 1, tzinfo=UTC))
    assert after.mu == pytest.approx(soften(Skill(before.mu, before.sigma, 0)).mu)
    assert after.shown < before.shown and after.games == 1
    assert after.season_games == 0 and after.rank is None  # not rated this season yet
    ended, standings = await ratings.finished(GUILD, 1, "standard")
    assert ended is not None and ended.ends == datetime(2026, 4, 1, tzinfo=UTC)
    final = [(s.rank, s.user_id, s.games) for s in standings]
    assert final == [(1, ANN, 1), (2, BOB, 1), (3, CY, 1)]
    assert standings[0].shown == before.shown
    # Read again, or by a game of the new season: no second rollover.
    await settle(store, clock, {BOB: 5, CY: -5})
    assert (await ratings.season(GUILD)).number == 2
    [still] = await store.ratings.player(GUILD, ANN)
    assert still == after
    _, board = await ratings.standings(GUILD, "standard")
    assert [s.user_id for s in board] == [BOB, CY]
    assert (await ratings.finished(GUILD, 2, "standard"))[1] == []  # under way: no final standings
    assert await ratings.finished(GUILD, 9, "standard") == (None, [])


async def test_a_season_length_in_days_and_idle_seasons_skipped(
    store: Storage, clock: FakeClock
) -> None:
    with pytest.raises(StorageError, match="A season lasts 1 to 366 days"):
        await store.settings.set(GUILD, season_days=400)
    await store.settings.set(GUILD, season_days=7)
    ratings = Ratings(store.ratings)
    first = await ratings.season(GUILD)
    assert first.starts == datetime(2026, 3, 30, tzinfo=UTC)
    assert first.due == datetime(2026, 4, 6, tzinfo=UTC)
    clock.now = datetime(2026, 4, 20, 1, 0, tzinfo=UTC)  # three weeks on: 2 seasons nobody saw
    second = await ratings.season(GUILD)
    assert (second.number, second.starts) == (2, datetime(2026, 4, 20, tzinfo=UTC))


async def test_two_processes_at_a_seasons_end_roll_it_over_once(
    database_target: str | Path, clock: FakeClock
) -> None:
    databases: list[Database] = [await open_database(database_target, clock=clock)]
    databases.append(await open_database(database_target, clock=clock))
    try:
        one, two = (Storage.over(database) for database in databases)
        await settle(one, clock, {ANN: 30, BOB: -30})
        [before] = await one.ratings.player(GUILD, ANN)
        clock.now = datetime(2026, 4, 2, tzinfo=UTC)
        seasons = await asyncio.gather(
            *(Ratings(storage.ratings).season(GUILD) for storage in (one, two, one, two))
        )
        assert {season.number for season in seasons} == {2}
        [after] = await two.ratings.player(GUILD, ANN)
        # Softened once: halfway home, not three quarters.
        assert after.mu == pytest.approx(soften(Skill(before.mu, before.sigma, 0)).mu)
        kept = await one.database.fetchall("SELECT season, user_id FROM season_standings")
        assert sorted(kept) == [(1, ANN), (1, BOB)]
    finally:
        for database in databases:
            await database.close()
