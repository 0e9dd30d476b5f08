"""A table's refusal reaches the player in their own Discord language, and another player in
theirs: the table raises a `Text`, the bot's edge reads it in the presser's locale."""

from __future__ import annotations

import pytest

from tests.cogs.helpers import Scene, open_table, speak


async def test_a_refusal_reads_in_each_players_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob, cy = scene.members[:3]
    speak(monkeypatch, {bob.id: "de", cy.id: "zh-CN"})
    # No table here yet: each reads why in their language, the command named as theirs is.
    refused = await bob.slash(scene.channel, "table start")
    assert refused.ephemeral
    assert refused.response.content == (
        "In diesem Kanal gibt es keinen Tisch; eröffne einen mit `/tisch erstellen`."
    )
    english = await ann.slash(scene.channel, "table start")
    assert english.response.content == (
        "There is no table in this channel; open one with `/table create`."
    )
    await open_table(scene, "showdown", 1)
    refused = await cy.slash(scene.channel, "table start")
    assert refused.response.content == "只有房主可以开始牌局。"
