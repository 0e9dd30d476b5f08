"""What every cog shares: the bot's services, answering an interaction, and names for pictures."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import multiprocessing
import secrets
import signal
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

import aiohttp
import discord

import i18n
from cogs.boards import Boards
from engine.errors import GameError, Names
from engine.players import Level
from engine.text import Text, tr
from storage import Storage
from storage.health import StoreHealth
from tables.challenge import Challenges
from tables.coach import Reviews
from tables.events import Lobby
from tables.hands import Setting
from tables.manager import TableManager
from tables.runtime import RESTARTING, Priority, Slots
from tables.tournament_runner import TournamentRunner

log = logging.getLogger(__name__)
T = TypeVar("T")


def mention(user_id: int, locale: str = i18n.ENGLISH.discord) -> str:
    """A player as message text: a Discord mention, or a computer's name in the reader's
    language (computers have no member)."""
    if user_id > 0:
        return f"<@{user_id}>"
    return i18n.localize(locale, computer_name(user_id))


def computer_name(user_id: int) -> Text:
    """A computer's name ("Computer 3"), its number its id negated (tables/seating.py)."""
    return tr("Computer {number}", number=str(-user_id))


def mentions(users: Iterable[int], locale: str = i18n.ENGLISH.discord) -> str:
    """Players as message text, by commas ("nobody" for none)."""
    return ", ".join(mention(user, locale) for user in users) or i18n.localize(locale, tr("nobody"))


#: A computer's level as the lobby and a tournament name it.
LEVEL_NAMES: Final = {
    Level.CASUAL.value: tr("casual"),
    Level.STEADY.value: tr("steady"),
    Level.STRONG.value: tr("strong"),
}


def level_name(level: str) -> Text | str:
    """A computer's level (``Level``'s value) in words."""
    return LEVEL_NAMES.get(level, level)


class Mentions(Names):
    """Players and channels as Discord mentions (message text only, never pictures), computers
    named in the reader's language."""

    def __init__(self, locale: str = i18n.ENGLISH.discord) -> None:
        self.locale = locale

    def user(self, user_id: int) -> str:
        """``<@id>`` (a computer by its name)."""
        return mention(user_id, self.locale)

    def channel(self, channel_id: int) -> str:
        """``<#id>``."""
        return f"<#{channel_id}>"


MENTIONS: Final = Mentions()


def localized(locale: str, text: str | Text) -> str:
    """A text as message text in the language of ``locale``, players mentioned (a string as it
    is)."""
    if isinstance(text, str):
        return text
    return i18n.localize(locale, text, Mentions(locale))


def say(error: GameError, locale: str = i18n.ENGLISH.discord) -> str:
    """A rules or storage error as the sentence a player reads in the language of ``locale``,
    players mentioned."""
    if isinstance(error.text, Text):
        return localized(locale, error.text)
    return error.sentence(MENTIONS)


def words(interaction: discord.Interaction[Any], text: str | Text) -> str:
    """A text for what only the user sees, in their own Discord locale (a string as it is)."""
    return localized(interaction.locale.value, text)


class Suggestions:
    """The solver's last suggestion per game and player, so "Take it" sets exactly what was shown,
    and each player's last legal setting previewed (their draft); Type hands starts from the draft,
    else the suggestion. A game's suggestions and drafts go when the game ends."""

    #: Kept at most (the oldest go first), whatever happens to the games.
    LIMIT = 10_000

    def __init__(self) -> None:
        self._settings: dict[tuple[int, int], Setting] = {}
        self._drafts: dict[tuple[int, int], Setting] = {}

    def remember(self, game_id: int, user: int, setting: Setting) -> None:
        """The suggestion shown to ``user`` in this game."""
        self._keep(self._settings, (game_id, user), setting)

    def remember_draft(self, game_id: int, user: int, setting: Setting) -> None:
        """The legal setting ``user`` last previewed in this game."""
        self._keep(self._drafts, (game_id, user), setting)

    def draft(self, game_id: int, user: int) -> Setting | None:
        """Where ``user``'s form starts: their last legal setting previewed, else the suggestion
        shown to them, if any."""
        return self._drafts.get((game_id, user)) or self._settings.get((game_id, user))

    def _keep(
        self, kept: dict[tuple[int, int], Setting], key: tuple[int, int], setting: Setting
    ) -> None:
        kept.pop(key, None)
        kept[key] = setting
        while len(kept) > self.LIMIT:
            del kept[next(iter(kept))]

    def get(self, game_id: int, user: int) -> Setting | None:
        """The suggestion shown to ``user`` in this game, if any."""
        return self._settings.get((game_id, user))

    def forget(self, game_id: int) -> None:
        """The game ended: its suggestions are of no more use."""
        for kept in (self._settings, self._drafts):
            for key in [key for key in kept if key[0] == game_id]:
                del kept[key]


