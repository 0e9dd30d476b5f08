"""``python bot.py`` against a fake Discord that refuses the bot's messages for a while (a 503,
or 429 until discord.py's own five tries are spent): the cards and the showdown are kept and
posted once Discord recovers, by the same process or by the next one."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.process.bot_process import TOKEN, BotProcess, bot_environment, start_bot
from tests.process.fake_discord import CHANNEL_ID, FakeDiscord
from tests.process.playing import answer, dm_click, showdowns

# It starts the bot's own process (and its worker) and plays a game through a fake Discord,
# waiting out the real back-off (5 s, then 10 s). On SQLite only: what a refusal keeps and when it
# is tried again is the outbox's, the same code on both stores, and
# tests/tables/test_hardening.py checks it on each store (kept rows, a restart) in a fraction of
# the time.
pytestmark = [pytest.mark.slow, pytest.mark.parametrize("store_name", ["sqlite"])]

CHANNEL_POST = f"/channels/{CHANNEL_ID}/messages"
OPEN_DM = "/users/@me/channels"
#: discord.py tries a request five times while Discord answers 429 before it gives up.
TRIES = 5


async def open_casino(fake: FakeDiscord, bot: BotProcess) -> None:
    """The player opens a Casino table (played against the dealer alone)."""
    await bot.logged("Ready:")
    create = await bot.until("answering /table create", fake.table_create("casino"))
    assert await bot.until("opening", answer(fake, create)) == (
        "You opened a Casino Version table here."
    )


async def refused(fake: FakeDiscord, bot: BotProcess, path: str, times: int) -> None:
    """Wait until Discord has refused ``times`` of the bot's requests to ``path``."""
    await bot.until(
        f"trying {path} {times} times", fake.wait_for(lambda f: f.refusals("POST", path) >= times)
    )


async def test_cards_and_a_showdown_discord_refused_are_posted_once_discord_recovers(
    tmp_path: Path, database_target: str | Path
) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    bot = await start_bot(tmp_path, {**bot_environment(fake, database_target), "WORKERS": "1"})
    try:
        await open_casino(fake, bot)
        # The deal's DM: Discord keeps limiting the bot until discord.py gives up, then recovers.
        fake.refuse("POST", OPEN_DM, status=429)
        start = await bot.until("answering /table start", fake.command("table", "start"))
        assert await bot.until("dealing", answer(fake, start)) == (
            "Dealt. Cards are on their way by DM."
        )
        # Refused when it arrives, the fifth try fails whatever comes after: the bot's own
        # retry has to bring the cards.
        await refused(fake, bot, OPEN_DM, TRIES)
        fake.recover()
        await dm_click(fake, bot, r"pp:declare:\d+:\d+:\d+:0:play")
        await dm_click(fake, bot, r"pp:suggest:.*")

        # The showdown: Discord's servers fail (503), then it limits the bot, then recovers.
        fake.refuse("POST", CHANNEL_POST, status=503)
        take = await dm_click(fake, bot, r"pp:take:.*")
        hands = await bot.until("setting the hands", answer(fake, take))
        assert hands.startswith("Your hands are set:"), hands
        await refused(fake, bot, CHANNEL_POST, 1)
        fake.refuse("POST", CHANNEL_POST, status=429)
        await refused(fake, bot, CHANNEL_POST, 1 + TRIES)
        assert not showdowns(fake)
        fake.recover()
        await bot.until("posting the showdown", fake.wait_for(lambda f: bool(showdowns(f))))

        bot.process.send_signal(signal.SIGTERM)
        status = await bot.exit_status()
    finally:
        bot.kill()
        await bot.process.wait()
        await fake.close()

    log = bot.text()
    assert status == 0, log
    [showdown] = showdowns(fake)
    assert showdown["content"].startswith("**Showdown, game 1.**")
    # Each refusal is logged with when the bot tries again.
    assert "Discord refused an event of channel" in log, log
    assert "will be shown again in 5 s" in log and "will be shown again in 10 s" in log, log
    assert "Traceback" not in log and " ERROR " not in log, log


async def test_a_showdown_discord_refused_is_posted_by_the_bot_started_after_it_recovers(
    tmp_path: Path, database_target: str | Path
) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    environment = {**bot_environment(fake, database_target), "WORKERS": "1"}
    bots = [await start_bot(tmp_path, environment, name="first")]
    try:
        bot = bots[0]
        await open_casino(fake, bot)
        start = await bot.until("answering /table start", fake.command("table", "start"))
        await bot.until("dealing", answer(fake, start))
        await dm_click(fake, bot, r"pp:declare:\d+:\d+:\d+:0:play")
        await dm_click(fake, bot, r"pp:suggest:.*")
        fake.refuse("POST", CHANNEL_POST, status=503)
        await dm_click(fake, bot, r"pp:take:.*")
        await refused(fake, bot, CHANNEL_POST, 1)
        # Stopped while Discord still fails; it recovers while the bot is down.
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.exit_status() == 0, bot.text()
        assert not showdowns(fake)
        fake.recover()

        again = await start_bot(tmp_path, environment, name="second")
        bots.append(again)
        await again.until("posting the showdown", fake.wait_for(lambda f: bool(showdowns(f))))
        again.process.send_signal(signal.SIGTERM)
        status = await again.exit_status()
    finally:
        for running in bots:
            running.kill()
            await running.process.wait()
        await fake.close()

    assert status == 0, again.text()
    [showdown] = showdowns(fake)
    assert showdown["content"].startswith("**Showdown, game 1.**")
