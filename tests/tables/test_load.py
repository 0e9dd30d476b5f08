"""Responsive under load: publishing after the table is released and in order, urgent work
first, one suggestion per holding."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

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


class Asking:
    """Jobs at the slots say when they ask for one; ``until(count)`` waits for that many more.

    ``Slots.taken`` queues a job without suspending it, so a job that has asked holds a slot or
    waits for one by the time the test, woken by its asking, runs again."""

    def __init__(self, slots: Slots) -> None:
        self.slots = slots
        self._asked: asyncio.Queue[None] = asyncio.Queue()

    def taken(self, priority: Priority) -> contextlib.AbstractAsyncContextManager[None]:
        """``slots.taken``, said first."""
        self._asked.put_nowait(None)
        return self.slots.taken(priority)

    async def until(self, count: int) -> None:
        """Wait until ``count`` more jobs have asked for a slot."""
        for _ in range(count):
            await self._asked.get()


async def test_a_settlement_is_not_queued_behind_a_suggestion() -> None:
    slots = Asking(Slots(1))
    ran: list[str] = []
    hold = asyncio.Event()

    async def job(name: str, priority: Priority, wait: bool = False) -> None:
        async with slots.taken(priority):
            ran.append(name)
            if wait:
                await hold.wait()

    first = asyncio.create_task(job("suggest 1", Priority.SUGGEST, wait=True))
    await slots.until(1)
    later = [
        asyncio.create_task(job("suggest 2", Priority.SUGGEST)),
        asyncio.create_task(job("deadline", Priority.DEADLINE)),
        asyncio.create_task(job("settle", Priority.SETTLE)),
    ]
    await slots.until(3)
    assert ran == ["suggest 1"]
    hold.set()
    await asyncio.gather(first, *later)
    assert ran == ["suggest 1", "settle", "deadline", "suggest 2"]


async def test_a_settlement_finds_a_slot_when_suggestions_fill_the_others() -> None:
    slots = Asking(Slots(3, kept=1))
    ran: list[str] = []
    hold = asyncio.Event()

    async def job(name: str, priority: Priority) -> None:
        async with slots.taken(priority):
            ran.append(name)
            await hold.wait()

    jobs = [asyncio.create_task(job(f"suggest {n}", Priority.SUGGEST)) for n in (1, 2, 3)]
    await slots.until(3)
    assert ran == ["suggest 1", "suggest 2"]  # the third slot is never a suggestion's
    jobs.append(asyncio.create_task(job("settle", Priority.SETTLE)))
    jobs.append(asyncio.create_task(job("deadline", Priority.DEADLINE)))
    await slots.until(2)
    assert ran == ["suggest 1", "suggest 2", "settle"]  # while both suggestions still run
    hold.set()
    await asyncio.gather(*jobs)
    assert ran == ["suggest 1", "suggest 2", "settle", "deadline", "suggest 3"]
    assert slots.slots.free == 3


async def test_a_settlement_is_not_queued_behind_a_running_suggestion_in_the_workers() -> None:
    offload = ThreadOffload(workers=1)
    started, release = threading.Event(), threading.Event()

    def suggestion() -> str:
        started.set()
        release.wait(10)
        return "suggestion"

    try:
        running = asyncio.create_task(offload(suggestion, priority=Priority.SUGGEST))
        waiting = asyncio.create_task(offload(suggestion, priority=Priority.SUGGEST))
        await asyncio.to_thread(started.wait, 10)
        settled = await asyncio.wait_for(offload(sum, (1, 2), priority=Priority.SETTLE), 10)
        assert settled == 3
        assert not running.done() and not waiting.done()
    finally:
        release.set()
    assert await asyncio.gather(running, waiting) == ["suggestion", "suggestion"]


def test_suggestions_are_always_left_a_slot() -> None:
    with pytest.raises(ValueError, match="leaves suggestions none"):
        Slots(2, kept=2)


async def test_a_waiter_that_gives_up_frees_its_turn() -> None:
    slots = Asking(Slots(1))
    hold = asyncio.Event()

    async def busy() -> None:
        async with slots.taken(Priority.SUGGEST):
            await hold.wait()

    holder = asyncio.create_task(busy())
    await slots.until(1)
    quitter = asyncio.create_task(busy())
    await slots.until(1)
    quitter.cancel()
    hold.set()
    await holder
    async with slots.taken(Priority.SETTLE):
        assert slots.slots.free == 0
    assert slots.slots.free == 1


async def test_the_same_holding_is_suggested_once(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("no-surrender"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    calls: list[Any] = []
    offload = ThreadOffload()

    async def counting(
        work: Any, /, *args: Any, priority: Priority = Priority.SUGGEST, urgency: float = 0.0
    ) -> Any:
        calls.append(priority)
        return await offload(work, *args, priority=priority, urgency=urgency)

    world.manager.offload = counting  # type: ignore[assignment]
    first, second = await asyncio.gather(
        world.manager.suggest(GUILD, CHANNEL, HOST), world.manager.suggest(GUILD, CHANNEL, HOST)
    )
    again = await world.manager.suggest(GUILD, CHANNEL, HOST)
    assert first == second == again
    assert calls == [Priority.SUGGEST]