@dataclass(slots=True)
class ShownLobby:
    """The message that shows a table's lobby, and the lobby it shows now."""

    #: None while the interaction that shows it has not posted it yet.
    message: discord.Message | discord.InteractionMessage | None
    lobby: Lobby


class LobbyMessages:
    """Each table's lobby message, kept by whoever last showed it.

    A button pressed on the lobby updates it through its own interaction (Discord does not count
    interaction responses against the bot's request limit) and notes it here, so the publisher
    does not edit it again for the same change; the publisher edits it (or posts a new one) for
    the changes no interaction showed.
    """

    def __init__(self) -> None:
        self._shown: dict[tuple[int, int], ShownLobby] = {}

    def shown(
        self,
        key: tuple[int, int],
        message: discord.Message | discord.InteractionMessage | None,
        lobby: Lobby,
    ) -> None:
        """``message`` now shows ``lobby`` (None: an interaction is about to post it; note it
        before awaiting, so the publisher, running meanwhile, does not post it too)."""
        self._shown[key] = ShownLobby(message, lobby)

    def get(self, key: tuple[int, int]) -> ShownLobby | None:
        """The lobby message of the table, if one is known."""
        return self._shown.get(key)

    def forget(self, key: tuple[int, int]) -> ShownLobby | None:
        """The lobby message became something else (the game started, the table closed)."""
        return self._shown.pop(key, None)


async def retire_lobby(
    client: discord.Client,
    key: tuple[int, int],
    shown: ShownLobby | None,
    game_id: int,
    *,
    pressed: int | None = None,
    locale: str = i18n.ENGLISH.discord,
) -> None:
    """A table's game started: its lobby message (``shown``, just forgotten) loses its buttons.

    Whoever forgets the lobby message at a start retires it, unless it is the message whose
    Start was ``pressed`` (that one becomes the table's message, cogs/board.py). It is edited
    through the channel, as the bot's own message: a command's follow-up can no longer be
    edited through its interaction once that is 15 minutes old. ``locale``: the channel's.
    """
    if shown is None or shown.message is None or not shown.lobby.players:
        return
    if shown.message.id == pressed:
        return
    guild_id, channel_id = key
    channel = client.get_partial_messageable(channel_id, guild_id=guild_id)
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(shown.message.id).edit(
            content=i18n.localize(
                locale, tr("The host dealt game {game}: see below.", game=str(game_id))
            ),
            view=None,
        )


@dataclass(slots=True)
class Services:
    """The layers below the cogs, as the bot wires them."""

    storage: Storage
    tables: TableManager
    suggestions: Suggestions = field(default_factory=Suggestions)
    lobbies: LobbyMessages = field(default_factory=LobbyMessages)
    #: What each table's message shows of its game under way.
    boards: Boards = field(default_factory=Boards)
    #: Starts and plays the tournaments (None: not run, as where only commands are synced).
    tournaments: TournamentRunner | None = None
    #: Each server's chosen language for its channel posts, as last read.
    #: The coach's reviews, kept and limited per player (on the tables' workers and clock).
    reviews: Reviews = field(init=False)
    #: The daily challenge, on the tables' workers, outbox and clock.
    challenges: Challenges = field(init=False)

    def __post_init__(self) -> None:
        self.challenges = Challenges(
            self.storage, self.tables.offload, self.tables.outbox, clock=self.tables.clock
        )
        self.reviews = Reviews(
            self.storage,
            self.tables.offload,
            self.tables.clock,
            prepared=self.tables.suggestions.ready,
        )


class HasServices(Protocol):
    """A bot that carries the services (``bot.PyramidBot``)."""

    services: Services


def services(interaction: discord.Interaction[Any]) -> Services:
    """The services of the bot this interaction reached."""
    client: Any = interaction.client
    found: Services = client.services
    return found


