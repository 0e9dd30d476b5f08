"""Defects found by trying to break the bot, pinned through the simulated Discord."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs.controls import NOT_CURRENT
from engine.cards import format_cards, sort_cards
from tables.hands import unsplit_text
from tests.cogs.helpers import (
    Scene,
    declare_all,
    form_default,
    open_table,
    play_out,
    start_game,
    the_table,
)


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
    assert not await scene.tables.tables()
    assert await balances(scene, players) == [1_000, 1_000, 1_000]
    for member in players:
        assert dm_texts(member)[-1] == (
            "Your **Showdown Version** table on **Poker Club** was closed: its channel #pyramid "
            "was deleted. The 10 chips you had put up came back to you."
        )
    # Free again: a new table in another channel seats them.
    other = scene.guild.create_text_channel("poker-two")
    created = await players[1].slash(other, "table create", game="casino")
    assert created.response.content == "You opened a Casino Version table here."


async def test_the_bot_removed_from_a_server_closes_its_tables(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    scene.env.backend.remove_guild(scene.guild.id)
    await scene.env.settle()
    assert not await scene.tables.tables()
    storage = scene.bot.services.storage
    for member in players:
        assert await storage.players.balance(scene.guild.id, member.id) == 1_000


async def test_a_channel_the_bot_can_no_longer_post_in_closes_its_table(scene: Scene) -> None:
    players = await start_game(scene, "showdown", 2)
    # The channel vanished while the bot was not looking: posting there answers Unknown Channel.
    scene.env.inject_error(
        "POST", f"/channels/{scene.channel.id}/messages", status=404, code=10003, times=None
    )
    # The game plays on by DM; its showdown cannot be posted, and the table closes then.
    for _ in range(6):
        table = await the_table(scene)
        if table is None:
            break
        await scene.env.advance_time(max(table.config.declaration_seconds, 180) + 1)
        await scene.env.settle()
    assert not await scene.tables.tables()
    storage = scene.bot.services.storage
    assert sum(await balances(scene, players)) == 2_000  # settled, not lost
    assert await storage.chips.escrowed(1) == {}


async def test_leave_and_status_work_from_any_channel_of_the_server(scene: Scene) -> None:
    ann, bob = await open_table(scene, "showdown", 2)
    elsewhere = scene.guild.create_text_channel("lounge")
    status = await bob.slash(elsewhere, "table status")
    assert status.response.content.split("\n")[0] == (
        f"**Showdown Version** in <#{scene.channel.id}>, ante 10, host <@{ann.id}>."
    )
    left = await bob.slash(elsewhere, "table leave")
    assert left.response.content == "You left the table."
    assert (await the_table(scene)).players == (ann.id,)
    cancelled = await ann.slash(elsewhere, "table cancel")
    assert cancelled.response.content == "The table is closed; it held no chips."
    assert await the_table(scene) is None


async def test_a_table_whose_channel_was_deleted_while_the_bot_was_down_is_closed(
    scene: Scene,
) -> None:
    players = await start_game(scene, "showdown", 2)
    scene.env.backend.delete_channel(scene.channel.id)
    await scene.restart()
    await scene.env.settle()
    assert not await scene.tables.tables()
    assert await balances(scene, players) == [1_000, 1_000]


async def test_a_suggestion_never_fills_the_form_of_the_next_game(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    ann = players[0]
    first = (await the_table(scene)).game_id
    shown = await ann.user.click(ann.user.dm_channel.last_message, label="Suggest")
    assert shown.acknowledged
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    suggested = form_default(opened)
    assert suggested  # in its own game the form starts from the suggestion
    await play_out(scene, players, "suggest")
    assert (await the_table(scene)).games_played == 1
    again = await ann.slash(scene.channel, "table start")
    assert again.acknowledged
    await declare_all(scene, players)
    assert (await the_table(scene)).game_id != first
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    # The new game's form starts from the new cards, in one line (no suggestion yet).
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, ann.id)
    assert form_default(opened) == unsplit_text(held) != suggested


async def test_a_suggest_button_from_an_earlier_game_says_so(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    ann = players[0]
    old_dm = ann.user.dm_channel.last_message
    await play_out(scene, players, "suggest")
    await ann.slash(scene.channel, "table start")
    await declare_all(scene, players)
    pressed = await ann.user.click(old_dm, label="Suggest")
    assert pressed.acknowledged and pressed.response.content == str(NOT_CURRENT)


# ----- every sentence fits Discord's limits; forged controls get a sentence -------------------

DISCORD_LIMIT = 2000
LONG = "A" * 5_000


def a_sentence(result: Any) -> str:
    """The answer's text, checked to be a short sentence and not an internal failure."""
    assert result.acknowledged
    text = result.response.content
    assert text and len(text) <= DISCORD_LIMIT, len(text)
    assert "Something went wrong" not in text, text
    return str(text)


