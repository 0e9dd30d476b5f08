"""``/settings house``: an admin reads the house's chips per day and sets the daily cap on what
its computers pay a player."""

from __future__ import annotations

import discord

from engine.settlement import HOUSE, Transfer
from render.style import signed
from storage.rows import HouseNets
from tests.cogs.helpers import Scene, an_admin


async def test_an_admin_reads_the_houses_net_per_day_and_sets_the_daily_cap(scene: Scene) -> None:
    ann, bob = an_admin(scene), scene.members[1]
    storage = scene.bot.services.storage
    guild = scene.guild.id
    # Bob beat the house's computers for 40 today.
    await storage.players.get_or_create(guild, bob.id)
    game = await storage.games.create(guild_id=guild, channel_id=scene.channel.id, game="standard")
    await storage.chips.escrow(game.id, {bob.id: 20}, "ante")
    day = await storage.house.today(guild, [bob.id])
    await storage.chips.settle(
        game.id, [Transfer(HOUSE, bob.id, 40, "points")], house_nets=HouseNets(day, {bob.id: 40})
    )
    shown = await ann.slash(scene.channel, "settings house")
    assert shown.ephemeral
    assert shown.response.content == "\n".join(
        [
            "**The house's chips** (up: the house won them; the days are UTC):",
            f"- today: **{signed(-40)}** ({signed(-40)} at tables with computers)",
            "- yesterday: **0** (0 at tables with computers)",
            f"- the last 7 days: **{signed(-40)}** ({signed(-40)} at tables with computers)",
            "The house's computers pay a player at most **100** chips a day, net "
            "(`/settings house cap:` to change it); past that, the house keeps the rest.",
        ]
    )
    changed = await ann.slash(scene.channel, "settings house", cap=250)
    assert "at most **250** chips a day" in changed.response.content
    assert (await storage.settings.get(guild)).house_cap == 250
    assert (await storage.house.today(guild, [bob.id])).room(bob.id) == 210
    settings = await ann.slash(scene.channel, "settings show")
    assert "they pay a player at most **250** chips a day" in settings.response.content


async def test_a_member_who_may_not_manage_the_server_cannot_change_the_cap(scene: Scene) -> None:
    bob = scene.members[1]
    # A server may unhide the group; the bot still checks.
    commands = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    scene.guild.set_command_permissions(
        next(c for c in commands if c.name == "settings"), {bob: True}
    )
    refused = await bob.slash(scene.channel, "settings house", cap=1_000_000)
    assert refused.ephemeral and "manage this server" in refused.response.content
    assert (await scene.bot.services.storage.settings.get(scene.guild.id)).house_cap == 100
