"""``python bot.py`` syncs its slash commands by itself, once for a new tree and not again for an
unchanged one; ``python bot.py --sync`` syncs and exits; only shard 0's process syncs."""

from __future__ import annotations

import signal
from collections.abc import Mapping
from pathlib import Path

import pytest

import i18n
from storage import Storage
from storage.stores import open_database
from tests.process.bot_process import TOKEN, bot_environment, start_bot
from tests.process.fake_discord import BOT_ID, GLOBAL_COMMANDS, GUILD_ID, FakeDiscord

# It starts the bot's own process several times.
pytestmark = pytest.mark.slow

TO_THE_SERVER = ("PUT", f"/applications/{BOT_ID}/guilds/{GUILD_ID}/commands")
GLOBALLY = ("PUT", f"/applications/{BOT_ID}/commands")
CHANGED = "the command tree changed since the last sync"


def syncs(fake: FakeDiscord, where: tuple[str, str]) -> int:
    return sum((call.method, call.path) == where for call in fake.calls)


def said(log: str, sentence: str) -> bool:
    """Whether a line of the bot's log ends with exactly this sentence."""
    return any(line.endswith(f": {sentence}") for line in log.splitlines())


async def run_until_ready(tmp_path: Path, environment: Mapping[str, str], name: str) -> str:
    """Start the bot, wait until it is ready, stop it with SIGTERM; its log."""
    bot = await start_bot(tmp_path, environment, name=name)
    try:
        await bot.logged("Ready:")
        bot.process.send_signal(signal.SIGTERM)
        status = await bot.exit_status()
    finally:
        bot.kill()
        await bot.process.wait()
    log = bot.text()
    assert status == 0, f"exit status {status}; the bot's log:\n{log}"
    assert "Traceback" not in log, log
    return log


async def test_a_start_syncs_a_new_tree_once_and_an_unchanged_one_never(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    fake = FakeDiscord(TOKEN)
    await fake.start()
    try:
        environment = bot_environment(fake, database)
        first = await run_until_ready(tmp_path, environment, "first")
        assert syncs(fake, TO_THE_SERVER) == 1
        count = len(fake.commands[GUILD_ID])
        server = f"to the development server {GUILD_ID}"
        assert said(first, f"Synced {count} commands {server}: {CHANGED}."), first
        # What Discord got is the translated tree: every command named in every language.
        languages = {language.discord for language in i18n.LANGUAGES} | set(i18n.ALIASES)
        for command in fake.commands[GUILD_ID]:
            assert set(command["name_localizations"]) == languages, command["name"]
            assert set(command["description_localizations"]) == languages, command["name"]

        second = await run_until_ready(tmp_path, environment, "second")
        assert syncs(fake, TO_THE_SERVER) == 1, "an unchanged tree was synced again"
        assert said(second, f"The {count} commands are as last synced {server}: not syncing.")

        # What the store keeps is another tree's digest, as after an upgrade that changed a
        # command: the next start syncs.
        store = Storage.over(await open_database(database))
        try:
            await store.commands.record(BOT_ID, str(GUILD_ID), "an older tree", count - 1)
        finally:
            await store.database.close()
        third = await run_until_ready(tmp_path, environment, "third")
        assert syncs(fake, TO_THE_SERVER) == 2
        assert said(third, f"Synced {count} commands {server}: {CHANGED}."), third

        # --sync syncs whatever the digest says, and exits without connecting to the gateway.
        fake.identify = None
        once = await start_bot(tmp_path, environment, name="once", arguments=["--sync"])
        try:
            status = await once.exit_status()
        finally:
            once.kill()
            await once.process.wait()
        log = once.text()
        assert status == 0, log
        assert syncs(fake, TO_THE_SERVER) == 3
        assert said(log, f"Synced {count} commands {server}: as --sync asks."), log
        assert fake.identify is None and "Ready:" not in log, log
        assert "Traceback" not in log, log
        assert fake.unknown_calls() == []
    finally:
        await fake.close()


async def test_without_a_development_server_the_commands_sync_globally_from_shard_0_alone(
    tmp_path: Path,
) -> None:
    fake = FakeDiscord(TOKEN, shards=2)
    await fake.start()
    try:
        environment = {**bot_environment(fake, tmp_path / "bot.sqlite3"), "DEV_GUILD_ID": ""}
        # A process running shard 1 alone leaves the commands to shard 0's.
        second_shard = {**environment, "SHARD_COUNT": "2", "SHARD_IDS": "1"}
        log = await run_until_ready(tmp_path, second_shard, "shard-1")
        assert syncs(fake, GLOBALLY) == 0 and syncs(fake, TO_THE_SERVER) == 0
        assert said(log, "The process running shard 0 syncs the slash commands; this one does not.")

        log = await run_until_ready(tmp_path, {**environment, "SHARD_COUNT": "2"}, "all-shards")
        assert syncs(fake, GLOBALLY) == 1 and syncs(fake, TO_THE_SERVER) == 0
        count = len(fake.commands[GLOBAL_COMMANDS])
        hour = "(Discord may take up to an hour to show them)"
        assert said(log, f"Synced {count} commands globally: {CHANGED} {hour}."), log
        assert {command["name"] for command in fake.commands[GLOBAL_COMMANDS]} >= {
            "table",
            "arrange",
            "chips",
        }
    finally:
        await fake.close()