async def acknowledge(interaction: discord.Interaction[Any], *, ephemeral: bool = True) -> None:
    """Defer at once: solver, Pillow and database work may follow (Discord allows 3 s)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


#: Discord refuses a message longer than this.
MESSAGE_LIMIT = 2000


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Text cut to Discord's limit (a message over it would be refused outright)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def answer(
    interaction: discord.Interaction[Any],
    content: str = "",
    *,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
    embed: discord.Embed | None = None,
) -> None:
    """Answer a deferred interaction by editing its original response."""
    kwargs: dict[str, Any] = {"content": fit(content)}
    if file is not None:
        kwargs["attachments"] = [file]
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    await interaction.edit_original_response(**kwargs)


async def run(
    interaction: discord.Interaction[Any],
    action: Callable[[], Awaitable[T]],
    *,
    done: str | None = None,
    ephemeral: bool = True,
) -> T:
    """Acknowledge, run one table or storage call, and answer ``done`` if given.

    A ``GameError`` goes up to the one handler (``on_tree_error``, or ``guarded``), whose
    answer is its sentence.
    """
    await acknowledge(interaction, ephemeral=ephemeral)
    result = await action()
    if done is not None:
        await answer(interaction, done)
    return result


def png(data: bytes, name: str) -> discord.File:
    """A picture as a Discord attachment."""
    return discord.File(io.BytesIO(data), filename=name)


#: Pictures handed to each picture process at once (the rest wait in priority order).
PICTURES_IN_FLIGHT: Final = 4


class PictureWorkers:
    """Processes that draw the pictures, so that drawing never holds the loop's interpreter: a
    thread of the loop's process draws beside the loop but takes turns with it for Python's
    global lock, and a phase's hundreds of DM pictures stalled the loop so.

    Each process draws every card as it starts (``warm_up``), as the loop's process does; a
    picture's arguments and its PNG bytes cross to and fro (tens of kilobytes). ``render`` must
    be a module-level function.
    """

    def __init__(self, processes: int, warm_up: Callable[[], object]) -> None:
        context = multiprocessing.get_context("spawn")
        self.processes = processes
        #: Pictures reach the processes four at a time each (one drawn, three queued there, so
        #: that a process does not idle while a busy loop hands it the next: with two it drew a
        #: phase's DMs at half the rate), the one a player just asked for (an answer to a click)
        #: before those of a phase's batch of DMs.
        self.slots = Slots(PICTURES_IN_FLIGHT * processes)
        self.pool = ProcessPoolExecutor(
            max_workers=processes,
            mp_context=context,
            initializer=_picture_worker,
            initargs=(warm_up,),
        )

    async def start(self) -> None:
        """Start every process now (and let each draw its cards) rather than at the first
        picture."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.pool, _nothing) for _ in range(2 * self.processes))
        )

    async def draw(
        self, render: Callable[..., T], *args: Any, batch: bool = False, **kwargs: Any
    ) -> T:
        """``render(*args, **kwargs)`` in a process of the pool; ``batch``: one of many drawn
        at once (a phase's DMs), which a picture answering a click goes before."""
        loop = asyncio.get_running_loop()
        async with self.slots.taken(Priority.SUGGEST if batch else Priority.FIRST):
            drawn = functools.partial(render, *args, **kwargs)
            return await loop.run_in_executor(self.pool, drawn)

    def close(self) -> None:
        """Stop the processes."""
        self.pool.shutdown(wait=True, cancel_futures=True)


def _picture_worker(warm_up: Callable[[], object]) -> None:
    """A picture process ignores Ctrl-C (the bot stops it) and draws its cards once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()


def _nothing() -> None:
    """A task that only proves a process is up."""


#: Where this process's pictures are drawn: the picture processes once the bot has started them
#: (``draw_pictures_in``), else threads beside the loop (the tests, the demos).
_drawing: list[PictureWorkers] = []


def draw_pictures_in(workers: PictureWorkers | None) -> None:
    """Draw every picture from now on in ``workers`` (None: in threads)."""
    _drawing[:] = [] if workers is None else [workers]


async def picture(render: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Draw a picture off the event loop (Pillow holds the loop otherwise): in the picture
    processes where the bot runs them, else in a thread."""
    if _drawing:
        return await _drawing[0].draw(render, *args, **kwargs)
    return await asyncio.to_thread(render, *args, **kwargs)


