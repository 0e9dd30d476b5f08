"""A start whose sync Discord refuses says so in one line and plays on."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.cogs.helpers import GUILD_ID, Scene


async def test_a_refused_sync_is_one_warning_and_the_bot_plays_on(
    scene: Scene, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    application = scene.bot.application_id
    assert application is not None
    # The store keeps another tree's digest (the bot was upgraded), and Discord refuses the sync.
    await scene.bot.services.storage.commands.record(application, str(GUILD_ID), "older", 1)
    tried: list[Any] = []

    async def refuse(tree: Any, *, guild: Any = None) -> Any:
        tried.append(guild)
        response = SimpleNamespace(status=403, reason="Forbidden")
        raise discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})

    monkeypatch.setattr(app_commands.CommandTree, "sync", refuse)
    caplog.set_level(logging.INFO)
    await scene.restart()

    assert [guild.id for guild in tried] == [GUILD_ID]
    refused = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.getMessage(), r.exc_info) for r in refused] == [
        (
            "Discord refused the slash commands (403 Missing Access); they stay as Discord has"
            " them, and the next start tries again.",
            None,
        )
    ]
    # Nothing recorded: the next start tries again.
    kept = await scene.bot.services.storage.commands.last(application, str(GUILD_ID))
    assert kept is not None and kept.digest == "older"
    ann = scene.members[0]
    created = await ann.slash(scene.channel, "table create", game="showdown")
    assert created.response.content == "You opened a Showdown Version table here."
