"""L4: ``python bot.py`` as its own process, against a fake Discord on 127.0.0.1, end to end."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

from tests.l4.fake_discord import BOT_ID, CHANNEL_ID, GUILD_ID, PLAYER_ID, FakeDiscord

REPO = Path(__file__).resolve().parents[2]
TOKEN = "fake-token.for-the-process-test"
#: A liveness limit, not a timing assertion: a step slower than this means the bot is stuck.
STEP_LIMIT = 60.0
EPHEMERAL = 1 << 6
T = TypeVar("T")


def bot_environment(fake: FakeDiscord, database: Path) -> dict[str, str]:
    """Every setting the bot reads, for a run against the fake."""
    # All set explicitly: real environment variables win over a developer's own .env.
    return {
        **os.environ,
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_PATH": str(database),
        "DEV_GUILD_ID": str(GUILD_ID),
        "DISCORD_API_URL": fake.api_url,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "PYTHONUNBUFFERED": "1",
    }


class BotProcess:
    """The bot's process with its log in a file (a pipe nobody reads could fill and block it)."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    async def until(self, what: str, step: Awaitable[T]) -> T:
        """Await ``step``; fail, with the bot's log, if the bot exits or is stuck first."""
        waiting = asyncio.ensure_future(step)
        exiting = asyncio.ensure_future(self.process.wait())
        try:
            done, _ = await asyncio.wait(
                {waiting, exiting}, timeout=STEP_LIMIT, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in (waiting, exiting):
                task.cancel()
        if waiting in done:
            return waiting.result()
        ended = "exited" if exiting in done else "is stuck"
        raise AssertionError(f"the bot {ended} before {what}; its log:\n{self.text()}")

    async def exit_status(self) -> int:
        """The bot's exit status; fail, with its log, if it does not exit."""
        try:
            return await asyncio.wait_for(self.process.wait(), STEP_LIMIT)
        except TimeoutError:
            raise AssertionError(f"the bot did not exit; its log:\n{self.text()}") from None

    def kill(self) -> None:
        """Kill whatever still runs in the bot's process group."""
        # Even after the bot has exited: one that died on the signal leaves its workers behind.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


async def start_bot(fake: FakeDiscord, tmp_path: Path) -> BotProcess:
    """Run ``python bot.py`` from the repository, pointed at the fake, with a temp database."""
    log = tmp_path / "bot.log"
    with log.open("wb") as output:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(REPO / "bot.py"),
            cwd=REPO,
            env=bot_environment(fake, tmp_path / "pyramid.sqlite3"),
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            # Its own process group, so that a failed run can take the worker processes down too.
            start_new_session=True,
        )
    return BotProcess(process, log)


async def test_bot_process_logs_in_syncs_opens_a_table_and_shuts_down_on_sigterm(
    tmp_path: Path,
) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    bot: BotProcess | None = None
    try:
        bot = await start_bot(fake, tmp_path)

        await bot.until("identifying", fake.wait_for(lambda f: f.identify is not None))
        login = fake.find("GET", "/users/@me")
        assert login is not None and login.authorization == f"Bot {TOKEN}"
        assert fake.identify is not None and fake.identify["token"] == TOKEN
        assert fake.heartbeats >= 1, "discord.py beats as soon as the gateway says hello"

        sync = fake.find("PUT", f"/applications/{BOT_ID}/guilds/{GUILD_ID}/commands")
        assert sync is not None, "the commands were not synced to the development server"
        table = next(c for c in fake.commands[GUILD_ID] if c["name"] == "table")
        assert "create" in {option["name"] for option in table["options"]}

        sent = await bot.until("answering /table create", fake.table_create("showdown"))
        # Deferred at once (Discord allows 3 s), answered only to the player.
        assert sent.callback.payload["type"] == 5
        assert sent.callback.payload["data"]["flags"] & EPHEMERAL

        lobby = await bot.until(
            "posting the lobby", fake.wait_for_call("POST", f"/channels/{CHANNEL_ID}/messages")
        )
        assert "Showdown Version" in lobby.payload["content"]
        assert f"host <@{PLAYER_ID}>" in lobby.payload["content"]
        buttons = [b["custom_id"] for row in lobby.payload["components"] for b in row["components"]]
        assert buttons == ["pp:lobby:join", "pp:lobby:leave", "pp:lobby:start"]

        answer = await bot.until(
            "answering the player",
            fake.wait_for_call("PATCH", f"/webhooks/{BOT_ID}/{sent.token}/messages/@original"),
        )
        assert answer.payload["content"] == "You opened a Showdown Version table here."
        assert fake.unknown_calls() == []

        bot.process.send_signal(signal.SIGTERM)
        status = await bot.exit_status()
    finally:
        if bot is not None:
            bot.kill()
            await bot.process.wait()
        await fake.close()

    log = bot.text()
    assert status == 0, f"exit status {status}; the bot's log:\n{log}"
    assert "Shut down cleanly" in log, log
    assert "Traceback" not in log, log
    assert (tmp_path / "pyramid.sqlite3").is_file()
