"""L4: how ``python bot.py`` ends when it cannot start: one sentence, a clean exit, no traceback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.l4.fake_discord import FakeDiscord
from tests.l4.process import TOKEN, bot_environment, start_bot

EXIT_BAD_SETTINGS = 2


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
    assert last.endswith("check DATABASE_PATH and that the bot may write its folder."), log
