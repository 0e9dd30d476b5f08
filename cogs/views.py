"""Buttons that survive a restart: ``DynamicItem``s whose custom ids carry what they act on.

Custom ids are ``pp:<feature>:<ids>`` (Discord allows 100 characters). A button pressed by
someone it does not concern, or left over from an earlier round, answers with a sentence only
its presser sees.
"""

from __future__ import annotations

import re
from typing import Any, Final

import discord

from cogs.common import acknowledge, answer, picture, png, run, services
from engine.errors import GameError
from render import hand_png, hands_png
from tables.hands import Setting, hand_labels
from tables.table import Phase

Interaction = discord.Interaction[Any]


_LOBBY_LABELS: Final = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pp:lobby:(?P<action>join|leave|start)",
):
    """Join, Leave or Start under the lobby message."""

    def __init__(self, action: str) -> None:
        label, style = _LOBBY_LABELS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"pp:lobby:{action}")
        )
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        """Rebuild the button from its custom id."""
        return cls(match["action"])

    async def callback(self, interaction: Interaction) -> None:
        """Sit down, stand up, or deal."""
        guild, channel, user = interaction.guild_id, interaction.channel_id, interaction.user.id
        if guild is None or channel is None:
            return
        tables = services(interaction).tables
        if self.action == "join":
            await run(
                interaction, lambda: tables.join(guild, channel, user), done="You sit at the table."
            )
        elif self.action == "leave":
            await run(
                interaction, lambda: tables.leave(guild, channel, user), done="You left the table."
            )
        else:
            await run(
                interaction,
                lambda: tables.start(guild, channel, user),
                done="Dealt. Check your DMs.",
            )


class DeclareButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pp:declare:(?P<guild>\d+):(?P<channel>\d+):(?P<game>\d+):(?P<round>\d+):(?P<choice>play|surrender)",
):
    """Play or Surrender, sent by DM for one declaration of one game."""

    def __init__(self, guild: int, channel: int, game: int, round_: int, play: bool) -> None:
        choice = "play" if play else "surrender"
        style = discord.ButtonStyle.success if play else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label="Play" if play else "Surrender",
                style=style,
                custom_id=f"pp:declare:{guild}:{channel}:{game}:{round_}:{choice}",
            )
        )
        self.guild, self.channel, self.game, self.round, self.play = (
            guild,
            channel,
            game,
            round_,
            play,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeclareButton:
        """Rebuild the button from its custom id."""
        return cls(
            int(match["guild"]),
            int(match["channel"]),
            int(match["game"]),
            int(match["round"]),
            match["choice"] == "play",
        )

    async def callback(self, interaction: Interaction) -> None:
        """Declare, if this button's declaration is still open."""
        tables = services(interaction).tables
        table = tables.table(self.guild, self.channel)
        if (
            table is None
            or table.game_id != self.game
            or table.phase is not Phase.DECLARING
            or table.round != self.round
        ):
            await interaction.response.send_message(
                "That declaration is over; these buttons no longer count.", ephemeral=True
            )
            return
        word = "play on" if self.play else "surrender"
        await run(
            interaction,
            lambda: tables.declare(self.guild, self.channel, interaction.user.id, self.play),
            done=f"You declared: {word}. It stays secret until everyone has declared.",
        )


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pp:hand:(?P<game>\d+)"):
    """ "Show my hand" in the channel: the presser's cards, shown only to them."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Show my hand",
                style=discord.ButtonStyle.secondary,
                custom_id=f"pp:hand:{game}",
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        """Show the cards privately."""
        await show_hand(interaction, interaction.guild_id, interaction.channel_id)


async def show_hand(interaction: Interaction, guild: int | None, channel: int | None) -> None:
    """Answer with the presser's cards at this channel's table, visible only to them."""
    await acknowledge(interaction)
    if guild is None or channel is None:
        await answer(interaction, "Use this in the channel of your table.")
        return
    try:
        cards = services(interaction).tables.hand(guild, channel, interaction.user.id)
    except GameError as error:
        await answer(interaction, str(error))
        return
    data = await picture(hand_png, cards, title="Your cards")
    await answer(interaction, "Your cards (only you see this):", file=png(data, "hand.png"))


class SuggestButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pp:suggest:(?P<guild>\d+):(?P<channel>\d+):(?P<game>\d+)",
):
    """Suggest: the solver's arrangement of the presser's cards, with Take it."""

    def __init__(self, guild: int, channel: int, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Suggest",
                style=discord.ButtonStyle.primary,
                custom_id=f"pp:suggest:{guild}:{channel}:{game}",
            )
        )
        self.guild, self.channel, self.game = guild, channel, game

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SuggestButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["guild"]), int(match["channel"]), int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        """Show the suggestion."""
        await suggest(interaction, self.guild, self.channel)


async def suggest(interaction: Interaction, guild: int, channel: int) -> None:
    """Answer with the solver's setting of the presser's cards and a button to take it."""
    await acknowledge(interaction)
    found = services(interaction)
    table = found.tables.table(guild, channel)
    try:
        suggestion = await found.tables.suggest(guild, channel, interaction.user.id)
    except GameError as error:
        await answer(interaction, str(error))
        return
    assert table is not None and table.game_id is not None
    setting = suggestion.setting
    found.suggestions[(channel, interaction.user.id)] = setting
    labels = hand_labels(table.spec, setting.hands)
    data = await picture(hands_png, setting.hands, labels, title="Suggested hands")
    ev = "" if suggestion.ev is None else f" Expected {suggestion.ev:+.2f} points per opponent."
    auto = (
        f" Declares the automatic **{setting.automatic.replace('_', ' ')}**."
        if setting.automatic
        else ""
    )
    view = discord.ui.View(timeout=None)
    view.add_item(TakeButton(guild, channel, table.game_id))
    await answer(
        interaction,
        f"`{setting.text}`{ev}{auto}\nTake it as it is, or edit it with `/arrange hands:`.",
        file=png(data, "suggestion.png"),
        view=view,
    )


class TakeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pp:take:(?P<guild>\d+):(?P<channel>\d+):(?P<game>\d+)",
):
    """Take the suggestion: submit the hands the solver showed."""

    def __init__(self, guild: int, channel: int, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Take it",
                style=discord.ButtonStyle.success,
                custom_id=f"pp:take:{guild}:{channel}:{game}",
            )
        )
        self.guild, self.channel, self.game = guild, channel, game

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TakeButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["guild"]), int(match["channel"]), int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        """Submit the suggestion (asked again if the bot restarted since)."""
        found = services(interaction)
        user = interaction.user.id
        table = found.tables.table(self.guild, self.channel)
        if table is None or table.game_id != self.game:
            await interaction.response.send_message("That game is over.", ephemeral=True)
            return
        await acknowledge(interaction)
        setting: Setting | None = found.suggestions.get((self.channel, user))
        try:
            if setting is None:
                setting = (await found.tables.suggest(self.guild, self.channel, user)).setting
            await found.tables.submit(
                self.guild, self.channel, user, setting.text, setting.automatic
            )
        except GameError as error:
            await answer(interaction, str(error))
            return
        await answer(
            interaction,
            f"Your hands are set: `{setting.text}`. You may replace them until everyone is in.",
        )


#: Every persistent item, registered in ``setup_hook``.
DYNAMIC_ITEMS = (LobbyButton, DeclareButton, HandButton, SuggestButton, TakeButton)
