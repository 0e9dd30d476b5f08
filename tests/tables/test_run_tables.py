"""A table a program runs (TableConfig.run_by), general and apart from tournaments: opened with
its players, dealt its nth game once, closed by its program; its chips in a ledger scope of its
own with computers holding balances there; nobody joins, leaves or cancels it."""

from __future__ import annotations

import dataclasses

from storage.audit import audit
from storage.ledger import Account, Entry, Kind, move_balances, post_all
from tables.config import make_config
from tables.phase import Phase
from tests.tables.helpers import CHANNEL, GUILD, STRANGER, World, refused_with

SCOPE = -77
SEATED: list[tuple[int, str | None]] = [(11, None), (12, None), (-1, "casual")]


async def _fund(world: World) -> None:
    """Give everyone 500 chips in the scope, as ledger rows."""
    async with world.database.transaction() as connection:
        now = world.database.now()
        await connection.executemany(
            "INSERT INTO players (guild_id, user_id, balance, created) VALUES (?, ?, 0, ?)",
            [(SCOPE, user, now) for user, _ in SEATED],
        )
        await move_balances(connection, guild_id=SCOPE, amounts={u: 500 for u, _ in SEATED})
        await post_all(
            connection,
            guild_id=SCOPE,
            game_id=None,
            created=now,
            entries=[Entry(Account.PLAYER, u, 500, Kind.GRANT, "test") for u, _ in SEATED],
        )


async def test_a_run_table_deals_once_in_its_scope_and_refuses_hosts_actions(world: World) -> None:
    await _fund(world)
    config = dataclasses.replace(
        make_config("showdown"), scope=SCOPE, house_computers=False, run_by="a test"
    )
    await world.manager.open_run(GUILD, CHANNEL, config, SEATED)
    assert await world.manager.open_run(GUILD, CHANNEL, config, SEATED) == ()
    sentence = "This table is run by a test: it seats the players and deals every game."
    with refused_with(sentence):
        await world.manager.join(GUILD, CHANNEL, STRANGER)
    with refused_with(sentence):
        await world.manager.leave(GUILD, CHANNEL, 11)
    with refused_with(sentence):
        await world.manager.cancel(GUILD, CHANNEL, 11, is_admin=True)
    dealt = await world.manager.deal(GUILD, CHANNEL, seats=SEATED, ante=25, after_games=0)
    assert dealt
    again = await world.manager.deal(GUILD, CHANNEL, seats=SEATED, ante=25, after_games=0)
    assert again == (), "a game already dealt is not dealt twice"
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.in_game and table.config.ante == 25
    # The ante came out of the scope, the computer's too; the server's chips never moved.
    assert await world.storage.players.balances(SCOPE, [11, 12, -1]) == dict.fromkeys(
        [11, 12, -1], 475
    )
    assert await world.storage.players.balance(GUILD, 11) == 1_000
    game = await world.storage.games.get(table.game_id or 0)
    assert game is not None and game.guild_id == GUILD
    assert await world.manager.dismiss(GUILD, CHANNEL, "done") == (), "not during a game"
    for scope in (GUILD, SCOPE):
        report = await audit(world.database, scope)
        assert report.is_consistent, report.problems
    assert table.phase is not Phase.CLOSED
