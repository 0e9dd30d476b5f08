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
from tables.events import Event

T = TypeVar("T")


def default_process_id() -> str:
    """This process's name among the bot's processes: host, process id and a random part (a
    restarted container may reuse both)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Publisher(Protocol):
    """Where a table's events go (the bot's cogs; a list in tests)."""

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        """Show the events in the channel (and the private ones to their player)."""


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
    #: One player's Suggest: it may wait behind the others, never they behind it.
    SUGGEST = 2


class Slots:
    """At most ``size`` jobs at once; a freed slot goes to the most urgent job waiting (first come,
    first served among equals). Jobs are handed to the workers only once they hold a slot, so a
    worker pool's own first-in-first-out queue never puts a suggestion before a settlement."""

    def __init__(self, size: int) -> None:
        self.free = size
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def taken(self, priority: Priority) -> AsyncIterator[None]:
        """Hold a slot for the block, waiting for one if none is free."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
        else:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (int(priority), next(self._order), ready))
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._release()  # the slot was handed over as the job gave up
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        while self._waiting:
            _, _, ready = heapq.heappop(self._waiting)
            if not ready.done():  # a cancelled waiter is simply skipped
                ready.set_result(None)
                return
        self.free += 1


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
            raise GameError("The bot is restarting; try again in a moment.")
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
        self, work: Callable[..., T], /, *args: Any, priority: Priority = Priority.SUGGEST
    ) -> T:
        """``work(*args)``, computed elsewhere, urgent work first."""


class ThreadOffload:
    """CPU work in the loop's default thread pool: simple, but it shares the GIL with the loop."""

    def __init__(self, workers: int = 4) -> None:
        self.slots = Slots(workers)

    async def __call__(
        self, work: Callable[..., T], /, *args: Any, priority: Priority = Priority.SUGGEST
    ) -> T:
        """``work(*args)`` in a thread."""
        async with self.slots.taken(priority):
            return await asyncio.to_thread(work, *args)

    def close(self) -> None:
        """Nothing to release."""


class ProcessOffload:
    """CPU work in worker processes: the solver never holds the loop's GIL (the bot's choice)."""

    def __init__(self, workers: int | None = None) -> None:
        # spawn: a forked child would inherit the database connection's thread and locks.
        context = multiprocessing.get_context("spawn")
        self.workers = workers or os.cpu_count() or 1
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_ignore_interrupts
        )
        self.slots = Slots(self.workers)

    async def start(self, warm_up: Callable[[], object] | None = None) -> None:
        """Start every worker now (starting one blocks the caller) and let each load its tables."""
        work = warm_up or _nothing
        loop = asyncio.get_running_loop()
        with _children_ignore_interrupts():
            started = [loop.run_in_executor(self.pool, work) for _ in range(2 * self.workers)]
        await asyncio.gather(*started)

    async def __call__(
        self, work: Callable[..., T], /, *args: Any, priority: Priority = Priority.SUGGEST
    ) -> T:
        """``work(*args)`` in a worker process (``work`` must be a module-level function)."""
        async with self.slots.taken(priority):
            with _children_ignore_interrupts():
                running = asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
            return await running

    def close(self) -> None:
        """Stop the workers."""
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
