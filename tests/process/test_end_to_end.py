"""``python bot.py`` as its own process, against a fake Discord on 127.0.0.1, end to end, on each
store: a SQLite file, and PostgreSQL through ``DATABASE_URL=postgresql://...``."""

from __future__ import annotations

import signal
import stat
from pathlib import Path

import pytest

from storage import Storage
from storage.stores import open_database
from tables.phase import Phase
from tables.snapshot import table_from_state
from tests.process.bot_process import TOKEN, BotProcess, bot_environment, start_bot
from tests.process.fake_discord import BOT_ID, CHANNEL_ID, GUILD_ID, PLAYER_ID, FakeDiscord

# It starts the bot's own process (and its workers) and plays through a fake Discord.
pytestmark = pytest.mark.slow

EPHEMERAL = 1 << 6
GUILDS_INTENT = 1 << 0


async def test_bot_process_logs_in_syncs_opens_a_table_and_shuts_down_on_sigterm(
    tmp_path: Path, database_target: str | Path
) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    bot: BotProcess | None = None
    try:
        bot = await start_bot(tmp_path, bot_environment(fake, database_target))

        await bot.until("identifying", fake.wait_for(lambda f: f.identify is not None))
        login = fake.find("GET", "/users/@me")
        assert login is not None and login.authorization == f"Bot {TOKEN}"
        assert fake.identify is not None and fake.identify["token"] == TOKEN
        # The bot asks only for the guilds intent: no message, typing or reaction events.
        assert fake.identify["intents"] == GUILDS_INTENT
        assert fake.heartbeats >= 1, "discord.py beats as soon as the gateway says hello"

        sync = fake.find("PUT", f"/applications/{BOT_ID}/guilds/{GUILD_ID}/commands")
        assert sync is not None, "the commands were not synced to the development server"
        table = next(c for c in fake.commands[GUILD_ID] if c["name"] == "table")
        assert "create" in {option["name"] for option in table["options"]}

        sent = await bot.until("answering /table create", fake.table_create("showdown"))
        # Deferred at once (Discord allows 3 s), answered only to the player.
        assert sent.callback.payload["type"] == 5
        assert sent.callback.payload["data"]["flags"] & EPHEMERAL

        # The lobby is posted once: by the command's follow-up, or by the publisher when its
        # drain comes first (each leaves the other be); which one depends on timing alone.
        lobby_posts = (
            ("POST", f"/channels/{CHANNEL_ID}/messages"),
            ("POST", f"/webhooks/{BOT_ID}/{sent.token}"),
        )
        await bot.until(
            "posting the lobby",
            fake.wait_for(lambda f: any(f.find(*post) is not None for post in lobby_posts)),
        )
        [lobby] = [call for post in lobby_posts if (call := fake.find(*post)) is not None]
        assert "Showdown Version" in lobby.payload["content"]
        assert f"host <@{PLAYER_ID}>" in lobby.payload["content"]
        buttons = [b["custom_id"] for row in lobby.payload["components"] for b in row["components"]]
        # A new server allows computer seats, so the lobby offers Add computer beside the three.
        assert buttons == ["pp:lobby:join", "pp:lobby:leave", "pp:lobby:start", "pp:lobby:computer"]

        answer = await bot.until(
            "answering the player",
            fake.wait_for_call("PATCH", f"/webhooks/{BOT_ID}/{sent.token}/messages/@original"),
        )
        assert answer.payload["content"] == "You opened a Showdown Version table here."
        assert fake.unknown_calls() == []
        await bot.logged("Ready:")

        bot.process.send_signal(signal.SIGTERM)
        status = await bot.exit_status()
    finally:
        if bot is not None:
            bot.kill()
            await bot.process.wait()
        await fake.close()

    log = bot.text()
    assert status == 0, f"exit status {status}; the bot's log:\n{log}"
    # Once in all: the one that came second saw the first and left it be.
    assert sum((call.method, call.path) in lobby_posts for call in fake.calls) == 1
    assert "Shut down cleanly" in log, log
    assert "Traceback" not in log, log
    # One line says the bot is ready, with its servers and commands; no voice warnings.
    [ready] = [line for line in log.splitlines() if "Ready:" in line]
    assert "1 server" in ready and "commands" in ready, ready
    assert "voice" not in log.lower(), log
    if isinstance(database_target, Path):
        # The file holds the players' chips: only the bot's user may read it.
        assert database_target.is_file()
        assert stat.S_IMODE(database_target.stat().st_mode) == 0o600
    # The table outlived the process in the store, where the next start resumes it.
    database = await open_database(database_target)
    try:
        snapshot = await Storage.over(database).snapshots.load(GUILD_ID, CHANNEL_ID)
    finally:
        await database.close()
    assert snapshot is not None, "the table was not saved"
    saved = table_from_state(snapshot.state)
    assert (saved.config.game, saved.host, saved.phase) == ("showdown", PLAYER_ID, Phase.LOBBY)
