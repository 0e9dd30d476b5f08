"""Playing a hand: ``/hand`` and ``/arrange`` (by text, previewed, or the solver's suggestion)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import services
from cogs.views import build_step, preview_text, show_hand, suggest
from engine.errors import GameError


class PlayCog(commands.Cog):
    """The player's own cards and hands."""

    @app_commands.command(name="hand", description="See your cards at this channel's table")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The caller's cards, shown only to them (the fallback for closed DMs)."""
        await show_hand(interaction, interaction.guild_id, interaction.channel_id)

    arrange = app_commands.Group(name="arrange", description="Set your hands", guild_only=True)

    @arrange.command(name="hands", description="Set your hands, weakest first, separated by |")
    @app_commands.describe(
        hands='e.g. "As | Kh Kd 9s | Qs Qh Qd | ..."; add "|| cards" to name the discards',
        automatic="Declare an automatic (17-card games): three full houses, dragon, ...",
    )
    async def arrange_hands(
        self, interaction: discord.Interaction[Any], hands: str, automatic: str | None = None
    ) -> None:
        """Check the hands and preview them as a picture, with a button that sets them."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        await preview_text(interaction, guild, channel, hands, automatic)

    @arrange.command(name="build", description="Choose your hands card by card from menus")
    async def arrange_build(self, interaction: discord.Interaction[Any]) -> None:
        """Open the builder (only the caller sees it)."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        table = services(interaction).tables.table(guild, channel)
        if table is None or table.game_id is None:
            raise GameError("No game is under way at this table.")
        await build_step(interaction, table.game_id, "_", "start")

    @arrange.command(name="suggest", description="The solver's arrangement of your cards")
    async def arrange_suggest(self, interaction: discord.Interaction[Any]) -> None:
        """Show the suggestion with a Take it button."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        await suggest(interaction, guild, channel)
