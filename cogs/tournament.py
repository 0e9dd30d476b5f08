"""Tournaments: ``/tournament`` (create, cancel, status, standings, leaderboard) and the
Register and Unregister buttons under a tournament's registration message."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.common import answer, level_name, localized, mention, mentions, run, services, words
from cogs.controls import Button, ChannelControl, Interaction
from cogs.language import channel_locale, server_language
from cogs.pictures import game_title
from engine.errors import GameError
from engine.players import Level
from engine.text import Term, Text, Where, Who, tr, tr_plural
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
ADMINS_ONLY = tr("Only a member who may manage this server creates, starts or cancels tournaments.")
NO_THREADS = tr(
    "A tournament plays each table in a thread of its channel: the bot needs Create Public"
    " Threads and Send Messages in Threads here. Grant them, or create the tournament in"
    " another channel."
)
#: A tournament's status as a sentence names it.
STATUS_NAMES: dict[str, Text] = {
    TournamentStatus.REGISTERING.value: tr("registering"),
    TournamentStatus.RUNNING.value: tr("running"),
    TournamentStatus.FINISHED.value: tr("finished"),
    TournamentStatus.CANCELLED.value: tr("cancelled"),
}


def _status(status: TournamentStatus) -> Text | str:
    return STATUS_NAMES.get(status.value, status.value)


def _can_open_threads(interaction: Interaction) -> bool:
    """Whether the bot may open threads in the interaction's channel and post in them (Discord
    says in the interaction what the bot may do there)."""
    allowed = interaction.app_permissions
    return allowed.create_public_threads and allowed.send_messages_in_threads


def _is_admin(interaction: Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


def prize_words(locale: str = i18n.ENGLISH.discord) -> str:
    """The prize structure in a line: each bracket of entrants and its shares."""
    parts, fewest = [], 2
    for most, shares in PRIZE_SHARES:
        split: Text | str = (
            tr("winner takes all") if len(shares) == 1 else "/".join(map(str, shares)) + "%"
        )
        if most < MAX_ENTRANTS:
            part = tr("{split} for {bracket} players", split=split, bracket=f"{fewest}-{most}")
        else:
            part = tr("{split} for {fewest} or more players", split=split, fewest=fewest)
        parts.append(localized(locale, part))
        fewest = most + 1
    return "; ".join(parts)


def registration_text(
    tournament: TournamentRow,
    entries: list[TournamentEntry],
    *,
    locale: str = i18n.ENGLISH.discord,
) -> str:
    """The registration message in the language of ``locale`` (the channel's): the terms, the
    start, who has registered."""
    spec = tournament_games()[tournament.game]
    people = [e.user_id for e in entries if e.user_id > 0]
    computers = sum(1 for e in entries if e.user_id < 0)
    number = str(tournament.id)
    lines: list[Text] = [
        tr(
            "**Tournament {number}: {game}**, hosted by {host}",
            number=number,
            game=game_title(spec, locale),
            host=Who(tournament.host_id),
        ),
        tr(
            "Buy-in **{buy_in}** chips from your balance, into the prize pool; everyone plays a "
            "stack of **{stack}** tournament chips. Up to **{most}** players, {seats} a table, "
            "each table in a thread; the ante starts at **{ante}** and rises every **{hands}** "
            "hands.",
            buy_in=tournament.buy_in,
            stack=STACK,
            most=tournament.max_players,
            seats=SEATS,
            ante=ante_at(base_ante(spec), 1),
            hands=tournament.level_hands,
        ),
        tr("Prizes: {prizes}.", prizes=prize_words(locale)),
    ]
    if tournament.starts is None:
        lines.append(tr("Starts as soon as it is full."))
    else:
        lines.append(tr("Starts {when}.", when=f"<t:{int(tournament.starts.timestamp())}:R>"))
    if tournament.computers is not None:
        level = tournament.computers
        lines.append(
            tr("Computers ({level}) fill the free places at the start.", level=level_name(level))
        )
    if tournament.status is TournamentStatus.CANCELLED:
        lines.append(tr("**Cancelled**: every buy-in was returned."))
    elif tournament.status is not TournamentStatus.REGISTERING:
        lines.append(
            tr(
                "Registration is closed: the tournament is {status}.",
                status=_status(tournament.status),
            )
        )
    registered = len(people) + computers
    if computers:
        lines.append(
            tr_plural(
                "Registered ({registered}/{most}): {players} and {count} computer",
                "Registered ({registered}/{most}): {players} and {count} computers",
                computers,
                registered=registered,
                most=tournament.max_players,
                players=mentions(people, locale),
            )
        )
    else:
        lines.append(
            tr(
                "Registered ({registered}/{most}): {players}",
                registered=registered,
                most=tournament.max_players,
                players=mentions(people, locale),
            )
        )
    return "\n".join(localized(locale, line) for line in lines)


def registration_view(
    tournament_id: int, *, registering: bool = True, locale: str = i18n.ENGLISH.discord
) -> discord.ui.View:
    """Register and Unregister, working after a restart too, while registration is open,
    labelled in the language of ``locale`` (the channel's)."""
    view = discord.ui.View(timeout=None)
    if registering:
        for action in ("register", "unregister"):
            view.add_item(TournamentButton(action=action, tournament=tournament_id, locale=locale))
    return view


def _view_of(tournament: TournamentRow, locale: str = i18n.ENGLISH.discord) -> discord.ui.View:
    return registration_view(
        tournament.id,
        registering=tournament.status is TournamentStatus.REGISTERING,
        locale=locale,
    )


async def _tournament(interaction: Interaction, tournament_id: int | None) -> TournamentRow:
    """The tournament named, or the server's latest one."""
    assert interaction.guild_id is not None
    repository = services(interaction).storage.tournaments
    if tournament_id is None:
        latest = await repository.of_guild(interaction.guild_id)
        if not latest:
            raise GameError(
                tr(
                    "This server has no tournament yet: an admin opens one with "
                    "`/{tournament} {create}`.",
                    tournament=Term("tournament"),
                    create=Term("create"),
                )
            )
        return latest[0]
    found = await repository.get(tournament_id)
    if found is None or found.guild_id != interaction.guild_id:
        raise GameError(tr("This server has no tournament {number}.", number=str(tournament_id)))
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
    locale = await server_language(client, tournament.guild_id)
    entries = await storage.tournaments.entries(tournament.id)
    text = registration_text(tournament, entries, locale=locale)
    # Deleted by someone: the commands still tell the tournament's state.
    with contextlib.suppress(discord.NotFound):
        await channel.get_partial_message(tournament.message_id).edit(
            content=text, view=_view_of(tournament, locale)
        )


def news_text(
    tournament: TournamentRow, news: Sequence[News], *, locale: str = i18n.ENGLISH.discord
) -> str:
    """The tournament's news in one message, a line each, in the language of ``locale`` (the
    channel's)."""
    number = str(tournament.id)
    lines: list[Text] = []
    for item in news:
        kind = item["kind"]
        if kind == "started":
            lines.append(
                tr_plural(
                    "**Tournament {number} has started** at {count} table, each in a thread of "
                    "this channel; `/{tournament} {status}` shows the stacks.",
                    "**Tournament {number} has started** at {count} tables, each in a thread of "
                    "this channel; `/{tournament} {status}` shows the stacks.",
                    int(item["tables"]),
                    number=number,
                    tournament=Term("tournament"),
                    status=Term("status"),
                )
            )
        elif kind == "out":
            lines.append(
                tr(
                    "{player} is out of tournament {number} in place {place}.",
                    player=Who(int(item["player"])),
                    number=number,
                    place=int(item["place"]),
                )
            )
        elif kind == "final":
            table = int(item["table"])
            players = item.get("players")
            if item.get("channel"):
                where = Where(int(item["channel"]))
                if players is None:
                    text = tr(
                        "**The final table** of tournament {number}: the last players left "
                        "play at table {table} in {channel}.",
                        number=number,
                        table=table,
                        channel=where,
                    )
                else:
                    text = tr(
                        "**The final table** of tournament {number}: the {players} players "
                        "left play at table {table} in {channel}.",
                        number=number,
                        players=int(players),
                        table=table,
                        channel=where,
                    )
            elif players is None:
                text = tr(
                    "**The final table** of tournament {number}: the last players left play at "
                    "table {table}.",
                    number=number,
                    table=table,
                )
            else:
                text = tr(
                    "**The final table** of tournament {number}: the {players} players left "
                    "play at table {table}.",
                    number=number,
                    players=int(players),
                    table=table,
                )
            lines.append(text)
        elif kind == "moved":
            lines.append(
                tr(
                    "Table {table} of tournament {number} lost its thread; it plays on in "
                    "{channel}.",
                    table=int(item["table"]),
                    number=number,
                    channel=Where(int(item["channel"])),
                )
            )
        elif kind == "winner":
            lines.append(
                tr(
                    "**{player} wins tournament {number}** and its prize of {prize} chips; "
                    "`/{tournament} {standings}` shows every place.",
                    tournament=Term("tournament"),
                    standings=Term("standings"),
                    player=Who(int(item["player"])),
                    number=number,
                    prize=int(item["prize"]),
                )
            )
        elif kind == "cancelled":
            lines.append(
                tr(
                    "Tournament {number} did not start: it needs at least 2 players. It is "
                    "cancelled and every buy-in went back.",
                    number=number,
                )
            )
    return "\n".join(localized(locale, line) for line in lines)


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
            raise GameError(
                tr("Tournament {number}'s channel cannot hold threads.", number=str(tournament.id))
            )
        locale = await server_language(self.client, tournament.guild_id)
        name = tr("Tournament {number}, table {table}", number=str(tournament.id), table=number)
        thread = await channel.create_thread(
            name=localized(locale, name)[:100],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        return thread.id

    async def announce(self, tournament: TournamentRow, news: Sequence[News]) -> None:
        """The news as one message in the tournament's channel."""
        locale = await server_language(self.client, tournament.guild_id)
        text = news_text(tournament, news, locale=locale)
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

    ELSEWHERE = tr("Register in the tournament's channel.")

    def __init__(self, *, action: str, tournament: int, locale: str = i18n.ENGLISH.discord) -> None:
        style = (
            discord.ButtonStyle.success if action == "register" else discord.ButtonStyle.secondary
        )
        label = tr("Register") if action == "register" else tr("Unregister")
        super().__init__(
            self.button(label, style, locale=locale, action=action, tournament=tournament)
        )
        self.action, self.tournament = action, tournament

    async def act(self, interaction: Interaction) -> None:
        """Take or return the presser's buy-in, then show the message as it now is."""
        guild, user = self.where[0], interaction.user.id
        storage = services(interaction).storage
        found = await storage.tournaments.get(self.tournament)
        if found is None or found.guild_id != guild:
            raise GameError(
                tr("This server has no tournament {number}.", number=str(self.tournament))
            )
        number = str(self.tournament)

        async def act() -> Text:
            if self.action == "register":
                await storage.players.get_or_create(
                    guild, user, name=getattr(interaction.user, "display_name", None)
                )
                await storage.tournaments.register(self.tournament, user)
                return tr(
                    "You are registered for tournament {number}: your buy-in of {chips} chips "
                    "is in its prize pool.",
                    number=number,
                    chips=found.buy_in,
                )
            returned = await storage.tournaments.unregister(self.tournament, user)
            return tr(
                "You are no longer registered for tournament {number}: {chips} chips are back "
                "in your balance.",
                number=number,
                chips=returned,
            )

        said = await run(interaction, act)
        await answer(interaction, words(interaction, said))
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
        locale = await channel_locale(interaction)
        await answer(
            interaction,
            registration_text(tournament, [], locale=locale),
            view=_view_of(tournament, locale),
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

        async def start() -> Text:
            found = await _tournament(interaction, tournament)
            number = str(found.id)
            if found.status is not TournamentStatus.REGISTERING:
                raise GameError(
                    tr(
                        "Tournament {number} is {status}: only one still registering starts.",
                        number=number,
                        status=_status(found.status),
                    )
                )
            if runner is None:
                raise GameError(
                    tr("This bot runs no tournaments: its tournaments are switched off.")
                )
            await runner.start(found.id)
            started = await storage.tournaments.get(found.id)
            assert started is not None
            if started.status is TournamentStatus.CANCELLED:
                return tr(
                    "Tournament {number} had fewer than 2 players: it is cancelled and every "
                    "buy-in went back.",
                    number=number,
                )
            entries = await storage.tournaments.entries(found.id)
            tables = 0 if started.state is None else len(Play.from_json(started.state).channels)
            return tr_plural(
                "Tournament {number} has started: {players} players at {count} table, each in "
                "a thread of this channel.",
                "Tournament {number} has started: {players} players at {count} tables, each in "
                "a thread of this channel.",
                tables,
                number=number,
                players=len(entries),
            )

        said = await run(interaction, start, ephemeral=False)
        await answer(interaction, localized(await channel_locale(interaction), said))

    @app_commands.command(name="cancel", description="Cancel a tournament and return every buy-in")
    @app_commands.describe(tournament="The tournament's number (default: the latest)")
    @app_commands.guild_only()
    async def cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        """Refund every buy-in and close the tournament (Manage Server)."""
        if not _is_admin(interaction):
            raise GameError(ADMINS_ONLY)
        storage = services(interaction).storage

        async def cancel() -> Text:
            found = await _tournament(interaction, tournament)
            refunds = await storage.tournaments.cancel(found.id)
            return tr_plural(
                "Tournament {number} is cancelled: {chips} chips of buy-ins went back to "
                "{count} player.",
                "Tournament {number} is cancelled: {chips} chips of buy-ins went back to "
                "{count} players.",
                len(refunds),
                number=str(found.id),
                chips=sum(refunds.values()),
            )

        said = await run(interaction, cancel, ephemeral=False)
        await answer(interaction, localized(await channel_locale(interaction), said))
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

        locale = interaction.locale.value

        async def read() -> str:
            found = await _tournament(interaction, tournament)
            entries = await storage.tournaments.entries(found.id)
            if found.state is None or found.status is not TournamentStatus.RUNNING:
                return registration_text(found, entries, locale=locale)
            state = Play.from_json(found.state).model
            heading = tr_plural(
                "**Tournament {number}**: level **{level}**, ante **{ante}**, {left} of "
                "{entrants} players left, {count} table.",
                "**Tournament {number}**: level **{level}**, ante **{ante}**, {left} of "
                "{entrants} players left, {count} tables.",
                len(state.tables),
                number=str(found.id),
                level=state.level,
                ante=state.ante,
                left=len(state.players_left),
                entrants=len(state.entrants),
            )
            lines = [localized(locale, heading)]
            for number, seated in sorted(state.tables.items()):
                stacks = ", ".join(
                    f"{mention(p, locale)} {i18n.format_number(locale, state.stacks[p])}"
                    for p in seated
                )
                lines.append(
                    localized(locale, tr("- table {table}: {stacks}", table=number, stacks=stacks))
                )
            return "\n".join(lines)

        await answer(interaction, await run(interaction, read))

    @app_commands.command(name="standings", description="A tournament's players by stack and place")
    @app_commands.describe(tournament="The tournament's number (default: the latest)")
    @app_commands.guild_only()
    async def standings(self, interaction: Interaction, tournament: int | None = None) -> None:
        """Those still in by stack, then the places with their prizes."""
        storage = services(interaction).storage

        locale = interaction.locale.value

        async def read() -> str:
            found = await _tournament(interaction, tournament)
            entries = {e.user_id: e for e in await storage.tournaments.entries(found.id)}
            number = str(found.id)
            if found.state is None:
                text = tr(
                    "Tournament {number} has not started: {registered} registered ({players}).",
                    number=number,
                    registered=len(entries),
                    players=mentions((u for u in entries if u > 0), locale),
                )
                return localized(locale, text)
            state = Play.from_json(found.state).model
            lines: list[Text] = [tr("**Tournament {number}** standings:", number=number)]
            for player, stack, place in state.standings():
                if place is None:
                    lines.append(
                        tr("- {player}: {chips} chips, still in", player=Who(player), chips=stack)
                    )
                    continue
                prize = entries[player].prize if player in entries else None
                if prize:
                    lines.append(
                        tr(
                            "- {place}. {player}, prize {prize}",
                            place=place,
                            player=Who(player),
                            prize=prize,
                        )
                    )
                else:
                    lines.append(tr("- {place}. {player}", place=place, player=Who(player)))
            return "\n".join(localized(locale, line) for line in lines)

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
                return words(interaction, tr("No tournament on this server has finished yet."))
            lines = [tr("**Tournaments**: prizes won (tournaments played, won)")]
            for rank, row in enumerate(board, 1):
                lines.append(
                    tr(
                        "{rank}. {player}: {chips} chips ({played} played, {won} won)",
                        rank=rank,
                        player=Who(row.user_id),
                        chips=signed(row.prizes, locale=interaction.locale.value),
                        played=row.played,
                        won=row.won,
                    )
                )
            return "\n".join(words(interaction, line) for line in lines)

        await answer(interaction, await run(interaction, read))
