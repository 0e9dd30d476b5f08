"""Tournaments: ``/tournament`` (create, cancel, status, standings, leaderboard) and the
Register and Unregister buttons under a tournament's registration message."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import answer, mention, mentions, run, services
from cogs.controls import Button, ChannelControl, Interaction
from engine.errors import GameError
from engine.players import Level
from render.style import signed
from storage import Storage
from storage.rows import TournamentEntry, TournamentRow, TournamentStatus
from tables.tournament import (
    LEVEL_HANDS,
    MAX_ENTRANTS,
    PRIZE_SHARES,
    SEATS,
    STACK,
    ante_at,
    base_ante,
    start_time,
    tournament_games,
)
from tables.tournament_play import News, Play

GAME_CHOICES = [
    app_commands.Choice(name=spec.title, value=name) for name, spec in tournament_games().items()
]
LEVEL_CHOICES = [
    app_commands.Choice(name=f"{level.value.capitalize()}: {level.blurb}", value=level.value)
    for level in Level
]
ADMINS_ONLY = "Only a member who may manage this server creates, starts or cancels tournaments."
NO_THREADS = (
    "A tournament plays each table in a thread of its channel: the bot needs Create Public"
    " Threads and Send Messages in Threads here. Grant them, or create the tournament in"
    " another channel."
)


def _can_open_threads(interaction: Interaction) -> bool:
    """Whether the bot may open threads in the interaction's channel and post in them (Discord
    says in the interaction what the bot may do there)."""
    allowed = interaction.app_permissions
    return allowed.create_public_threads and allowed.send_messages_in_threads


def _is_admin(interaction: Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


def prize_words() -> str:
    """The prize structure in a line: each bracket of entrants and its shares."""
    parts, fewest = [], 2
    for most, shares in PRIZE_SHARES:
        split = "winner takes all" if len(shares) == 1 else "/".join(map(str, shares)) + "%"
        bracket = f"{fewest}-{most}" if most < MAX_ENTRANTS else f"{fewest} or more"
        parts.append(f"{split} for {bracket} players")
        fewest = most + 1
    return "; ".join(parts)


def registration_text(tournament: TournamentRow, entries: list[TournamentEntry]) -> str:
    """The registration message: the terms, the start, who has registered."""
    spec = tournament_games()[tournament.game]
    people = [e.user_id for e in entries if e.user_id > 0]
    computers = sum(1 for e in entries if e.user_id < 0)
    if tournament.starts is None:
        start = "Starts as soon as it is full."
    else:
        start = f"Starts <t:{int(tournament.starts.timestamp())}:R>."
    lines = [
        f"**Tournament {tournament.id}: {spec.title}**, hosted by {mention(tournament.host_id)}",
        f"Buy-in **{tournament.buy_in}** chips from your balance, into the prize pool; everyone"
        f" plays a stack of **{STACK}** tournament chips. Up to **{tournament.max_players}**"
        f" players, {SEATS} a table, each table in a thread; the ante starts at"
        f" **{ante_at(base_ante(spec), 1)}** and rises every **{tournament.level_hands}** hands.",
        f"Prizes: {prize_words()}.",
        start,
    ]
    if tournament.computers is not None:
        lines.append(f"Computers ({tournament.computers}) fill the free places at the start.")
    if tournament.status is TournamentStatus.CANCELLED:
        lines.append("**Cancelled**: every buy-in was returned.")
    elif tournament.status is not TournamentStatus.REGISTERING:
        lines.append(f"Registration is closed: the tournament is {tournament.status.value}.")
    lines.append(
        f"Registered ({len(people) + computers}/{tournament.max_players}): {mentions(people)}"
        + (f" and {computers} computer(s)" if computers else "")
    )
    return "\n".join(lines)


def registration_view(tournament_id: int, *, registering: bool = True) -> discord.ui.View:
    """Register and Unregister, working after a restart too, while registration is open."""
    view = discord.ui.View(timeout=None)
    if registering:
        for action in ("register", "unregister"):
            view.add_item(TournamentButton(action=action, tournament=tournament_id))
    return view


def _view_of(tournament: TournamentRow) -> discord.ui.View:
    return registration_view(
        tournament.id, registering=tournament.status is TournamentStatus.REGISTERING
    )


async def _tournament(interaction: Interaction, tournament_id: int | None) -> TournamentRow:
    """The tournament named, or the server's latest one."""
    assert interaction.guild_id is not None
    repository = services(interaction).storage.tournaments
    if tournament_id is None:
        latest = await repository.of_guild(interaction.guild_id)
        if not latest:
            raise GameError(
                "This server has no tournament yet: an admin opens one with `/tournament create`."
            )
        return latest[0]
    found = await repository.get(tournament_id)
    if found is None or found.guild_id != interaction.guild_id:
        raise GameError(f"This server has no tournament {tournament_id}.")
    return found


