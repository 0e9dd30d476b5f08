"""The real bot (discord.py, cogs, SQLite) driven through simcord's simulated Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot import PyramidBot, Settings
from tables.runtime import ThreadOffload
from tests.tables.helpers import quick_arranger

GUILD_ID = 424242424242424242


def make_bot(path: Path) -> PyramidBot:
    """The bot as it runs, on a temp database, with fast test hands for absent players."""
    settings = Settings(
        discord_token="test", database=str(path), dev_guild_id=GUILD_ID, shard_count=1
    )
    # Threads, not worker processes: simcord runs everything in one process.
    return PyramidBot(settings, offload=ThreadOffload(), arranger=quick_arranger)


@dataclass
class Scene:
    """A server with a channel and six members, and the running simulated Discord."""

    env: simcord.Env
    bot: PyramidBot
    path: Path
    guild: Any
    channel: Any
    members: list[Any]

    @property
    def tables(self) -> Any:
        return self.bot.services.tables

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database (a deploy or a crash)."""
        old, self.bot = self.bot, make_bot(self.path)
        await self.env.restart_bot(self.bot)
        await release(old)


async def release(bot: PyramidBot) -> None:
    """Stop a bot's timers and close its database.

    simcord detaches a bot without closing it, and an open aiosqlite connection keeps a thread
    that would hold the test process at exit (a failed test keeps its bot referenced).
    """
    if hasattr(bot, "services"):
        await bot.services.tables.close()
    if bot.database is not None:
        await bot.database.close()
        bot.database = None


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
