"""Responsive under load: publishing after the table is released and in order, urgent work
first, one suggestion per holding."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tables.config import make_config
from tables.events import Event, PlayerJoined
from tables.runtime import Priority, Slots, ThreadOffload
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World


class SlowPublisher:
    """Holds every publication until the test lets it go, and keeps what it showed."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.shown: list[Event] = []

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        await self.gate.wait()
        self.shown.extend(events)


async def test_a_click_is_done_before_its_events_are_shown(database_target: str | Path) -> None:
    world = await World.open(database_target)
    publisher = SlowPublisher()
    world.manager.publisher = world.manager.outbox.publisher = publisher
    world.manager.outbox.background = True
    try:
        await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
        # Discord is slow: the joins still finish, one after the other, at the same table.
        for user in PLAYERS[1:4]:
            await asyncio.wait_for(world.manager.join(GUILD, CHANNEL, user), 5)
        assert not publisher.shown
        publisher.gate.set()
        await world.manager.outbox.flush()
        joined = [e.user for e in publisher.shown if isinstance(e, PlayerJoined)]
        assert joined == list(PLAYERS[1:4])  # in order, each once
        assert await world.storage.outbox.pending(GUILD, CHANNEL) == []
    finally:
        publisher.gate.set()
        await world.close()


async def test_events_of_racing_actions_are_shown_once_in_commit_order(
    database_target: str | Path,
) -> None:
    world = await World.open(database_target)
    world.manager.outbox.background = True
    try:
        await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
        await asyncio.gather(*(world.manager.join(GUILD, CHANNEL, u) for u in PLAYERS[1:]))
        await world.manager.outbox.flush()
        shown = [e.user for e in world.publisher.of(PlayerJoined)]  # type: ignore[attr-defined]
        table = await world.manager.table(GUILD, CHANNEL)
        assert table is not None
        assert shown == list(table.players[1:])  # the seats' order is the commit order
    finally:
        await world.close()


async def test_a_settlement_is_not_queued_behind_a_suggestion() -> None:
    slots = Slots(1)
    ran: list[str] = []
    hold = asyncio.Event()

    async def job(name: str, priority: Priority, wait: bool = False) -> None:
        async with slots.taken(priority):
            ran.append(name)
            if wait:
                await hold.wait()

    first = asyncio.create_task(job("suggest 1", Priority.SUGGEST, wait=True))
    await asyncio.sleep(0)
    later = [
        asyncio.create_task(job("suggest 2", Priority.SUGGEST)),
        asyncio.create_task(job("deadline", Priority.DEADLINE)),
        asyncio.create_task(job("settle", Priority.SETTLE)),
    ]
    await asyncio.sleep(0.01)
    assert ran == ["suggest 1"]
    hold.set()
    await asyncio.gather(first, *later)
    assert ran == ["suggest 1", "settle", "deadline", "suggest 2"]


async def test_a_waiter_that_gives_up_frees_its_turn() -> None:
    slots = Slots(1)
    hold = asyncio.Event()

    async def busy() -> None:
        async with slots.taken(Priority.SUGGEST):
            await hold.wait()

    holder = asyncio.create_task(busy())
    await asyncio.sleep(0)
    quitter = asyncio.create_task(busy())
    await asyncio.sleep(0)
    quitter.cancel()
    hold.set()
    await holder
    async with slots.taken(Priority.SETTLE):
        assert slots.free == 0
    assert slots.free == 1


async def test_the_same_holding_is_suggested_once(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("no-surrender"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    calls: list[Any] = []
    offload = ThreadOffload()

    async def counting(work: Any, /, *args: Any, priority: Priority = Priority.SUGGEST) -> Any:
        calls.append(priority)
        return await offload(work, *args, priority=priority)

    world.manager.offload = counting  # type: ignore[assignment]
    first, second = await asyncio.gather(
        world.manager.suggest(GUILD, CHANNEL, HOST), world.manager.suggest(GUILD, CHANNEL, HOST)
    )
    again = await world.manager.suggest(GUILD, CHANNEL, HOST)
    assert first == second == again
    assert calls == [Priority.SUGGEST]
