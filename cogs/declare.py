"""Declarations: the Play and Surrender buttons sent by DM for one declaration of one game."""

from __future__ import annotations

from typing import Final

import discord

from cogs.common import run, services
from cogs.controls import Button, Control, Interaction, current_table
from tables.phase import Phase

_CHOICES: Final = {
    "play": ("Play", discord.ButtonStyle.success),
    "surrender": ("Surrender", discord.ButtonStyle.danger),
}


class DeclareButton(
    Control[Button],
    custom_id="pp:declare:{guild:int}:{channel:int}:{game:int}:{round:int}:{choice:play|surrender}",
):
    """Play or Surrender, sent by DM for one declaration of one game."""

    def __init__(self, *, guild: int, channel: int, game: int, round: int, choice: str) -> None:
        label, style = _CHOICES[choice]
        ids = {"guild": guild, "channel": channel, "game": game, "round": round}
        super().__init__(self.button(label, style, **ids, choice=choice))
        self.guild, self.channel, self.game = guild, channel, game
        self.round, self.play = round, choice == "play"

    async def act(self, interaction: Interaction) -> None:
        """Declare, if this button's declaration is still open."""
        tables = services(interaction).tables
        key = (self.guild, self.channel)
        await current_table(
            interaction, self.game, phase=Phase.DECLARING, key=key, round_=self.round
        )
        word = "play on" if self.play else "surrender"
        await run(
            interaction,
            lambda: tables.declare(self.guild, self.channel, interaction.user.id, self.play),
            done=f"You declared: {word}. It stays secret until everyone has declared.",
        )


def declare_view(guild: int, channel: int, game: int, round_: int) -> discord.ui.View:
    """Play and Surrender for one declaration."""
    view = discord.ui.View(timeout=None)
    for choice in _CHOICES:
        view.add_item(
            DeclareButton(guild=guild, channel=channel, game=game, round=round_, choice=choice)
        )
    return view
