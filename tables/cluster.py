"""One process among the bot's processes: it fires the deadlines nobody else fired and says that
it is alive.

Each process fires the deadlines of the tables it acted on with its own timers (each claims its
deadline's row first, so one of them does the work). A deadline still unclaimed a few seconds
after it fell due belongs to a process that died, or to a table no live process has touched
since it started: every process polls for those and claims them (``SKIP LOCKED`` on
PostgreSQL), and whichever claims one fires it. With SQLite the same loop runs in the one
process there is, catching what its own timers missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Sequence
from typing import TYPE_CHECKING

from storage.health import log_failure
from tables.deadlines import CLAIM_LEASE_S

if TYPE_CHECKING:
    from tables.manager import TableManager

log = logging.getLogger(__name__)

#: How often a process looks for deadlines nobody fired, and how late one must be to count.
POLL_S = 1.0
OVERDUE_S = 3.0
#: How often a process says it is alive, and how long a silent one is still listed.
HEARTBEAT_S = 10.0
ALIVE_S = 45.0


class ClusterMember:
    """The background work of one process: the deadline watch and the heartbeat."""

    def __init__(
        self,
        manager: TableManager,
        *,
        shards: Sequence[int] = (),
        poll_s: float = POLL_S,
        overdue_s: float = OVERDUE_S,
    ) -> None:
        self.manager = manager
        self.poll_s = poll_s
        self.overdue_s = overdue_s
        self.storage = manager.storage
        self.health = manager.storage.database.health
        self.process_id = manager.deadlines.process_id
        self.shards = tuple(shards)
        self._task: asyncio.Task[None] | None = None
        self._firing: set[asyncio.Task[object]] = set()

    async def start(self, *, watch: bool = True) -> None:
        """Announce this process and, with ``watch``, start polling for overdue deadlines and
        beating (call once the tables are resumed).

        A process alone on its store (SQLite) needs no watch: it resumed every table with its
        timer, and its retries cover a firing that failed.
        """
        await self.beat()
        alive = await self.storage.processes.alive(within_s=ALIVE_S)
        log.info(
            "Process %s serves shard(s) %s; %d process(es) of the bot are alive.",
            self.process_id,
            ",".join(map(str, self.shards)) or "all",
            len(alive),
        )
        if watch:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def beat(self) -> None:
        """Say that this process is alive, and forget those silent for too long."""
        await self.storage.processes.announce(
            self.process_id, host=socket.gethostname(), pid=os.getpid(), shards=self.shards
        )
        await self.storage.processes.forget(silent_s=ALIVE_S * 20)

    async def fire_overdue(self) -> int:
        """Claim and fire the deadlines overdue by ``overdue_s``; how many were claimed."""
        claims = await self.storage.deadlines.claim_due(
            by=self.process_id,
            now=self.manager.clock(),
            lease_s=CLAIM_LEASE_S,
            overdue_s=self.overdue_s,
        )
        for claim in claims:
            # Fired as a timer fires it: a firing that fails is tried again.
            task = asyncio.get_running_loop().create_task(
                self.manager.deadlines.fire((claim.guild_id, claim.channel_id))
            )
            self._firing.add(task)
            task.add_done_callback(self._fired)
        return len(claims)

    def _fired(self, task: asyncio.Task[object]) -> None:
        self._firing.discard(task)
        error = None if task.cancelled() else task.exception()
        if error is not None:
            log_failure(log, self.health, error, "an overdue deadline failed")

    async def _run(self) -> None:
        since_beat = 0.0
        while True:
            await asyncio.sleep(self.poll_s)
            since_beat += self.poll_s
            try:
                await self.fire_overdue()
                if since_beat >= HEARTBEAT_S:
                    since_beat = 0.0
                    await self.beat()
            except Exception as error:
                # The store may be away for a while: its health says so once, not each second.
                log_failure(log, self.health, error, "the deadline watch failed")

    async def stop(self) -> None:
        """Stop watching, let the deadlines being fired finish, and leave the list of processes."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._firing:
            await asyncio.gather(*self._firing, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.storage.processes.leave(self.process_id)
