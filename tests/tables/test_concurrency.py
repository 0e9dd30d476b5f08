"""Two tables settling for one player at once, and balances changing mid-game."""

from __future__ import annotations

import asyncio

import pytest

from storage.errors import StorageError
from tables.config import make_config
from tables.events import ShowdownSettled
from tables.setting import Setting
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    HOST,
    OTHER_CHANNEL,
    OTHER_GUILD,
    PLAYERS,
    World,
    quick_arranger,
)


async def start(
    world: World, guild: int, channel: int, game: str, players: tuple[int, ...]
) -> None:
    await world.manager.create(guild, channel, players[0], make_config(game))
    for user in players[1:]:
        await world.manager.join(guild, channel, user)
    await world.manager.start(guild, channel, players[0])


async def last_submit(world: World, guild: int, channel: int) -> tuple[int, Setting]:
    """Set everyone's hands but one; return the last player's (user, setting)."""
    table = await world.manager.table(guild, channel)
    assert table is not None
    waiting = table.waiting_for()
    for user in waiting[:-1]:
        setting = quick_arranger(table.spec, table.seat_of(user).held)
        await world.manager.submit(guild, channel, user, setting)
    last = waiting[-1]
    return last, quick_arranger(table.spec, table.seat_of(last).held)


async def test_two_tables_settle_for_the_same_player_at_the_same_moment(world: World) -> None:
    # The same user in two servers: two purses, two games, settling together.
    await start(world, GUILD, CHANNEL, "no-surrender", (HOST, PLAYERS[1]))
    await start(world, OTHER_GUILD, OTHER_CHANNEL, "no-surrender", (HOST, PLAYERS[2]))
    a = await last_submit(world, GUILD, CHANNEL)
    b = await last_submit(world, OTHER_GUILD, OTHER_CHANNEL)
    await asyncio.gather(
        world.manager.submit(GUILD, CHANNEL, *a),
        world.manager.submit(OTHER_GUILD, OTHER_CHANNEL, *b),
    )
    settled = world.publisher.of(ShowdownSettled)
    assert len(settled) == 2
    # Settled side by side, the two showdowns may be shown in either order.
    guilds = []
    for event in settled:
        assert isinstance(event, ShowdownSettled)
        game = await world.storage.games.get(event.game_id)
        assert game is not None
        guilds.append(game.guild_id)
        balance = await world.storage.players.balance(game.guild_id, HOST)
        assert balance == 1_000 + event.nets[HOST]
    assert sorted(guilds) == sorted((GUILD, OTHER_GUILD))
    await world.check_ledger()


async def test_escrowed_chips_cannot_be_spent_elsewhere(world: World) -> None:
    await start(world, GUILD, CHANNEL, "standard", (HOST, PLAYERS[1]))
    assert await world.storage.players.balance(GUILD, HOST) == 980
    with pytest.raises(StorageError):
        await world.storage.players.take(GUILD, HOST, 981, admin_id=1)
    await world.check_ledger()


async def test_a_loss_beyond_what_is_left_is_capped_at_table_stakes(world: World) -> None:
    players = (HOST, PLAYERS[1])
    await start(world, GUILD, CHANNEL, "no-surrender", players)
    # Both players lose every chip they have outside the game mid-game; the cover stays held.
    cover = await world.storage.chips.escrowed(1)
    assert cover == {HOST: 20, PLAYERS[1]: 20}
    for user in players:
        await world.storage.players.take(GUILD, user, 980, admin_id=1)
    user, setting = await last_submit(world, GUILD, CHANNEL)
    await world.manager.submit(GUILD, CHANNEL, user, setting)
    [event] = world.publisher.of(ShowdownSettled)
    assert isinstance(event, ShowdownSettled)
    # Nobody can lose more than the cover: a bigger loss is cut to it, the winner takes that.
    assert all(abs(net) <= 20 for net in event.nets.values())
    if abs(event.matrix[0][1]) > 20:
        assert any("table stakes" in str(note.text) for note in event.notes)
    for user in players:
        assert await world.storage.players.balance(GUILD, user) == 20 + event.nets[user]
    await world.check_ledger()


async def test_a_take_racing_the_settlement_leaves_the_ledger_consistent(world: World) -> None:
    players = (HOST, PLAYERS[1], PLAYERS[2])
    await start(world, GUILD, CHANNEL, "no-surrender", players)
    user, setting = await last_submit(world, GUILD, CHANNEL)

    async def take_all() -> None:
        for victim in players:
            have = await world.storage.players.balance(GUILD, victim)
            if have:
                await world.storage.players.take(GUILD, victim, have, admin_id=1)

    await asyncio.gather(world.manager.submit(GUILD, CHANNEL, user, setting), take_all())
    [event] = world.publisher.of(ShowdownSettled)
    assert isinstance(event, ShowdownSettled)
    assert sum(event.nets.values()) == 0
    for victim in players:
        assert await world.storage.players.balance(GUILD, victim) >= 0
    await world.check_ledger()


async def test_many_tables_at_once_each_settle_once(world: World) -> None:
    channels = range(40, 48)
    for index, channel in enumerate(channels):
        users = (500 + 2 * index, 501 + 2 * index)
        await start(world, GUILD, channel, "casino", users)
    await asyncio.gather(
        *(
            world.manager.declare(GUILD, channel, user, True)
            for index, channel in enumerate(channels)
            for user in (500 + 2 * index, 501 + 2 * index)
        )
    )
    submits = [await last_submit(world, GUILD, channel) for channel in channels]
    await asyncio.gather(
        *(
            world.manager.submit(GUILD, channel, *last)
            for channel, last in zip(channels, submits, strict=True)
        )
    )
    assert len(world.publisher.of(ShowdownSettled)) == len(channels)
    assert await world.open_games() == []
    await world.check_ledger()
