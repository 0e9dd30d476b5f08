"""PostgreSQL goes away and comes back: the bot says so once each way, not once a second."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import urllib.parse
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tables.cluster import ClusterMember
from tests.tables.helpers import World

pytestmark = pytest.mark.slow

#: How many rounds of the deadline watch fail while the database is away.
FAILED_ROUNDS = 8


class Cable:
    """A TCP relay between the bot and its PostgreSQL server that the test can unplug: every
    connection through it drops, and new ones are hung up on, until it is plugged back."""

    def __init__(self, url: str) -> None:
        self.target = urllib.parse.urlsplit(url)
        self.plugged = True
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._connect, "127.0.0.1", 0)

    @property
    def url(self) -> str:
        """The database's URL through the relay."""
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        user = self.target.netloc.rsplit("@", 1)[0]
        return self.target._replace(netloc=f"{user}@127.0.0.1:{port}").geturl()

    def unplug(self) -> None:
        self.plugged = False
        for writer in list(self._writers):
            writer.close()

    def plug(self) -> None:
        self.plugged = True

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.plugged:
            writer.close()
            return
        host, port = self.target.hostname, self.target.port
        server_reader, server_writer = await asyncio.open_connection(host, port)
        self._writers |= {writer, server_writer}
        await asyncio.gather(self._pipe(reader, server_writer), self._pipe(server_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
            self._writers.discard(writer)

    async def close(self) -> None:
        self.unplug()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


@pytest.fixture
async def cable(postgres_url: str) -> AsyncIterator[Cable]:
    relay = Cable(postgres_url)
    await relay.start()
    yield relay
    await relay.close()


class Rounds:
    """Counts the deadline watch's rounds, and lets a test wait for a number of them."""

    def __init__(self, claim_due: Any) -> None:
        self.claim_due = claim_due
        self.failed = 0
        self.succeeded = 0
        self.changed = asyncio.Event()

    async def __call__(self, **kwargs: Any) -> Any:
        try:
            claims = await self.claim_due(**kwargs)
        except Exception:
            self.failed += 1
            raise
        else:
            self.succeeded += 1
            return claims
        finally:
            self.changed.set()

    async def until(self, done: Any) -> None:
        async with asyncio.timeout(60):  # a liveness limit, not a timing assertion
            while not done():
                self.changed.clear()
                await self.changed.wait()


async def test_a_database_outage_is_logged_once_when_it_goes_and_once_when_it_is_back(
    cable: Cable, caplog: pytest.LogCaptureFixture
) -> None:
    world = await World.open(cable.url)
    member = ClusterMember(world.manager, poll_s=0.01)
    rounds = Rounds(world.storage.deadlines.claim_due)
    world.storage.deadlines.claim_due = rounds  # type: ignore[method-assign]
    try:
        await member.start()
        await rounds.until(lambda: rounds.succeeded >= 1)
        caplog.clear()
        caplog.set_level(logging.INFO)
        cable.unplug()
        await rounds.until(lambda: rounds.failed >= FAILED_ROUNDS)
        cable.plug()
        before = rounds.succeeded
        await rounds.until(lambda: rounds.succeeded > before)
        failed = rounds.failed
    finally:
        with contextlib.suppress(Exception):
            await member.stop()
        await world.close()
    records = [(r.levelno, r.getMessage(), r.exc_info) for r in caplog.records]
    assert [message for _, message, exc_info in records if exc_info] == [], "a traceback"
    assert [level for level, _, _ in records] == [logging.WARNING, logging.INFO], records
    went, came = records[0][1], records[1][1]
    assert re.fullmatch(
        r"The database cannot be reached \(.+\); actions on it fail until it is back\.", went
    ), went
    back = re.fullmatch(
        r"The database is back after [0-9.]+ s; (\d+) actions? on it failed meanwhile\.", came
    )
    assert back is not None, came
    assert int(back[1]) == failed
