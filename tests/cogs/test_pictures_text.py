"""Pictures speak of players by name: no Discord markup reaches a picture, in any game, and a
name in any script is drawn, not boxed."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from render import style
from tables.games import GAMES
from tests.cogs.helpers import Scene, open_table, play_out
from tests.render.helpers import Drawn, boxes


def _texts(drawn: list[Drawn]) -> list[str]:
    return [piece.text for piece in drawn]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_no_mention_is_drawn_in_any_picture(
    scene: Scene, drawn: list[Drawn], game: str
) -> None:
    players = await open_table(scene, game, 2)
    await players[0].slash(scene.channel, "table start")
    await play_out(scene, players, "timer")
    showdown = [m for m in scene.channel.history() if m.content.startswith("**Showdown")]
    assert showdown, "no showdown was posted"
    assert drawn, "no picture was drawn"
    marked = [text for text in _texts(drawn) if "<@" in text or "<#" in text or "<t:" in text]
    assert not marked
    # The players are named by their names on the server instead.
    joined = " ".join(_texts(drawn))
    assert all(member.user.name in joined for member in players)


async def test_the_dm_and_hand_pictures_name_the_game_and_the_phase(
    scene: Scene, drawn: list[Drawn]
) -> None:
    players = await open_table(scene, "showdown", 2)
    await players[0].slash(scene.channel, "table start")
    assert "Showdown Version · declaration 1" in _texts(drawn)
    drawn.clear()
    shown = await players[1].slash(scene.channel, "hand")
    assert shown.response.attachments
    assert {"Your cards", "Showdown Version · declaration 1"} <= set(_texts(drawn))


async def test_the_dm_of_a_game_without_declarations_asks_to_set_the_hands(
    scene: Scene, drawn: list[Drawn]
) -> None:
    players = await open_table(scene, "paigow", 2)
    await players[0].slash(scene.channel, "table start")
    assert "Pai Gow poker · set your hands" in _texts(drawn)


async def test_names_in_any_script_are_drawn_in_the_showdown(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid: list[tuple[str, Any]] = []
    lock = threading.Lock()
    original = style.text_coverage

    def coverage(text: str, face: Any, anchor: str = "la") -> Any:
        with lock:
            laid.append((text, face))
        return original(text, face, anchor)

    monkeypatch.setattr(style, "text_coverage", coverage)
    names = ("王小明", "محمد الأحمد", "김민준 🎲", "Νίκος")
    players = [scene.guild.add_member(scene.env.create_user(name)) for name in names]
    scene.members[:] = players
    await open_table(scene, "showdown", len(players))
    await players[0].slash(scene.channel, "table start")
    await play_out(scene, players, "timer")
    assert any(m.content.startswith("**Showdown") for m in scene.channel.history())
    texts = {text for text, _ in laid}
    assert all(name in texts for name in names), sorted(texts)
    assert [(text, boxes(text, face)) for text, face in laid if boxes(text, face)] == []
