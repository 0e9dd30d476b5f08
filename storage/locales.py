"""Each user's Discord locale, as their client last showed it: the language of the DMs the tables
send later, unasked (a phase's prompt, a closed table), when no interaction is there to say it.

Every interaction tells it (`remember`), so a cache in memory keeps what this process last saw
and wrote: an unchanged locale writes nothing, and a DM reads it without a query. Entries last
`TTL` seconds, so that a process sees within that time what another process of the bot wrote
(and writes again, once, what it saw long ago).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Final

from storage.database import Database, marks

#: How long a locale read or written stays trusted in memory (seconds).
TTL: Final = 3600.0
#: The users kept in memory at most (the least recently used go first).
LIMIT: Final = 100_000
#: Discord's locale codes are short ("en-US", "zh-CN"); anything longer is not one.
LOCALE_CHARS: Final = 16


class LocaleRepository:
    """Read and keep each user's last Discord locale (None: a user never seen)."""

    def __init__(
        self, database: Database, *, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.database = database
        self.monotonic = monotonic
        #: user id -> (locale or None, when it was read or written).
        self._known: OrderedDict[int, tuple[str | None, float]] = OrderedDict()

    def _cached(self, user_id: int) -> tuple[str | None] | None:
        """The locale this process knows for the user, if still trusted (a 1-tuple: the locale
        may be None, a user never seen)."""
        found = self._known.get(user_id)
        if found is None or self.monotonic() - found[1] > TTL:
            return None
        self._known.move_to_end(user_id)
        return (found[0],)

    def _keep(self, user_id: int, locale: str | None) -> None:
        self._known[user_id] = (locale, self.monotonic())
        self._known.move_to_end(user_id)
        while len(self._known) > LIMIT:
            self._known.popitem(last=False)

    async def remember(self, user_id: int, locale: str) -> bool:
        """The user's client shows ``locale`` now: keep it (nothing is written when this process
        already knows it). Whether it was written."""
        locale = locale[:LOCALE_CHARS]
        if self._cached(user_id) == (locale,):
            return False
        # Known at once, before the write: a DM sent meanwhile already reads it.
        self._keep(user_id, locale)
        try:
            await self.database.execute(
                "INSERT INTO user_locales (user_id, locale, updated) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale,"
                " updated = excluded.updated",
                (user_id, locale, self.database.now()),
            )
        except BaseException:
            self._known.pop(user_id, None)  # not kept: the next interaction tries again
            raise
        return True

    async def get(self, user_id: int) -> str | None:
        """The user's last locale, or None if the bot never saw them."""
        return (await self.many((user_id,)))[user_id]

    async def many(self, user_ids: Iterable[int]) -> dict[int, str | None]:
        """Each user's last locale (None: never seen); those not in memory in one query."""
        wanted = sorted(set(user_ids))
        found: dict[int, str | None] = {}
        missing = []
        for user_id in wanted:
            cached = self._cached(user_id)
            if cached is None:
                missing.append(user_id)
            else:
                found[user_id] = cached[0]
        if missing:
            rows = await self.database.fetchall(
                "SELECT user_id, locale FROM user_locales"
                f" WHERE user_id IN ({marks(len(missing))})",
                tuple(missing),
            )
            read: dict[int, str] = {row[0]: row[1] for row in rows}
            for user_id in missing:
                found[user_id] = read.get(user_id)
                self._keep(user_id, found[user_id])
        return found

    def forget(self) -> None:
        """Drop what this process keeps in memory (the store is read again)."""
        self._known.clear()
