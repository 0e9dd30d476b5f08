"""Steps of a game that the process tests share: the bot's answers, its DM buttons, the
showdown posted in the table's channel."""

from __future__ import annotations

import re
from typing import Any

from tests.process.bot_process import BotProcess
from tests.process.fake_discord import BOT_ID, CHANNEL_ID, FakeDiscord, SentInteraction

Button = tuple[dict[str, Any], str]
SHOWDOWN = "**Showdown, game "


async def answer(fake: FakeDiscord, sent: SentInteraction) -> str:
    """What the bot said in the interaction's deferred answer, once it said it."""
    path = f"/webhooks/{BOT_ID}/{sent.token}/messages/@original"
    content: str = (await fake.wait_for_call("PATCH", path)).payload["content"]
    return content


def dm_button(fake: FakeDiscord, pattern: str) -> Button | None:
    """The newest button by DM whose custom id matches ``pattern``, with its message."""
    found = [
        (message, custom_id)
        for message, custom_id in fake.buttons()
        if "guild_id" not in message and re.fullmatch(pattern, custom_id)
    ]
    return found[-1] if found else None


async def dm_click(fake: FakeDiscord, bot: BotProcess, pattern: str) -> SentInteraction:
    """Wait for the bot to DM a button matching ``pattern``, and press it."""
    await bot.until(f"DMing {pattern}", fake.wait_for(lambda f: dm_button(f, pattern) is not None))
    button = dm_button(fake, pattern)
    assert button is not None
    return await bot.until(f"answering {button[1]}", fake.click(*button))


def showdowns(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The showdowns posted in the table's channel (not those Discord refused)."""
    return fake.posted(CHANNEL_ID, SHOWDOWN)