async def batch_picture(render: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``picture`` for one of many drawn at once (a phase's DMs): pictures answering a click
    are drawn first."""
    if _drawing:
        return await _drawing[0].draw(render, *args, batch=True, **kwargs)
    return await asyncio.to_thread(render, *args, **kwargs)


async def player_names(
    client: discord.Client, storage: Storage, guild_id: int, user_ids: Sequence[int]
) -> dict[int, str]:
    """Each player's name: the one kept from their last visit, else what the cache knows."""
    kept = await storage.players.names(guild_id, user_ids)
    return {user: kept.get(user) or display_name(client, guild_id, user) for user in user_ids}


def display_name(client: discord.Client, guild_id: int | None, user_id: int) -> str:
    """A player's name on the server, as far as the cache knows it."""
    guild = client.get_guild(guild_id) if guild_id else None
    member = guild.get_member(user_id) if guild else None
    if member is not None:
        return member.display_name
    user = client.get_user(user_id)
    return user.display_name if user is not None else f"Player {user_id}"


async def reply(interaction: discord.Interaction[Any], text: str | Text) -> None:
    """A sentence only the presser sees, in their language: the deferred answer if there is
    one, else its own."""
    text = fit(words(interaction, text))
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=True)
    elif response.type is discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=text)
    else:
        await interaction.followup.send(text, ephemeral=True)


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> bool:
    """Run a button's or form's work (or its gate); a failure still answers (never
    "interaction failed"). Whether the work went through."""
    try:
        await work
    except Exception as error:
        shutting_down = closing(interaction)
        try:
            await reply(
                interaction,
                failure(error, store_health(interaction), shutting_down, interaction.locale.value),
            )
        except (discord.HTTPException, aiohttp.ClientError, RuntimeError):
            if not shutting_down:
                raise
            # The bot's connection to Discord closed under the answer (a closed session is
            # aiohttp's RuntimeError): the player's client says the interaction failed, and
            # pressing again reaches the next start.
            log.info("no answer to an interaction as the bot shut down")
        return False
    return True


#: What a player reads when their action failed because the database is away.
STORE_AWAY = tr("The bot cannot reach its database just now; nothing was changed. Try again soon.")


def failure(
    error: BaseException,
    health: StoreHealth | None = None,
    is_closing: bool = False,
    locale: str = i18n.ENGLISH.discord,
) -> str:
    """What a player reads when their action failed: a rules error's sentence, a sentence
    when the store is away (its health says the outage once in the log, not per click) or the
    bot is shutting down (its database and workers closing under the action), else a code that
    the log (where the error goes) can be searched for."""
    if isinstance(error, GameError):
        return say(error, locale)
    if is_closing:
        log.info("an action failed as the bot shut down: %r", error)
        return i18n.localize(locale, RESTARTING)
    if health is not None and health.report(error):
        return i18n.localize(locale, STORE_AWAY)
    code = error_code()
    log.error("interaction failed [%s]", code, exc_info=error)
    text = tr("Something went wrong on our side (code `{code}`); nothing was changed.", code=code)
    return i18n.localize(locale, text)


def closing(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot this interaction reached is shutting down."""
    found: Services | None = getattr(interaction.client, "services", None)
    return found is not None and found.tables.activity.closing


def store_health(interaction: discord.Interaction[Any]) -> StoreHealth | None:
    """The health of the store behind the bot this interaction reached (None before it has one)."""
    found: Services | None = getattr(interaction.client, "services", None)
    return None if found is None else found.storage.database.health


def error_code() -> str:
    """A short code the user can quote and the log can be searched for."""
    return secrets.token_hex(3)


async def on_tree_error(
    interaction: discord.Interaction[Any], error: discord.app_commands.AppCommandError
) -> None:
    """One handler: a rules error is an ephemeral sentence, anything else a logged code."""
    original = getattr(error, "original", error)
    if isinstance(error, discord.app_commands.MissingPermissions):
        text = words(interaction, tr("Only members who may manage this server can do that."))
    elif isinstance(error, discord.app_commands.CheckFailure):
        text = words(interaction, tr("You cannot use this command here."))
    else:
        text = failure(
            original, store_health(interaction), closing(interaction), interaction.locale.value
        )
    await reply(interaction, text)
