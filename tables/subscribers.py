"""The seam for features that listen: a subscriber takes the tables' typed events after they
committed, in each channel's commit order, from the outbox (docs/architecture.md, "Subscribers").

Every reader of the outbox is a lane with a position of its own in each channel: the publisher's
lane shows the events on Discord (``tables.outbox``), and each subscriber's lane hands the events
it wants to its ``handle``. A lane that fails is tried again later without holding back another.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Protocol

from engine.errors import GameError
from storage.health import StoreHealth
from storage.outbox import ChannelBusyError, OutboxRepository
from storage.rows import OutboxRow, Queued
from tables.codec import decode_event, encode_event
from tables.events import Event
from tables.runtime import TABLE_LOCK

log = logging.getLogger(__name__)

Key = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Delivery:
    """Where a delivered event comes from: its row in its channel's outbox."""

    #: The row's id: rows of a channel ascend in commit order.
    position: int
    guild_id: int
    channel_id: int
    #: The game the row was queued with (None: a lobby's events, a table closing).
    game_id: int | None
    #: When the change the event reports committed (a showdown: its settlement's moment).
    committed: datetime


@dataclass(frozen=True, slots=True)
class Rows:
    """Rows one transaction queued in a channel, with their events and payloads."""

    queued: Queued
    events: tuple[tuple[Event, dict[str, Any]], ...]

    def outbox_rows(self, key: Key, after: int) -> list[tuple[OutboxRow, Event]]:
        """Its rows past ``after``, as the store would read them back, with their events."""
        created = self.queued.created or datetime.now(UTC)
        return [
            (OutboxRow(row_id, key[0], key[1], self.queued.game_id, payload, created), event)
            for row_id, (event, payload) in zip(self.queued.ids, self.events, strict=True)
            if row_id > after
        ]


class Subscriber(Protocol):
    """A feature that listens to the tables (statistics, a rating, an achievement...).

    ``handle`` is called at least once for each event of the types in ``events``, after the
    change it reports committed, in the order of its channel's commits. It runs inside the
    transaction that moves the subscriber's position past the event: what it writes through
    the repositories commits with that, or not at all, and an exception leaves the event to be
    handled again later (5 s, doubling up to 5 min) without holding back any other subscriber.
    So it keeps to the database (never Discord) and, since another process may have taken the
    same event when a lock was lost, it writes idempotently, keyed by the game's id.

    What it has to say in the channel it returns as events (an achievement earned): they are
    queued into the channel's outbox in the same transaction, behind every row committed
    before it, and every lane (the publisher's too) takes them as any other. Returned only by
    the transaction that first wrote what they report, they are queued once.
    """

    #: Its position in each channel is kept under this name: never rename a subscriber.
    name: str
    #: The event types it is given; the others pass it by.
    events: tuple[type[Event], ...]

    async def handle(self, event: Event, delivery: Delivery) -> Sequence[Event] | None:
        """Take in one event; the events to queue in its channel in answer, if any."""


#: A subscriber may also have ``committed(event, delivery)``, a plain function called once its
#: ``handle`` of the event committed, to start work outside the database (a table to deal, a
#: message to post). It is called at most once per handling, and not at all if the process
#: stops in between: what it starts must be found again from the database after a restart.


class Outcome(Enum):
    """How a lane's turn at a channel's rows went."""

    #: Every row was taken (or passed by, or dropped as damaged).
    DONE = "done"
    #: A row failed for now: it and the rows after it are tried again later.
    LATER = "later"
    #: A row that kept failing was dropped: the rows after it are still to take.
    GAVE_UP = "gave up"


class Lane(Protocol):
    """One reader of the outbox, with its own position per channel."""

    #: The position's name (``outbox_positions.subscriber``).
    name: str
    #: The store's lock taken while the lane reads a channel (one reader per lane and channel).
    lock: str

    def wants(self, event: Event) -> bool:
        """Whether the lane takes this kind of event (the others it passes by)."""

    async def take(
        self, key: Key, rows: Sequence[OutboxRow], known: Mapping[int, Event] | None = None
    ) -> tuple[int | None, Outcome]:
        """Take the rows past the lane's position (``known``: the events of those already
        decoded, by row); the last row done with, and how it went."""

    def will_retry(self, key: Key, delay: float) -> None:
        """The lane's rows of the channel are tried again in ``delay`` seconds."""

    def recovered(self, key: Key) -> None:
        """The lane took every row of the channel after failing."""

    def followed(self, key: Key) -> Sequence[Rows]:
        """The rows the lane queued in the channel since last asked, with their events (the
        lanes take them once its lock is let go)."""


