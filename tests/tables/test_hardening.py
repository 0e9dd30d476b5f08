"""Defects found by trying to break the tables, each pinned by the test that found it."""

from __future__ import annotations

import asyncio

from engine.errors import GameError
from tables.table import make_config
from tests.tables.helpers import CHANNEL, GUILD, HOST, OTHER_CHANNEL, PLAYERS, STRANGER, World

THIRD_CHANNEL = 3005


def seated_at(world: World, user: int) -> list[int]:
    """The channels of this server whose table seats the player."""
    return [
        table.channel_id
        for table in world.manager.tables()
        if table.guild_id == GUILD and table.is_seated(user)
    ]


async def test_racing_joins_in_two_channels_seat_the_player_once(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.create(GUILD, OTHER_CHANNEL, STRANGER, make_config("casino"))
    user = PLAYERS[1]
    results = await asyncio.gather(
        world.manager.join(GUILD, CHANNEL, user),
        world.manager.join(GUILD, OTHER_CHANNEL, user),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(refused) == 1, results
    assert "one table per server" in str(refused[0])
    assert len(seated_at(world, user)) == 1


async def test_creating_a_table_while_joining_another_seats_the_player_once(
    world: World,
) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    user = PLAYERS[1]
    results = await asyncio.gather(
        world.manager.create(GUILD, OTHER_CHANNEL, user, make_config("casino")),
        world.manager.join(GUILD, CHANNEL, user),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameError) for r in results) == 1, results
    assert len(seated_at(world, user)) == 1


async def test_the_seat_rule_survives_a_restart_and_three_racing_tables(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.create(GUILD, OTHER_CHANNEL, STRANGER, make_config("casino"))
    await world.restart()
    user = PLAYERS[2]
    results = await asyncio.gather(
        world.manager.join(GUILD, CHANNEL, user),
        world.manager.create(GUILD, THIRD_CHANNEL, user, make_config("paigow")),
        world.manager.join(GUILD, OTHER_CHANNEL, user),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameError) for r in results) == 2, results
    assert len(seated_at(world, user)) == 1
