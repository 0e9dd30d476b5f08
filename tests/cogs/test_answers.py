"""Answers that were wrong or stale: each says what is true now, through the simulated Discord."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import i18n
from cogs.controls import NOT_CURRENT
from cogs.info import RULES_URL_LIMIT
from tests.cogs.helpers import (
    Scene,
    arranging_controls,
    declare_all,
    forged,
    labels,
    open_table,
    play_out,
    showdowns,
    speak,
    start_game,
    the_table,
)

DISCORD_LIMIT = 2000
LOCALES = [language.discord for language in (i18n.ENGLISH, *i18n.LANGUAGES)]


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
    [showdown] = showdowns(scene)  # the achievements it earned are announced after it
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


async def test_arrange_suggest_before_the_deal_says_no_game_is_under_way(scene: Scene) -> None:
    ann = scene.members[0]
    nothing = await ann.slash(scene.channel, "arrange suggest")
    assert nothing.response.content == (
        "There is no table in this channel; open one with `/table create`."
    )
    await open_table(scene, "casino", 2)
    early = await ann.slash(scene.channel, "arrange suggest")
    # It said "That game is over; these buttons no longer count." before any game was dealt.
    assert early.response.content == (
        "No game is under way at this table; the host deals one with **Start**."
    )


async def test_arrange_hands_in_a_lobby_does_not_ask_for_a_table_that_is_open(
    scene: Scene,
) -> None:
    ann = scene.members[0]
    await open_table(scene, "casino", 2)
    typed = await ann.slash(scene.channel, "arrange hands", hands="As | Kd Kh Ks | 2c 3c 4c 5c 6c")
    # It said "There is no game at this table; open one with `/table create`."
    assert typed.response.content == (
        "No game is under way at this table; the host deals one with **Start**."
    )
    built = await ann.slash(scene.channel, "arrange build")
    assert built.response.content == typed.response.content


@pytest.mark.parametrize("locale", LOCALES)
async def test_help_fits_discord_with_the_longest_rules_url_allowed(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: locale})
    url = "https://example.org/" + "r" * (RULES_URL_LIMIT - len("https://example.org/"))
    assert len(url) == RULES_URL_LIMIT
    scene.bot.settings = replace(scene.bot.settings, rules_url=url)
    shown = await ann.slash(scene.channel, "help")
    text = shown.response.content
    assert len(text) <= DISCORD_LIMIT, len(text)
    assert url in text  # whole: a cut address leads nowhere
    # The commands under the names the reader's Discord shows.
    for command, option in (("table", "create"), ("review", None), ("rules", None)):
        name = i18n.translate(locale, command, context=i18n.COMMAND)
        if option is not None:
            name += " " + i18n.translate(locale, option, context=i18n.COMMAND)
        assert f"`/{name}`" in text


async def test_a_forged_control_tells_a_stranger_nothing_about_another_servers_table(
    scene: Scene,
) -> None:
    players = await start_game(scene, "showdown", 2)
    table = await the_table(scene)
    guild, channel, game = scene.guild.id, scene.channel.id, table.game_id
    other = scene.env.create_guild("Elsewhere")
    other.create_text_channel("lounge")
    stranger = other.add_member(scene.env.create_user("eve"))
    # The same buttons, at the real table's game and declaration and at ones that do not exist.
    real = [
        f"pp:declare:{guild}:{channel}:{game}:0:play",
        f"pp:declare:{guild}:{channel}:{game}:0:surrender",
    ]
    made_up = [
        f"pp:declare:{guild}:{channel}:{game + 7}:0:play",
        f"pp:declare:{guild}:{channel}:{game}:1:play",
        f"pp:declare:{guild}:{channel + 1}:{game}:0:play",
        f"pp:declare:{guild + 1}:{channel}:{game}:0:play",
    ]
    answers = {custom_id: await forged(scene, stranger, custom_id) for custom_id in real + made_up}
    assert set(answers.values()) == {str(NOT_CURRENT)}, answers
    await declare_all(scene, players)
    table = await the_table(scene)
    arranging = arranging_controls(guild, channel, game)
    gone = [
        f"pp:suggest:{guild}:{channel}:{game + 7}",
        f"pp:take:{guild}:{channel + 1}:{game}",
        f"pp:type:{guild + 1}:{channel}:{game}",
        f"pp:build:{game + 7}:_:start",
        f"pp:confirm:{game + 7}:0-123-456-789-abcde-fghij:",
    ]
    answers = {key: await forged(scene, stranger, key) for key in arranging + gone}
    assert set(answers.values()) == {str(NOT_CURRENT)}, answers
    assert (await the_table(scene)).to_state() == table.to_state()