class SubscriberLane:
    """A subscriber's reader: each event it wants handled in the transaction that moves its
    position past it; a failure is logged once until the subscriber succeeds again."""

    def __init__(
        self, subscriber: Subscriber, queue: OutboxRepository, health: StoreHealth
    ) -> None:
        self.subscriber = subscriber
        self.name = subscriber.name
        self.lock = f"outbox:{subscriber.name}"
        self.queue = queue
        self.health = health
        self._wanted = frozenset(kind.__name__ for kind in subscriber.events)
        #: Channels where the subscriber is failing, and whether that was logged: a failure
        #: is logged once (not when the store being away explains it, which its health says),
        #: and the recovery once it fails nowhere.
        self._failing: set[Key] = set()
        self._said = False
        #: The subscriber's answers queued in each channel, the lanes not yet told.
        self._followed: dict[Key, list[Rows]] = {}
        #: The lanes that want none of some events (the outbox's `Outbox.passing`): moved past
        #: the answers as they are queued.
        self.passing: Callable[[Sequence[Event]], list[str]] = lambda events: []

    def wants(self, event: Event) -> bool:
        """Whether the subscriber listens to this kind of event."""
        return isinstance(event, self.subscriber.events)

    async def take(
        self, key: Key, rows: Sequence[OutboxRow], known: Mapping[int, Event] | None = None
    ) -> tuple[int | None, Outcome]:
        """Hand each wanted event to the subscriber, one transaction each."""
        done: int | None = None
        for row in rows:
            if row.event.get("type") in self._wanted:
                try:
                    event = (None if known is None else known.get(row.id)) or decode_event(
                        row.event
                    )
                except GameError:
                    log.warning("%s passed a damaged event of channel %s by", self.name, key[1])
                else:
                    delivery = Delivery(
                        row.id, row.guild_id, row.channel_id, row.game_id, row.created
                    )
                    try:
                        # Begun by the handler's first statement: one that keeps nothing for
                        # this event sends none, and the lane's end moves its position.
                        async with self.queue.database.lazy_transaction() as unit:
                            answers = await self.subscriber.handle(event, delivery)
                            if unit.begun or answers:
                                await self.queue.advance(self.name, *key, row.id)
                            if answers:
                                payloads = [encode_event(answer) for answer in answers]
                                queued = await self.queue.queue_following(
                                    TABLE_LOCK,
                                    guild_id=row.guild_id,
                                    channel_id=row.channel_id,
                                    game_id=row.game_id,
                                    events=payloads,
                                    passing=self.passing(answers),
                                )
                    except ChannelBusyError:
                        # An action at the table holds it: its rows come first, these after.
                        return done, Outcome.LATER
                    except Exception as error:
                        self._failed(key, error)
                        return done, Outcome.LATER
                    if answers and queued.ids:
                        self._followed.setdefault(key, []).append(
                            Rows(queued, tuple(zip(answers, payloads, strict=True)))
                        )
                    committed = getattr(self.subscriber, "committed", None)
                    if committed is not None:
                        committed(event, delivery)
            done = row.id
        return done, Outcome.DONE

    def _failed(self, key: Key, error: Exception) -> None:
        self._failing.add(key)
        if self.health.report(error) or self._said:
            return
        self._said = True
        log.error(
            "%s failed on an event of channel %s; it is tried again until it succeeds"
            " (logged once until then)",
            self.name,
            key[1],
            exc_info=error,
        )

    def will_retry(self, key: Key, delay: float) -> None:
        """Said once, when the subscriber began failing."""

    def followed(self, key: Key) -> list[Rows]:
        """The subscriber's answers queued in the channel since last asked."""
        return self._followed.pop(key, [])

    def recovered(self, key: Key) -> None:
        """Say so once the subscriber fails nowhere."""
        if key not in self._failing:
            return
        self._failing.discard(key)
        if not self._failing and self._said:
            self._said = False
            log.info("%s handles the tables' events again.", self.name)
