"""An action's events on their way out: queued in the database with the change they report,
then shown in order and forgotten (see docs/architecture.md, "The outbox")."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError
from storage.health import StoreHealth, log_failure
from storage.outbox import OutboxRepository
from tables.codec import decode_event, encode_event
from tables.events import Event, ShowdownSettled
from tables.runtime import Publisher

log = logging.getLogger(__name__)

Key = tuple[int, int]


@dataclass(slots=True)
class Batch:
    """One action's events: all of them (what the action returns) and those not yet queued."""

    events: list[Event] = field(default_factory=list)
    unqueued: list[Event] = field(default_factory=list)

    def add(self, *events: Event) -> None:
        self.events.extend(events)
        self.unqueued.extend(events)

    def take(self) -> list[dict[str, Any]]:
        """The unqueued events as outbox payloads; they count as queued from now on."""
        payload = [encode_event(event) for event in self.unqueued]
        self.unqueued.clear()
        return payload

    @property
    def settled(self) -> bool:
        return any(isinstance(event, ShowdownSettled) for event in self.events)


class Outbox:
    """Shows a channel's queued events, oldest first, and forgets each once shown.

    In the background (the bot), an action only kicks its channel's drainer once it has committed
    and released the table: a click is answered while its DMs and pictures go out, and the next
    click at that table does not wait behind Discord or Pillow. One drainer per channel keeps the
    order. Without it (most tests) the action drains before it returns.
    """

    def __init__(
        self,
        queue: OutboxRepository,
        publisher: Publisher,
        *,
        background: bool = True,
        lock: Callable[[Key], AbstractAsyncContextManager[None]] | None = None,
        health: StoreHealth | None = None,
    ) -> None:
        self.queue = queue
        #: Where a drain that failed because the store is away is counted, not logged.
        self.health = health or StoreHealth()
        self.publisher = publisher
        self.background = background
        self._drainers: dict[Key, asyncio.Task[None]] = {}
        #: One drain of a channel at a time, whoever starts it (in any process of the bot, with
        #: the store's lock), so an event is shown once and in order.
        self._lock = lock or _local_locks()
        #: Channels committed to again while their drainer was running: it goes round once more.
        self._again: set[Key] = set()

    async def after_commit(self, key: Key) -> None:
        """An action at the channel committed (and released the table): show its events."""
        if not self.background:
            await self.drain(key)
            return
        running = self._drainers.get(key)
        if running is not None and not running.done():
            self._again.add(key)
            return
        self._drainers[key] = asyncio.get_running_loop().create_task(self._drain_loop(key))

    async def _drain_loop(self, key: Key) -> None:
        while True:
            self._again.discard(key)
            await self.drain(key)
            if key not in self._again:
                self._drainers.pop(key, None)
                return

    async def flush(self) -> None:
        """Wait until every drainer has shown what was queued (tests; shutting down)."""
        while self._drainers:
            await asyncio.gather(*self._drainers.values(), return_exceptions=True)

    async def drain(self, key: Key) -> None:
        """Show the channel's queued events in order, then forget them."""
        async with self._lock(key):
            await self._drain(key)

    async def _drain(self, key: Key) -> None:
        try:
            rows = await self.queue.pending(*key)
            if not rows:
                return
            events: list[Event] = []
            for row in rows:
                try:
                    events.append(decode_event(row.event))
                except GameError:
                    log.exception("dropped a damaged event of channel %s", key[1])
            await self._publish(key, tuple(events))
            await self.queue.remove([row.id for row in rows])
        except Exception as error:
            # The events stay queued: the next action here, or the next start, shows them.
            log_failure(
                log, self.health, error, "could not read the queued events of channel %s", key[1]
            )

    async def _publish(self, key: Key, events: tuple[Event, ...]) -> None:
        # The table has changed and is saved: showing it may fail (Discord is down, a picture
        # fails), but that must not turn a done action into an error for the player.
        try:
            await self.publisher.publish(key[0], key[1], events)
        except Exception:
            log.exception("could not show the events of channel %s", key[1])


def _local_locks() -> Callable[[Key], AbstractAsyncContextManager[None]]:
    """A lock per channel within this process."""
    locks: dict[Key, asyncio.Lock] = {}
    return lambda key: locks.setdefault(key, asyncio.Lock())
