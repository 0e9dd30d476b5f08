"""The table's lobby: ``/table`` (open, join, leave, start, cancel, kick, status) and the Join,
Leave, Start and Deal again buttons under the lobby message and the showdown."""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import answer, reply, run, services
from cogs.controls import Button, Control, Interaction
from tables.config import make_config
from tables.games import GAMES
from tables.options import WHEELS, TableDefaults

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
SILENT_CHOICES = [
    app_commands.Choice(name="plays on", value="play"),
    app_commands.Choice(name="surrenders", value="surrender"),
]
WHEEL_CHOICES = [app_commands.Choice(name=wheel.capitalize(), value=wheel) for wheel in WHEELS]


def _where(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage("Tables live in server channels.")
    return interaction.guild_id, interaction.channel_id


def _yours(interaction: discord.Interaction[Any], *, here_first: bool = False) -> tuple[int, int]:
    """The table a command acts on: yours, wherever on the server you typed it.

    A table in this channel that seats you comes first; with ``here_first`` any table in this
    channel does (status, cancel). Otherwise the table where you sit on this server, else this
    channel (whose table, if any, answers with its own sentence).
    """
    guild, channel = _where(interaction)
    tables = services(interaction).tables
    user = interaction.user.id
    here = tables.table(guild, channel)
    if here is not None and (here_first or here.is_seated(user)):
        return guild, channel
    mine = tables.table_of(guild, user)
    return (guild, mine.channel_id) if mine is not None else (guild, channel)


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


class TableCog(
    commands.GroupCog, group_name="table", group_description="Play at this channel's table"
):
    """The lobby commands."""

    @app_commands.command(name="create", description="Open a table in this channel")
    @app_commands.describe(
        game="Which game to play",
        ante="Chips each player antes (each wager in the three-card game); default: the server's",
        seats="How many players may sit",
        declare_seconds="Seconds to declare play or surrender (15-3600)",
        arrange_seconds="Seconds to set your hands (15-3600)",
        silent="What a player silent at a declaration deadline declares (games with declarations)",
        ties_to_dealer="Three-card game: a tied hand goes to the dealer",
        decks="Three-card game: decks in the shoe (6-8)",
        wheel="Pai Gow: where A-2-3-4-5 ranks (Nevada: second-highest; California: lowest)",
    )
    @app_commands.choices(game=GAME_CHOICES, silent=SILENT_CHOICES, wheel=WHEEL_CHOICES)
    @app_commands.guild_only()
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        ante: app_commands.Range[int, 1, 1_000_000] | None = None,
        seats: app_commands.Range[int, 1, 6] | None = None,
        declare_seconds: app_commands.Range[int, 15, 3600] = 60,
        arrange_seconds: app_commands.Range[int, 15, 3600] = 180,
        silent: app_commands.Choice[str] | None = None,
        ties_to_dealer: bool | None = None,
        decks: app_commands.Range[int, 6, 8] | None = None,
        wheel: app_commands.Choice[str] | None = None,
    ) -> None:
        """Open a table with the caller seated as host; options left out take the server's."""
        guild, channel = _where(interaction)
        found = services(interaction)

        async def create() -> object:
            server = await found.storage.settings.get(guild)
            config = make_config(
                game.value,
                ante=ante,
                seats=seats,
                declaration_seconds=declare_seconds,
                arrangement_seconds=arrange_seconds,
                afk_plays_on=None if silent is None else silent.value == "play",
                ties_to_dealer=ties_to_dealer,
                decks=decks,
                wheel=None if wheel is None else wheel.value,
                defaults=TableDefaults.from_json(server.table_defaults),
            )
            return await found.tables.create(
                guild, channel, interaction.user.id, config, name=interaction.user.display_name
            )

        await run(interaction, create, done=f"You opened a {game.name} table here.")

    @app_commands.command(name="join", description="Sit at this channel's table")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a seat."""
        await lobby_action(interaction, *_where(interaction), "join")

    @app_commands.command(
        name="leave", description="Leave your table (in the lobby), from anywhere"
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Give up the seat, whichever channel of the server the table is in."""
        await lobby_action(interaction, *_yours(interaction), "leave")

    @app_commands.command(name="start", description="Deal the game (host only)")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Escrow the antes and deal."""
        await lobby_action(interaction, *_where(interaction), "start")

    @app_commands.command(
        name="cancel", description="Close the table; a game under way is refunded"
    )
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table (host, or anyone with Manage Server); yours if none is here."""
        guild, channel = _yours(interaction, here_first=True)
        tables = services(interaction).tables
        admin = _is_admin(interaction)
        await run(
            interaction,
            lambda: tables.cancel(guild, channel, interaction.user.id, is_admin=admin),
            done="The table is closed; every chip put up was returned.",
        )

    @app_commands.command(name="kick", description="Remove an unresponsive player (host only)")
    @app_commands.describe(player="The player to remove")
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        """Remove a player; mid-game the table plays for them."""
        guild, channel = _where(interaction)
        tables = services(interaction).tables
        await run(
            interaction,
            lambda: tables.kick(guild, channel, interaction.user.id, player.id),
            done=f"{player.mention} was removed.",
        )

    @app_commands.command(name="status", description="Who sits here and what the table waits for")
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """Describe the table here, or yours elsewhere on the server."""
        guild, channel = _yours(interaction, here_first=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = services(interaction).tables.table(guild, channel)
        if table is None:
            await answer(interaction, "There is no table here; open one with `/table create`.")
            return
        seated = ", ".join(f"<@{u}>" for u in table.players)
        where = "" if channel == interaction.channel_id else f" in <#{channel}>"
        lines = [
            f"**{table.spec.title}**{where}, ante {table.config.ante}, host <@{table.host}>.",
            f"Seated ({len(table.seats)}/{table.config.seats}): {seated}.",
            f"Phase: {table.phase.value}; games played: {table.games_played}.",
        ]
        waiting = table.waiting_for()
        if waiting:
            lines.append("Waiting for: " + ", ".join(f"<@{u}>" for u in waiting) + ".")
        if table.deadline and table.in_game:
            lines.append(f"Deadline <t:{int(table.deadline)}:R>.")
        elif table.deadline:
            lines.append(f"Closes <t:{int(table.deadline)}:R> unless a game starts.")
        await answer(interaction, "\n".join(lines))


# ----- joining, leaving and dealing: the commands and the buttons alike --------------------------

#: What Join, Leave and Start (buttons or ``/table`` commands) say when they are done.
_LOBBY_DONE: Final = {
    "join": "You sit at the table.",
    "leave": "You left the table.",
    "start": "Dealt. Cards are on their way by DM.",
}


async def lobby_action(interaction: Interaction, guild: int, channel: int, action: str) -> None:
    """Sit down, stand up, or deal, for the button or the command alike."""
    tables = services(interaction).tables
    user = interaction.user.id
    name = interaction.user.display_name
    calls = {
        "join": lambda: tables.join(guild, channel, user, name=name),
        "leave": lambda: tables.leave(guild, channel, user),
        "start": lambda: tables.start(guild, channel, user),
    }
    await run(interaction, calls[action], done=_LOBBY_DONE[action])


_LOBBY_LABELS: Final = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
    # Under a showdown: the host deals the next hand to whoever is still seated.
    "again": ("Deal again", discord.ButtonStyle.success),
}


class LobbyButton(Control[Button], custom_id="pp:lobby:{action:join|leave|start|again}"):
    """Join, Leave or Start under the lobby message; Deal again, Join, Leave under a showdown."""

    def __init__(self, *, action: str) -> None:
        super().__init__(self.button(*_LOBBY_LABELS[action], action=action))
        self.action = action

    async def act(self, interaction: Interaction) -> None:
        """Sit down, stand up, or deal."""
        guild, channel = interaction.guild_id, interaction.channel_id
        if guild is None or channel is None:
            await reply(interaction, "Use this in the channel of the table.")
            return
        action = "start" if self.action == "again" else self.action
        await lobby_action(interaction, guild, channel, action)


def lobby_view() -> discord.ui.View:
    """Join, Leave and Start: buttons that work after a restart too."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start"):
        view.add_item(LobbyButton(action=action))
    return view


def next_hand_view() -> discord.ui.View:
    """Under a showdown: Deal again (the host), Join (a newcomer), Leave (a player done)."""
    view = discord.ui.View(timeout=None)
    for action in ("again", "join", "leave"):
        view.add_item(LobbyButton(action=action))
    return view
