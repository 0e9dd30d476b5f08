"""The caller owns the unit of work: repositories called inside its transaction join it (as
savepoints), on both stores, so several repositories' writes commit together or not at all."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from storage import Storage
from storage.database import Database, PartFailedError
from storage.errors import ShortOfChipsError
from tests.storage.helpers import CHANNEL, GUILD

ANN, BOB = 11, 12


class Refused(Exception):
    """What makes the caller's unit of work fail after its repositories wrote."""


async def open_game(store: Storage) -> int:
    for user in (ANN, BOB):
        await store.players.get_or_create(GUILD, user)
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    return game.id


async def test_repositories_inside_a_transaction_commit_with_it_or_not_at_all(
    database: Database, store: Storage
) -> None:
    for user in (ANN, BOB):
        await store.players.get_or_create(GUILD, user)
    with pytest.raises(Refused):
        async with database.transaction():
            game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
            # The game row is read back inside the transaction that wrote it.
            assert game.guild_id == GUILD
            await store.chips.escrow(game.id, {ANN: 10, BOB: 10}, "ante")
            assert await store.players.balance(GUILD, ANN) == 990
            raise Refused
    assert await store.games.list_open() == []
    assert await store.players.balance(GUILD, ANN) == 1_000
    async with database.transaction():
        game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
        await store.chips.escrow(game.id, {ANN: 10, BOB: 10}, "ante")
    assert await store.chips.escrowed(game.id) == {ANN: 10, BOB: 10}


async def test_a_failed_repository_call_inside_a_transaction_undoes_only_its_own_writes(
    database: Database, store: Storage
) -> None:
    game = await open_game(store)
    await store.players.take(GUILD, BOB, 995, admin_id=9)
    async with database.transaction():
        with pytest.raises(ShortOfChipsError):
            await store.chips.escrow(game, {ANN: 10, BOB: 10}, "ante")
        # The enclosing transaction goes on (on PostgreSQL too) and commits what it did.
        await store.chips.escrow(game, {ANN: 10}, "ante")
    assert await store.chips.escrowed(game) == {ANN: 10}
    assert await store.players.balance(GUILD, BOB) == 5


async def test_another_task_never_joins_a_transaction_it_did_not_open(
    database: Database, store: Storage
) -> None:
    game = await open_game(store)
    writing = asyncio.Event()

    async def elsewhere() -> int:
        await writing.wait()
        return await store.players.balance(GUILD, ANN)

    other = asyncio.create_task(elsewhere())
    async with database.transaction():
        await store.chips.escrow(game, {ANN: 10}, "ante")
        writing.set()
        # Read while the transaction is open: the other task sees what was committed.
        assert await other == 1_000
        assert await store.players.balance(GUILD, ANN) == 990
    assert database.held() is None
    assert await store.players.balance(GUILD, ANN) == 990


async def players(database: Database) -> int:
    row = await database.fetchone("SELECT COUNT(*) FROM players")
    assert row is not None
    return int(row[0])


async def test_a_lazy_transaction_begins_with_its_first_statement(
    database: Database, store: Storage
) -> None:
    # A subscriber that keeps nothing for an event opens no transaction for it.
    async with database.lazy_transaction() as unit:
        assert database.held() is unit
    assert not unit.begun and database.held() is None
    async with database.lazy_transaction() as unit:
        await store.players.get_or_create(GUILD, ANN)
        assert await store.players.balance(GUILD, ANN) == 1_000  # read inside it
    assert unit.begun
    assert await players(database) == 1


async def test_a_failed_part_of_a_lazy_transaction_fails_it_whole(
    database: Database, store: Storage
) -> None:
    # Its parts take no savepoint: one that failed cannot be undone alone, so even a caught
    # failure leaves nothing of the whole.
    with pytest.raises(PartFailedError):
        async with database.lazy_transaction():
            await store.players.get_or_create(GUILD, ANN)
            with contextlib.suppress(Refused):
                async with database.transaction():
                    await store.players.get_or_create(GUILD, BOB)
                    raise Refused
    assert await players(database) == 0
