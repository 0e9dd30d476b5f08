"""The audit reports every broken invariant, so an admin command can show what drifted."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from storage import Storage
from storage.audit import audit
from storage.database import Connection, Params, Row
from storage.stores import open_database
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


@pytest.mark.slow  # PostgreSQL
async def test_the_audit_sees_one_moment_while_chips_move_beside_it(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chips escrowed by another transaction between two of the audit's reads are in both of
    its figures or in neither: on PostgreSQL each statement of a transaction saw what had
    committed by then, and a tournament's audit once found a table's antes in the escrow but
    not in the ledger."""
    database = await open_database(postgres_url)
    store = Storage.over(database)
    try:
        game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="casino")
        await store.players.get_or_create(GUILD, ALICE)
        moved: list[bool] = []
        transaction = database.transaction

        @asynccontextmanager
        async def meanwhile() -> AsyncIterator[Connection]:
            async with transaction() as connection:
                if not moved:
                    moved.append(True)
                    fetchall = connection.fetchall

                    async def then_escrow(sql: str, params: Params = ()) -> list[Row]:
                        rows = await fetchall(sql, params)
                        if len(moved) == 1 and " FROM escrow " in sql:
                            # Between the escrow's read and the ledger's.
                            moved.append(True)
                            # Another task: a transaction of its own, committed meanwhile.
                            await asyncio.create_task(
                                store.chips.escrow(game.id, {ALICE: 30}, "ante")
                            )
                        return rows

                    monkeypatch.setattr(connection, "fetchall", then_escrow)
                yield connection

        monkeypatch.setattr(database, "transaction", meanwhile)
        report = await audit(database)
        assert len(moved) == 2  # the escrow committed while the audit read
        assert report.is_consistent, report.problems
    finally:
        await database.close()
