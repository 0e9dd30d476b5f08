"""An action's events on their way out: queued in the database with the change they report,
then taken in order by every lane (the publisher, each subscriber) and forgotten once all are
past them (see docs/architecture.md, "The outbox" and "Subscribers")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError
from storage.database import Held, LockRead
from storage.health import StoreHealth, log_failure
from storage.outbox import OutboxRepository
from storage.rows import Escrow, OutboxRow, Queued, SettleCall
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
from tables.subscribers import Lane, Outcome, Rows, Subscriber, SubscriberLane

log = logging.getLogger(__name__)

Key = tuple[int, int]
#: A lane and a channel.
LaneKey = tuple[str, Key]
#: The store's lock of one lane's reading of a channel (the name, then the channel), and what
#: it reads under it.
Locks = Callable[..., AbstractAsyncContextManager[Held]]
#: The publisher's position's name.
PUBLISHER = "publisher"
#: A message Discord has refused for this long is dropped (with an error in the log), so that
#: it does not hold its channel's later events back for good; Discord's outages are shorter.
GIVE_UP_S = 24 * 3600.0
#: The subscribers' lanes (the features') taking their turns at once in a process, across its
#: channels: each turn is a transaction on the store's pool and its round trips wait for turns
#: of the event loop, which the players' clicks need first. A showdown gives each feature a
#: turn; after a burst of showdowns at a hundred tables the rest wait here, a few hundred
#: milliseconds at most, not beside the clicks. The publisher's lane (what players see) never
#: waits for them.
FEATURE_TURNS = 4


@dataclass(frozen=True, slots=True)
class SaveSettles:
    """A settlement a table's save applies in its own statement (`Batch.settle`), and the
    events that statement queues (the showdown and what led to it), with their payloads."""

    call: SettleCall
    events: list[Event]
    payloads: list[dict[str, Any]]


class LockFirst(Exception):
    """A step of an action run with `Batch.save_only` needs the store before the save: the
    action runs again under the table's lock in every process."""


@dataclass(slots=True)
class Batch:
    """One action's events: all of them (what the action returns), those not yet queued, and
    the rows its transactions queued, to be shown from memory once the action committed."""

    events: list[Event] = field(default_factory=list)
    unqueued: list[Event] = field(default_factory=list)
    #: Each queueing of the action's, with the events it queued (in order).
    rows: list[Rows] = field(default_factory=list)
    #: Players whose shortness at the reveal's escrow refuses the action itself rather than
    #: surrendering them (the declaration that reveals: `TableManager.declare`).
    covered: set[int] = field(default_factory=set)
    #: Whether the store may be written only by the save (an action at a table this process
    #: holds, before the table's lock is taken in every process): a reveal's escrow is then
    #: handed to the save (`escrow`), and a step that needs the store first refuses with
    #: `LockFirst`, to run again under the lock.
    save_only: bool = False
    #: The reveal's stakes, for the save's own statement to take (`save_only`).
    escrow: Escrow | None = None
    #: The settlement worked out from the game as read, for the save's own statement to apply
    #: (`save_only`).
    settle: SaveSettles | None = None
    _taken: list[tuple[Event, dict[str, Any]]] = field(default_factory=list)

    def add(self, *events: Event) -> None:
        self.events.extend(events)
        self.unqueued.extend(events)

    def take(self) -> list[dict[str, Any]]:
        """The unqueued events as outbox payloads; they count as queued from now on."""
        self._taken = [(event, encode_event(event)) for event in self.unqueued]
        self.unqueued.clear()
        return [payload for _, payload in self._taken]

    def queued(self, queued: Queued) -> None:
        """The events last taken were queued as ``queued`` (an id each, in order)."""
        if queued.ids and len(queued.ids) == len(self._taken):
            self.rows.append(Rows(queued, tuple(self._taken)))
        self._taken = []

    def queued_with(
        self, queued: Queued, events: Sequence[Event], payloads: Sequence[dict[str, Any]]
    ) -> None:
        """``events`` (as ``payloads``) were queued as ``queued`` by a transaction of their own
        (a settlement's), to be shown from memory like the save's."""
        if queued.ids and len(queued.ids) == len(events):
            self.rows.append(Rows(queued, tuple(zip(events, payloads, strict=True))))

    @property
    def settled(self) -> bool:
        return any(isinstance(event, ShowdownSettled) for event in self.events)


