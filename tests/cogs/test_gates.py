"""One gate per family of controls: a press that is not the presser's to make reads one sentence,
from the family's ``interaction_check``, and never reaches the control's work."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.arrange
from cogs.controls import DYNAMIC_ITEMS, NOT_CURRENT
from tables.phase import Phase
from tests.cogs.helpers import (
    Scene,
    arranging,
    arranging_controls,
    declare_all,
    forged,
    start_game,
    the_table,
)


@pytest.fixture
def acted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The controls (and forms) whose work ran, by class name."""
    ran: list[str] = []
    for control in DYNAMIC_ITEMS:
        work = control.act

        async def act(self: Any, interaction: Any, work: Any = work) -> None:
            ran.append(type(self).__name__)
            await work(self, interaction)

        monkeypatch.setattr(control, "act", act)
    preview = cogs.arrange.preview_text

    async def previewed(*args: Any, **kwargs: Any) -> None:
        ran.append("HandsModal")
        await preview(*args, **kwargs)

    monkeypatch.setattr(cogs.arrange, "preview_text", previewed)
    return ran


async def test_a_strangers_press_of_a_games_controls_reads_one_sentence_and_does_nothing(
    scene: Scene, acted: list[str]
) -> None:
    players = await start_game(scene, "showdown", 2)
    guild, channel, game = scene.guild.id, scene.channel.id, (await the_table(scene)).game_id
    stranger = scene.members[2]
    declaring = [f"pp:declare:{guild}:{channel}:{game}:0:play"]
    assert [await forged(scene, stranger, key) for key in declaring] == [str(NOT_CURRENT)]
    assert acted == []
    await declare_all(scene, players)
    acted.clear()  # the players' own presses
    arranging = arranging_controls(guild, channel, game)
    assert [await forged(scene, stranger, key) for key in arranging] == [str(NOT_CURRENT)] * 5
    assert acted == []


async def test_a_stale_declaration_reads_one_sentence_and_does_nothing(
    scene: Scene, acted: list[str]
) -> None:
    players = await start_game(scene, "showdown", 2)
    ann = players[0]
    first = ann.user.dm_channel.last_message
    for member in players:
        await member.user.click(member.user.dm_channel.last_message, label="Play")
    assert (await the_table(scene)).round == 1
    acted.clear()
    stale = await ann.user.click(first, label="Surrender")
    assert stale.ephemeral and stale.response.content == str(NOT_CURRENT)
    assert acted == []
    assert (await the_table(scene)).seat_of(ann.id).is_active


async def test_a_form_sent_once_its_step_is_over_reads_one_sentence_and_does_nothing(
    scene: Scene, acted: list[str]
) -> None:
    ann, _, _ = await arranging(scene, "casino")
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    assert opened.modal is not None
    await scene.env.advance_time((await the_table(scene)).config.arrangement_seconds + 1)
    assert (await the_table(scene)).phase is Phase.LOBBY
    acted.clear()
    late = await ann.user.submit_modal(opened, {"hands": "As | Kd Kh Ks | 2c 3c 4c 5c 6c"})
    assert late.ephemeral and late.response.content == str(NOT_CURRENT)
    assert acted == []


#: Controls of a table's channel, and what each says when pressed anywhere else (here a DM).
ELSEWHERE = {
    "pp:lobby:join": "Use this in the channel of the table.",
    "pp:lobby:again": "Use this in the channel of the table.",
    "pp:remove:computer": "Choose a computer of the table, in its lobby.",
    "pp:review:1": "Reviews are of a server's games: ask in its channel.",
    "pp:hand:1": "Use this in the channel of your table.",
}


async def test_a_tables_channel_controls_pressed_elsewhere_read_their_sentence(
    scene: Scene, acted: list[str]
) -> None:
    said = {key: await forged(scene, scene.members[0], key) for key in ELSEWHERE}
    assert said == ELSEWHERE
    assert acted == []
