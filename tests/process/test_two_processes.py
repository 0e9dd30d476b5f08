"""Two ``python bot.py`` processes on one PostgreSQL, each running one of Discord's two shards,
play a game against one fake Discord: the server is on shard 1, so its commands reach the second
process, while the player's DM buttons come on shard 0, as Discord sends every DM, and the first
process plays them at a table whose channel the second one serves."""

from __future__ import annotations

import signal
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import pytest

from storage import Storage
from storage.rows import GameStatus
from storage.stores import open_database
from tests.process.bot_process import TOKEN, BotProcess, bot_environment, start_bot
from tests.process.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    Call,
    FakeDiscord,
    SentInteraction,
)
from tests.process.playing import answer, dm_button

# It starts two bots, each with a worker, and plays a whole game through them.
pytestmark = pytest.mark.slow

SHARDS = 2
DEFERRED = 5
SHOWDOWN_POST = f"/channels/{CHANNEL_ID}/messages"
T = TypeVar("T")


async def step(bots: dict[int, BotProcess], what: str, awaitable: Awaitable[T]) -> T:
    """Await a step of the game; fail, with a bot's log, if either bot exits or is stuck."""
    return await bots[0].until(what, bots[1].until(what, awaitable))


async def dm_click(fake: FakeDiscord, bots: dict[int, BotProcess], pattern: str) -> SentInteraction:
    """Wait for the bot to DM a button matching ``pattern``, and press it."""
    await step(bots, f"DMing {pattern}", fake.wait_for(lambda f: dm_button(f, pattern) is not None))
    button = dm_button(fake, pattern)
    assert button is not None
    return await step(bots, f"answering {button[1]}", fake.click(*button))


def showdowns(fake: FakeDiscord) -> list[Call]:
    """The showdown posts in the table's channel."""
    return [
        call
        for call in fake.calls
        if call.path == SHOWDOWN_POST and call.payload["content"].startswith("**Showdown, game ")
    ]


async def test_a_dm_click_on_shard_0_plays_a_table_whose_channel_the_shard_1_process_serves(
    tmp_path: Path, postgres_url: str
) -> None:
    fake = FakeDiscord(TOKEN, shards=SHARDS)
    await fake.start()
    bots: dict[int, BotProcess] = {}
    try:
        for shard in range(SHARDS):
            environment = {
                **bot_environment(fake, postgres_url),
                "SHARD_COUNT": str(SHARDS),
                "SHARD_IDS": str(shard),
                "WORKERS": "1",  # two bots share the machine's cores
            }
            bots[shard] = await start_bot(tmp_path, environment, name=f"shard-{shard}")
        for bot in bots.values():
            await bot.logged("Ready:")
        assert fake.shard_of(GUILD_ID) == 1
        identified = {shard: identify["shard"] for shard, identify in fake.identified.items()}
        assert identified == {0: [0, SHARDS], 1: [1, SHARDS]}

        # In the server's channel: the process of the server's shard, the second, answers.
        create = await step(bots, "answering /table create", fake.table_create("casino"))
        opened = await step(bots, "opening the table", answer(fake, create))
        assert opened == "You opened a Casino Version table here."
        start = await step(bots, "answering /table start", fake.command("table", "start"))
        assert await step(bots, "dealing", answer(fake, start)) == (
            "Dealt. Cards are on their way by DM."
        )

        # By DM: the first process plays the second one's table, from the declaration on.
        play = await dm_click(fake, bots, r"pp:declare:\d+:\d+:\d+:0:play")
        declared = await step(bots, "declaring", answer(fake, play))
        assert declared.startswith("You declared: play on."), declared
        # pp:declare:<server>:<channel>:<game>:<declaration>:play
        game_id = int(fake.interactions[play.token]["data"]["custom_id"].split(":")[4])
        suggest = await dm_click(fake, bots, r"pp:suggest:.*")
        take = await dm_click(fake, bots, r"pp:take:.*")
        hands = await step(bots, "setting the hands", answer(fake, take))
        assert hands.startswith("Your hands are set:"), hands

        await step(bots, "posting the showdown", fake.wait_for(lambda f: bool(showdowns(f))))
        [showdown] = showdowns(fake)
        assert showdown.payload["content"].startswith(f"**Showdown, game {game_id}.**")
        assert showdown.files == ("showdown.png",)
        assert fake.unknown_calls() == []

        for bot in bots.values():
            bot.process.send_signal(signal.SIGTERM)
        statuses = {shard: await bot.exit_status() for shard, bot in bots.items()}
    finally:
        for bot in bots.values():
            bot.kill()
            await bot.process.wait()
        await fake.close()

    sent = {"create": create, "start": start, "play": play, "suggest": suggest, "take": take}
    # A server's interactions come on its shard's connection, every DM's on shard 0's.
    assert {name: s.shard for name, s in sent.items()} == {
        "create": 1,
        "start": 1,
        "play": 0,
        "suggest": 0,
        "take": 0,
    }
    assert {name: s.callback.payload["type"] for name, s in sent.items()} == dict.fromkeys(
        sent, DEFERRED
    )
    for shard, bot in bots.items():
        log = bot.text()
        assert statuses[shard] == 0, f"exit status {statuses[shard]} of shard {shard}:\n{log}"
        assert f"serves shard(s) {shard};" in log, log
        assert "Traceback" not in log and " ERROR " not in log, log
        assert log.strip().splitlines()[-1].endswith("Shut down cleanly."), log
    database = await open_database(postgres_url)
    try:
        game = await Storage.over(database).games.get(game_id)
    finally:
        await database.close()
    assert game is not None and game.status is GameStatus.SETTLED
