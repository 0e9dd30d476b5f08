"""Restarts: tables come back with their deadlines re-armed, and no escrowed chip is ever lost."""

from __future__ import annotations

from typing import Any

import pytest

from storage.games import SnapshotRepository
from storage.rows import GameStatus
from tables.config import make_config
from tables.events import DeclarationsRevealed, ShowdownSettled
from tables.phase import Phase
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World, quick_arranger


class SimulatedCrash(Exception):
    """The process died here."""


async def seat(world: World, game: str, count: int) -> tuple[int, ...]:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config(game))
    for user in PLAYERS[1:count]:
        await world.manager.join(GUILD, CHANNEL, user)
    return PLAYERS[:count]


async def test_lobby_comes_back_after_a_restart(world: World) -> None:
    players = await seat(world, "casino", 3)
    await world.restart()
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY and table.players == players


async def test_declaration_deadline_is_rearmed_after_a_restart(world: World) -> None:
    players = await seat(world, "showdown", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, HOST, False)
    before = await world.manager.table(GUILD, CHANNEL)
    await world.restart()
    assert await world.manager.table(GUILD, CHANNEL) == before
    assert before is not None and before.deadline is not None
    [timer] = world.scheduler.pending
    assert timer.when == before.deadline
    await world.scheduler.pass_deadline()
    [reveal] = world.publisher.of(DeclarationsRevealed)
    assert isinstance(reveal, DeclarationsRevealed)
    assert reveal.surrendered == (HOST,) and reveal.played == (players[1],)
    await world.check_ledger()


async def test_a_deadline_that_passed_while_down_fires_at_once(world: World) -> None:
    await seat(world, "no-surrender", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    world.clock.advance(3_600)
    await world.restart()
    await world.scheduler.run_due()
    assert len(world.publisher.of(ShowdownSettled)) == 1
    await world.check_ledger()


async def test_submitted_hands_survive_a_restart(world: World) -> None:
    players = await seat(world, "no-surrender", 3)
    await world.manager.start(GUILD, CHANNEL, HOST)
    setting = quick_arranger(
        (await world.manager.table(GUILD, CHANNEL)).spec, world.publisher.held(HOST)
    )  # type: ignore[union-attr]
    await world.manager.submit(GUILD, CHANNEL, HOST, setting)
    await world.restart()
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.seat_of(HOST).setting == setting
    assert table.waiting_for() == players[1:]


async def test_crash_at_the_starts_snapshot_leaves_no_ante_held(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await seat(world, "showdown", 3)
    save = SnapshotRepository.save

    async def crash(self: SnapshotRepository, **kwargs: Any) -> Any:
        raise SimulatedCrash

    monkeypatch.setattr(SnapshotRepository, "save", crash)
    with pytest.raises(SimulatedCrash):
        await world.manager.start(GUILD, CHANNEL, HOST)
    # The game, its antes and the snapshot are one transaction: none of it was kept.
    assert await world.open_games() == []
    assert await world.database.fetchall("SELECT game_id FROM escrow") == []
    monkeypatch.setattr(SnapshotRepository, "save", save)
    await world.restart()
    for user in players:
        assert await world.storage.players.balance(GUILD, user) == 1_000
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY
    await world.check_ledger()


async def test_crash_after_the_stakes_before_the_snapshot_keeps_them_as_collateral(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await seat(world, "showdown", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, HOST, True)
    save = SnapshotRepository.save

    async def crash(self: SnapshotRepository, **kwargs: Any) -> Any:
        raise SimulatedCrash

    monkeypatch.setattr(SnapshotRepository, "save", crash)
    with pytest.raises(SimulatedCrash):
        await world.manager.declare(GUILD, CHANNEL, players[1], True)
    monkeypatch.setattr(SnapshotRepository, "save", save)
    await world.restart()
    # The click was lost with the process; clicking again escrows nothing twice.
    await world.manager.declare(GUILD, CHANNEL, players[1], True)
    assert await world.storage.chips.escrowed(1) == {user: 20 for user in players}
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    for user in players:
        assert await world.storage.players.balance(GUILD, user) == 1_000
    await world.check_ledger()


async def test_crash_after_the_settlement_moves_the_chips_once_and_reopens_the_lobby(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await seat(world, "no-surrender", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    spec = (await world.manager.table(GUILD, CHANNEL)).spec  # type: ignore[union-attr]
    first = quick_arranger(spec, world.publisher.held(HOST))
    await world.manager.submit(GUILD, CHANNEL, HOST, first)
    save = SnapshotRepository.save

    async def crash(self: SnapshotRepository, **kwargs: Any) -> Any:
        raise SimulatedCrash

    monkeypatch.setattr(SnapshotRepository, "save", crash)
    second = quick_arranger(spec, world.publisher.held(players[1]))
    before = {u: await world.storage.players.balance(GUILD, u) for u in players}
    with pytest.raises(SimulatedCrash):
        await world.manager.submit(GUILD, CHANNEL, players[1], second)
    monkeypatch.setattr(SnapshotRepository, "save", save)
    if world.database.functions:
        # PostgreSQL settles in the save's own statement: the crash took both, the click was
        # lost with the process and no chip moved; setting the hands again settles once.
        assert await world.status(1) is GameStatus.OPEN
        assert {u: await world.storage.players.balance(GUILD, u) for u in players} == before
        await world.restart()
        await world.manager.submit(GUILD, CHANNEL, players[1], second)
        assert await world.status(1) is GameStatus.SETTLED
        after = {u: await world.storage.players.balance(GUILD, u) for u in players}
        await world.restart()
    else:
        assert await world.status(1) is GameStatus.SETTLED
        after = {u: await world.storage.players.balance(GUILD, u) for u in players}
        await world.restart()
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY and table.games_played == 1
    assert {u: await world.storage.players.balance(GUILD, u) for u in players} == after
    await world.check_ledger()


async def test_an_unreadable_snapshot_is_refunded(world: World) -> None:
    await seat(world, "showdown", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.database.fetchall("SELECT 1")
    async with world.database.transaction() as connection:
        await connection.execute("UPDATE table_snapshots SET state = '{\"format\": 99}'")
    await world.restart()
    assert await world.manager.table(GUILD, CHANNEL) is None
    assert await world.status(1) is GameStatus.REFUNDED
    assert await world.storage.players.balance(GUILD, HOST) == 1_000
    await world.check_ledger()
