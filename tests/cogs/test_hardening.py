"""Defects found by trying to break the bot, pinned through the simulated Discord."""

from __future__ import annotations

from typing import Any

from tests.cogs.conftest import Scene
from tests.cogs.test_edges import declare_all, start_game
from tests.cogs.test_flow import open_table, play_out, the_table


def dm_texts(member: Any) -> list[str]:
    return [message.content for message in member.user.dm_channel.history()]


async def balances(scene: Scene, players: list[Any]) -> list[int]:
    return [await scene.bot.services.storage.players.balance(scene.guild.id, m.id) for m in players]


async def test_a_deleted_channel_refunds_its_game_and_tells_the_players_by_dm(
    scene: Scene,
) -> None:
    players = await start_game(scene, "showdown", 3)
    assert await balances(scene, players) == [990, 990, 990]
    scene.env.backend.delete_channel(scene.channel.id)
    await scene.env.settle()
    assert not scene.tables.tables()
    assert await balances(scene, players) == [1_000, 1_000, 1_000]
    for member in players:
        told = dm_texts(member)[-1]
        assert "closed" in told and "pyramid" in told and "10 chips" in told, told
    # Free again: a new table in another channel seats them.
    other = scene.guild.create_text_channel("poker-two")
    created = await players[1].slash(other, "table create", variant="casino")
    assert "You opened" in created.response.content


async def test_the_bot_removed_from_a_server_closes_its_tables(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    scene.env.backend.remove_guild(scene.guild.id)
    await scene.env.settle()
    assert not scene.tables.tables()
    storage = scene.bot.services.storage
    for member in players:
        assert await storage.players.balance(scene.guild.id, member.id) == 1_000


async def test_a_channel_the_bot_can_no_longer_post_in_closes_its_table(scene: Scene) -> None:
    players = await start_game(scene, "showdown", 2)
    # The channel vanished while the bot was not looking: posting there answers Unknown Channel.
    scene.env.inject_error(
        "POST", f"/channels/{scene.channel.id}/messages", status=404, code=10003, times=None
    )
    await scene.env.advance_time(the_table(scene).config.declaration_seconds + 1)
    await scene.env.settle()
    assert not scene.tables.tables()
    assert await balances(scene, players) == [1_000, 1_000]


async def test_leave_and_status_work_from_any_channel_of_the_server(scene: Scene) -> None:
    ann, bob = await open_table(scene, "showdown", 2)
    elsewhere = scene.guild.create_text_channel("lounge")
    status = await bob.slash(elsewhere, "table status")
    assert "Showdown" in status.response.content and str(scene.channel.id) in (
        status.response.content
    )
    left = await bob.slash(elsewhere, "table leave")
    assert "You left the table" in left.response.content
    assert the_table(scene).players == (ann.id,)
    cancelled = await ann.slash(elsewhere, "table cancel")
    assert "closed" in cancelled.response.content
    assert the_table(scene) is None


async def test_a_table_whose_channel_was_deleted_while_the_bot_was_down_is_closed(
    scene: Scene,
) -> None:
    players = await start_game(scene, "showdown", 2)
    scene.env.backend.delete_channel(scene.channel.id)
    await scene.restart()
    await scene.env.settle()
    assert not scene.tables.tables()
    assert await balances(scene, players) == [1_000, 1_000]


def form_default(opened: Any) -> str:
    """What the Type hands form's hands field was filled with."""
    modal = opened.modal
    assert modal is not None
    fields = [c for row in modal["components"] for c in row["components"]]
    hands = next(field for field in fields if field["custom_id"] == "hands")
    return str(hands.get("value") or "")


async def test_a_suggestion_never_fills_the_form_of_the_next_game(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    ann = players[0]
    first = the_table(scene).game_id
    shown = await ann.user.click(ann.user.dm_channel.last_message, label="Suggest")
    assert shown.acknowledged
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    suggested = form_default(opened)
    assert suggested  # in its own game the form starts from the suggestion
    await play_out(scene, players, "suggest")
    assert the_table(scene).games_played == 1
    again = await ann.slash(scene.channel, "table start")
    assert again.acknowledged
    await declare_all(scene, players)
    assert the_table(scene).game_id != first
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    assert form_default(opened) == ""


async def test_a_suggest_button_from_an_earlier_game_says_so(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    ann = players[0]
    old_dm = ann.user.dm_channel.last_message
    await play_out(scene, players, "suggest")
    await ann.slash(scene.channel, "table start")
    await declare_all(scene, players)
    pressed = await ann.user.click(old_dm, label="Suggest")
    assert pressed.acknowledged and "over" in pressed.response.content