async def refresh_registration(interaction: Interaction, tournament_id: int) -> None:
    """Show the registration message as the tournament now is (if it can still be found)."""
    tournament = await services(interaction).storage.tournaments.get(tournament_id)
    if tournament is not None:
        await show_registration(interaction.client, services(interaction).storage, tournament)


async def show_registration(
    client: discord.Client, storage: Storage, tournament: TournamentRow
) -> None:
    """Edit the tournament's registration message to show it as it is."""
    if tournament.message_id is None:
        return
    channel = client.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)
    text = registration_text(tournament, await storage.tournaments.entries(tournament.id))
    # Deleted by someone: the commands still tell the tournament's state.
    with contextlib.suppress(discord.NotFound):
        await channel.get_partial_message(tournament.message_id).edit(
            content=text, view=_view_of(tournament)
        )


def _name(player: int) -> str:
    return f"Computer {-player}" if player < 0 else mention(player)


def news_text(tournament: TournamentRow, news: Sequence[News]) -> str:
    """The tournament's news in one message, a line each."""
    number = tournament.id
    lines = []
    for item in news:
        kind = item["kind"]
        if kind == "started":
            lines.append(
                f"**Tournament {number} has started** at {item['tables']} table(s), each in a"
                " thread of this channel; `/tournament status` shows the stacks."
            )
        elif kind == "out":
            lines.append(
                f"{_name(item['player'])} is out of tournament {number} in place {item['place']}."
            )
        elif kind == "final":
            where = f" in <#{item['channel']}>" if item.get("channel") else ""
            lines.append(
                f"**The final table** of tournament {number}: the {item.get('players', 'last')}"
                f" players left play at table {item['table']}{where}."
            )
        elif kind == "moved":
            lines.append(
                f"Table {item['table']} of tournament {number} lost its thread; it plays on in"
                f" <#{item['channel']}>."
            )
        elif kind == "winner":
            lines.append(
                f"**{_name(item['player'])} wins tournament {number}** and its prize of"
                f" {item['prize']} chips; `/tournament standings` shows every place."
            )
        elif kind == "cancelled":
            lines.append(
                f"Tournament {number} did not start: it needs at least 2 players. It is"
                " cancelled and every buy-in went back."
            )
    return "\n".join(lines)


class DiscordVenue:
    """A tournament's tables in threads of its channel, its news in the channel."""

    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.client = client
        self.storage = storage

    async def open_place(self, tournament: TournamentRow, number: int) -> int:
        """A public thread of the tournament's channel for one of its tables."""
        channel = self.client.get_channel(tournament.channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise GameError(f"Tournament {tournament.id}'s channel cannot hold threads.")
        thread = await channel.create_thread(
            name=f"Tournament {tournament.id}, table {number}",
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        return thread.id

    async def announce(self, tournament: TournamentRow, news: Sequence[News]) -> None:
        """The news as one message in the tournament's channel."""
        text = news_text(tournament, news)
        if text:
            channel = self.client.get_partial_messageable(
                tournament.channel_id, guild_id=tournament.guild_id
            )
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=False))

    async def registration_changed(self, tournament: TournamentRow) -> None:
        """The registration message as the tournament now is."""
        await show_registration(self.client, self.storage, tournament)


