"""The tables' activity in the log: one INFO line each for a table opened, a game started,
settled or cancelled, and a table closed, with the ids an operator looks up."""

from __future__ import annotations

import logging

import pytest

from tables.config import make_config
from tables.events import GameStarted, ShowdownSettled
from tables.phase import Phase
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World, quick_arranger

ACTIVITY = "pyramid_poker.activity"


def activity(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == ACTIVITY]


async def open_and_start(world: World, guest: int) -> int:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("standard", ante=10))
    await world.manager.join(GUILD, CHANNEL, guest)
    await world.manager.start(GUILD, CHANNEL, HOST)
    started = world.publisher.of(GameStarted)[-1]
    assert isinstance(started, GameStarted)
    return started.game_id


async def test_a_tables_life_is_one_line_a_step(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=ACTIVITY)
    guest = PLAYERS[1]
    where = f"in server {GUILD} channel {CHANNEL}"
    first = await open_and_start(world, guest)
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    assert activity(caplog) == [
        f"Table opened {where}: standard, ante 10, host {HOST}.",
        f"Game {first} started {where}: 2 players, 20 chips escrowed.",
        f"Game {first} cancelled by {HOST} {where} (cancelled): returned {HOST} +10, {guest} +10.",
        f"Table closed {where}: The table was cancelled.",
    ]

    caplog.clear()
    second = await open_and_start(world, guest)
    for user in (HOST, guest):
        await world.manager.declare(GUILD, CHANNEL, user, True)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.ARRANGING
    for user in (HOST, guest):
        setting = quick_arranger(table.spec, world.publisher.held(user))
        await world.manager.submit(GUILD, CHANNEL, user, setting)
    [settled] = world.publisher.of(ShowdownSettled)
    assert isinstance(settled, ShowdownSettled)
    nets = ", ".join(f"{user} {net:+d}" for user, net in settled.nets.items())
    assert activity(caplog)[-1] == (
        f"Game {second} settled {where}: standard game, nets {nets}, house {settled.house:+d}."
    )
