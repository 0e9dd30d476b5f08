"""Turns a table's events into Discord messages: the lobby, private DMs, reveals, the showdown."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import aiohttp
import discord

import i18n
from cogs.arrange import arrange_view
from cogs.board import board_text, board_view, show_board
from cogs.boards import Board, Boards, board_of, ended_board
from cogs.common import (
    LobbyMessages,
    Mentions,
    Suggestions,
    batch_picture,
    fit,
    picture,
    png,
    retire_lobby,
)
from cogs.declare import declaration_text, declare_view
from cogs.lobby import lobby_text, lobby_view, next_hand_view
from cogs.pictures import channel_showdown, hand_picture, phase_subtitle
from cogs.showdown import people, showdown_names, showdown_pings, showdown_text
from engine.cards import AnyCard, format_cards, sort_cards
from engine.text import Term, Text, Where, Who, tr, tr_plural
from storage import Storage
from tables.computers import is_computer
from tables.events import (
    AchievementEarned,
    ArrangementSubmitted,
    ArrangingOpened,
    CardsDealt,
    CardsDrawn,
    DeclarationMade,
    DeclarationsOpened,
    DeclarationsRevealed,
    Event,
    GameCancelled,
    GameStarted,
    Lobby,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    ShowdownSettled,
    TableAbandoned,
    TableClosed,
    TableOpened,
)
from tables.games import game_named
from tables.runtime import DeliveryError
from tables.table import Table

log = logging.getLogger(__name__)


#: Discord's codes for a channel that is gone (Unknown Channel) or out of the bot's reach
#: (Missing Access, Missing Permissions).
CHANNEL_LOST_CODES = frozenset({10003, 50001, 50013})
#: The events that change what the table's message shows, and those that end its game.
_ON_THE_BOARD = (
    DeclarationsOpened,
    ArrangingOpened,
    DeclarationMade,
    ArrangementSubmitted,
    ShowdownSettled,
    GameCancelled,
)
_ENDS = (ShowdownSettled, GameCancelled)
#: Reads a channel's table (as any process reads it: from the store in a cluster).
TableReader = Callable[[int, int], Coroutine[Any, Any, Table | None]]


def is_refused_for_now(error: BaseException) -> bool:
    """Whether Discord may well take the request later: its servers failed (5xx), it kept
    limiting the bot (429, after discord.py's own tries), or it could not be reached."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, discord.RateLimited | aiohttp.ClientError | OSError | TimeoutError)


ENGLISH = i18n.ENGLISH.discord


def cards_text(cards: Sequence[AnyCard], locale: str = ENGLISH) -> str:
    """A player's cards as text to copy into ``/arrange hands``: sorted as in the picture (the
    cards' notation is the same in every language)."""
    if not cards:
        return ""
    heading = tr_plural("Your {count} card, to copy:", "Your {count} cards, to copy:", len(cards))
    copy = format_cards(sort_cards(cards))
    return f"\n{i18n.localize(locale, heading)}\n```\n{copy}\n```"


def reveal_text(event: DeclarationsRevealed, locale: str = ENGLISH) -> str:
    """What a declaration's reveal says: who plays on, who surrendered, and why some did."""
    texts: list[Text] = [
        tr(
            "Declaration {number} revealed. Play: {played}. Surrender: {surrendered}.",
            number=str(event.round + 1),
            played=people(event.played, locale),
            surrendered=people(event.surrendered, locale),
        )
    ]
    if event.defaulted:
        texts.append(
            tr(
                "Silent at the deadline (the table declared): {players}.",
                players=people(event.defaulted, locale),
            )
        )
    if event.short:
        texts.append(
            tr("Short of chips to play on: {players}.", players=people(event.short, locale))
        )
    return "\n".join(i18n.localize(locale, text, Mentions(locale)) for text in texts)


def achievements_text(earned: Sequence[AchievementEarned], locale: str = ENGLISH) -> str:
    """One line per achievement earned: "🏆 @Ann earned **First win**: Win a game."."""
    return "\n".join(
        i18n.localize(
            locale,
            tr(
                "\N{TROPHY} {player} earned **{name}**: {description}",
                player=Who(e.user),
                name=e.name,
                description=e.description,
            ),
            Mentions(locale),
        )
        for e in earned
    )


def game_words(title: object) -> object:
    """A game's name in a sentence: as the reader's /commands name it (a title as stored with an
    event is the game choice's English)."""
    return Term(title, "choice") if isinstance(title, str) else title


def label(locale: str, english: str) -> str:
    """A button's label as the reader sees it on the button (translated where the button is)."""
    return i18n.translate(locale, english)


def phase_text(event: DeclarationsOpened | ArrangingOpened, locale: str = ENGLISH) -> str:
    """What a phase's DM asks of the player, in their language (the deadline a Discord
    relative time, which each client writes in its own language)."""
    deadline = f"<t:{int(event.deadline)}:R>"
    if isinstance(event, DeclarationsOpened):
        asked = tr(
            "Decide {deadline}; your choice stays secret until everyone has declared.",
            deadline=deadline,
        )
        return f"{declaration_text(event, locale=locale)}\n{i18n.localize(locale, asked)}"
    asked = tr(
        "Set your hands {deadline}: **{build}** picks them card by card, **{type}** (or"
        " `/{arrange} {hands}:` in the channel) takes them as text, **{suggest}** shows the"
        " solver's arrangement. If you set nothing, the table sets them for you.",
        deadline=deadline,
        build=label(locale, "Build hands"),
        type=label(locale, "Type hands"),
        suggest=label(locale, "Suggest"),
        arrange=Term("arrange"),
        hands=Term("hands"),
    )
    return i18n.localize(locale, asked)


class DiscordPublisher:
    """The tables' publisher in the bot: each event becomes a channel message or a DM.

    What it shows comes from the events alone; the players' kept names come from ``storage``,
    and a channel found out of reach is handed to ``on_channel_lost(guild, channel)``.
    """

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        *,
        on_channel_lost: Callable[[int, int], Coroutine[Any, Any, object]],
        suggestions: Suggestions | None = None,
        lobbies: LobbyMessages | None = None,
        boards: Boards | None = None,
    ) -> None:
        self.client = client
        self.storage = storage
        self.on_channel_lost = on_channel_lost
        #: The suggestions shown during a game, forgotten when it ends.
        self.suggestions = suggestions or Suggestions()
        #: Each table's lobby message, edited as players come and go (lost on restart: a new
        #: one is posted on the next change); the lobby buttons update it themselves.
        self.lobbies = lobbies or LobbyMessages()
        #: What each table's message shows of its game, edited at each step.
        self.boards = boards or Boards()
        #: Reads a table as it is now, so that the table's message shows steps another process
        #: played (set once the tables are made: they publish through this publisher).
        self.read_table: TableReader | None = None
        #: Tables being closed because their channel went out of reach (kept until done).
        self._closing: set[asyncio.Task[Any]] = set()

    async def post_locale(self, guild_id: int) -> str:
        """The language of the server's channel posts: the one chosen with ``/settings
        language``, else the server's preferred locale (kept in memory: no query per post)."""
        chosen = await self.storage.settings.language(guild_id)
        guild = self.client.get_guild(guild_id)
        own = guild.preferred_locale.value if guild is not None else ENGLISH
        return i18n.channel_locale(chosen, own)

    async def dm_locales(self, users: Sequence[int]) -> dict[int, str]:
        """Each player's language for a DM: their Discord locale as their last interaction
        showed it (kept in memory), English for a user the bot never saw."""
        found = await self.storage.locales.many(users)
        return {user: found.get(user) or ENGLISH for user in users}

    def _channel(self, guild_id: int, channel_id: int) -> discord.abc.Messageable:
        """The table's channel: this process's cached one, or one known by its id alone when
        another process of the bot runs the server's shard (a DM click is played on shard 0's
        process, whatever the server). Discord says whether a channel no longer exists."""
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def _say(
        self, guild_id: int, channel_id: int, content: str, **kwargs: Any
    ) -> discord.Message | None:
        channel = self._channel(guild_id, channel_id)
        try:
            return await channel.send(content, **kwargs)
        except (discord.NotFound, discord.Forbidden) as error:
            if error.code in CHANNEL_LOST_CODES:
                self._lost(guild_id, channel_id, error)
            else:
                log.exception("could not post in channel %s", channel_id)
            return None
        except discord.HTTPException as error:
            if is_refused_for_now(error):
                raise  # kept in the outbox and posted again later
            # Refused for good (a 400: the message itself is wrong): retrying cannot help.
            log.exception("could not post in channel %s", channel_id)
            return None

    async def _post(self, guild_id: int, channel_id: int, text: Text) -> discord.Message | None:
        """A sentence in the channel, in the server's language."""
        locale = await self.post_locale(guild_id)
        return await self._say(guild_id, channel_id, i18n.localize(locale, text, Mentions(locale)))

    def _lost(self, guild_id: int, channel_id: int, error: discord.HTTPException) -> None:
        """The channel is gone or out of reach: close its table (after this publication)."""
        log.warning("channel %s is out of reach (%s); closing its table", channel_id, error.code)
        task = asyncio.get_running_loop().create_task(self.on_channel_lost(guild_id, channel_id))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        """Show the events, in order; `DeliveryError` says which were shown before Discord
        refused one for now."""
        held: dict[int, tuple[AnyCard, ...]] = {}
        revealed: DeclarationsRevealed | None = None
        #: The events shown to the end: a private event counts once its phase's DMs went out.
        shown = 0
        key = (guild_id, channel_id)
        board = None
        for index, event in enumerate(events):
            board = self.boards.note(key, event) or board
            try:
                ended = getattr(event, "game_id", None)
                if isinstance(event, ShowdownSettled | GameCancelled | TableAbandoned) and ended:
                    self.suggestions.forget(ended)
                if isinstance(event, CardsDealt):
                    held[event.user] = event.cards
                elif isinstance(event, CardsDrawn):
                    held[event.user] = event.held
                elif isinstance(event, DeclarationsRevealed):
                    # Told to each player in the next phase's DM, not posted in the channel.
                    revealed = event
                elif isinstance(event, DeclarationsOpened | ArrangingOpened):
                    await self._phase(guild_id, channel_id, event, held, revealed)
                    held, revealed = {}, None
                elif isinstance(event, ShowdownSettled):
                    # The table is back in its lobby unless it closed with this showdown.
                    closed = any(isinstance(later, TableClosed) for later in events[index + 1 :])
                    await self._showdown(guild_id, channel_id, event, is_open=not closed)
                elif isinstance(event, AchievementEarned):
                    # Achievements earned together (a showdown's) are one message.
                    if index == 0 or not isinstance(events[index - 1], AchievementEarned):
                        await self._achievements(guild_id, channel_id, events[index:])
                else:
                    await self._public(guild_id, channel_id, event)
            except Exception as error:
                if not is_refused_for_now(error):
                    raise
                reason = f"{type(error).__name__}: {error}"
                raise DeliveryError(reason, shown=shown, upto=index + 1) from error
            if not held and revealed is None:
                shown = index + 1
        if board is not None or any(isinstance(event, _ON_THE_BOARD) for event in events):
            board = await self._current_board(key, board, events)
        if board is not None:
            await self._board(key, board)

    async def _current_board(
        self, key: tuple[int, int], board: Board | None, events: Sequence[Event]
    ) -> Board | None:
        """The table's message as its game now is, read from the table where this process can
        (another process may have played steps this one never saw), and the message showing it:
        this process's, or the one the store names (posted by another process, or before a
        restart)."""
        ended = next((e for e in reversed(events) if isinstance(e, _ENDS)), None)
        if ended is not None:
            if board is None or board.game_id != ended.game_id:
                board = ended_board(ended)
        elif self.read_table is not None:
            table = await self.read_table(*key)
            fresh = None if table is None else board_of(table)
            if fresh is not None:
                board = self.boards.adopt(key, fresh)
        if board is not None and board.message is None:
            found = await self.storage.messages.find(*key, board.game_id)
            if found is not None:
                channel = self.client.get_partial_messageable(key[1], guild_id=key[0])
                board.message = channel.get_partial_message(found)
                board.started_here = True
        return board

    async def _board(self, key: tuple[int, int], board: Board) -> None:
        """Show the table's message as its game now is; a game whose message no process posted
        (one started before the bot kept its messages) gets a new message."""
        board.locale = await self.post_locale(key[0])
        if board.message is None and not board.started_here and board.ended is None:
            board.started_here = True  # posted once
            board.message = await self._say(
                *key,
                board_text(board),
                view=board_view(board),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            board.shown = board_text(board)
            if board.message is not None:
                await self.storage.messages.remember(*key, board.game_id, board.message.id)
            return
        await show_board(self.client, key, board)

    # ----- the lobby -------------------------------------------------------------------------

    async def _lobby(self, guild_id: int, channel_id: int, lobby: Lobby) -> None:
        key = (guild_id, channel_id)
        known = self.lobbies.get(key)
        locale = await self.post_locale(guild_id)
        if known is not None:
            if known.lobby == lobby:
                return  # an interaction already showed this very change
            if known.message is None:
                return  # an interaction is posting the lobby; a later change updates it
            try:
                await known.message.edit(
                    content=lobby_text(lobby, locale=locale), view=lobby_view(lobby, locale=locale)
                )
                self.lobbies.shown(key, known.message, lobby)
                return
            except discord.HTTPException as error:
                if is_refused_for_now(error):
                    raise  # edited on the next try
                self.lobbies.forget(key)
        # Noted before awaiting, as an interaction notes it: the command's answer, coming
        # meanwhile, leaves it be, and the lobby is posted once.
        self.lobbies.shown(key, None, lobby)
        try:
            posted = await self._say(
                guild_id,
                channel_id,
                lobby_text(lobby, locale=locale),
                view=lobby_view(lobby, locale=locale),
            )
        except Exception:
            self.lobbies.forget(key)  # the next try posts it
            raise
        if posted is not None:
            self.lobbies.shown(key, posted, lobby)
        else:
            self.lobbies.forget(key)

    # ----- private phases -------------------------------------------------------------------

    async def _phase(
        self,
        guild_id: int,
        channel_id: int,
        event: DeclarationsOpened | ArrangingOpened,
        held: dict[int, tuple[AnyCard, ...]],
        revealed: DeclarationsRevealed | None,
    ) -> None:
        """Each player's DM: what was revealed, the phase, their cards and its buttons.

        Nothing is posted in the channel: the table's message (the Start press's answer, edited
        at each step through that interaction: cogs/board.py) says who is done and carries Show
        my hand, and every request counts against the bot's limit.
        """
        title = game_named(event.game).title
        game_id = event.game_id
        people_here = [user for user in event.players if not is_computer(user)]
        locales = await self.dm_locales(people_here)
        # The picture's line under the cards: one per language, not per player.
        subtitles = {
            locale: phase_subtitle(title, event, locale=locale) for locale in set(locales.values())
        }

        def content(user: int) -> str:
            """The player's DM, in their language."""
            locale = locales[user]
            heading = tr(
                "**{game}** in {where}.",
                game=game_words(title),
                where=self._where(guild_id, channel_id),
            )
            news = f"{reveal_text(revealed, locale)}\n" if revealed is not None else ""
            said = i18n.localize(locale, heading, Mentions(locale))
            return (
                f"{said}\n{news}{phase_text(event, locale)}{cards_text(held.get(user, ()), locale)}"
            )

        def view(user: int) -> discord.ui.View:  # one per message: a view belongs to its message
            locale = locales[user]
            if isinstance(event, DeclarationsOpened):
                return declare_view(guild_id, channel_id, game_id, event.round, locale=locale)
            return arrange_view(guild_id, channel_id, game_id, locale=locale)

        # Side by side: six pictures and six requests take the time of one, not of six.
        sent = await asyncio.gather(
            *(
                self._dm(
                    user,
                    (guild_id, channel_id),
                    content(user),
                    held.get(user, ()),
                    view(user),
                    subtitle=subtitles[locales[user]],
                    locale=locales[user],
                )
                for user in people_here  # a computer has no DMs: it plays in a worker
            ),
            return_exceptions=True,
        )
        # Every DM was tried; one that failed fails the phase, whose DMs all go again.
        failed = next((error for error in sent if isinstance(error, BaseException)), None)
        if failed is not None:
            raise failed

    def _where(self, guild_id: int, channel_id: int) -> Text | Where:
        """The table's channel, and its server's name where this process knows it."""
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return Where(channel_id)
        return tr("{channel} on **{server}**", channel=Where(channel_id), server=guild.name)

    async def _dm(
        self,
        user_id: int,
        where: tuple[int, int],
        content: str,
        cards: Sequence[AnyCard],
        view: discord.ui.View,
        *,
        subtitle: str = "",
        locale: str = ENGLISH,
    ) -> None:
        try:
            files = []
            if cards:
                data = await batch_picture(hand_picture, cards, subtitle=subtitle, locale=locale)
                files.append(png(data, "hand.png"))
            channel = await self._dm_channel(user_id)
            await channel.send(content, files=files, view=view)
        except discord.Forbidden:
            # Closed DMs (50007): the channel says so, and /hand or the button serve instead.
            locale = await self.post_locale(where[0])
            closed = tr(
                "{player}, I cannot DM you: use `/{hand}` or the **{show_hand}** button, which"
                " answer only you.",
                player=Who(user_id),
                hand=Term("hand"),
                show_hand=label(locale, "Show my hand"),
            )
            await self._say(*where, i18n.localize(locale, closed, Mentions(locale)))
        except discord.HTTPException as error:
            if is_refused_for_now(error):
                raise  # the player's cards are sent again later
            log.exception("could not DM %s", user_id)

    async def _dm_channel(self, user_id: int) -> discord.DMChannel:
        """The player's DM channel: opened once per process (one request), then from the cache,
        and never a look-up of the user first."""
        return await self.client.create_dm(discord.Object(id=user_id))

    # ----- public events -------------------------------------------------------------------

    async def _public(self, guild_id: int, channel_id: int, event: Event) -> None:
        if isinstance(event, TableOpened | PlayerJoined | PlayerLeft):
            await self._lobby(guild_id, channel_id, event.lobby)
        elif isinstance(event, PlayerKicked):
            await self._post(guild_id, channel_id, public_text(event))
            if event.lobby is not None:
                await self._lobby(guild_id, channel_id, event.lobby)
        elif isinstance(event, GameStarted):
            # The Start press answers in the channel with the table's message (an interaction
            # response); a lobby message left over from a typed /table start loses its buttons.
            key = (guild_id, channel_id)
            await retire_lobby(
                self.client,
                key,
                self.lobbies.forget(key),
                event.game_id,
                locale=await self.post_locale(guild_id),
            )
        elif isinstance(event, GameCancelled):
            await self._post(guild_id, channel_id, public_text(event))
        elif isinstance(event, TableClosed):
            self.lobbies.forget((guild_id, channel_id))
            await self._post(guild_id, channel_id, public_text(event))
        elif isinstance(event, TableAbandoned):
            self.lobbies.forget((guild_id, channel_id))
            await self._abandoned(guild_id, event)

    async def _achievements(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        """The achievements at the head of ``events``, a line each, in one message."""
        earned = itertools.takewhile(lambda e: isinstance(e, AchievementEarned), events)
        locale = await self.post_locale(guild_id)
        await self._say(
            guild_id,
            channel_id,
            fit(achievements_text([e for e in earned if isinstance(e, AchievementEarned)], locale)),
            # Said in the channel where it was earned: a line to read, not a notification.
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _abandoned(self, guild_id: int, event: TableAbandoned) -> None:
        """The channel is gone: each player hears by DM that the table closed and why."""
        guild = self.client.get_guild(guild_id)
        server = None if guild is None else guild.name
        title = game_named(event.game).title
        people_here = [user for user in event.players if not is_computer(user)]
        locales = await self.dm_locales(people_here)
        for user_id in people_here:  # a computer has no DMs: nobody is there to tell
            back = event.refunds.get(user_id, 0)
            text = abandoned_text(title, server, event.reason, back, locales[user_id])
            try:
                await (await self._dm_channel(user_id)).send(text)
            except discord.HTTPException as error:
                if is_refused_for_now(error):
                    raise  # told again later (those told already hear it twice)
                log.info("could not tell %s that their table closed", user_id)

    async def _showdown(
        self, guild_id: int, channel_id: int, event: ShowdownSettled, *, is_open: bool
    ) -> None:
        locale = await self.post_locale(guild_id)
        names = await showdown_names(self.client, self.storage, guild_id, event, locale=locale)
        # A showdown too tall for a phone is posted as its summary, the full one a button away.
        data, summary = await picture(channel_showdown, event, names, locale=locale)
        text = showdown_text(event, locale=locale)
        # Back in its lobby, the table deals the next hand at a press; anyone may review theirs.
        view = next_hand_view(event.game_id, is_open=is_open, summary=summary, locale=locale)
        await self._say(
            guild_id,
            channel_id,
            fit(text),
            file=png(data, "showdown.png"),
            # Each player is notified that the game ended (one who surrendered long ago too).
            allowed_mentions=showdown_pings(event),
            view=view,
        )


def public_text(event: PlayerKicked | GameCancelled | TableClosed) -> Text:
    """What the channel reads of a player removed, a game cancelled or the table closed."""
    if isinstance(event, PlayerKicked):
        return tr("{player} was removed by {by}.", player=Who(event.user), by=Who(event.by))
    if isinstance(event, GameCancelled):
        return tr_plural(
            "Game {game} was cancelled; {count} chip went back.",
            "Game {game} was cancelled; {count} chips went back.",
            sum(event.refunds.values()),
            game=str(event.game_id),
        )
    return tr("Table closed: {reason}", reason=event.reason)


def abandoned_text(
    title: object, server: str | None, reason: object, back: int, locale: str = ENGLISH
) -> str:
    """The DM telling a player their table closed as its channel went away, and the chips they
    had put up came back."""
    title = game_words(title)
    if server is None:
        closed = tr("Your **{game}** table was closed: {reason}.", game=title, reason=reason)
    else:
        closed = tr(
            "Your **{game}** table on **{server}** was closed: {reason}.",
            game=title,
            server=server,
            reason=reason,
        )
    text = i18n.localize(locale, closed, Mentions(locale))
    if back:
        chips = tr_plural(
            "The {count} chip you had put up came back to you.",
            "The {count} chips you had put up came back to you.",
            back,
        )
        text = f"{text} {i18n.localize(locale, chips, Mentions(locale))}"
    return text