class TournamentButton(
    ChannelControl[Button], custom_id="pp:tourney:{action:register|unregister}:{tournament:int}"
):
    """Register or Unregister under a tournament's registration message."""

    ELSEWHERE = "Register in the tournament's channel."

    def __init__(self, *, action: str, tournament: int) -> None:
        style = (
            discord.ButtonStyle.success if action == "register" else discord.ButtonStyle.secondary
        )
        super().__init__(
            self.button(action.capitalize(), style, action=action, tournament=tournament)
        )
        self.action, self.tournament = action, tournament

    async def act(self, interaction: Interaction) -> None:
        """Take or return the presser's buy-in, then show the message as it now is."""
        guild, user = self.where[0], interaction.user.id
        storage = services(interaction).storage
        found = await storage.tournaments.get(self.tournament)
        if found is None or found.guild_id != guild:
            raise GameError(f"This server has no tournament {self.tournament}.")

        async def act() -> str:
            if self.action == "register":
                await storage.players.get_or_create(
                    guild, user, name=getattr(interaction.user, "display_name", None)
                )
                await storage.tournaments.register(self.tournament, user)
                return (
                    f"You are registered for tournament {self.tournament}: your buy-in of"
                    f" {found.buy_in} chips is in its prize pool."
                )
            returned = await storage.tournaments.unregister(self.tournament, user)
            return (
                f"You are no longer registered for tournament {self.tournament}:"
                f" {returned} chips are back in your balance."
            )

        said = await run(interaction, act)
        await answer(interaction, said)
        await refresh_registration(interaction, self.tournament)
        runner = services(interaction).tournaments
        if self.action == "register" and runner is not None:
            await runner.registered(self.tournament)


