"""Each table's next deadline as a timer, and the retry of a table whose work failed.

A table has at most one timer: its phase's deadline, at once while its settlement is pending, or
a retry after a failure, backing off while the failure lasts. A timer fires the manager's
``expire``, which does whatever is due.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from storage.cluster import DeadlineRepository
from storage.health import StoreHealth, log_failure
from tables.phase import Phase
from tables.runtime import Scheduler, Timer
from tables.table import Table

log = logging.getLogger(__name__)

Key = tuple[int, int]
#: A failed deadline or settlement is tried again after this many seconds, doubling each time.
RETRY_FIRST_S = 5.0
RETRY_MAX_S = 300.0
#: How long a claimed deadline is left to its process: a firing that neither moved the table on
#: nor failed in this time (the process died) may be claimed by another.
CLAIM_LEASE_S = 60.0


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

    def arm(self, key: Key, table: Table) -> None:
        """The table's timer for its state now (replacing any other)."""
        self.cancel(key)
        now = self.clock()
        due = due_at(table, now)
        if due is not None:
            self._schedule(key, max(0.0, due - now), claim=True)

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
        if not due:
            return
        self.cancel(key)
        failures = self._failures[key] = self._failures.get(key, 0) + 1
        delay = min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (failures - 1))
        log.warning("table in channel %s will try again in %.0f s", key[1], delay)
        # Not claimed: a settlement that committed before a failed save has moved no deadline.
        self._schedule(key, delay, claim=False)

    def close(self) -> None:
        """Call off every timer (the tables stay saved for the next start)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _schedule(self, key: Key, delay: float, *, claim: bool) -> None:
        async def fire() -> None:
            self._timers.pop(key, None)
            try:
                if claim and not await self._claim(key):
                    return  # not due any more, or another process is firing it
                await self.expire(*key)
            except Exception as error:
                # A timer has nobody to answer: log it; the failed action armed a retry.
                log_failure(
                    log, self.health, error, "deadline of the table in channel %s failed", key[1]
                )

        self._timers[key] = self.scheduler.schedule(delay, fire)

    async def _claim(self, key: Key) -> bool:
        if self.claims is None:
            return True
        claim = await self.claims.claim(
            *key, by=self.process_id, now=self.clock(), lease_s=CLAIM_LEASE_S
        )
        return claim is not None
