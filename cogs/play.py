"""Playing a hand: ``/hand`` and ``/arrange`` (by text, previewed, or the solver's suggestion)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import acknowledge, answer, picture, png, services
from cogs.views import show_hand, suggest
from engine.errors import GameError
from render import hands_png
from tables.hands import hand_labels, read_setting


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
        """Check, preview and set the hands."""
        await acknowledge(interaction)
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        found = services(interaction)
        table = found.tables.table(guild, channel)
        try:
            if table is None:
                raise GameError("There is no table here; open one with `/table create`.")
            seat = table.seat_of(interaction.user.id)
            setting = read_setting(table.spec, seat.held, hands, automatic)
            await found.tables.submit(guild, channel, interaction.user.id, hands, automatic)
        except GameError as error:
            await answer(interaction, str(error))
            return
        labels = hand_labels(table.spec, setting.hands)
        data = await picture(hands_png, setting.hands, labels, title="Your hands")
        await answer(
            interaction,
            f"Set: `{setting.text}`. You may replace them until everyone is in.",
            file=png(data, "hands.png"),
        )

    @arrange.command(name="suggest", description="The solver's arrangement of your cards")
    async def arrange_suggest(self, interaction: discord.Interaction[Any]) -> None:
        """Show the suggestion with a Take it button."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        await suggest(interaction, guild, channel)
