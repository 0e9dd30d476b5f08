"""The real bot (discord.py, cogs, SQLite) driven through simcord's simulated Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord

from bot import PyramidBot
from tests.cogs.helpers import GUILD_ID, Scene, make_bot, release


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def simcord_bot(db_path: Path) -> PyramidBot:
    return make_bot(db_path)


@pytest_asyncio.fixture
async def scene(
    simcord_env: simcord.Env, simcord_bot: PyramidBot, db_path: Path
) -> AsyncIterator[Scene]:
    env = simcord_env
    guild = env.create_guild("Poker Club", id=GUILD_ID)
    channel = guild.create_text_channel("pyramid")
    names = ("ann", "bob", "cy", "di", "ed", "flo")
    members = [guild.add_member(env.create_user(name)) for name in names]
    scene = Scene(env, simcord_bot, db_path, guild, channel, members)
    try:
        yield scene
    finally:
        await release(scene.bot)