class PublisherLane:
    """The publisher's reader: a channel's rows shown together; a message Discord refuses for
    now is kept with the rows after it, and dropped after a day of refusals."""

    name = PUBLISHER
    #: The lock every earlier version took to publish: a process of the previous version still
    #: running never shows a channel's rows beside this one.
    lock = "outbox"

    def __init__(self, publisher: Publisher, clock: Callable[[], float]) -> None:
        self.publisher = publisher
        self.clock = clock
        #: Since when each channel's first queued message has failed.
        self._failing_since: dict[Key, float] = {}

    def wants(self, event: Event) -> bool:
        """Every event is shown (or sent to its player)."""
        return True

    async def take(
        self, key: Key, rows: Sequence[OutboxRow], known: Mapping[int, Event] | None = None
    ) -> tuple[int | None, Outcome]:
        """Show the rows' events (``known``: those already decoded, by row); the last row done
        with, and how it went."""
        decoded: list[tuple[int, Event]] = []
        for row in rows:
            event = None if known is None else known.get(row.id)
            if event is not None:
                decoded.append((row.id, event))
                continue
            try:
                decoded.append((row.id, decode_event(row.event)))
            except GameError:
                log.exception("dropped a damaged event of channel %s", key[1])
        try:
            await self.publisher.publish(key[0], key[1], tuple(e for _, e in decoded))
        except DeliveryError as error:
            return self._refused(key, error, rows, [row_id for row_id, _ in decoded])
        except Exception:
            # The table has changed and is saved: an event that cannot be shown (a picture
            # fails) must not turn a done action into an error for the player, nor come back.
            log.exception("could not show the events of channel %s", key[1])
        return rows[-1].id, Outcome.DONE

    def _refused(
        self, key: Key, error: DeliveryError, rows: Sequence[OutboxRow], ids: list[int]
    ) -> tuple[int | None, Outcome]:
        """Discord refused a message: keep it (and what follows), or drop it after a day."""
        now = self.clock()
        if error.shown > 0:
            self._failing_since.pop(key, None)  # the messages before it went out
        since = self._failing_since.setdefault(key, now)
        if now - since < GIVE_UP_S:
            log.warning("Discord refused an event of channel %s: %s", key[1], error)
            return _before(rows, ids[error.shown]), Outcome.LATER
        log.error(
            "Dropped %d event(s) of channel %s that Discord refused for %.0f hours: %s",
            error.upto - error.shown,
            key[1],
            (now - since) / 3600,
            error,
        )
        self._failing_since.pop(key, None)
        kept = ids[error.upto] if error.upto < len(ids) else None
        return (rows[-1].id if kept is None else _before(rows, kept)), Outcome.GAVE_UP

    def will_retry(self, key: Key, delay: float) -> None:
        """Each refusal is said, with when the channel's events are shown again."""
        log.warning("the events of channel %s will be shown again in %.0f s", key[1], delay)

    def recovered(self, key: Key) -> None:
        """The channel's first queued message went out."""
        self._failing_since.pop(key, None)

    def followed(self, key: Key) -> list[Rows]:
        """The publisher queues nothing of its own."""
        return []


def _before(rows: Sequence[OutboxRow], kept: int) -> int | None:
    """The last row before the row ``kept`` (None: it is the first)."""
    earlier = [row.id for row in rows if row.id < kept]
    return earlier[-1] if earlier else None


