"""What a player meets around a game: Deal again, /help, the DM's cards as text."""

from __future__ import annotations

import re
from typing import Any

import discord

from engine.cards import parse_cards
from tests.cogs.helpers import Scene, play_out, start_game, the_table


def showdown_message(scene: Scene) -> Any:
    return next(m for m in reversed(scene.channel.history()) if m.content.startswith("**Showdown"))


async def test_deal_again_plays_the_next_hand_with_whoever_is_seated(scene: Scene) -> None:
    players = await start_game(scene, "casino", 3)
    await play_out(scene, players, "timer")
    ann, bob, cy = players
    first = showdown_message(scene)
    labels = [c.label for row in first.components for c in row.children]
    assert labels[:3] == ["Deal again", "Join", "Leave"]
    # Seated players are asked, not forced: Cy leaves, Bob may not deal, Ann (the host) deals.
    left = await cy.click(first, label="Leave")
    assert left.response.content == "You left the table."
    refused = await bob.click(first, label="Deal again")
    assert refused.response.content == "Only the table's host can start the game."
    dealt = await ann.click(first, label="Deal again")
    assert dealt.response.content == "Dealt. Cards are on their way by DM."
    table = await the_table(scene)
    assert table.in_game and table.players == (ann.id, bob.id)
    await play_out(scene, [ann, bob], "timer")
    assert (await the_table(scene)).games_played == 2
    assert showdown_message(scene).id != first.id


async def test_help_is_a_private_guide_to_a_game_and_every_command(scene: Scene) -> None:
    helped = await scene.members[0].slash(scene.channel, "help")
    assert helped.ephemeral
    text = helped.response.content
    assert len(text) <= 2000
    for words in ("/table create", "Build hands", "Type hands", "Suggest", "/settings", "/rules"):
        assert words in text, words
    # Every command the bot registers is named (a group's by its subcommands, after the group).
    for command in scene.bot.tree.get_commands(guild=discord.Object(scene.guild.id)):
        if isinstance(command, discord.app_commands.Group):
            if command.name in ("settings", "chips"):
                assert f"/{command.name}" in text, command.name
                continue
            for sub in command.commands:
                assert f"`{sub.name}`" in text or f"/{command.name} {sub.name}" in text, sub.name
        else:
            assert f"/{command.name}" in text, command.name


async def test_the_dm_carries_the_cards_sorted_as_text_to_copy(scene: Scene) -> None:
    players = await start_game(scene, "showdown", 2)
    ann = players[0]
    dm = ann.user.dm_channel.last_message
    assert "Showdown Version" in dm.content
    block = re.search(r"```\n(.+)\n```", dm.content)
    assert block is not None
    cards = parse_cards(block[1])
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, ann.id)
    assert sorted(c.code for c in cards) == sorted(c.code for c in held)
    # Jokers first, then from the highest card down: the order of the picture.
    order = [99 if c.is_joker else c.code for c in cards]
    assert order == sorted(order, reverse=True)
    # What is copied is what /arrange reads.
    assert len(cards) == 20 and all(str(c) in block[1] for c in cards)


async def test_the_bot_asks_discord_for_the_guilds_intent_only(scene: Scene) -> None:
    assert scene.bot.intents == discord.Intents(guilds=True)
    # And everything still works through interactions: a table opens.
    opened = await scene.members[0].slash(scene.channel, "table create", game="casino")
    assert "You opened" in opened.response.content