class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description="Tournaments on this server"
):
    """The tournament commands."""

    @app_commands.command(name="create", description="Open a tournament's registration here")
    @app_commands.describe(
        game="Which game the tournament plays",
        buy_in="Chips each player pays into the prize pool",
        max_players=f"Most players (2 to {MAX_ENTRANTS}; default 6; {SEATS} a table)",
        start='Minutes from now until it starts, or "full" (default): as soon as it is full',
        level_hands=f"Hands between two rises of the ante (default {LEVEL_HANDS})",
        computers="Fill the free places with computers of this level at the start",
    )
    @app_commands.choices(game=GAME_CHOICES, computers=LEVEL_CHOICES)
    @app_commands.guild_only()
    async def create(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str],
        buy_in: app_commands.Range[int, 1, 1_000_000],
        max_players: app_commands.Range[int, 2, MAX_ENTRANTS] = 6,
        start: str | None = None,
        level_hands: app_commands.Range[int, 1, 100] = LEVEL_HANDS,
        computers: app_commands.Choice[str] | None = None,
    ) -> None:
        """Post the registration message with its Register and Unregister buttons."""
        if not _is_admin(interaction):
            raise GameError(ADMINS_ONLY)
        if not _can_open_threads(interaction):
            raise GameError(NO_THREADS)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        guild, channel = interaction.guild_id, interaction.channel_id
        storage = services(interaction).storage
        starts = start_time(start, storage.database.clock())

        async def create() -> TournamentRow:
            return await storage.tournaments.create(
                guild_id=guild,
                channel_id=channel,
                host_id=interaction.user.id,
                game=game.value,
                buy_in=buy_in,
                max_players=max_players,
                starts=starts,
                level_hands=level_hands,
                computers=None if computers is None else computers.value,
            )

        tournament = await run(interaction, create, ephemeral=False)
        await answer(
            interaction,
            registration_text(tournament, []),
            view=_view_of(tournament),
        )
        message = await interaction.original_response()
        await storage.tournaments.set_message(tournament.id, message.id)
        runner = services(interaction).tournaments
        if runner is not None:
            runner.arm(tournament)

    @app_commands.command(name="start", description="Start a tournament now, with who registered")
    @app_commands.describe(tournament="The tournament's number (default: the latest)")
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, tournament: int | None = None) -> None:
        """Close the registration now and start (Manage Server): computers fill the free places
        if the tournament says so; with fewer than two players it is cancelled."""
        if not _is_admin(interaction):
            raise GameError(ADMINS_ONLY)
        storage = services(interaction).storage
        runner = services(interaction).tournaments

        async def start() -> str:
            found = await _tournament(interaction, tournament)
            if found.status is not TournamentStatus.REGISTERING:
                raise GameError(
                    f"Tournament {found.id} is {found.status.value}: only one still registering"
                    " starts."
                )
            if runner is None:
                raise GameError("This bot runs no tournaments: its tournaments are switched off.")
            await runner.start(found.id)
            started = await storage.tournaments.get(found.id)
            assert started is not None
            if started.status is TournamentStatus.CANCELLED:
                return (
                    f"Tournament {found.id} had fewer than 2 players: it is cancelled and every"
                    " buy-in went back."
                )
            entries = await storage.tournaments.entries(found.id)
            tables = 0 if started.state is None else len(Play.from_json(started.state).channels)
            return (
                f"Tournament {found.id} has started: {len(entries)} players at {tables}"
                " table(s), each in a thread of this channel."
            )

        await answer(interaction, await run(interaction, start, ephemeral=False))

    @app_commands.command(name="cancel", description="Cancel a tournament and return every buy-in")
    @app_commands.describe(tournament="The tournament's number (default: the latest)")
    @app_commands.guild_only()
    async def cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        """Refund every buy-in and close the tournament (Manage Server)."""
        if not _is_admin(interaction):
            raise GameError(ADMINS_ONLY)
        storage = services(interaction).storage

        async def cancel() -> str:
            found = await _tournament(interaction, tournament)
            refunds = await storage.tournaments.cancel(found.id)
            return (
                f"Tournament {found.id} is cancelled: {sum(refunds.values())} chips of buy-ins"
                f" went back to {len(refunds)} player(s)."
            )

        said = await run(interaction, cancel, ephemeral=False)
        await answer(interaction, said)
        found = await _tournament(interaction, tournament)
        await refresh_registration(interaction, found.id)

    @app_commands.command(
        name="status", description="A tournament's terms, level, tables and stacks"
    )
    @app_commands.describe(tournament="The tournament's number (default: the latest)")
    @app_commands.guild_only()
    async def status(self, interaction: Interaction, tournament: int | None = None) -> None:
        """The registration, or the running tournament's level, tables and chip counts."""
        storage = services(interaction).storage

        async def read() -> str:
            found = await _tournament(interaction, tournament)
            entries = await storage.tournaments.entries(found.id)
            if found.state is None or found.status is not TournamentStatus.RUNNING:
                return registration_text(found, entries)
            state = Play.from_json(found.state).model
            lines = [
                f"**Tournament {found.id}**: level **{state.level}**, ante **{state.ante}**,"
                f" {len(state.players_left)} of {len(state.entrants)} players left,"
                f" {len(state.tables)} table(s)."
            ]
            for number, seated in sorted(state.tables.items()):
                stacks = ", ".join(f"{mention(p)} {state.stacks[p]}" for p in seated)
                lines.append(f"- table {number}: {stacks}")
            return "\n".join(lines)

        await answer(interaction, await run(interaction, read))

    @app_commands.command(name="standings", description="A tournament's players by stack and place")
    @app_commands.describe(tournament="The tournament's number (default: the latest)")
    @app_commands.guild_only()
    async def standings(self, interaction: Interaction, tournament: int | None = None) -> None:
        """Those still in by stack, then the places with their prizes."""
        storage = services(interaction).storage

        async def read() -> str:
            found = await _tournament(interaction, tournament)
            entries = {e.user_id: e for e in await storage.tournaments.entries(found.id)}
            if found.state is None:
                return (
                    f"Tournament {found.id} has not started: {len(entries)} registered"
                    f" ({mentions(u for u in entries if u > 0)})."
                )
            state = Play.from_json(found.state).model
            lines = [f"**Tournament {found.id}** standings:"]
            for player, stack, place in state.standings():
                if place is None:
                    lines.append(f"- {mention(player)}: {stack} chips, still in")
                else:
                    prize = entries[player].prize if player in entries else None
                    won = f", prize {prize}" if prize else ""
                    lines.append(f"- {place}. {mention(player)}{won}")
            return "\n".join(lines)

        await answer(interaction, await run(interaction, read))

    @app_commands.command(name="leaderboard", description="The server's tournament winners")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction) -> None:
        """People by the prizes their tournaments paid them, then by wins."""
        assert interaction.guild_id is not None
        guild = interaction.guild_id
        storage = services(interaction).storage

        async def read() -> str:
            board = await storage.tournaments.leaderboard(guild)
            if not board:
                return "No tournament on this server has finished yet."
            lines = ["**Tournaments**: prizes won (tournaments played, won)"]
            for rank, row in enumerate(board, 1):
                lines.append(
                    f"{rank}. {mention(row.user_id)}: {signed(row.prizes)} chips"
                    f" ({row.played} played, {row.won} won)"
                )
            return "\n".join(lines)

        await answer(interaction, await run(interaction, read))
