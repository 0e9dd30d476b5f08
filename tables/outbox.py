"""An action's events on their way out: queued in the database with the change they report,
then shown in order and forgotten (see docs/architecture.md, "The outbox")."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError
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


@dataclass(frozen=True, slots=True)
class Outbox:
    """Shows a channel's queued events, oldest first, and forgets each once shown."""

    queue: OutboxRepository
    publisher: Publisher

    async def drain(self, key: Key) -> None:
        """Show the channel's queued events in order, then forget them (the caller holds the
        channel's lock, so two drains of one channel never interleave)."""
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
        except Exception:
            # The events stay queued: the next action here, or the next start, shows them.
            log.exception("could not read the queued events of channel %s", key[1])

    async def _publish(self, key: Key, events: tuple[Event, ...]) -> None:
        # The table has changed and is saved: showing it may fail (Discord is down, a picture
        # fails), but that must not turn a done action into an error for the player.
        try:
            await self.publisher.publish(key[0], key[1], events)
        except Exception:
            log.exception("could not show the events of channel %s", key[1])
