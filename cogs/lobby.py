"""The table's lobby: ``/table`` (open, join, leave, start, cancel, kick, status) and the Join,
Leave, Start and Deal again buttons under the lobby message and the showdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.board import board_text, board_view, show_board
from cogs.coach import FullShowdownButton, ReviewButton
from cogs.common import (
    answer,
    level_name,
    localized,
    mention,
    mentions,
    retire_lobby,
    run,
    services,
    words,
)
from cogs.controls import Button, ChannelControl, Interaction, Select
from cogs.language import channel_locale, user_locale
from engine.errors import GameError
from engine.players import Level
from engine.text import Term, Text, Where, Who, tr, tr_plural
from tables.computers import default_level
from tables.config import make_config
from tables.events import (
    Event,
    GameCancelled,
    GameStarted,
    Lobby,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    TableOpened,
)
from tables.games import (
    GAME_OPTIONS,
    GAMES,
    MAX_SEATS,
    MIN_SEATS,
    GameSpec,
    game_named,
    option_help,
    rules_of,
)
from tables.options import ANTE, ARRANGEMENT_SECONDS, DECLARATION_SECONDS
from tables.phase import Phase

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
SILENT_CHOICES = [
    app_commands.Choice(name="plays on", value="play"),
    app_commands.Choice(name="surrenders", value="surrender"),
]
WHEEL, DECKS = GAME_OPTIONS["wheel"], GAME_OPTIONS["decks"]
WHEEL_CHOICES = [
    app_commands.Choice(name=wheel.capitalize(), value=wheel) for wheel in WHEEL.choices
]
#: The games whose players ante once per wager, as the ante's description names them.
_BY_WAGER = " and ".join(
    dict.fromkeys(str(rules_of(spec).called()) for spec in GAMES.values() if spec.wagers > 1)
)
ANTE_HELP = (
    "Chips each player antes"
    + (f" (each wager in {_BY_WAGER})" if _BY_WAGER else "")
    + "; default: the server's"
)
LEVEL_CHOICES = [
    app_commands.Choice(name=f"{level.value.capitalize()}: {level.blurb}", value=level.value)
    for level in Level
]
#: The level the Add computer button seats (``/table addbot`` chooses).
BUTTON_LEVEL: Final = default_level()
#: The highest computer number a table gives: one seat at least is a person's.
MAX_COMPUTER: Final = max(spec.max_players for spec in GAMES.values()) - 1


def _where(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage("Tables live in server channels.")
    return interaction.guild_id, interaction.channel_id


async def _yours(
    interaction: discord.Interaction[Any], *, here_first: bool = False
) -> tuple[int, int]:
    """The table a command acts on: yours, wherever on the server you typed it.

    A table in this channel that seats you comes first; with ``here_first`` any table in this
    channel does (status, cancel). Otherwise the table where you sit on this server, else this
    channel (whose table, if any, answers with its own sentence).
    """
    guild, channel = _where(interaction)
    tables = services(interaction).tables
    user = interaction.user.id
    here = await tables.table(guild, channel)
    if here is not None and (here_first or here.is_seated(user)):
        return guild, channel
    mine = await tables.table_of(guild, user)
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
        ante=ANTE_HELP,
        seats="How many players may sit",
        declare_seconds=f"Seconds to declare play or surrender ({DECLARATION_SECONDS.range_words})",
        arrange_seconds=f"Seconds to set your hands ({ARRANGEMENT_SECONDS.range_words})",
        silent="What a player silent at a declaration deadline declares (games with declarations)",
        ties_to_dealer=option_help("ties_to_dealer"),
        decks=option_help("decks"),
        wheel=option_help("wheel", explained=True),
        practice="Deal and score as usual but move no chips (empty seats get computers)",
        fill="Fill the empty seats with computers of this level when the game starts",
    )
    @app_commands.choices(
        game=GAME_CHOICES, silent=SILENT_CHOICES, wheel=WHEEL_CHOICES, fill=LEVEL_CHOICES
    )
    @app_commands.guild_only()
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        ante: app_commands.Range[int, ANTE.low, ANTE.high] | None = None,
        seats: app_commands.Range[int, MIN_SEATS, MAX_SEATS] | None = None,
        declare_seconds: app_commands.Range[int, DECLARATION_SECONDS.low, DECLARATION_SECONDS.high]
        | None = None,
        arrange_seconds: app_commands.Range[int, ARRANGEMENT_SECONDS.low, ARRANGEMENT_SECONDS.high]
        | None = None,
        silent: app_commands.Choice[str] | None = None,
        ties_to_dealer: bool | None = None,
        decks: app_commands.Range[int, DECKS.low, DECKS.high] | None = None,
        wheel: app_commands.Choice[str] | None = None,
        practice: bool = False,
        fill: app_commands.Choice[str] | None = None,
    ) -> None:
        """Open a table with the caller seated as host; options left out take the server's."""
        guild, channel = _where(interaction)
        found = services(interaction)

        async def create() -> tuple[Event, ...]:
            server = await found.tables.server(guild)
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
                practice=practice,
                fill=None if fill is None else fill.value,
                defaults=server.defaults,
            )
            return await found.tables.create(
                guild,
                channel,
                interaction.user.id,
                config,
                name=interaction.user.display_name,
                server=server,
            )

        done = tr(
            "You opened a {game} table here.", game=Term(game_named(game.value).title, "choice")
        )
        events = await run(interaction, create, done=words(interaction, done))
        opened = next(e for e in events if isinstance(e, TableOpened))
        await show_lobby(interaction, (guild, channel), opened.lobby, on_lobby=False)

    @app_commands.command(name="addbot", description="Seat a computer player (host only)")
    @app_commands.describe(level="How well it plays (default: steady)")
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.guild_only()
    async def addbot(
        self, interaction: discord.Interaction[Any], level: app_commands.Choice[str] | None = None
    ) -> None:
        """Seat a computer at this channel's table."""
        chosen = BUTTON_LEVEL if level is None else level.value
        await lobby_action(interaction, *_where(interaction), "computer", level=chosen)

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
        await lobby_action(interaction, *await _yours(interaction), "leave")

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
        guild, channel = await _yours(interaction, here_first=True)
        tables = services(interaction).tables
        admin = _is_admin(interaction)
        events = await run(
            interaction,
            lambda: tables.cancel(guild, channel, interaction.user.id, is_admin=admin),
        )
        await answer(interaction, words(interaction, cancelled_text(events)))

    @app_commands.command(
        name="kick", description="Remove a player or a computer (the host or a server admin)"
    )
    @app_commands.describe(
        player="The player to remove",
        computer="The computer to remove, by its number in the lobby (Computer 2: 2)",
    )
    @app_commands.guild_only()
    async def kick(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        computer: app_commands.Range[int, 1, MAX_COMPUTER] | None = None,
    ) -> None:
        """Remove a player or a computer; mid-game the table plays for them."""
        guild, channel = _where(interaction)
        tables = services(interaction).tables
        if player is not None and computer is None:
            user = player.id
        elif computer is not None and player is None:
            user = -computer  # a computer's id is its number negated (tables/seating.py)
        else:
            raise GameError(tr("Name the player or the computer to remove."))
        await run(
            interaction,
            lambda: tables.kick(
                guild, channel, interaction.user.id, user, is_admin=_is_admin(interaction)
            ),
            done=words(interaction, tr("{player} was removed.", player=Who(user))),
        )

    @app_commands.command(name="status", description="Who sits here and what the table waits for")
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """Describe the table here, or yours elsewhere on the server."""
        guild, channel = await _yours(interaction, here_first=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await services(interaction).tables.table(guild, channel)
        if table is None:
            await answer(
                interaction,
                words(
                    interaction,
                    tr(
                        "There is no table here; open one with `/{table} {create}`.",
                        table=Term("table"),
                        create=Term("create"),
                    ),
                ),
            )
            return
        locale = user_locale(interaction)
        stakes = stakes_words(table.spec, table.config.ante)
        if channel == interaction.channel_id:
            head = tr(
                "**{game}**, {stakes}, host {host}.",
                game=Term(table.spec.title, "choice"),
                stakes=stakes,
                host=Who(table.host),
            )
        else:
            head = tr(
                "**{game}** in {channel}, {stakes}, host {host}.",
                game=Term(table.spec.title, "choice"),
                channel=Where(channel),
                stakes=stakes,
                host=Who(table.host),
            )
        lines: list[Text] = [
            head,
            tr(
                "Seated ({seated}/{seats}): {players}.",
                seated=len(table.seats),
                seats=table.config.seats,
                players=mentions(table.players, locale),
            ),
            tr(
                "Phase: {phase}; games played: {games}.",
                phase=PHASE_NAMES.get(table.phase.value, table.phase.value),
                games=table.games_played,
            ),
        ]
        waiting = table.waiting_for()
        if waiting:
            lines.append(tr("Waiting for: {players}.", players=mentions(waiting, locale)))
        if table.deadline and table.in_game:
            lines.append(tr("Deadline {when}.", when=f"<t:{int(table.deadline)}:R>"))
        elif table.deadline:
            lines.append(
                tr("Closes {when} unless a game starts.", when=f"<t:{int(table.deadline)}:R>")
            )
        await answer(interaction, "\n".join(words(interaction, line) for line in lines))


# ----- joining, leaving and dealing: the commands and the buttons alike --------------------------

#: What Join, Leave and Start (typed as ``/table`` commands) say when they are done.
_LOBBY_DONE: Final = {
    "join": tr("You sit at the table."),
    "leave": tr("You left the table."),
    "computer": tr("A computer sits at the table."),
}
#: A table's phase as ``/table status`` names it.
PHASE_NAMES: Final = {
    Phase.LOBBY.value: tr("lobby"),
    Phase.DECLARING.value: tr("declaring"),
    Phase.ARRANGING.value: tr("arranging"),
    Phase.SETTLING.value: tr("settling"),
    Phase.CLOSED.value: tr("closed"),
}


def stakes_words(spec: GameSpec, ante: int) -> Text:
    """What each player puts up at the start, as the start escrows it: "ante 10", or in the
    three-card game each of its wagers and what they come to."""
    if not ante:
        return tr("no ante")
    if spec.wagers > 1:
        return tr(
            "{wagers} wagers of {ante} ({chips} chips a player)",
            wagers=spec.wagers,
            ante=ante,
            chips=spec.put_up(ante),
        )
    return tr("ante {ante}", ante=ante)


def lobby_text(lobby: Lobby, *, locale: str = i18n.ENGLISH.discord) -> str:
    """The lobby message in the language of ``locale`` (the channel's): the game, its ante and
    seats, the host and who sits."""
    if not lobby.players:  # the last player left
        return localized(locale, tr("The table is closed."))
    spec = game_named(lobby.game)
    levels = dict(lobby.computers)
    seated = ", ".join(
        localized(
            locale,
            tr("{computer} ({level})", computer=Who(user), level=level_name(levels[user])),
        )
        if user in levels
        else mention(user, locale)
        for user in lobby.players
    )
    head = tr(
        "**{game}** table, {stakes}, {seated}/{seats} seats (host {host}).",
        # The game's name as the reader's /commands name it (the game choices' translations).
        game=i18n.translate(locale, spec.title, context=i18n.CHOICE),
        stakes=stakes_words(spec, lobby.ante),
        seated=len(lobby.players),
        seats=lobby.seats,
        host=Who(lobby.host),
    )
    lines = [localized(locale, head)]
    if lobby.practice:
        lines[0] += " " + localized(locale, tr("**Practice**: no chips move."))
    lines.append(localized(locale, tr("Seated: {players}", players=seated)))
    # A plural for the languages that say "1 player or more" ("1+ players" in English).
    if lobby.seats_a_computer:
        how = tr_plural(
            "{join}, then the host presses {start} ({count}+ players), or seats computers with "
            "{computer}.",
            "{join}, then the host presses {start} ({count}+ players), or seats computers with "
            "{computer}.",
            spec.min_players,
            join=_LOBBY_LABELS["join"][0],
            start=_LOBBY_LABELS["start"][0],
            computer=_LOBBY_LABELS["computer"][0],
        )
    else:
        how = tr_plural(
            "{join}, then the host presses {start} ({count}+ players).",
            "{join}, then the host presses {start} ({count}+ players).",
            spec.min_players,
            join=_LOBBY_LABELS["join"][0],
            start=_LOBBY_LABELS["start"][0],
        )
    lines.append(localized(locale, how))
    return "\n".join(lines)


def cancelled_text(events: Sequence[Event]) -> Text:
    """What a cancel did with the chips: the refund it made, or that there was none to make."""
    refunded = next((e for e in events if isinstance(e, GameCancelled)), None)
    if refunded is None:
        # A lobby, or a table whose game had settled (its result stands): nothing was held.
        return tr("The table is closed; it held no chips.")
    game = str(refunded.game_id)
    back, players = sum(refunded.refunds.values()), len(refunded.refunds)
    if not back:  # a practice game
        return tr(
            "The table is closed; game {game} was called off, with no chips held for it.",
            game=game,
        )
    return tr_plural(
        "The table is closed; game {game} was called off and {chips} chips went back to the "
        "player who put them up.",
        "The table is closed; game {game} was called off and {chips} chips went back to the "
        "{count} players who put them up.",
        players,
        game=game,
        chips=back,
    )


async def lobby_action(
    interaction: Interaction,
    guild: int,
    channel: int,
    action: str,
    *,
    pressed: str = "",
    level: str = BUTTON_LEVEL,
    computer: int = 0,
) -> None:
    """Sit down, stand up, seat or remove a computer (by its number), or deal, for the button,
    the menu or the command alike.

    What changes is shown through the interaction itself wherever it can be (Discord does not
    count interaction responses against the bot's requests): a press on the lobby message
    updates that message; Start turns it into the table's message (cogs/board.py); a press under
    a showdown, or a typed ``/table start``, answers in the channel with the new lobby or the
    status. Only a typed join or leave leaves the lobby message to the publisher.
    """
    found = services(interaction)
    tables = found.tables
    user = interaction.user.id
    key = (guild, channel)
    on_lobby = pressed in ("join", "leave", "start", "computer", "remove")
    if on_lobby:
        await interaction.response.defer()  # updates the message pressed, quietly
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    if action == "start":
        events = await tables.start(guild, channel, user)
        started = next(e for e in events if isinstance(e, GameStarted))
        left = found.lobbies.forget(key)
        # The table's message: the lobby pressed becomes it, or it is posted (a typed start).
        board = found.boards.started(key, started)
        # In the channel's language from its first version (the publisher keeps it so).
        board.locale = await channel_locale(interaction)
        text, view = board_text(board), board_view(board)
        pressed_id = interaction.message.id if on_lobby and interaction.message else None
        await retire_lobby(
            interaction.client,
            key,
            left,
            started.game_id,
            pressed=pressed_id,
            locale=board.locale,
        )
        quiet = discord.AllowedMentions.none()
        shown: discord.InteractionMessage | discord.WebhookMessage
        if on_lobby:
            shown = await interaction.edit_original_response(
                content=text, view=view, allowed_mentions=quiet
            )
        else:
            await answer(
                interaction, words(interaction, tr("Dealt. Cards are on their way by DM."))
            )
            shown = await interaction.followup.send(
                text, view=view, allowed_mentions=quiet, wait=True
            )
        board.message, board.shown = shown, text
        # Any process of the bot (or this one after a restart) edits this message from now on.
        await found.storage.messages.remember(guild, channel, started.game_id, shown.id)
        await show_board(interaction.client, key, board)  # the steps taken meanwhile
        return
    if action == "join":
        events = await tables.join(guild, channel, user, name=interaction.user.display_name)
    elif action == "computer":
        events = await tables.add_computer(guild, channel, user, level)
    elif action == "remove":
        events = await tables.kick(guild, channel, user, -computer, is_admin=_is_admin(interaction))
    else:
        events = await tables.leave(guild, channel, user)
    if not on_lobby:
        await answer(interaction, words(interaction, _LOBBY_DONE[action]))
        if not pressed:
            return  # typed: the publisher updates the lobby message
    lobbies = [
        e.lobby
        for e in events
        if isinstance(e, PlayerJoined | PlayerLeft | PlayerKicked) and e.lobby is not None
    ]
    if not lobbies:
        return  # a second press changed nothing
    await show_lobby(interaction, key, lobbies[-1], on_lobby=on_lobby)


async def show_lobby(
    interaction: Interaction, key: tuple[int, int], lobby: Lobby, *, on_lobby: bool
) -> None:
    """Show the lobby through the interaction: on the lobby message pressed, or posted anew,
    in the channel's language."""
    lobbies = services(interaction).lobbies
    locale = await channel_locale(interaction)
    if not lobby.players:  # the last player left: the table closed
        lobbies.forget(key)
        if on_lobby:
            await interaction.edit_original_response(
                content=lobby_text(lobby, locale=locale), view=None
            )
        return
    known = lobbies.get(key)
    if not on_lobby and known is not None and known.lobby == lobby:
        return  # the publisher has posted this very change, or is posting it
    # Noted before awaiting: the publisher, showing the same change meanwhile, leaves it be.
    lobbies.shown(key, interaction.message if on_lobby else None, lobby)
    text, view = lobby_text(lobby, locale=locale), lobby_view(lobby, locale=locale)
    if on_lobby:
        await interaction.edit_original_response(content=text, view=view)
        return
    posted = await interaction.followup.send(text, view=view, wait=True)
    lobbies.shown(key, posted, lobby)


_LOBBY_LABELS: Final = {
    "join": (tr("Join"), discord.ButtonStyle.primary),
    "leave": (tr("Leave"), discord.ButtonStyle.secondary),
    "start": (tr("Start"), discord.ButtonStyle.success),
    "computer": (tr("Add computer"), discord.ButtonStyle.secondary),
    # Under a showdown: the host deals the next hand to whoever is still seated, a newcomer
    # sits down for it, a player leaves (the lobby is then posted anew, not the showdown edited).
    "again": (tr("Deal again"), discord.ButtonStyle.success),
    "sit": (tr("Join"), discord.ButtonStyle.primary),
    "stand": (tr("Leave"), discord.ButtonStyle.secondary),
}


class LobbyButton(
    ChannelControl[Button], custom_id="pp:lobby:{action:join|leave|start|computer|again|sit|stand}"
):
    """Join, Leave, Start or Add computer under the lobby message; Deal again, Join, Leave under
    a showdown."""

    def __init__(self, *, action: str, locale: str = i18n.ENGLISH.discord) -> None:
        super().__init__(self.button(*_LOBBY_LABELS[action], locale=locale, action=action))
        self.action = action

    async def act(self, interaction: Interaction) -> None:
        """Sit down, stand up, or deal, at the table of the channel pressed in."""
        action = {"again": "start", "sit": "join", "stand": "leave"}.get(self.action, self.action)
        await lobby_action(interaction, *self.where, action, pressed=self.action)


class RemoveComputerSelect(ChannelControl[Select], custom_id="pp:remove:computer"):
    """The lobby's menu of its computers: the host picks one to remove (a phone has no easy way
    to type ``/table kick computer:``)."""

    ELSEWHERE = tr("Choose a computer of the table, in its lobby.")

    def __init__(
        self,
        *,
        options: Sequence[discord.SelectOption] = (),
        locale: str = i18n.ENGLISH.discord,
    ) -> None:
        nothing = discord.SelectOption(label=localized(locale, tr("no computer")), value="0")
        super().__init__(
            discord.ui.Select(
                custom_id=self.ID.format(),
                placeholder=localized(locale, tr("Remove a computer…")),
                options=list(options) or [nothing],
                disabled=not options,
            )
        )

    @classmethod
    def rebuild(cls, item: discord.ui.Item[Any], fields: dict[str, Any]) -> RemoveComputerSelect:
        """The menu from its custom id, with the options it was sent with."""
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(**fields, options=options)

    @classmethod
    def of(cls, lobby: Lobby, *, locale: str = i18n.ENGLISH.discord) -> RemoveComputerSelect:
        """The menu of the lobby's computers, by the names the lobby shows in the language of
        ``locale``."""
        options = [
            discord.SelectOption(
                label=localized(
                    locale,
                    tr("{computer} ({level})", computer=Who(user), level=level_name(level)),
                ),
                value=str(-user),
            )
            for user, level in lobby.computers
        ]
        return cls(options=options, locale=locale)

    async def act(self, interaction: Interaction) -> None:
        """Remove the computer chosen (a value that names none gets the menu's sentence)."""
        chosen = self.item.values[0] if self.item.values else ""
        number = int(chosen) if chosen.isascii() and chosen.isdigit() else 0
        if not 1 <= number <= MAX_COMPUTER:
            raise GameError(self.ELSEWHERE)
        await lobby_action(interaction, *self.where, "remove", pressed="remove", computer=number)


def lobby_view(
    lobby: Lobby | None = None, *, locale: str = i18n.ENGLISH.discord
) -> discord.ui.View:
    """Join, Leave and Start, Add computer while the table may seat one, and the menu that
    removes one while it seats any: controls that work after a restart too, labelled in the
    language of ``locale`` (the channel's)."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start"):
        view.add_item(LobbyButton(action=action, locale=locale))
    if lobby is None or lobby.seats_a_computer:
        view.add_item(LobbyButton(action="computer", locale=locale))
    if lobby is not None and lobby.computers:
        view.add_item(RemoveComputerSelect.of(lobby, locale=locale))
    return view


def next_hand_view(
    game_id: int,
    *,
    is_open: bool = True,
    summary: bool = False,
    locale: str = i18n.ENGLISH.discord,
) -> discord.ui.View:
    """Under a showdown: Deal again (the host), Join (a newcomer), Leave (a player done), while
    the table is open; Review (each player's own hands beside the best); and under a showdown
    posted as its summary, Full showdown (every hand and the Scoring Card, to the presser);
    labelled in the language of ``locale`` (the channel's)."""
    view = discord.ui.View(timeout=None)
    if is_open:
        for action in ("again", "sit", "stand"):
            view.add_item(LobbyButton(action=action, locale=locale))
    view.add_item(ReviewButton(game=game_id, locale=locale))
    if summary:
        view.add_item(FullShowdownButton(game=game_id, locale=locale))
    return view
