"""Defects found by trying to break the tables, each pinned by the test that found it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.errors import GameError
from storage.games import SnapshotRepository
from storage.rows import GameStatus
from tables.events import ShowdownSettled
from tables.table import Phase, make_config
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


# ----- a failed save or deadline never wedges a table; a settled showdown is always published --


class SaveFails(Exception):
    """The database refused the snapshot (a full disk, a lock held too long)."""


def fail_saves(monkeypatch: pytest.MonkeyPatch, times: int, *, after_settlement: bool) -> None:
    """Make the next ``times`` snapshot saves fail (only those of a finished game, if asked)."""
    save = SnapshotRepository.save
    left = [times]

    async def failing(self: SnapshotRepository, **kwargs: Any) -> Any:
        finished = kwargs["state"]["games_played"] > 0
        if left[0] > 0 and (finished or not after_settlement):
            left[0] -= 1
            raise SaveFails("disk I/O error")
        return await save(self, **kwargs)

    monkeypatch.setattr(SnapshotRepository, "save", failing)


async def deal_two(world: World, game: str = "no-surrender") -> tuple[int, ...]:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config(game))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    return PLAYERS[:2]


def showdowns(world: World) -> list[ShowdownSettled]:
    return [e for e in world.publisher.of(ShowdownSettled) if isinstance(e, ShowdownSettled)]


async def test_a_failed_save_after_a_deadline_settlement_is_retried(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await deal_two(world)
    fail_saves(monkeypatch, 1, after_settlement=True)
    await world.scheduler.pass_deadline()  # the table sets both hands, settles, then the save fails
    assert await world.status(1) is GameStatus.SETTLED
    assert world.scheduler.pending, "nothing will ever retry the table"
    world.clock.advance(600)
    await world.scheduler.run_due()
    assert len(showdowns(world)) == 1
    table = world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY and table.players == players
    await world.check_ledger()


async def test_a_deadline_whose_work_fails_is_retried(world: World) -> None:
    await deal_two(world)
    arranger = world.manager.arranger
    calls = [0]

    def flaky(spec: Any, held: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("a worker process died")
        return arranger(spec, held)

    world.manager.arranger = flaky
    await world.scheduler.pass_deadline()
    assert not showdowns(world)
    assert world.scheduler.pending, "nothing will ever retry the table"
    world.clock.advance(600)
    await world.scheduler.run_due()
    assert len(showdowns(world)) == 1
    await world.check_ledger()


async def test_the_host_can_always_clear_a_table_whose_save_failed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await deal_two(world)
    fail_saves(monkeypatch, 100, after_settlement=True)
    await world.scheduler.pass_deadline()
    after = {u: await world.storage.players.balance(GUILD, u) for u in players}
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    assert world.manager.table(GUILD, CHANNEL) is None
    # The settled game keeps its result: cancelling returns nothing twice.
    assert {u: await world.storage.players.balance(GUILD, u) for u in players} == after
    assert len(showdowns(world)) == 1
    await world.check_ledger()


async def test_a_showdown_settled_just_before_a_crash_is_published_after_the_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deal_two(world)
    fail_saves(monkeypatch, 1, after_settlement=True)
    world.publisher.events.clear()
    await world.scheduler.pass_deadline()
    assert await world.status(1) is GameStatus.SETTLED
    await world.restart()
    await world.manager.publish_pending()
    [showdown] = showdowns(world)
    assert showdown.game_id == 1
    # Published once: a second restart finds nothing left to publish.
    await world.restart()
    await world.manager.publish_pending()
    assert len(showdowns(world)) == 1
