"""What the tables run on: a publisher for their events, timers for deadlines, workers for CPU
work (the solver, settlements), each behind a small protocol so tests can put fakes there, and
the count of actions under way that shutting down waits for."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import multiprocessing
import os
import secrets
import signal
import socket
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from enum import IntEnum
from typing import Any, Protocol, TypeVar

from engine.errors import GameError
from engine.text import tr
from tables.events import Event

T = TypeVar("T")

#: The store's lock of a channel's table (`Database.lock`): one action at a table at a time, in
#: every process; a subscriber's events queued behind the table's take it too.
TABLE_LOCK = "table"


def default_process_id() -> str:
    """This process's name among the bot's processes: host, process id and a random part (a
    restarted container may reuse both)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


#: Work that failed (a deadline, a claim, a publication Discord refused) is tried again after
#: this many seconds, doubling while it keeps failing, up to the second figure.
RETRY_FIRST_S = 5.0
RETRY_MAX_S = 300.0
#: What an action the bot's closing refused says (the next start takes it).
RESTARTING = tr("The bot is restarting; try again in a moment.")


def backoff(failures: int) -> float:
    """Seconds to wait after ``failures`` failed tries in a row: 5 s, doubling, at most 5 min."""
    return min(RETRY_MAX_S, RETRY_FIRST_S * 2.0 ** max(0, failures - 1))


class DeliveryError(Exception):
    """Discord would not take a message for now (it failed, kept limiting the bot, or could not
    be reached): the events from ``shown`` on stay queued and are shown again later.

    ``events[:shown]`` were shown; ``events[shown:upto]`` are the message that failed, which is
    dropped only if it keeps failing for a day (`tables.outbox.GIVE_UP_S`).
    """

    def __init__(self, reason: str, *, shown: int, upto: int) -> None:
        super().__init__(reason)
        self.shown = shown
        self.upto = upto


class Publisher(Protocol):
    """Where a table's events go (the bot's cogs; a list in tests)."""

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        """Show the events in the channel (and the private ones to their player).

        Raises `DeliveryError` when Discord refused them for now; any other exception is a
        fault of the events' own (a picture that cannot be drawn), and they are dropped.
        """


class Timer(Protocol):
    """A scheduled callback that can be called off."""

    def cancel(self) -> bool:
        """Call it off; True if it had not run yet."""


class Scheduler(Protocol):
    """Runs a callback after a delay (deadlines are cancellable timers, never bare waits)."""

    def schedule(self, delay: float, callback: Callable[[], Awaitable[None]]) -> Timer:
        """Run ``callback`` after ``delay`` seconds."""


class AsyncioScheduler:
    """Deadlines as tasks sleeping on the running loop (virtual time in simcord follows them)."""

    def schedule(self, delay: float, callback: Callable[[], Awaitable[None]]) -> Timer:
        """A task that sleeps ``delay`` seconds and then runs ``callback``."""

        async def fire() -> None:
            await asyncio.sleep(max(0.0, delay))
            await callback()

        return asyncio.get_running_loop().create_task(fire())


class Priority(IntEnum):
    """Which CPU work goes first when every worker is busy (the lowest first)."""

    #: A settlement: every player at the table waits for the showdown.
    SETTLE = 0
    #: The hands the table sets for a silent player at the deadline (a settlement follows).
    DEADLINE = 1
    #: A first answer to a Suggest pressed before its suggestion is made: milliseconds of work
    #: that a player is waiting for, so it may take a worker kept from suggestions.
    FIRST = 2
    #: One player's Suggest: it may wait behind the others, never they behind it.
    SUGGEST = 3
    #: A suggestion made before anyone asks, as a phase opens (the nearest deadline first):
    #: asked for, it is answered at once with a first answer until this one is ready.
    PREPARE = 4


class Slots:
    """At most ``size`` jobs at once; a freed slot goes to the most urgent job waiting (first come,
    first served among equals). Jobs are handed to the workers only once they hold a slot, so a
    worker pool's own first-in-first-out queue never puts a suggestion before a settlement.

    ``kept`` slots are never a suggestion's: priority only orders the jobs waiting, and a
    Showdown suggestion runs up to 1.5 s once started, so a pool full of suggestions would keep
    a settlement (and every player at its table) waiting that long.
    """

    def __init__(self, size: int, *, kept: int = 0) -> None:
        if not 0 <= kept < size:
            raise ValueError(f"{kept} slots kept of {size} leaves suggestions none.")
        self.size = size
        self.kept = kept
        self._busy = 0
        self._suggesting = 0
        self._preparing = 0
        #: Suggestions made before anyone asks take one worker fewer than suggestions may (one
        #: at least): the CPU left draws the pictures and answers the players who ask.
        self.preparing_at_most = max(1, size - kept - 1)
        self._waiting: list[tuple[int, float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def free(self) -> int:
        """Slots no job holds."""
        return self.size - self._busy

    @contextlib.asynccontextmanager
    async def taken(self, priority: Priority, urgency: float = 0.0) -> AsyncIterator[None]:
        """Hold a slot for the block, waiting for one if none is free to this job; among jobs of
        one priority the lowest ``urgency`` (a deadline) goes first, then the first come."""
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(priority), urgency, next(self._order), ready))
        self._hand_out()
        try:
            await ready
        except asyncio.CancelledError:
            if ready.done() and not ready.cancelled():
                self._release(priority)  # the slot was handed over as the job gave up
            raise
        try:
            yield
        finally:
            self._release(priority)

    def _hand_out(self) -> None:
        """Give free slots to the most urgent jobs waiting that may take one."""
        while self._waiting and self._busy < self.size:
            priority, _, _, ready = self._waiting[0]
            if ready.done():  # a cancelled waiter is simply skipped
                heapq.heappop(self._waiting)
                continue
            if priority >= Priority.SUGGEST and self._suggesting >= self.size - self.kept:
                return  # the rest are suggestions too: the slots left are kept
            if priority == Priority.PREPARE and self._preparing >= self.preparing_at_most:
                return  # the rest are prepared too
            heapq.heappop(self._waiting)
            self._busy += 1
            self._suggesting += priority >= Priority.SUGGEST
            self._preparing += priority == Priority.PREPARE
            ready.set_result(None)

    def _release(self, priority: Priority) -> None:
        self._busy -= 1
        self._suggesting -= priority >= Priority.SUGGEST
        self._preparing -= priority == Priority.PREPARE
        self._hand_out()


