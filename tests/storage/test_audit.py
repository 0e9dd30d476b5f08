"""The audit reports every broken invariant, so an admin command can show what drifted."""

from __future__ import annotations

from storage import Storage
from storage.audit import audit
from tests.storage.helpers import ADMIN, CHANNEL, GUILD

ALICE, BOB = 11, 12


async def test_a_clean_ledger_passes_with_its_figures(store: Storage) -> None:
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="casino")
    await store.players.grant(GUILD, ALICE, 50, admin_id=ADMIN)
    await store.chips.escrow(game.id, {ALICE: 30, BOB: 20}, "ante")
    report = await audit(store.database)
    assert report.is_consistent
    assert (report.balances, report.escrowed, report.house, report.minted) == (2000, 50, 0, 2050)


async def test_a_balance_changed_behind_the_ledger_is_reported(store: Storage) -> None:
    await store.players.get_or_create(GUILD, ALICE)
    async with store.database.transaction() as connection:
        await connection.execute(
            "UPDATE players SET balance = balance + 5 WHERE user_id = ?", (ALICE,)
        )
    report = await audit(store.database)
    assert report.problems == (
        f"Player {ALICE} of server {GUILD}: balance 1005, ledger 1000.",
        "Balances 1005 + escrow 0 + house 0 != chips issued 1000.",
    )


async def test_escrow_left_on_a_finished_game_is_reported(store: Storage) -> None:
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="casino")
    await store.chips.escrow(game.id, {ALICE: 30}, "ante")
    async with store.database.transaction() as connection:
        await connection.execute(
            "UPDATE games SET status = 'refunded', finished = 'x' WHERE id = ?", (game.id,)
        )
    assert (await audit(store.database)).problems == (
        f"Game {game.id} is finished but still holds escrow.",
    )
