"""What a player gives is read once, where they gave it: their typed hands (Set these hands submits
the value the preview read, not its text again), the solver's suggestion (Take it submits the value
shown), and a server's settings (one reading per action)."""

from __future__ import annotations

from typing import Any

import pytest

from tables.rules.pyramid import PyramidRules
from tests.cogs.helpers import (
    Scene,
    arranging,
    declare_all,
    preview_sentence,
    set_sentence,
    start_game,
    the_table,
)
from tests.tables.helpers import quick_arranger


@pytest.fixture
def readings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each text a Pyramid game's rules read as a setting."""
    read: list[str] = []
    original = PyramidRules.read

    def counted(self: PyramidRules, held: Any, text: str, automatic: str | None = None) -> Any:
        read.append(text)
        return original(self, held, text, automatic)

    monkeypatch.setattr(PyramidRules, "read", counted)
    return read


async def test_typed_hands_are_read_once_and_set_as_previewed(
    scene: Scene, readings: list[str]
) -> None:
    ann, spec, held = await arranging(scene, "standard")
    setting = quick_arranger(spec, held)
    options = {"automatic": setting.automatic} if setting.automatic else {}
    preview = await ann.slash(scene.channel, "arrange hands", hands=setting.text, **options)
    assert preview.response.content == str(preview_sentence(setting))
    confirmed = await ann.click(preview.response.message, label="Set these hands")
    kept = (await the_table(scene)).seat_of(ann.id).setting
    assert kept is not None and kept.hands == setting.hands
    assert confirmed.response.content == set_sentence(kept)
    assert readings == [setting.text]


async def test_take_it_sets_the_suggestion_shown_without_reading_it_again(
    scene: Scene, readings: list[str]
) -> None:
    players = await start_game(scene, "standard", 2)
    await declare_all(scene, players)
    bob = players[1]
    shown = await bob.user.click(bob.user.dm_channel.last_message, label="Suggest")
    taken = await bob.user.click(shown.response.message, label="Take it")
    suggested = scene.bot.services.suggestions.get((await the_table(scene)).game_id, bob.id)
    assert suggested is not None
    assert (await the_table(scene)).seat_of(bob.id).setting == suggested
    assert taken.response.content == set_sentence(suggested)
    assert readings == []


@pytest.fixture
def settings_read(scene: Scene, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The servers whose settings were read, once per reading."""
    repository = scene.bot.services.storage.settings
    read: list[int] = []
    original = repository.get

    async def counted(guild_id: int) -> Any:
        read.append(guild_id)
        return await original(guild_id)

    monkeypatch.setattr(repository, "get", counted)
    return read


async def test_each_lobby_action_reads_the_servers_settings_once(
    scene: Scene, settings_read: list[int]
) -> None:
    ann, bob = scene.members[:2]
    guild = scene.guild.id
    created = await ann.slash(scene.channel, "table create", game="casino")
    assert created.response.content == "You opened a Casino Version table here."
    assert settings_read == [guild]
    settings_read.clear()
    await bob.slash(scene.channel, "table join")
    assert settings_read == [guild]
    settings_read.clear()
    await ann.slash(scene.channel, "table start")
    assert settings_read == [guild]
