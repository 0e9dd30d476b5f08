"""Whether the store answers: one line when it goes away, one when it is back.

While a PostgreSQL server is away every action on it fails, and each background loop (the
deadline watch once a second, each table's timer, each channel's outbox) used to log its
failure with a traceback: a 20-second outage wrote 1,500 lines. The store reports each of its
calls here, and the loops report what they catch; an outage is then said once, when it begins,
and once when the store answers again, with how long it lasted and how many actions failed.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

#: Why an error means the store is away (a few words), or None when it is some other failure.
Diagnosis = Callable[[BaseException], str | None]
#: Set on an error once it is counted: the store's call and the loop that catches it both report
#: it. (An exception takes no weak reference, so it cannot be kept in a WeakSet.)
_COUNTED = "_store_health_counted"


def never_away(error: BaseException) -> str | None:
    """A store that cannot go away (a SQLite file): every error is a failure of its own."""
    return None


class StoreHealth:
    """Counts the actions that fail while the store is away, and says when it goes and returns."""

    def __init__(
        self, diagnose: Diagnosis = never_away, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.diagnose = diagnose
        self.clock = clock
        #: When the current outage began (None: the store answers).
        self.away_since: float | None = None
        #: Actions that failed in the current outage.
        self.failed = 0

    @property
    def is_away(self) -> bool:
        return self.away_since is not None

    def reason(self, error: BaseException) -> str | None:
        """Why ``error`` means the store is away, looking through what it was raised from."""
        seen: set[int] = set()
        current: BaseException | None = error
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            why = self.diagnose(current)
            if why is not None:
                return why
            current = current.__cause__ or current.__context__
        return None

    def report(self, error: BaseException) -> bool:
        """Note a failed action; whether it failed because the store is away (then it is
        counted, once, and the caller need not log it)."""
        why = self.reason(error)
        if why is None:
            return False
        if getattr(error, _COUNTED, False):
            return True
        # An exception with __slots__ takes no mark: counted again, at worst.
        with contextlib.suppress(AttributeError):
            setattr(error, _COUNTED, True)
        if self.away_since is None:
            self.away_since, self.failed = self.clock(), 0
            log.warning(
                "The database cannot be reached (%s); actions on it fail until it is back.", why
            )
        self.failed += 1
        return True

    def answered(self) -> None:
        """The store answered: if it was away, say that it is back."""
        if self.away_since is None:
            return
        lasted = self.clock() - self.away_since
        failed, self.away_since, self.failed = self.failed, None, 0
        log.info(
            "The database is back after %.1f s; %d action%s on it failed meanwhile.",
            lasted,
            failed,
            "" if failed == 1 else "s",
        )

    @contextmanager
    def watch(self) -> Iterator[None]:
        """Report the outcome of one call to the store: answered, or failed (and re-raised)."""
        try:
            yield
        except Exception as error:
            if not self.report(error):
                # Another failure (a constraint, the caller's own error): the store answered.
                self.answered()
            raise
        self.answered()


def log_failure(
    logger: logging.Logger,
    health: StoreHealth,
    error: BaseException,
    message: str,
    *args: object,
) -> None:
    """Log a background action's failure with its traceback, unless the store being away
    explains it: `StoreHealth` has said that once for the whole outage, and counts it."""
    if not health.report(error):
        logger.error(message, *args, exc_info=error)
