"""How ``python bot.py`` ends when stopped or unable to start: one sentence, no traceback."""

from __future__ import annotations

import os
import signal
import socket
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from tests.postgres import guest_database
from tests.process.bot_process import (
    TOKEN,
    BotProcess,
    bot_environment,
    endpoint_environment,
    start_bot,
)
from tests.process.fake_discord import BOT_ID, GUILD_ID, FakeDiscord

# Each test starts the bot as its own process; tests/test_bot.py is the quick check of bot.py.
pytestmark = pytest.mark.slow

EXIT_BAD_SETTINGS = 2
EXIT_UNREACHABLE = 1
APPLICATION = "/oauth2/applications/@me"
SYNC = f"/applications/{BOT_ID}/guilds/{GUILD_ID}/commands"
#: Where one start-up step is under way: the fake holds a request, or the bot logs a line.
Moment = Callable[[FakeDiscord, BotProcess], Awaitable[None]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    yield fake
    await fake.close()


def under_a_file(tmp_path: Path) -> Path:
    (tmp_path / "data").write_text("not a folder")
    return tmp_path / "data" / "pyramid.sqlite3"


def a_folder(tmp_path: Path) -> Path:
    (tmp_path / "pyramid.sqlite3").mkdir()
    return tmp_path / "pyramid.sqlite3"


def not_a_database(tmp_path: Path) -> Path:
    (tmp_path / "pyramid.sqlite3").write_bytes(b"chips? " * 1000)
    return tmp_path / "pyramid.sqlite3"


@pytest.mark.parametrize("database", [under_a_file, a_folder, not_a_database])
async def test_a_database_that_cannot_be_opened_ends_the_bot_with_one_sentence(
    fake: FakeDiscord, tmp_path: Path, database: Callable[[Path], Path]
) -> None:
    path = database(tmp_path)
    bot = await start_bot(tmp_path, bot_environment(fake, path))
    try:
        status = await bot.exit_status()
    finally:
        bot.kill()
    log = bot.text()
    assert status == EXIT_BAD_SETTINGS, log
    assert "Traceback" not in log, log
    last = log.strip().splitlines()[-1]
    assert last.startswith(f"Cannot open or create the database {path}"), log
    assert last.endswith("check DATABASE_URL and that the bot may write its folder."), log


@pytest.fixture
async def guest_url(postgres_server: str) -> AsyncIterator[str]:
    """A role that may connect to a new database but create nothing in its schema."""
    async with guest_database(postgres_server, f"pp_startup_guest_{os.getpid()}") as url:
        yield url


async def test_a_role_without_create_on_the_schema_ends_the_bot_with_one_sentence(
    fake: FakeDiscord, tmp_path: Path, guest_url: str
) -> None:
    bot = await start_bot(tmp_path, bot_environment(fake, guest_url))
    try:
        status = await bot.exit_status()
    finally:
        bot.kill()
    log = bot.text()
    assert status == EXIT_BAD_SETTINGS, log
    assert "Traceback" not in log, log
    role = urllib.parse.urlsplit(guest_url).username
    assert log.strip().splitlines()[-1] == (
        f"The database role {role} may not create or change the bot's tables (permission denied "
        "for schema public); grant it CREATE on the schema, or start the bot once as a role "
        "that may."
    ), log


async def first_log_line(fake: FakeDiscord, bot: BotProcess) -> None:
    await bot.logged("Settings loaded")


async def logging_in(fake: FakeDiscord, bot: BotProcess) -> None:
    await bot.until("logging in", fake.wait_for_call("GET", "/users/@me"))


async def set_up_begins(fake: FakeDiscord, bot: BotProcess) -> None:
    # Login ends with this request; setup_hook (loading tables, starting workers) follows it.
    await bot.until("asking for the application", fake.wait_for_call("GET", APPLICATION))


async def workers_start(fake: FakeDiscord, bot: BotProcess) -> None:
    await bot.logged("worker processes")


async def syncing_commands(fake: FakeDiscord, bot: BotProcess) -> None:
    await bot.until("syncing the commands", fake.wait_for_call("PUT", SYNC))


HELD = {logging_in: ("GET", "/users/@me"), syncing_commands: ("PUT", SYNC)}


@pytest.mark.parametrize(
    "moment", [first_log_line, logging_in, set_up_begins, workers_start, syncing_commands]
)
async def test_sigterm_during_start_up_shuts_down_cleanly_with_status_0(
    fake: FakeDiscord, tmp_path: Path, moment: Moment
) -> None:
    if moment in HELD:
        fake.hold(*HELD[moment])
    bot = await start_bot(tmp_path, bot_environment(fake, tmp_path / "pyramid.sqlite3"))
    try:
        await moment(fake, bot)
        bot.process.send_signal(signal.SIGTERM)
        status = await bot.exit_status()
        left_behind = await bot.leftovers()
    finally:
        bot.kill()
    log = bot.text()
    assert status == 0, f"exit status {status}; the bot's log:\n{log}"
    assert "Traceback" not in log and " ERROR " not in log, log
    assert log.strip().splitlines()[-1].endswith("Shut down cleanly."), log
    assert not left_behind, f"worker processes outlived the bot; its log:\n{log}"


def closed_port() -> int:
    """A port of 127.0.0.1 where nothing listens (it was just bound and let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("reachable_api", [False, True], ids=["no network", "no gateway"])
async def test_unreachable_discord_ends_the_bot_with_one_sentence(
    fake: FakeDiscord, tmp_path: Path, reachable_api: bool
) -> None:
    port = closed_port()
    api = fake.api_url if reachable_api else f"http://127.0.0.1:{port}/api/v10"
    gateway = f"ws://127.0.0.1:{port}/gateway"
    bot = await start_bot(
        tmp_path, endpoint_environment(api, gateway, tmp_path / "pyramid.sqlite3")
    )
    try:
        status = await bot.exit_status()
        left_behind = await bot.leftovers()
    finally:
        bot.kill()
    log = bot.text()
    unreachable = f"{gateway}/" if reachable_api else api
    assert status == EXIT_UNREACHABLE, log
    assert "Traceback" not in log, log
    assert log.strip().splitlines()[-1] == (
        f"Could not reach Discord at {unreachable} (connection refused); check the network."
    ), log
    assert not left_behind, log


async def test_ctrl_c_in_a_terminal_stops_the_bot_and_its_workers_without_a_traceback(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = await start_bot(tmp_path, bot_environment(fake, tmp_path / "pyramid.sqlite3"))
    try:
        await bot.until("identifying", fake.wait_for(lambda f: f.identify is not None))
        # A terminal sends SIGINT to the whole foreground process group, workers included.
        os.killpg(bot.process.pid, signal.SIGINT)
        status = await bot.exit_status()
        left_behind = await bot.leftovers()
    finally:
        bot.kill()
    log = bot.text()
    assert status == 0, f"exit status {status}; the bot's log:\n{log}"
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log
    assert log.strip().splitlines()[-1].endswith("Shut down cleanly."), log
    assert not left_behind, log


#: ``python bot.py`` as the tests run it, but holding still while it imports discord.py, so that
#: a signal lands at a known moment of the imports: the file ``{marker}`` says it is there.
HOLD_IMPORTS = """
import pathlib, runpy, sys, time

class HoldDiscord:
    def find_spec(self, name, path=None, target=None):
        if name == "discord":
            pathlib.Path({marker!r}).touch()
            time.sleep(60)
        return None

sys.meta_path.insert(0, HoldDiscord())
sys.argv = ["bot.py"]
runpy.run_path("bot.py", run_name="__main__")
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
async def test_ctrl_c_while_the_modules_import_ends_the_bot_quietly(
    fake: FakeDiscord, tmp_path: Path, sig: signal.Signals
) -> None:
    import asyncio
    import subprocess
    import sys

    from tests.process.bot_process import POLL_SECONDS, REPO

    marker = tmp_path / "importing"
    log = tmp_path / "bot.log"
    with log.open("wb") as output:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            HOLD_IMPORTS.format(marker=str(marker)),
            cwd=REPO,
            env=bot_environment(fake, tmp_path / "pyramid.sqlite3"),
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    bot = BotProcess(process, log)

    async def importing() -> None:
        while not marker.exists():
            await asyncio.sleep(POLL_SECONDS)

    try:
        await bot.until("importing discord.py", importing())
        os.killpg(process.pid, sig)
        status = await bot.exit_status()
    finally:
        bot.kill()
    text = bot.text()
    # Ctrl-C there printed a KeyboardInterrupt traceback through the import machinery.
    assert status == 0, f"exit status {status}; the bot's output:\n{text}"
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
