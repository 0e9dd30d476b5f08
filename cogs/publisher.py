"""Turns a table's events into Discord messages: the lobby, private DMs, reveals, the showdown."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import discord

from cogs.arrange import arrange_view, hand_view
from cogs.common import Suggestions, fit, picture, player_names, png
from cogs.declare import declare_view
from cogs.lobby import lobby_view, next_hand_view
from cogs.pictures import hand_picture, phase_subtitle, showdown_picture
from engine.cards import AnyCard, format_cards, sort_cards
from render.style import signed
from storage import Storage
from tables.events import (
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

log = logging.getLogger(__name__)


#: Discord's codes for a channel that is gone (Unknown Channel) or out of the bot's reach
#: (Missing Access, Missing Permissions).
CHANNEL_LOST_CODES = frozenset({10003, 50001, 50013})


def cards_text(cards: Sequence[AnyCard]) -> str:
    """A player's cards as text to copy into ``/arrange hands``: sorted as in the picture."""
    if not cards:
        return ""
    return f"\nYour {len(cards)} cards, to copy:\n```\n{format_cards(sort_cards(cards))}\n```"


def _mentions(users: Sequence[int]) -> str:
    return ", ".join(f"<@{user}>" for user in users) or "nobody"


def lobby_text(lobby: Lobby) -> str:
    """The lobby message: the game, its ante and seats, the host and who sits."""
    if not lobby.players:  # the last player left
        return "The table is closed."
    spec = game_named(lobby.game)
    ante = f"ante {lobby.ante}" if lobby.ante else "no ante"
    return (
        f"**{spec.title}** table, {ante}, {len(lobby.players)}/{lobby.seats} seats "
        f"(host <@{lobby.host}>)\nSeated: {_mentions(lobby.players)}\n"
        f"Join, then the host presses Start ({spec.min_players}+ players)."
    )


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
    ) -> None:
        self.client = client
        self.storage = storage
        self.on_channel_lost = on_channel_lost
        #: The suggestions shown during a game, forgotten when it ends.
        self.suggestions = suggestions or Suggestions()
        #: The lobby message per channel, edited as players come and go (lost on restart: a
        #: new one is posted on the next change).
        self.lobbies: dict[tuple[int, int], discord.Message] = {}
        #: Tables being closed because their channel went out of reach (kept until done).
        self._closing: set[asyncio.Task[Any]] = set()

    def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _say(
        self, guild_id: int, channel_id: int, content: str, **kwargs: Any
    ) -> discord.Message | None:
        channel = self._channel(channel_id)
        if channel is None:
            log.warning("channel %s is gone; dropped: %s", channel_id, content[:100])
            return None
        try:
            return await channel.send(content, **kwargs)
        except (discord.NotFound, discord.Forbidden) as error:
            if error.code in CHANNEL_LOST_CODES:
                self._lost(guild_id, channel_id, error)
            else:
                log.exception("could not post in channel %s", channel_id)
            return None
        except discord.HTTPException:
            log.exception("could not post in channel %s", channel_id)
            return None

    def _lost(self, guild_id: int, channel_id: int, error: discord.HTTPException) -> None:
        """The channel is gone or out of reach: close its table (after this publication)."""
        log.warning("channel %s is out of reach (%s); closing its table", channel_id, error.code)
        task = asyncio.get_running_loop().create_task(self.on_channel_lost(guild_id, channel_id))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        """Show the events, in order."""
        held: dict[int, tuple[AnyCard, ...]] = {}
        for index, event in enumerate(events):
            ended = getattr(event, "game_id", None)
            if isinstance(event, ShowdownSettled | GameCancelled | TableAbandoned) and ended:
                self.suggestions.forget(ended)
            if isinstance(event, CardsDealt):
                held[event.user] = event.cards
            elif isinstance(event, CardsDrawn):
                held[event.user] = event.held
            elif isinstance(event, DeclarationsOpened | ArrangingOpened):
                await self._phase(guild_id, channel_id, event, held)
                held = {}
            elif isinstance(event, ShowdownSettled):
                # The table is back in its lobby unless it closed with this showdown.
                closed = any(isinstance(later, TableClosed) for later in events[index + 1 :])
                await self._showdown(guild_id, channel_id, event, is_open=not closed)
            else:
                await self._public(guild_id, channel_id, event)

    # ----- the lobby -------------------------------------------------------------------------

    async def _lobby(self, guild_id: int, channel_id: int, lobby: Lobby) -> None:
        key = (guild_id, channel_id)
        text = lobby_text(lobby)
        message = self.lobbies.get(key)
        if message is not None:
            try:
                await message.edit(content=text, view=lobby_view())
                return
            except discord.HTTPException:
                self.lobbies.pop(key, None)
        posted = await self._say(guild_id, channel_id, text, view=lobby_view())
        if posted is not None:
            self.lobbies[key] = posted

    # ----- private phases -------------------------------------------------------------------

    async def _phase(
        self,
        guild_id: int,
        channel_id: int,
        event: DeclarationsOpened | ArrangingOpened,
        held: dict[int, tuple[AnyCard, ...]],
    ) -> None:
        title = game_named(event.game).title
        game_id = event.game_id
        deadline = f"<t:{int(event.deadline)}:R>"
        if isinstance(event, DeclarationsOpened):
            what = (
                f"Declaration {event.round + 1}: **Play** puts up {event.play_cost} chips and "
                f"brings {event.draw} more cards; **Surrender** costs {event.surrender_cost}. "
                f"Decide {deadline}; your choice stays secret until everyone has declared."
            )
            await self._say(
                guild_id,
                channel_id,
                f"Declaration {event.round + 1}: {_mentions(event.players)}, check your DMs "
                f"and decide {deadline}.",
                view=hand_view(game_id),
            )
        else:
            what = (
                f"Set your hands {deadline}: **Build hands** picks them card by card, **Type "
                "hands** (or `/arrange hands:` in the channel) takes them as text, **Suggest** "
                "shows the solver's arrangement. If you set nothing, the table sets them for you."
            )
            await self._say(
                guild_id,
                channel_id,
                f"Arranging: {_mentions(event.players)}, set your hands {deadline}.",
                view=hand_view(game_id),
            )
        where = self._where(guild_id, channel_id)
        for user in event.players:
            cards = held.get(user, ())
            if isinstance(event, DeclarationsOpened):
                view = declare_view(guild_id, channel_id, game_id, event.round)
            else:
                view = arrange_view(guild_id, channel_id, game_id)
            await self._dm(
                user,
                (guild_id, channel_id),
                f"**{title}** in {where}.\n{what}{cards_text(cards)}",
                cards,
                view,
                subtitle=phase_subtitle(title, event),
            )

    def _where(self, guild_id: int, channel_id: int) -> str:
        guild = self.client.get_guild(guild_id)
        return f"<#{channel_id}>" + (f" on **{guild.name}**" if guild else "")

    async def _dm(
        self,
        user_id: int,
        where: tuple[int, int],
        content: str,
        cards: Sequence[AnyCard],
        view: discord.ui.View,
        *,
        subtitle: str = "",
    ) -> None:
        user = self.client.get_user(user_id)
        try:
            if user is None:
                user = await self.client.fetch_user(user_id)
            files = []
            if cards:
                data = await picture(hand_picture, cards, subtitle=subtitle)
                files.append(png(data, "hand.png"))
            await user.send(content, files=files, view=view)
        except discord.Forbidden:
            # Closed DMs (50007): the channel says so, and /hand or the button serve instead.
            await self._say(
                *where,
                f"<@{user_id}>, I cannot DM you: use `/hand` or the **Show my hand** button, "
                "which answer only you.",
            )
        except discord.HTTPException:
            log.exception("could not DM %s", user_id)

    # ----- public events -------------------------------------------------------------------

    async def _public(self, guild_id: int, channel_id: int, event: Event) -> None:
        if isinstance(event, TableOpened | PlayerJoined | PlayerLeft):
            await self._lobby(guild_id, channel_id, event.lobby)
        elif isinstance(event, PlayerKicked):
            await self._say(guild_id, channel_id, f"<@{event.user}> was removed by <@{event.by}>.")
            if event.lobby is not None:
                await self._lobby(guild_id, channel_id, event.lobby)
        elif isinstance(event, GameStarted):
            self.lobbies.pop((guild_id, channel_id), None)
            escrow = sum(event.escrowed.values())
            chips = f"; {escrow} chips held for the game" if escrow else ""
            await self._say(
                guild_id,
                channel_id,
                f"Game {event.game_id} started with {_mentions(event.players)}{chips}. "
                "Cards are on their way by DM.",
            )
        elif isinstance(event, DeclarationMade):
            await self._say(guild_id, channel_id, f"<@{event.user}> has declared.")
        elif isinstance(event, DeclarationsRevealed):
            lines = [
                f"Declaration {event.round + 1} revealed. Play: {_mentions(event.played)}. "
                f"Surrender: {_mentions(event.surrendered)}."
            ]
            if event.defaulted:
                lines.append(
                    f"Silent at the deadline (the table declared): {_mentions(event.defaulted)}."
                )
            if event.short:
                lines.append(f"Short of chips to play on: {_mentions(event.short)}.")
            await self._say(guild_id, channel_id, "\n".join(lines))
        elif isinstance(event, ArrangementSubmitted):
            how = {"player": "set their hands", "solver": "had their hands set by the solver"}
            verb = how.get(event.by, "set their hands")
            again = " again" if event.replaced else ""
            await self._say(guild_id, channel_id, f"<@{event.user}> {verb}{again}.")
        elif isinstance(event, GameCancelled):
            back = sum(event.refunds.values())
            await self._say(
                guild_id, channel_id, f"Game {event.game_id} was cancelled; {back} chips went back."
            )
        elif isinstance(event, TableClosed):
            self.lobbies.pop((guild_id, channel_id), None)
            await self._say(guild_id, channel_id, f"Table closed: {event.reason}")
        elif isinstance(event, TableAbandoned):
            self.lobbies.pop((guild_id, channel_id), None)
            await self._abandoned(guild_id, event)

    async def _abandoned(self, guild_id: int, event: TableAbandoned) -> None:
        """The channel is gone: each player hears by DM that the table closed and why."""
        guild = self.client.get_guild(guild_id)
        where = f" on **{guild.name}**" if guild else ""
        title = game_named(event.game).title
        for user_id in event.players:
            back = event.refunds.get(user_id, 0)
            chips = f" The {back} chips you had put up came back to you." if back else ""
            text = f"Your **{title}** table{where} was closed: {event.reason}.{chips}"
            try:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                await user.send(text)
            except discord.HTTPException:
                log.info("could not tell %s that their table closed", user_id)

    async def _showdown(
        self, guild_id: int, channel_id: int, event: ShowdownSettled, *, is_open: bool
    ) -> None:
        users = [seat.user for seat in event.seats]
        names = await player_names(self.client, self.storage, guild_id, users)
        data = await picture(showdown_picture, event, names)
        text = f"**Showdown, game {event.game_id}.** " + ", ".join(
            f"<@{u}> {signed(n)}" for u, n in event.nets.items()
        )
        if event.notes:
            text += "\n" + "\n".join(note.render(lambda user: f"<@{user}>") for note in event.notes)
        # Back in its lobby, the table deals the next hand at a press.
        view = next_hand_view() if is_open else None
        await self._say(
            guild_id,
            channel_id,
            fit(text),
            file=png(data, "showdown.png"),
            allowed_mentions=discord.AllowedMentions.none(),
            **({"view": view} if view is not None else {}),
        )