class Activity:
    """The actions under way, counted so that closing waits for them; none starts once closing."""

    def __init__(self) -> None:
        self.closing = False
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Count the block as an action under way; refused once closing has begun."""
        if self.closing:
            raise GameError(RESTARTING)
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def idle(self) -> None:
        """Wait until no action is under way."""
        await self._idle.wait()


class Offload(Protocol):
    """Runs CPU work (the solver, a settlement) away from the event loop and awaits its result."""

    async def __call__(
        self,
        work: Callable[..., T],
        /,
        *args: Any,
        priority: Priority = Priority.SUGGEST,
        urgency: float = 0.0,
    ) -> T:
        """``work(*args)``, computed elsewhere, urgent work first (``urgency``, a deadline,
        orders the jobs of one priority)."""


#: Workers beyond those suggestions may use, kept for settlements and deadlines.
KEPT_WORKERS = 1


class ThreadOffload:
    """CPU work in the loop's default thread pool: simple, but it shares the GIL with the loop."""

    def __init__(self, workers: int = 4, *, kept: int = KEPT_WORKERS) -> None:
        self.slots = Slots(workers + kept, kept=kept)

    async def __call__(
        self,
        work: Callable[..., T],
        /,
        *args: Any,
        priority: Priority = Priority.SUGGEST,
        urgency: float = 0.0,
    ) -> T:
        """``work(*args)`` in a thread."""
        async with self.slots.taken(priority, urgency):
            return await asyncio.to_thread(work, *args)

    def close(self) -> None:
        """Nothing to release."""


class ProcessOffload:
    """CPU work in worker processes: the solver never holds the loop's GIL (the bot's choice).

    ``workers`` processes for any work and ``kept`` more that a suggestion never takes, so a
    settlement or a deadline finds one at once when suggestions fill the others. A kept worker
    is idle but for that work (a settlement is tens of milliseconds), so it costs a process's
    memory, not a core.
    """

    def __init__(self, workers: int | None = None, *, kept: int = KEPT_WORKERS) -> None:
        # spawn: a forked child would inherit the database connection's thread and locks.
        context = multiprocessing.get_context("spawn")
        self.workers = workers or os.cpu_count() or 1
        self.kept = kept
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers + kept, mp_context=context, initializer=_ignore_interrupts
        )
        self.slots = Slots(self.workers + kept, kept=kept)
        self.closed = False

    async def start(self, warm_up: Callable[[], object] | None = None) -> None:
        """Start every worker now (starting one blocks the caller) and let each load its tables."""
        work = warm_up or _nothing
        loop = asyncio.get_running_loop()
        with _children_ignore_interrupts():
            count = 2 * (self.workers + self.kept)
            started = [loop.run_in_executor(self.pool, work) for _ in range(count)]
        await asyncio.gather(*started)

    async def __call__(
        self,
        work: Callable[..., T],
        /,
        *args: Any,
        priority: Priority = Priority.SUGGEST,
        urgency: float = 0.0,
    ) -> T:
        """``work(*args)`` in a worker process (``work`` must be a module-level function).
        Once the workers are stopped (the bot is closing), a `GameError` says so."""
        async with self.slots.taken(priority, urgency):
            if self.closed:
                raise GameError(RESTARTING)
            with _children_ignore_interrupts():
                running = asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
            return await running

    def close(self) -> None:
        """Stop the workers."""
        self.closed = True
        self.pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _children_ignore_interrupts() -> Iterator[None]:
    """Workers the pool starts in the block ignore SIGINT from their first instruction.

    A spawned worker imports the bot's main module before its initializer runs; a Ctrl-C in
    that second printed a KeyboardInterrupt traceback. An ignored signal stays ignored across
    exec, so the pool's submit (which starts the workers it lacks) runs with SIGINT ignored here
    for that moment, and the bot's own handler is put back at once.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may change a handler, and the bot's loop runs there
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C (SIGINT to the whole process group) to the bot, which stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _nothing() -> None:
    """A task that only proves a worker is up."""
