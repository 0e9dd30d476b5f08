"""Each table's next deadline as a timer, and the retry of a table whose work failed.

A table has at most one timer: its phase's deadline, at once while its settlement is pending, or
a retry after a failure, backing off while the failure lasts. A timer fires the manager's
``expire``, which does whatever is due. No failure drops a due deadline: a claim that fails, or
that another process holds, is tried again, and a firing that fails is retried.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from enum import Enum

from storage.cluster import DeadlineRepository
from storage.health import StoreHealth, log_failure
from tables.phase import Phase
from tables.runtime import Scheduler, Timer, backoff
from tables.table import Table

log = logging.getLogger(__name__)

Key = tuple[int, int]
#: How long a claimed deadline is left to its process: a firing that neither moved the table on
#: nor failed in this time (the process died) may be claimed by another.
CLAIM_LEASE_S = 60.0


class Claiming(Enum):
    """What a timer does with the deadline's row before it fires."""

    #: Claim it, unless another process holds it (one of the processes does the work).
    CLAIM = "claim"
    #: Claim it whoever holds it: at start-up, a claim left by a process that died.
    TAKE_OVER = "take over"
    #: Fire without claiming (a retry, or the watch that claimed it already).
    NONE = "none"


def due_at(table: Table, now: float) -> float | None:
    """When the table next has work due: its phase's deadline, now if its settlement is pending,
    or None."""
    if table.phase is Phase.SETTLING:
        return now
    return table.deadline


class Deadlines:
    """The timers of every table (one each at most)."""

    def __init__(
        self,
        scheduler: Scheduler,
        clock: Callable[[], float],
        expire: Callable[[int, int], Awaitable[object]],
        *,
        claims: DeadlineRepository | None = None,
        process_id: str = "",
        health: StoreHealth | None = None,
    ) -> None:
        self.scheduler = scheduler
        self.clock = clock
        self.expire = expire
        #: The deadlines' rows: a timer fires only the deadline it claims, so of the processes
        #: that hold a timer for a table (each one that acted on it) one does the work.
        self.claims = claims
        self.process_id = process_id
        #: Where a firing that failed because the store is away is counted, not logged.
        self.health = health or StoreHealth()
        self._timers: dict[Key, Timer] = {}
        #: Failed attempts in a row per table, for the retry's back-off.
        self._failures: dict[Key, int] = {}
        #: Shutting down: a firing refused or failing now arms nothing (the next start fires it).
        self._closed = False

    def arm(self, key: Key, table: Table, *, starting: bool = False) -> None:
        """The table's timer for its state now (replacing any other).

        ``starting``: the process is starting up, so a deadline already due is taken over from
        whoever claimed it (the process that claimed it died before the work was done).
        """
        self.cancel(key)
        now = self.clock()
        due = due_at(table, now)
        if due is not None:
            claiming = Claiming.TAKE_OVER if starting and due <= now else Claiming.CLAIM
            self._schedule(key, max(0.0, due - now), claiming)

    def cancel(self, key: Key) -> None:
        """Call off the table's timer, if any."""
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()

    def succeeded(self, key: Key) -> None:
        """An action went through: the back-off starts over."""
        self._failures.pop(key, None)

    def retry(self, key: Key, table: Table, *, settled: bool) -> None:
        """After a failure, make sure a table with work due tries again (never a wedged table).

        ``table`` is as it was before the action. If its deadline has passed, its settlement is
        pending, or the failed action had already settled the game in the database, nothing else
        would ever move it: a timer tries again, backing off while the failure lasts.
        """
        if key in self._timers and not settled:
            return
        due = settled or table.phase is Phase.SETTLING or table.is_expired(self.clock())
        if due:
            # Not claimed: a settlement that committed before a failed save has moved no deadline.
            self._back_off(key, Claiming.NONE)

    def close(self) -> None:
        """Call off every timer (the tables stay saved for the next start)."""
        self._closed = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    async def fire(self, key: Key, claiming: Claiming = Claiming.NONE) -> None:
        """Claim the table's deadline as ``claiming`` says and do what is due; on a failure,
        make sure a timer tries again."""
        try:
            if claiming is not Claiming.NONE and not await self._claim(key, claiming):
                return
            await self.expire(*key)
        except Exception as error:
            # A timer has nobody to answer: log it. A failed action armed its retry; a claim or
            # a lock that failed before it did (the store away) gets one here.
            log_failure(
                log, self.health, error, "deadline of the table in channel %s failed", key[1]
            )
            if key not in self._timers:
                self._back_off(key, claiming)

    def _back_off(self, key: Key, claiming: Claiming) -> None:
        self.cancel(key)
        failures = self._failures[key] = self._failures.get(key, 0) + 1
        delay = backoff(failures)
        if not self.health.is_away:  # an outage is said once, by the store's health
            log.warning("table in channel %s will try again in %.0f s", key[1], delay)
        self._schedule(key, delay, claiming)

    def _schedule(self, key: Key, delay: float, claiming: Claiming) -> None:
        if self._closed:
            return

        async def fire() -> None:
            self._timers.pop(key, None)
            await self.fire(key, claiming)

        self._timers[key] = self.scheduler.schedule(delay, fire)

    async def _claim(self, key: Key, claiming: Claiming) -> bool:
        """Whether this process may fire the deadline now; if another process holds it, a timer
        tries again when that claim runs out (its process may have died)."""
        if self.claims is None:
            return True
        now = self.clock()
        claim = await self.claims.claim(
            *key,
            by=self.process_id,
            now=now,
            lease_s=CLAIM_LEASE_S,
            take_over=claiming is Claiming.TAKE_OVER,
        )
        if claim is not None:
            return True
        held_until = await self.claims.held_until(*key, now=now)
        if held_until is not None and key not in self._timers:
            self._schedule(key, max(0.0, held_until - now), Claiming.CLAIM)
        return False  # not due any more (the table moved on), or another process is firing it