async def test_a_long_arrangement_gets_a_short_sentence(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    ann = players[0]
    a_sentence(await ann.slash(scene.channel, "arrange hands", hands=LONG))
    a_sentence(await ann.slash(scene.channel, "arrange hands", hands=" | ".join([LONG] * 3)))
    a_sentence(await ann.slash(scene.channel, "arrange hands", hands="As", automatic=LONG))
    a_sentence(await ann.slash(scene.channel, "arrange hands", hands="As " * 1_500))
    assert (await the_table(scene)).seat_of(ann.id).setting is None


async def test_a_long_evaluate_gets_a_short_sentence(scene: Scene) -> None:
    ann = scene.members[0]
    a_sentence(await ann.slash(scene.channel, "evaluate", cards=LONG))
    a_sentence(await ann.slash(scene.channel, "evaluate", cards=" ".join(["Zz"] * 1_500)))
    a_sentence(await ann.slash(scene.channel, "evaluate", cards="As " * 1_500))


async def post_control(scene: Scene, custom_id: str) -> Any:
    """A message of the bot's carrying a button with this custom id (as a forger would send)."""
    import discord

    channel = scene.bot.get_channel(scene.channel.id)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Press", custom_id=custom_id))
    await channel.send("forged", view=view)
    await scene.env.settle()
    return scene.channel.last_message


async def test_forged_or_garbled_controls_get_a_sentence(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    game = (await the_table(scene)).game_id
    ann = players[0]
    for custom_id in (
        f"pp:build:{game}:zz_q:submit",
        f"pp:build:{game}:0-_1:undo",
        f"pp:confirm:{game}:0-12-345:99",
        f"pp:confirm:{game}:_-z:",
        f"pp:declare:1:2:{game}:7:play",
        f"pp:hand:{game}",
        "pp:suggest:1:2:3",
        "pp:lobby:explode",
        "pp:nothing:at:all",
    ):
        message = await post_control(scene, custom_id)
        a_sentence(await ann.click(message, label="Press"))
    assert (await the_table(scene)).seat_of(ann.id).setting is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a traceback was logged"


def showdown_posts(scene: Scene) -> list[Any]:
    return [m for m in scene.channel.history() if m.content.startswith("**Showdown, game ")]


def wait_for_retries_virtually(scene: Scene) -> None:
    """Leave the outbox's retries (5 s first) to virtual time: simcord runs a timer due within
    its settling time in real time, and would wait for it."""
    scene.env.settle_timeout = 3.0


async def test_a_showdown_discord_answers_500_to_is_posted_once_discord_recovers(
    scene: Scene,
) -> None:
    wait_for_retries_virtually(scene)
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    # Discord's servers fail twice at the showdown, then recover.
    scene.env.inject_error("POST", f"/channels/{scene.channel.id}/messages", status=500, times=2)
    table = await the_table(scene)
    await scene.env.advance_time(table.config.arrangement_seconds + 1)
    await scene.env.settle()
    assert await the_table(scene) is not None and not showdown_posts(scene)
    storage = scene.bot.services.storage
    assert await storage.outbox.pending(scene.guild.id, scene.channel.id), "the showdown was lost"
    for _ in range(2):
        await scene.env.advance_time(300)  # the longest wait between tries
        await scene.env.settle()
    [showdown] = showdown_posts(scene)
    assert showdown.attachments
    assert not await storage.outbox.pending(scene.guild.id, scene.channel.id)


async def test_the_cards_discord_rate_limits_are_dmed_once_the_limit_passes(
    scene: Scene,
) -> None:
    wait_for_retries_virtually(scene)
    players = await open_table(scene, "casino", 2)
    # Opening the DMs answers 429 (after discord.py's own tries) three times.
    scene.env.inject_error("POST", "/users/@me/channels", status=429, times=3)
    started = await players[0].slash(scene.channel, "table start")
    assert started.acknowledged
    await scene.env.settle()
    assert not any(dm_texts(member) for member in players if member.user.dm_channel)
    # Tried again 5, 10 and 20 s apart: well before the declaration's minute is up.
    await scene.env.advance_time(40)
    await scene.env.settle()
    for member in players:
        held = await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)
        dm = member.user.dm_channel.last_message
        assert dm.content.startswith("**Casino Version** in") and "Declaration 1" in dm.content
        assert dm.attachments and format_cards(sort_cards(held)) in dm.content


async def test_a_click_while_the_database_is_away_reads_one_sentence_and_logs_no_traceback(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ann = scene.members[0]
    storage = scene.bot.services.storage
    # The store says a refused connection means it is away (PostgreSQL's does; a file cannot).
    monkeypatch.setattr(
        storage.database.health,
        "diagnose",
        lambda error: "connection refused" if isinstance(error, ConnectionRefusedError) else None,
    )

    async def away(*args: Any, **kwargs: Any) -> int:
        raise ConnectionRefusedError("connection refused")

    monkeypatch.setattr(storage.players, "get_or_create", away)
    with caplog.at_level(logging.INFO):
        first = await ann.slash(scene.channel, "balance")
        second = await ann.slash(scene.channel, "balance")
    sentence = "The bot cannot reach its database just now; nothing was changed. Try again soon."
    assert first.response.content == sentence
    assert second.response.content == sentence
    # One warning for the outage, however many clicks failed; no traceback.
    assert not [r for r in caplog.records if r.exc_info]
    assert [r.levelno for r in caplog.records if r.name == "storage.health"] == [logging.WARNING]
