"""Start is one unit of work: the game, the antes' escrow and the table's snapshot commit together
or not at all, so a refused Start leaves every chip where it was."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import GameError
from storage.errors import SeatTakenError
from storage.games import SnapshotRepository
from tables.config import make_config
from tables.events import GameCancelled
from tables.phase import Phase
from tests.tables.helpers import CHANNEL, GUILD, HOST, OTHER_CHANNEL, PLAYERS, World, refused_with


def refuse_next_seats(monkeypatch: pytest.MonkeyPatch, user: int) -> None:
    """The next save that seats players is refused by the seat key once its snapshot row was
    written (as when a racing save seated the player in another channel): on either store, a
    save that raises after writing, inside the Start's one transaction."""
    save = SnapshotRepository.save
    left = [1]

    async def refusing(self: SnapshotRepository, **kwargs: Any) -> Any:
        saved = await save(self, **kwargs)
        if left[0] and kwargs.get("players"):
            left[0] -= 1
            raise SeatTakenError(user, OTHER_CHANNEL)
        return saved

    monkeypatch.setattr(SnapshotRepository, "save", refusing)


async def test_a_start_whose_save_is_refused_takes_no_ante_and_leaves_no_game(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = (HOST, PLAYERS[1])
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.join(GUILD, CHANNEL, players[1])
    refuse_next_seats(monkeypatch, players[1])
    with refused_with(
        f"You already sit at a table in channel {OTHER_CHANNEL}; a player sits at one table per "
        "server."
    ):
        await world.manager.start(GUILD, CHANNEL, HOST)
    # Nothing of the Start committed: no ante in escrow, no game left open.
    for user in players:
        assert await world.storage.players.balance(GUILD, user) == 1_000
    assert await world.open_games() == []
    assert await world.database.fetchall("SELECT game_id FROM escrow") == []
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY and table.game_id is None
    assert (await world.storage.snapshots.load(GUILD, CHANNEL)) is not None
    await world.check_ledger()
    # Cancelling it then claims no refund, since nothing was held.
    events = await world.manager.cancel(GUILD, CHANNEL, HOST)
    assert not [e for e in events if isinstance(e, GameCancelled)]
    for user in players:
        assert await world.storage.players.balance(GUILD, user) == 1_000


async def test_a_start_refused_then_pressed_again_deals_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    refuse_next_seats(monkeypatch, PLAYERS[1])
    with pytest.raises(GameError):
        await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.start(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.DECLARING
    [game] = await world.open_games()
    assert table.game_id == game
    assert await world.storage.chips.escrowed(game) == {HOST: 5, PLAYERS[1]: 5}
    for user in (HOST, PLAYERS[1]):
        assert await world.storage.players.balance(GUILD, user) == 995
    await world.check_ledger()


async def test_a_short_player_at_the_start_leaves_no_refunded_game_behind(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.storage.players.take(GUILD, PLAYERS[1], 995, admin_id=PLAYERS[5])
    with refused_with(f"Not enough chips: player {PLAYERS[1]} has 5 and needs 10."):
        await world.manager.start(GUILD, CHANNEL, HOST)
    # All or nothing in one transaction: no game row, no escrow, no refund rows.
    assert await world.database.fetchall("SELECT id FROM games") == []
    assert await world.database.fetchall("SELECT kind FROM ledger WHERE game_id IS NOT NULL") == []
    assert await world.storage.players.balance(GUILD, HOST) == 1_000
    await world.check_ledger()
