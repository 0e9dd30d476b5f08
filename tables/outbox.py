"""An action's events on their way out: queued in the database with the change they report,
then shown in order and forgotten (see docs/architecture.md, "The outbox")."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.errors import GameError
from storage.health import StoreHealth, log_failure
from storage.outbox import OutboxRepository
from storage.rows import OutboxRow
from tables.codec import decode_event, encode_event
from tables.events import Event, ShowdownSettled
from tables.runtime import (
    AsyncioScheduler,
    DeliveryError,
    Publisher,
    Scheduler,
    Timer,
    backoff,
)

log = logging.getLogger(__name__)

Key = tuple[int, int]
#: A message Discord has refused for this long is dropped (with an error in the log), so that
#: it does not hold its channel's later events back for good; Discord's outages are shorter.
GIVE_UP_S = 24 * 3600.0


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


class Shown(Enum):
    """How showing a channel's queued events went."""

    #: Every event was shown (or dropped as damaged, or as a fault of its own).
    ALL = "all"
    #: Discord refused a message for now: it and the events after it stay queued.
    REFUSED = "refused"
    #: A message Discord refused for a day was dropped: the events after it are still to show.
    GAVE_UP = "gave up"


class Outbox:
    """Shows a channel's queued events, oldest first, and forgets each once shown.

    In the background (the bot), an action only kicks its channel's drainer once it has committed
    and released the table: a click is answered while its DMs and pictures go out, and the next
    click at that table does not wait behind Discord or Pillow. One drainer per channel keeps the
    order. Without it (most tests) the action drains before it returns.

    A message Discord refuses for now (`DeliveryError`) stays queued with the events after it,
    and a timer shows them again, 5 s later and doubling up to 5 min while the refusals last;
    a message still refused after a day is dropped with an error in the log, so that one
    message cannot hold its channel back for good.
    """

    def __init__(
        self,
        queue: OutboxRepository,
        publisher: Publisher,
        *,
        background: bool = True,
        lock: Callable[[Key], AbstractAsyncContextManager[None]] | None = None,
        scheduler: Scheduler | None = None,
        clock: Callable[[], float] = time.time,
        health: StoreHealth | None = None,
    ) -> None:
        self.queue = queue
        #: Where a drain that failed because the store is away is counted, not logged.
        self.health = health or StoreHealth()
        self.publisher = publisher
        self.background = background
        self.scheduler: Scheduler = scheduler or AsyncioScheduler()
        self.clock = clock
        self._drainers: dict[Key, asyncio.Task[None]] = {}
        #: One drain of a channel at a time, whoever starts it (in any process of the bot, with
        #: the store's lock), so an event is shown once and in order.
        self._lock = lock or _local_locks()
        #: Channels committed to again while their drainer was running: it goes round once more.
        self._again: set[Key] = set()
        #: Channels whose first queued message Discord refused: the timer that tries again, the
        #: failed tries in a row (for the back-off) and since when the message has failed.
        self._retries: dict[Key, Timer] = {}
        self._failures: dict[Key, int] = {}
        self._failing_since: dict[Key, float] = {}
        #: Shutting down: a refusal now arms no retry (the next start shows what is queued).
        self._closed = False

    async def after_commit(self, key: Key) -> None:
        """An action at the channel committed (and released the table): show its events."""
        if key in self._retries:
            return  # backing off: the retry shows these behind the message Discord refused
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
            # Backing off after a refusal: the retry shows what was committed meanwhile.
            if key not in self._again or key in self._retries:
                self._drainers.pop(key, None)
                return

    async def flush(self) -> None:
        """Wait until every drainer has shown what was queued (tests; shutting down)."""
        while self._drainers:
            await asyncio.gather(*self._drainers.values(), return_exceptions=True)

    def close(self) -> None:
        """Call off the retries (what they would show stays queued for the next start)."""
        self._closed = True
        for timer in self._retries.values():
            timer.cancel()
        self._retries.clear()

    async def drain(self, key: Key) -> None:
        """Show the channel's queued events in order, then forget them."""
        async with self._lock(key):
            await self._drain(key)

    async def _drain(self, key: Key) -> None:
        shown = Shown.GAVE_UP
        while shown is Shown.GAVE_UP:
            try:
                rows = await self.queue.pending(*key)
                if not rows:
                    break
                done, shown = await self._show(key, rows)
                await self.queue.remove(done)
            except Exception as error:
                # The events stay queued: the retry, the next action here or the next start
                # shows them.
                log_failure(
                    log,
                    self.health,
                    error,
                    "could not read or forget the queued events of channel %s",
                    key[1],
                )
                shown = Shown.REFUSED
            if shown is Shown.REFUSED:
                self._retry_later(key)
                return
        self._recovered(key)

    async def _show(self, key: Key, rows: list[OutboxRow]) -> tuple[list[int], Shown]:
        """Show the rows' events; the ids of the rows done with, and how it went."""
        done: list[int] = []
        decoded: list[tuple[int, Event]] = []
        for row in rows:
            try:
                decoded.append((row.id, decode_event(row.event)))
            except GameError:
                log.exception("dropped a damaged event of channel %s", key[1])
                done.append(row.id)
        try:
            await self.publisher.publish(key[0], key[1], tuple(e for _, e in decoded))
        except DeliveryError as error:
            return self._refused(key, error, done, [row_id for row_id, _ in decoded])
        except Exception:
            # The table has changed and is saved: an event that cannot be shown (a picture
            # fails) must not turn a done action into an error for the player, nor come back.
            log.exception("could not show the events of channel %s", key[1])
        return done + [row_id for row_id, _ in decoded], Shown.ALL

    def _refused(
        self, key: Key, error: DeliveryError, done: list[int], ids: list[int]
    ) -> tuple[list[int], Shown]:
        """Discord refused a message: keep it (and what follows), or drop it after a day."""
        now = self.clock()
        if error.shown > 0:
            self._recovered(key)  # the messages before it went out: its own failures count
        since = self._failing_since.setdefault(key, now)
        if now - since < GIVE_UP_S:
            log.warning("Discord refused an event of channel %s: %s", key[1], error)
            return done + ids[: error.shown], Shown.REFUSED
        log.error(
            "Dropped %d event(s) of channel %s that Discord refused for %.0f hours: %s",
            error.upto - error.shown,
            key[1],
            (now - since) / 3600,
            error,
        )
        self._recovered(key)
        return done + ids[: error.upto], Shown.GAVE_UP

    def _retry_later(self, key: Key) -> None:
        failures = self._failures[key] = self._failures.get(key, 0) + 1
        delay = backoff(failures)
        if not self.health.is_away:  # an outage is said once, by the store's health
            log.warning("the events of channel %s will be shown again in %.0f s", key[1], delay)
        self._cancel_retry(key)
        if not self._closed:
            self._retries[key] = self.scheduler.schedule(delay, lambda: self._retry(key))

    async def _retry(self, key: Key) -> None:
        self._retries.pop(key, None)
        await self.after_commit(key)

    def _recovered(self, key: Key) -> None:
        """The channel's first queued message went out: the back-off starts over."""
        self._failures.pop(key, None)
        self._failing_since.pop(key, None)
        self._cancel_retry(key)

    def _cancel_retry(self, key: Key) -> None:
        timer = self._retries.pop(key, None)
        if timer is not None:
            timer.cancel()


def _local_locks() -> Callable[[Key], AbstractAsyncContextManager[None]]:
    """A lock per channel within this process."""
    locks: dict[Key, asyncio.Lock] = {}
    return lambda key: locks.setdefault(key, asyncio.Lock())