class Outbox:
    """Hands a channel's queued events to every lane, oldest first, and forgets each row once
    every lane is past it.

    The lanes are the publisher's and one per subscriber, each with its own position in each
    channel, its own drainer and its own lock, so a slow or failing one holds back no other. In
    the background (the bot), an action only kicks its channel's drainers once it has committed
    and released the table: a click is answered while its DMs and pictures go out, and the
    next click at that table does not wait behind Discord or Pillow. One drainer per lane and
    channel keeps the order. Without the background (most tests) the action drains before it
    returns.

    A lane that fails for now (Discord refusing a message, `DeliveryError`; a subscriber
    raising) keeps its rows from the failing one on, and a timer tries them again, 5 s later and
    doubling up to 5 min while the failures last; a message Discord still refuses after a day is
    dropped with an error in the log, so that one message cannot hold its channel back for good.
    A subscriber is never skipped past an event: it is tried until it takes it.

    An action hands over the rows it queued (`after_commit`) with their events: a lane whose
    position is just before them, as it reads in the same statement that takes its lock, takes
    them from memory and reads nothing back. A lane that wants none of an action's events was
    moved past them by the action's own save (`passing`) and is not woken at all.
    """

    def __init__(
        self,
        queue: OutboxRepository,
        publisher: Publisher,
        *,
        subscribers: Sequence[Subscriber] = (),
        background: bool = True,
        lock: Locks | None = None,
        scheduler: Scheduler | None = None,
        clock: Callable[[], float] = time.time,
        health: StoreHealth | None = None,
    ) -> None:
        self.queue = queue
        #: Where a drain that failed because the store is away is counted, not logged.
        self.health = health or StoreHealth()
        self._publishing = PublisherLane(publisher, clock)
        self.lanes: tuple[Lane, ...] = (
            self._publishing,
            *(SubscriberLane(subscriber, queue, self.health) for subscriber in subscribers),
        )
        names = [lane.name for lane in self.lanes]
        if len(set(names)) != len(names):
            raise ValueError(f"Two subscribers share a name: {names}.")
        for lane in self.lanes:
            if isinstance(lane, SubscriberLane):
                lane.passing = self.passing
        self.background = background
        self.scheduler: Scheduler = scheduler or AsyncioScheduler()
        self._drainers: dict[LaneKey, asyncio.Task[None]] = {}
        #: One reader of a lane's rows of a channel at a time, whoever starts it (in any process
        #: of the bot, with the store's lock), so a row is taken once and in order.
        self._lock = lock or _local_locks()
        #: The subscribers' turns under way, at most `FEATURE_TURNS` (see there).
        self._features = asyncio.Semaphore(FEATURE_TURNS)
        #: Lanes committed to again while their drainer was running: it goes round once more.
        self._again: set[LaneKey] = set()
        #: Lanes whose first row failed: the timer that tries again and the failed tries in a
        #: row (for the back-off).
        self._retries: dict[LaneKey, Timer] = {}
        self._failures: dict[LaneKey, int] = {}
        #: Shutting down: a failure now arms no retry (the next start takes what is queued).
        self._closed = False
        #: Rows committed here and not yet taken, per lane and channel, in commit order.
        self._memory: dict[LaneKey, list[Rows]] = {}
        #: Lanes with rows committed that memory does not hold (an action that failed after a
        #: part of it committed, a retry's): their next turn reads the store.
        self._unknown: set[LaneKey] = set()

    @property
    def publisher(self) -> Publisher:
        """Where the events are shown."""
        return self._publishing.publisher

    @publisher.setter
    def publisher(self, publisher: Publisher) -> None:
        self._publishing.publisher = publisher

    def passing(self, events: Sequence[Event]) -> list[str]:
        """The lanes that want none of ``events``: the save that queues them may move those
        lanes past them (`storage.outbox.pass_by`)."""
        return [lane.name for lane in self.lanes if not any(map(lane.wants, events))]

    async def after_commit(self, key: Key, rows: Sequence[Rows] = ()) -> None:
        """An action at the channel committed (and released the table): hand its events on.

        ``rows``: what it queued, all committed. Without them (an action that failed after a
        part of it committed, a restart) every lane reads what is queued.
        """
        kicked: list[Lane] = []
        for lane in self.lanes:
            mine = [each for each in rows if lane.name not in each.queued.passed]
            if rows and not mine:
                continue  # moved past them already: nothing to take
            if mine:
                self._memory.setdefault((lane.name, key), []).extend(mine)
            else:
                # Whatever turn takes this kick reads the store, even one that finds rows in
                # memory: a turn started before this commit may have taken the kick's place.
                self._unknown.add((lane.name, key))
            kicked.append(lane)
        # Every lane's memory first: a lane that answers (and hands its answers on) before
        # a later lane's turn must find that lane holding these rows too.
        for lane in kicked:
            await self._kick(lane, key)

    async def _kick(self, lane: Lane, key: Key) -> None:
        at = (lane.name, key)
        if at in self._retries:
            return  # backing off: the retry takes these behind the row that failed
        if not self.background:
            await self._drain_lane(lane, key)
            return
        running = self._drainers.get(at)
        if running is not None and not running.done():
            self._again.add(at)
            return
        self._drainers[at] = asyncio.get_running_loop().create_task(self._drain_loop(lane, key))

    async def _drain_loop(self, lane: Lane, key: Key) -> None:
        at = (lane.name, key)
        while True:
            self._again.discard(at)
            await self._drain_lane(lane, key)
            # Backing off after a failure: the retry takes what was committed meanwhile.
            if at not in self._again or at in self._retries:
                self._drainers.pop(at, None)
                return

    async def flush(self) -> None:
        """Wait until every drainer has taken what was queued (tests; shutting down)."""
        while self._drainers:
            await asyncio.gather(*self._drainers.values(), return_exceptions=True)

    def close(self) -> None:
        """Call off the retries (what they would take stays queued for the next start)."""
        self._closed = True
        self._memory.clear()
        self._unknown.clear()
        for timer in self._retries.values():
            timer.cancel()
        self._retries.clear()

    async def drain(self, key: Key) -> None:
        """Hand the channel's queued events to every lane in order, then forget them."""
        for lane in self.lanes:
            self._unknown.add((lane.name, key))
            await self._drain_lane(lane, key)

    async def _drain_lane(self, lane: Lane, key: Key) -> None:
        at = (lane.name, key)
        if at not in self._unknown and not self._memory.get(at) and not self._closed:
            # Kicked with rows that an earlier turn took already (each kick brings its rows,
            # or marks the lane to read the store): nothing is left to take. (Closing forgets
            # what memory held: the turns still to come read the store.)
            return
        read = self.queue.position_read(lane.name, *key)
        # The features' lanes take turns (`FEATURE_TURNS` at once), their locks held apart from
        # the tables' (no player waits for them); the publisher's never waits.
        feature = lane is not self._publishing
        turn = self._features if feature else contextlib.nullcontext()
        try:
            async with turn, self._lock(lane.lock, key, read=read, background=feature) as held:
                await self._drain(lane, key, held)
        except Exception as error:
            # Taking the lock or letting it go failed (the store away): the rows stay queued
            # for the retry, the next action here or the next start.
            self._memory.pop((lane.name, key), None)
            log_failure(
                log, self.health, error, "could not take the queued events of channel %s", key[1]
            )
            self._retry_later(lane, key)
        followed = lane.followed(key)
        if followed:
            # The lane queued events of its own (committed, its lock let go): they go to
            # every lane that was not moved past them as they were queued, the publisher's
            # first, from memory.
            await self.after_commit(key, followed)

    async def _drain(self, lane: Lane, key: Key, held: Held) -> None:
        at = (lane.name, key)
        names = [each.name for each in self.lanes]
        position = held.value if held.read else None
        # Taken together, with no wait between: a commit after this turn's start kicks again.
        memory = self._memory.pop(at, [])
        if at in self._unknown:
            self._unknown.discard(at)
            memory = []  # its rows are in the store too
        outcome = Outcome.GAVE_UP
        done: int | None = None
        while outcome is Outcome.GAVE_UP:
            try:
                if not held.read:
                    position = (await self.queue.positions(*key)).get(lane.name)
                    held.read = True
                taking = _from_memory(key, memory, position or 0)
                memory = []  # a second round reads the store
                known: dict[int, Event] = {}
                if taking is None:
                    rows = await self.queue.pending(*key, subscriber=lane.name)
                else:
                    rows, known = taking
                if not rows:
                    outcome = Outcome.DONE
                    break
                last, outcome = await lane.take(key, rows, known)
                if last is not None:
                    done = position = last
                if outcome is Outcome.GAVE_UP:
                    # The next round reads past the row dropped.
                    await self.queue.advance(lane.name, *key, last or 0)
            except Exception as error:
                # The rows stay queued: the retry, the next action here or the next start
                # takes them.
                log_failure(
                    log,
                    self.health,
                    error,
                    "could not read or forget the queued events of channel %s",
                    key[1],
                )
                outcome = Outcome.LATER
                break
        # The position moved on, the rows every lane is past forgotten, the lock let go.
        await self.queue.done(lane.name, *key, position=done, subscribers=names, held=held)
        if outcome is Outcome.LATER:
            if done is not None:
                # Rows before the failing one went: its own failures count from now.
                self._failures.pop(at, None)
            self._retry_later(lane, key)
            return
        self._recovered(lane, key)

    def _retry_later(self, lane: Lane, key: Key) -> None:
        at = (lane.name, key)
        self._unknown.add(at)
        failures = self._failures[at] = self._failures.get(at, 0) + 1
        delay = backoff(failures)
        if not self.health.is_away:  # an outage is said once, by the store's health
            lane.will_retry(key, delay)
        self._cancel_retry(at)
        if not self._closed:
            self._retries[at] = self.scheduler.schedule(delay, lambda: self._retry(lane, key))

    async def _retry(self, lane: Lane, key: Key) -> None:
        self._retries.pop((lane.name, key), None)
        await self._kick(lane, key)

    def _recovered(self, lane: Lane, key: Key) -> None:
        """The lane took every row of the channel: the back-off starts over."""
        at = (lane.name, key)
        self._failures.pop(at, None)
        self._cancel_retry(at)
        lane.recovered(key)

    def _cancel_retry(self, at: LaneKey) -> None:
        timer = self._retries.pop(at, None)
        if timer is not None:
            timer.cancel()


def _from_memory(
    key: Key, memory: Sequence[Rows], position: int
) -> tuple[list[OutboxRow], dict[int, Event]] | None:
    """The rows past ``position`` that ``memory`` holds, with their events; None when a row
    before them is still pending (another process queued it, or an earlier try failed): then
    the store is read."""
    if not memory:
        return None
    rows: list[OutboxRow] = []
    known: dict[int, Event] = {}
    at = position
    for each in memory:
        if each.queued.ids[-1] <= at:
            continue  # taken already (by another process)
        if each.queued.previous > at:
            return None
        for row, event in each.outbox_rows(key, at):
            rows.append(row)
            known[row.id] = event
        at = each.queued.ids[-1]
    return rows, known


def _local_locks() -> Locks:
    """A lock per name and channel within this process."""
    locks: dict[LaneKey, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def lock(
        name: str, key: Key, *, read: LockRead | None = None, background: bool = False
    ) -> AsyncIterator[Held]:
        async with locks.setdefault((name, key), asyncio.Lock()):
            yield Held()

    return lock
