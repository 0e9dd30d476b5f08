"""Run ``python bot.py`` as its own process for the tests, its output in a file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from tests.process.fake_discord import GUILD_ID, FakeDiscord

REPO = Path(__file__).resolve().parents[2]
TOKEN = "fake-token.for-the-process-test"
#: A liveness limit, not a timing assertion: a step slower than this means the bot is stuck.
STEP_LIMIT = 60.0
#: How often a test looks at the bot's log while it waits for a line.
POLL_SECONDS = 0.02
T = TypeVar("T")


def bot_environment(fake: FakeDiscord, database: str | Path) -> dict[str, str]:
    """Every setting the bot reads, for a run against the fake; ``database`` is a SQLite file
    or a postgresql:// URL."""
    return endpoint_environment(fake.api_url, fake.gateway_url, database)


def endpoint_environment(api_url: str, gateway_url: str, database: str | Path) -> dict[str, str]:
    """Every setting the bot reads, for a run against these Discord addresses."""
    # All set explicitly: real environment variables win over a developer's own .env.
    return {
        **os.environ,
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_URL": str(database),
        "DEV_GUILD_ID": str(GUILD_ID),
        "DISCORD_API_URL": api_url,
        "DISCORD_GATEWAY_URL": gateway_url,
        "PYTHONUNBUFFERED": "1",
    }


class BotProcess:
    """The bot's process with its log in a file (a pipe nobody reads could fill and block it)."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    async def until(self, what: str, step: Awaitable[T], *, limit: float = STEP_LIMIT) -> T:
        """Await ``step``; fail, with the bot's log, if the bot exits or is stuck (for ``limit``
        seconds) first."""
        waiting = asyncio.ensure_future(step)
        exiting = asyncio.ensure_future(self.process.wait())
        try:
            done, _ = await asyncio.wait(
                {waiting, exiting}, timeout=limit, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in (waiting, exiting):
                task.cancel()
        if waiting in done:
            return waiting.result()
        ended = "exited" if exiting in done else "is stuck"
        raise AssertionError(f"the bot {ended} before {what}; its log:\n{self.text()}")

    async def logged(self, text: str) -> None:
        """Return once the bot's log holds ``text``; fail if the bot exits or is stuck first."""

        async def appears() -> None:
            while text not in self.text():
                await asyncio.sleep(POLL_SECONDS)

        await self.until(f"logging {text!r}", appears())

    async def exit_status(self) -> int:
        """The bot's exit status; fail, with its log, if it does not exit."""
        try:
            return await asyncio.wait_for(self.process.wait(), STEP_LIMIT)
        except TimeoutError:
            raise AssertionError(f"the bot did not exit; its log:\n{self.text()}") from None

    async def leftovers(self) -> bool:
        """Whether anything of the bot's process group still runs shortly after it exited."""
        # A worker's or the resource tracker's exit follows the bot's by a moment.
        for _ in range(int(5 / POLL_SECONDS)):
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                return False
            await asyncio.sleep(POLL_SECONDS)
        return True

    def stop_workers(self) -> list[int]:
        """Freeze (SIGSTOP) every process of the bot's group but the bot itself: its worker
        processes. The bot runs on, and any work it hands a worker (the solver, a settlement)
        waits until the group is killed. Linux only: it reads /proc."""
        stopped = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == self.process.pid:
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # gone meanwhile
            # "pid (name) state ppid pgrp ...": the name may hold spaces and parentheses.
            if int(stat.rsplit(")", 1)[1].split()[2]) == self.process.pid:
                os.kill(int(entry.name), signal.SIGSTOP)
                stopped.append(int(entry.name))
        return stopped

    def kill(self) -> None:
        """Kill whatever still runs in the bot's process group."""
        # Even after the bot has exited: one that died on the signal leaves its workers behind.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


async def start_bot(
    tmp_path: Path,
    environment: Mapping[str, str],
    *,
    name: str = "bot",
    arguments: Sequence[str] = (),
) -> BotProcess:
    """Run ``python bot.py [arguments]`` from the repository with this environment; its log is
    ``<name>.log`` in ``tmp_path``."""
    log = tmp_path / f"{name}.log"
    with log.open("wb") as output:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(REPO / "bot.py"),
            *arguments,
            cwd=REPO,
            env=dict(environment),
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            # Its own process group, so that a failed run can take the worker processes down too.
            start_new_session=True,
        )
    return BotProcess(process, log)
