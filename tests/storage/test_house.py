"""The daily cap on chips from the house's computers, held inside the settlement's transaction,
and the house's net per day."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest

from engine.settlement import HOUSE, Transfer
from storage import Storage
from storage.audit import audit
from storage.errors import StaleHouseDayError, StorageError
from storage.rows import GameStatus, HouseDay, HouseNet, HouseNets
from storage.stores import open_database
from tests.storage.helpers import CHANNEL, GUILD, OTHER_GUILD, FakeClock

ALICE, BOB = 11, 12
START = 1_000
CAP = 100


async def house_game(store: Storage, channel: int = CHANNEL, guild: int = GUILD) -> int:
    """A game with Alice's ante escrowed, as a table with computers opens one."""
    game = await store.games.create(guild_id=guild, channel_id=channel, game="standard")
    await store.chips.escrow(game.id, {ALICE: 20}, "ante")
    return game.id


def won_from_house(amount: int) -> list[Transfer]:
    return [Transfer(HOUSE, ALICE, amount, "points against the computers")]


async def settle_won(store: Storage, game: int, amount: int, day: HouseDay | None = None) -> None:
    """Settle a game Alice won ``amount`` of from the house, its cut reckoned on ``day``."""
    day = day or await store.house.today(GUILD, [ALICE])
    await store.chips.settle(
        game, won_from_house(amount), house_nets=HouseNets(day, {ALICE: amount})
    )


async def test_a_settlement_reckoned_on_a_day_that_changed_since_moves_nothing(
    store: Storage, clock: FakeClock
) -> None:
    first, second = await house_game(store), await house_game(store, CHANNEL + 1)
    day = await store.house.today(GUILD, [ALICE])
    assert day == HouseDay(CAP, {ALICE: 0})
    await settle_won(store, first, 80, day)
    # Reckoned before the first game settled: it would pay Alice 30 more than the cap leaves.
    with pytest.raises(StaleHouseDayError, match="changed what the house owes today"):
        await settle_won(store, second, 30, day)
    assert await store.players.balance(GUILD, ALICE) == START - 20 + 80
    game = await store.games.get(second)
    assert game is not None and game.status is GameStatus.OPEN
    assert (await store.house.today(GUILD, [ALICE])).room(ALICE) == 20
    # A new UTC day: the cap is whole again.
    clock.advance(days=1)
    assert (await store.house.today(GUILD, [ALICE])).room(ALICE) == CAP
    await settle_won(store, second, 30)
    assert await store.players.balance(GUILD, ALICE) == START + 80 + 30
    assert (await audit(store.database)).is_consistent


async def test_a_settlement_reckoned_on_a_cap_changed_since_moves_nothing(store: Storage) -> None:
    game = await house_game(store)
    day = await store.house.today(GUILD, [ALICE])
    await store.settings.set(GUILD, house_cap=10)
    with pytest.raises(StaleHouseDayError):
        await settle_won(store, game, 80, day)
    assert (await store.house.today(GUILD, [ALICE])) == HouseDay(10, {ALICE: 0})


async def test_a_loss_to_the_house_earlier_in_the_day_leaves_more_room(store: Storage) -> None:
    first, second = await house_game(store), await house_game(store, CHANNEL + 1)
    day = await store.house.today(GUILD, [ALICE])
    await store.chips.settle(
        first, [Transfer(ALICE, HOUSE, 50, "points")], house_nets=HouseNets(day, {ALICE: -50})
    )
    assert (await store.house.today(GUILD, [ALICE])).room(ALICE) == CAP + 50
    await settle_won(store, second, 150)
    assert (await store.house.today(GUILD, [ALICE])).room(ALICE) == 0


async def test_each_server_keeps_its_own_cap(store: Storage) -> None:
    await store.settings.set(OTHER_GUILD, house_cap=500)
    game = await house_game(store, guild=OTHER_GUILD)
    day = await store.house.today(OTHER_GUILD, [ALICE])
    await store.chips.settle(game, won_from_house(400), house_nets=HouseNets(day, {ALICE: 400}))
    assert (await store.house.today(OTHER_GUILD, [ALICE])).room(ALICE) == 100
    assert (await store.house.today(GUILD, [ALICE])).room(ALICE) == CAP


async def test_the_cap_cannot_be_negative(store: Storage) -> None:
    with pytest.raises(StorageError, match="The daily cap on chips from the house must be 0"):
        await store.settings.set(GUILD, house_cap=-1)
    assert (await store.settings.get(GUILD)).house_cap == CAP


async def test_two_games_settling_at_once_in_two_processes_never_pay_past_the_cap(
    database_target: str | Path, clock: FakeClock
) -> None:
    # Two connections: on PostgreSQL, what two processes of the bot would be. Each game's cut
    # was reckoned on the same day: each alone fits the cap, both together would not, so
    # exactly one of them settles and the other is reckoned again.
    one = Storage.over(await open_database(database_target, clock=clock))
    two = Storage.over(await open_database(database_target, clock=clock))
    try:
        games = [await house_game(one, CHANNEL + i) for i in range(2)]
        day = await one.house.today(GUILD, [ALICE])
        results = await asyncio.gather(
            *(
                settle_won(repo, game, 70, day)
                for repo, game in zip((one, two), games, strict=True)
            ),
            return_exceptions=True,
        )
        assert sorted(type(result).__name__ for result in results) == [
            "NoneType",
            "StaleHouseDayError",
        ]
        assert (await one.house.today(GUILD, [ALICE])).won == {ALICE: 70}
        assert (await audit(two.database)).is_consistent
    finally:
        await one.database.close()
        await two.database.close()


async def test_admins_read_the_houses_net_per_day(store: Storage, clock: FakeClock) -> None:
    await settle_won(store, await house_game(store), 60)
    clock.advance(days=1)
    other = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="casino")
    await store.chips.escrow(other.id, {BOB: 10}, "ante")
    # A house game (the Casino dealer): the house's, not its computers'.
    await store.chips.settle(other.id, [Transfer(BOB, HOUSE, 10, "fold")])
    days = await store.house.by_day(GUILD, days=3)
    today = clock.now.date()
    assert days == [
        HouseNet(today, 10, 0),
        HouseNet(date.fromordinal(today.toordinal() - 1), -60, -60),
        HouseNet(date.fromordinal(today.toordinal() - 2), 0, 0),
    ]
