"""The real bot (discord.py, cogs, SQLite) driven through simcord's simulated Discord."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord
import simcord.env

import bot
from bot import PyramidBot
from cogs.pictures import warm_up_pictures
from tests.cogs.helpers import GUILD_ID, Scene, make_bot, release
from tests.storage.helpers import migrated_copy

#: The bot's picture warm-up, done in full by the first bot a test process starts. What it
#: warms (the palette, every card at every width) stays warm in the process, so another bot's
#: warm-up would only draw pictures again to throw them away: about 0.1 s of CPU a start, over a
#: minute across the bots the tests start.
_warm_up_pictures_once = functools.cache(warm_up_pictures)


@pytest.fixture(autouse=True)
def _warm_pictures_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot of these tests warms the pictures up once per process."""
    monkeypatch.setattr(bot, "warm_up_pictures", _warm_up_pictures_once)


#: How long simcord's settling waits, at most, before it looks again whether the bot's work is
#: done (a command's, a click's, a start's). Its default, 50 ms, left the bot tests asleep for a
#: third of their wall time after the work was done; looking more often finds the same idle bot
#: sooner.
SETTLE_POLL_S = 0.005

_settle = simcord.env.Env._settle_internal


async def _settle_promptly(
    env: simcord.Env, *, idle: float = SETTLE_POLL_S, **options: Any
) -> None:
    await _settle(env, idle=min(idle, SETTLE_POLL_S), **options)


@pytest.fixture(autouse=True)
def _settle_every_step_promptly(monkeypatch: pytest.MonkeyPatch) -> None:
    """simcord settles every step (a command, a click, a start) polling every 5 ms."""
    monkeypatch.setattr(simcord.env.Env, "_settle_internal", _settle_promptly)


@pytest.fixture
def db_path(tmp_path: Path, sqlite_template: Path) -> Path:
    """The bot's database: a copy of a migrated one, as the bot leaves a new file."""
    path = tmp_path / "bot.sqlite3"
    migrated_copy(sqlite_template, path)
    return path


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
