"""Answers that were wrong or stale: each says what is true now, through the simulated Discord."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cogs.info import RULES_URL_LIMIT
from tests.cogs.conftest import Scene
from tests.cogs.test_computers import labels
from tests.cogs.test_flow import open_table, play_out

DISCORD_LIMIT = 2000


def lobby_with_buttons(scene: Scene) -> list[Any]:
    """Every message of the channel that still offers Join or Start."""
    return [m for m in scene.channel.history() if {"Join", "Start"} & set(labels(m))]


async def test_a_typed_table_start_takes_the_buttons_off_the_lobby_message(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    await ann.slash(scene.channel, "table create", game="casino")
    [lobby] = lobby_with_buttons(scene)
    joined = await bob.click(lobby, label="Join")  # the lobby message is a pressed one now
    assert joined.acknowledged
    started = await ann.slash(scene.channel, "table start")
    assert started.acknowledged
    await scene.env.settle()
    # The lobby kept live Join and Start buttons through the game and after it.
    assert lobby_with_buttons(scene) == [], [m.content for m in lobby_with_buttons(scene)]
    lobby = next(m for m in scene.channel.history() if m.id == lobby.id)
    assert lobby.content.startswith("The host dealt game ")
    await play_out(scene, [ann, bob], "suggest")
    showdown = scene.channel.last_message
    # Under the showdown, Deal again and Join are the table's only live buttons.
    assert [m.id for m in lobby_with_buttons(scene)] == [showdown.id]


async def test_a_typed_table_start_after_a_typed_join_takes_the_lobbys_buttons_too(
    scene: Scene,
) -> None:
    await open_table(scene, "casino", 2)  # created and joined by typing
    assert len(lobby_with_buttons(scene)) == 1
    await scene.members[0].slash(scene.channel, "table start")
    await scene.env.settle()
    assert lobby_with_buttons(scene) == []


async def test_help_fits_discord_with_the_longest_rules_url_allowed(scene: Scene) -> None:
    ann = scene.members[0]
    url = "https://example.org/" + "r" * (RULES_URL_LIMIT - len("https://example.org/"))
    assert len(url) == RULES_URL_LIMIT
    scene.bot.settings = replace(scene.bot.settings, rules_url=url)
    shown = await ann.slash(scene.channel, "help")
    text = shown.response.content
    assert len(text) <= DISCORD_LIMIT, len(text)
    assert url in text  # whole: a cut address leads nowhere
    for command in ("/table create", "/review", "/rules"):
        assert command in text
