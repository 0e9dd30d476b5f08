"""``/settings`` and the table options: admins change a server's defaults, tables follow them."""

from __future__ import annotations

import os
import socket

import discord

from tables.config import make_config
from tests.cogs.helpers import Scene, an_admin, the_table


async def test_settings_refuse_a_member_who_may_not_manage_the_server(scene: Scene) -> None:
    commands = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    bob = scene.members[1]
    # A server may unhide the group; the bot still checks.
    scene.guild.set_command_permissions(
        next(c for c in commands if c.name == "settings"), {bob: True}
    )
    refused = await bob.slash(scene.channel, "settings lobby", minutes=5)
    assert refused.ephemeral
    assert refused.response.content == "Only members who may manage this server can do that."
    assert (await scene.bot.services.storage.settings.get(scene.guild.id)).lobby_minutes == 30


async def test_an_admin_changes_the_defaults_and_new_tables_follow(scene: Scene) -> None:
    ann = an_admin(scene)
    shown = await ann.slash(scene.channel, "settings show")
    assert "start with **1,000** chips" in shown.response.content
    changed = await ann.slash(scene.channel, "settings tables", wheel="california", decks=8)
    assert "**California** wheel" in changed.response.content
    assert "**8** decks" in changed.response.content
    await ann.slash(scene.channel, "settings ante", game="showdown", chips=25)
    await ann.slash(scene.channel, "settings lobby", minutes=5)
    await ann.slash(scene.channel, "settings chips", starting=500, daily=50)
    settings = await scene.bot.services.storage.settings.get(scene.guild.id)
    assert (settings.starting_chips, settings.daily_bonus, settings.lobby_minutes) == (500, 50, 5)
    await ann.slash(scene.channel, "table create", game="paigow")
    table = await the_table(scene)
    assert table.config.options.wheel == "california" and table.config.lobby_seconds == 300
    await ann.slash(scene.channel, "table cancel")
    await ann.slash(scene.channel, "table create", game="showdown")
    assert (await the_table(scene)).config.ante == 25
    await ann.slash(scene.channel, "table cancel")
    # A table may choose again.
    await ann.slash(scene.channel, "table create", game="three-card", decks=6)
    table = await the_table(scene)
    assert table.config.options.decks == 6 and table.spec.decks == 6


async def test_a_servers_deadlines_are_the_default_of_every_new_table(scene: Scene) -> None:
    ann = an_admin(scene)
    shown = await ann.slash(scene.channel, "settings show")
    assert "- Deadlines: **60** s to declare, **180** s to set hands." in (
        shown.response.content.splitlines()
    )
    # Was: only per table, with /table create's declare_seconds and arrange_seconds.
    changed = await ann.slash(
        scene.channel, "settings tables", declare_seconds=30, arrange_seconds=300
    )
    assert "- Deadlines: **30** s to declare, **300** s to set hands." in (
        changed.response.content.splitlines()
    )
    await ann.slash(scene.channel, "table create", game="standard")
    options = (await the_table(scene)).config.options
    assert (options.declaration_seconds, options.arrangement_seconds) == (30, 300)
    await ann.slash(scene.channel, "table cancel")
    # A table may choose again.
    await ann.slash(scene.channel, "table create", game="standard", arrange_seconds=90)
    options = (await the_table(scene)).config.options
    assert (options.declaration_seconds, options.arrangement_seconds) == (30, 90)
    # They are the server's settings: a restart keeps them.
    await scene.restart()
    defaults = (await scene.bot.services.tables.server(scene.guild.id)).defaults
    assert (defaults.declaration_seconds, defaults.arrangement_seconds) == (30, 300)


async def test_an_option_for_another_game_is_refused_with_a_sentence(scene: Scene) -> None:
    ann = scene.members[0]
    refused = await ann.slash(scene.channel, "table create", game="showdown", wheel="nevada")
    assert refused.response.content == "The wheel option is for Pai Gow, not Showdown Version."
    assert await the_table(scene) is None
    refused = await ann.slash(scene.channel, "table create", game="no-surrender", ante=5)
    assert refused.response.content == (
        "No-Surrender (17 cards) has no ante: chips change by points only."
    )
    refused = await ann.slash(scene.channel, "table create", game="paigow", silent="surrender")
    assert refused.response.content == (
        "The silent option is for games with declarations, not Pai Gow poker."
    )


async def test_a_table_option_changes_the_game_it_deals(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    await ann.slash(scene.channel, "table create", game="three-card", ties_to_dealer=True, decks=8)
    await bob.slash(scene.channel, "table join")
    await ann.slash(scene.channel, "table start")
    spec = (await the_table(scene)).spec
    assert spec.decks == 8 and spec.numbers.ties_to_dealer


async def another_servers_table(scene: Scene) -> None:
    """A lobby on another server of the bot, which has a deadline of its own."""
    other = scene.env.create_guild("Card Room")
    channel = other.create_text_channel("tables")
    host = other.add_member(scene.env.create_user("gus"))
    await scene.tables.create(other.id, channel.id, host.id, make_config("showdown"))


async def test_status_shows_a_server_admin_only_that_servers_tables(scene: Scene) -> None:
    ann, bob = an_admin(scene), scene.members[1]
    await bob.slash(scene.channel, "table create", game="showdown")
    await another_servers_table(scene)
    shown = await ann.slash(scene.channel, "settings status")
    assert shown.ephemeral
    assert shown.response.content == (
        f"This server has **1** open table: <#{scene.channel.id}>; **1** deadline waits here."
    )
    commands = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    scene.guild.set_command_permissions(
        next(c for c in commands if c.name == "settings"), {bob: True}
    )
    refused = await bob.slash(scene.channel, "settings status")
    assert refused.ephemeral
    assert refused.response.content == "Only members who may manage this server can do that."


async def test_status_shows_the_bots_owner_the_store_the_processes_and_the_whole_bot(
    scene: Scene,
) -> None:
    ann, bob = an_admin(scene), scene.members[1]
    # As OWNER_IDS sets it (tests/test_bot.py); unset, the application's owner.
    scene.bot.owner_ids = {ann.id}
    await bob.slash(scene.channel, "table create", game="showdown")
    await another_servers_table(scene)
    shown = await ann.slash(scene.channel, "settings status")
    text = shown.response.content
    assert shown.ephemeral
    assert text.startswith(
        f"This server has **1** open table: <#{scene.channel.id}>; **1** deadline waits here.\n"
    )
    assert "SQLite, one process" in text
    # The bot announced itself when it started: its process is listed, with its shards.
    assert "**1** process alive" in text and "shards all" in text
    assert f"`{socket.gethostname()}` pid {os.getpid()}" in text
    assert "**2** open tables and **2** deadlines across the bot" in text
