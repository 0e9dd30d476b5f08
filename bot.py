"""Entry point: read the settings from the environment and .env, then start the bot."""

from __future__ import annotations

import signal
import sys

if __name__ == "__main__":
    # Ctrl-C or SIGTERM while the modules below import (a second or two) ends the bot quietly:
    # nothing has started that needs stopping. `main` puts its own handlers in their place.
    def _end_quietly(signum: int, frame: object) -> None:
        raise SystemExit(0)

    for _signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_signal, _end_quietly)

import argparse
import asyncio
import contextlib
import logging
import math
import os
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands
from dotenv import load_dotenv

from cogs.arrange import PlayCog
from cogs.boards import Boards
from cogs.challenge import ChallengeCog, announce_daily
from cogs.chips import ChipsCog
from cogs.coach import CoachCog
from cogs.common import (
    LobbyMessages,
    PictureWorkers,
    Services,
    Suggestions,
    draw_pictures_in,
    on_tree_error,
)
from cogs.controls import DYNAMIC_ITEMS, is_orphan_form, is_unknown_control
from cogs.info import RULES_URL_LIMIT, InfoCog
from cogs.language import remember_locale
from cogs.lifecycle import LifecycleCog
from cogs.lobby import TableCog
from cogs.pictures import warm_up_pictures
from cogs.profile import ProfileCog
from cogs.publisher import DiscordPublisher
from cogs.ratings import RatingsCog
from cogs.settings import SettingsCog
from cogs.sync import sync_if_changed
from cogs.tournament import DiscordVenue, TournamentCog
from cogs.translator import CatalogTranslator
from engine.text import tr
from storage import Storage
from storage.database import (
    DEFAULT_DATABASE_PATH,
    Database,
    DatabaseSettingError,
    DatabaseUnreachableError,
    locate_database,
    shown_url,
)
from storage.errors import MigrationError
from storage.sqlite import DatabaseFileError
from storage.stores import open_database
from tables.cluster import ClusterMember
from tables.flow import Arranger
from tables.games import GAMES
from tables.hands import default_setting, warm_up
from tables.manager import TableManager
from tables.runtime import Offload, ProcessOffload
from tables.tournament_runner import TournamentRunner

log = logging.getLogger("pyramid_poker")

MISSING_TOKEN_MESSAGE = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it (see README)."
)
EXIT_BAD_SETTINGS = 2
#: Discord could not be reached: unlike a bad setting, worth trying again later.
EXIT_UNREACHABLE = 1
SHUTDOWN_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: How long the check that Discord's gateway answers waits for a connection.
GATEWAY_CHECK_SECONDS = 30.0
#: How long a shutdown waits for the tournaments' steps under way.
STOP_STEPS_S = 10.0
#: cgroup v2's CPU limit of the container the bot runs in: "QUOTA PERIOD", or "max PERIOD".
CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one sentence fit for the operator."""


class UnreachableError(Exception):
    """Discord's API or gateway cannot be reached (no network, a firewall, a wrong address)."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(f"Could not reach Discord at {address} ({reason}); check the network.")


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot needs from its environment to start."""

    # Kept out of the repr so that logging the settings never leaks the token.
    discord_token: str = field(repr=False)
    #: A SQLite file's path or sqlite:/// URL, or a PostgreSQL URL (whose password the repr
    #: never shows), as `storage.database.locate_database` reads it.
    database: str = field(default=str(DEFAULT_DATABASE_PATH), repr=False)
    dev_guild_id: int | None = None
    #: Discord's shards in all, and those this process runs; None: Discord's recommended count,
    #: every one of them here (a bot of one process).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: How many solver processes to run; None: one per CPU the bot may use (`usable_cpus`).
    workers: int | None = None
    #: How many processes draw the pictures beside the solver's; 0 (the default): threads of the
    #: bot's own process, which take turns with its event loop (`cogs.common.PictureWorkers`).
    #: On the 2-core machine a picture process freed the loop but, sharing the cores with busy
    #: solver workers, sent a phase's DMs later (docs/benchmarks.md, "Issue 25").
    picture_workers: int = 0
    #: Where Discord's REST API and gateway are; set only to run against a local fake of Discord.
    api_url: str | None = None
    gateway_url: str | None = None
    #: Where the full rules are published for players; /rules adds the address to a game's card.
    rules_url: str | None = None
    #: The bot's owners, who see the whole bot in `/settings status`; empty: the application's
    #: owner (or its team), as Discord tells.
    owner_ids: frozenset[int] = frozenset()


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Build the settings from environment variables, raising `SettingsError` on a bad one."""
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(MISSING_TOKEN_MESSAGE)
    # DATABASE_PATH is the setting's earlier name, still read when DATABASE_URL is not set.
    database = environ.get("DATABASE_URL", "").strip() or environ.get("DATABASE_PATH", "").strip()
    if database:
        name = "DATABASE_URL" if environ.get("DATABASE_URL", "").strip() else "DATABASE_PATH"
        try:
            locate_database(database, name=name)
        except DatabaseSettingError as error:
            raise SettingsError(str(error)) from None
    shard_count, shard_ids = parse_shards(
        environ.get("SHARD_COUNT", ""), environ.get("SHARD_IDS", "")
    )
    return Settings(
        discord_token=token,
        database=database or str(DEFAULT_DATABASE_PATH),
        dev_guild_id=parse_guild_id(environ.get("DEV_GUILD_ID", "")),
        shard_count=shard_count,
        shard_ids=shard_ids,
        workers=parse_workers(environ.get("WORKERS", "")),
        picture_workers=parse_picture_workers(environ.get("PICTURE_WORKERS", "")),
        api_url=parse_url("DISCORD_API_URL", environ.get("DISCORD_API_URL", "")),
        gateway_url=parse_url("DISCORD_GATEWAY_URL", environ.get("DISCORD_GATEWAY_URL", "")),
        rules_url=parse_web_url("RULES_URL", environ.get("RULES_URL", "")),
        owner_ids=parse_owner_ids(environ.get("OWNER_IDS", "")),
    )


def parse_shards(count: str, ids: str) -> tuple[int | None, tuple[int, ...] | None]:
    """Read SHARD_COUNT and SHARD_IDS ("0,1"): the shards in all, and this process's share."""
    count, ids = count.strip(), ids.strip()
    total: int | None = None
    if count:
        if not (count.isascii() and count.isdigit()) or int(count) == 0:
            raise SettingsError(
                f"SHARD_COUNT must be a positive whole number or empty, not {count[:20]!r}."
            )
        total = int(count)
    if not ids:
        return total, None
    if total is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT: the shards in all, then this share.")
    parts = [part.strip() for part in ids.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise SettingsError(f"SHARD_IDS must be shard numbers like 0,1, not {ids[:40]!r}.")
    share = tuple(int(part) for part in parts)
    if len(set(share)) != len(share) or not all(0 <= shard < total for shard in share):
        raise SettingsError(
            f"SHARD_IDS must be different numbers from 0 to {total - 1}, not {ids[:40]!r}."
        )
    return total, share


def parse_owner_ids(text: str) -> frozenset[int]:
    """Read OWNER_IDS: Discord user ids separated by commas; empty means none named."""
    text = text.strip()
    if not text:
        return frozenset()
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise SettingsError(
            f"OWNER_IDS must be Discord user ids separated by commas, or empty, not {text[:60]!r}."
        )
    return frozenset(int(part) for part in parts)


def parse_url(name: str, text: str) -> str | None:
    """Read an optional endpoint override (tests point the bot at a fake Discord with these)."""
    text = text.strip().rstrip("/")
    if not text:
        return None
    if not text.startswith(("http://", "https://", "ws://", "wss://")):
        raise SettingsError(f"{name} must be an http(s) or ws(s) address or empty, not {text!r}.")
    return text


def parse_web_url(name: str, text: str) -> str | None:
    """Read an optional web page address (players open it)."""
    text = text.strip()
    if not text:
        return None
    if not text.startswith(("http://", "https://")) or len(text) > RULES_URL_LIMIT:
        raise SettingsError(f"{name} must be an http(s) address or empty, not {text[:60]!r}.")
    return text


def point_at(settings: Settings) -> None:
    """Send discord.py's requests and gateway connection where the settings say, if elsewhere."""
    if settings.api_url is not None:
        discord.http.Route.BASE = settings.api_url
    if settings.gateway_url is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url + "/")


def parse_guild_id(text: str) -> int | None:
    """Read the optional development server id; empty means commands sync globally."""
    text = text.strip()
    if not text:
        return None
    # str.isdigit alone accepts digits such as '²' that int() refuses.
    if not (text.isascii() and text.isdigit()):
        raise SettingsError(
            f"DEV_GUILD_ID must be a Discord server id (digits only) or empty, not {text!r}."
        )
    return int(text)


def parse_picture_workers(text: str) -> int:
    """Read the number of picture processes; empty or 0 means threads of the bot's process."""
    text = text.strip()
    if not text:
        return 0
    if not (text.isascii() and text.isdigit()) or int(text) > 64:
        raise SettingsError(
            "PICTURE_WORKERS must be a whole number of picture processes from 0 to 64 (0 or"
            f" empty: draw in threads of the bot's process), not {text!r}."
        )
    return int(text)


def parse_workers(text: str) -> int | None:
    """Read the optional number of worker processes; empty means one per usable CPU."""
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) == 0:
        raise SettingsError(
            f"WORKERS must be a positive whole number of worker processes or empty, not {text!r}."
        )
    return int(text)


def usable_cpus(cpu_max: Path = CGROUP_CPU_MAX) -> int:
    """The CPUs this process may keep busy: those it may run on, capped by a cgroup v2 quota.

    ``os.cpu_count()`` counts the host's CPUs, even in a container limited to a few, and a
    worker per host CPU would only queue for the container's share.
    """
    # macOS and Windows have no CPU affinity to ask.
    has_affinity = hasattr(os, "sched_getaffinity")
    cpus = len(os.sched_getaffinity(0)) if has_affinity else os.cpu_count() or 1
    quota = cgroup_cpu_quota(cpu_max)
    return max(1, cpus if quota is None else min(cpus, quota))


def cgroup_cpu_quota(cpu_max: Path) -> int | None:
    """The whole CPUs a cgroup v2 ``cpu.max`` grants (a part CPU counts as one), or None."""
    try:
        quota, _, period = cpu_max.read_text().strip().partition(" ")
    except OSError:  # no cgroup v2 here
        return None
    if not all(part.isascii() and part.isdigit() for part in (quota, period)) or not int(period):
        return None  # "max": no quota
    return max(1, math.ceil(int(quota) / int(period)))


def discord_clock() -> float:
    """Wall-clock seconds as discord.py sees them (simcord's virtual time in tests)."""
    return discord.utils.utcnow().timestamp()


class PyramidBot(commands.AutoShardedBot):
    """The bot: the database, the tables, the cogs and the persistent buttons."""

    def __init__(
        self,
        settings: Settings,
        *,
        offload: Offload | None = None,
        arranger: Arranger = default_setting,
        sync_only: bool = False,
        prepare_suggestions: bool = True,
    ) -> None:
        # Everything happens through interactions: the bot needs to know its servers and their
        # channels (guilds), and no messages, typing, reactions or members.
        intents = discord.Intents.none()
        intents.guilds = True
        # The bot has no voice; discord.py would warn at every start that voice is unsupported.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Unset, discord.py asks Discord for the recommended number of shards and runs them all.
        options: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
        # Unset, discord.py asks Discord for the application's owner (or its team) when needed.
        if settings.owner_ids:
            options["owner_ids"] = set(settings.owner_ids)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.settings = settings
        self.offload: Offload = offload or ProcessOffload(settings.workers or usable_cpus())
        self.arranger = arranger
        #: Every player's suggestion is made as the hands are to be set, before anyone asks.
        self.prepare_suggestions = prepare_suggestions
        #: ``--sync``: sync the commands whatever their digest says, and do nothing else.
        self.sync_only = sync_only
        self.database: Database | None = None
        self.services: Services
        self.cluster: ClusterMember | None = None
        #: The processes that draw the pictures (with worker processes for the solver only).
        self.pictures: PictureWorkers | None = None
        #: Announces each day's challenge where servers asked for it (cogs/challenge.py).
        self.challenge_announcer: asyncio.Task[None] | None = None

    async def open_storage(self) -> Database:
        """The bot's database, opened by the first call (`run_bot` makes it before logging in)."""
        if self.database is None:
            self.database = await open_database(self.settings.database, clock=discord.utils.utcnow)
        return self.database

    async def setup_hook(self) -> None:
        """Open the database, load the tables' data, resume the tables, add cogs, sync."""
        storage = Storage.over(await self.open_storage())
        # Before any sync: the payload synced, and hashed to decide whether to sync, carries
        # every language's names and descriptions.
        await self.tree.set_translator(CatalogTranslator())
        if self.sync_only:
            for cog in command_cogs():
                await self.add_cog(cog)
            await self.sync_commands(storage, force=True)
            return
        suggestions, lobbies, boards = Suggestions(), LobbyMessages(), Boards()
        publisher = DiscordPublisher(
            self,
            storage,
            on_channel_lost=self.close_lost_table,
            suggestions=suggestions,
            lobbies=lobbies,
            boards=boards,
        )
        tables = TableManager(
            storage,
            publisher,
            clock=discord_clock,
            offload=self.offload,
            arranger=self.arranger,
            prepare_suggestions=self.prepare_suggestions,
        )
        publisher.read_table = tables.table
        self.services = Services(storage, tables, suggestions, lobbies, boards)
        self.services.tournaments = TournamentRunner(storage, tables, DiscordVenue(self, storage))
        # The loop's own process checks hands with the evaluator: load its tables now. Its
        # threads draw the pictures: make their palette and draw every card now too.
        await asyncio.to_thread(warm_up)
        await asyncio.to_thread(warm_up_pictures)
        if isinstance(self.offload, ProcessOffload):
            log.info(
                "Starting %d worker processes for the solver and %d kept for settlements"
                " and deadlines.",
                self.offload.workers,
                self.offload.kept,
            )
            await self.offload.start(warm_up)
            if self.settings.picture_workers:
                log.info("Starting %d picture process(es).", self.settings.picture_workers)
                self.pictures = PictureWorkers(self.settings.picture_workers, warm_up_pictures)
                await self.pictures.start()
                draw_pictures_in(self.pictures)
        for cog in (*command_cogs(), LifecycleCog(self, self.services)):
            await self.add_cog(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.challenge_announcer = asyncio.get_running_loop().create_task(announce_daily(self))
        self.tree.error(on_tree_error)
        self.add_listener(answer_orphan_form, "on_interaction")
        self.add_listener(remember_locale, "on_interaction")
        resumed = await tables.resume()
        log.info("Resumed %d table(s).", resumed)
        self.cluster = ClusterMember(tables, shards=self.settings.shard_ids or ())
        await self.cluster.start(watch=storage.database.is_shared)
        if self.settings.shard_ids is not None and 0 not in self.settings.shard_ids:
            log.info("The process running shard 0 syncs the slash commands; this one does not.")
            return
        try:
            await self.sync_commands(storage, force=False)
        except discord.HTTPException as error:
            log.warning(
                "Discord refused the slash commands (%s); they stay as Discord has them, and the"
                " next start tries again.",
                refusal(error),
            )

    async def sync_commands(self, storage: Storage, *, force: bool) -> None:
        """Sync the commands (to DEV_GUILD_ID's server when set) if they changed, or ``force``."""
        assert self.application_id is not None  # set by logging in
        result = await sync_if_changed(
            self.tree,
            storage.commands,
            application_id=self.application_id,
            guild_id=self.settings.dev_guild_id,
            force=force,
        )
        log.info(result.sentence)

    def stop_announcing(self) -> None:
        """Stop announcing the daily challenge (closing)."""
        if self.challenge_announcer is not None:
            self.challenge_announcer.cancel()
            self.challenge_announcer = None

    async def close_lost_table(self, guild_id: int, channel_id: int) -> None:
        """The bot can no longer post in a table's channel: refund and close the table."""
        await self.services.tables.abandon(
            guild_id, channel_id, tr("the bot can no longer post in its channel")
        )

    async def on_ready(self) -> None:
        """Say in one line that the bot is up, where, and with how many commands."""
        servers = len(self.guilds)
        log.info(
            "Ready: %s on %d server%s with %d commands.",
            self.user,
            servers,
            "" if servers == 1 else "s",
            len(self.tree.get_commands()),
        )

    async def close(self) -> None:
        """Stop the catch-up, deadlines, workers and the database, then log out."""
        lifecycle = self.get_cog("LifecycleCog")
        if isinstance(lifecycle, LifecycleCog):
            await lifecycle.stop()
        self.stop_announcing()
        if self.cluster is not None:
            await self.cluster.stop()
            self.cluster = None
        if hasattr(self, "services"):
            if self.services.tournaments is not None:
                # A step under way finishes first; one stuck (Discord away) is cut short, and
                # the next start carries it on.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.services.tournaments.stop(), STOP_STEPS_S)
            await self.services.tables.close()
        close = getattr(self.offload, "close", None)
        if close is not None:
            close()
        if self.pictures is not None:
            draw_pictures_in(None)
            self.pictures.close()
            self.pictures = None
        if self.database is not None:
            await self.database.close()
            self.database = None
        await super().close()


def command_cogs() -> list[commands.Cog]:
    """The cogs that hold the slash commands (the bot's whole tree, and what ``--sync`` sends)."""
    return [
        TableCog(),
        PlayCog(),
        ChipsCog(),
        RatingsCog(),
        CoachCog(),
        InfoCog(),
        SettingsCog(),
        ProfileCog(),
        ChallengeCog(),
        TournamentCog(),
    ]


def refusal(error: discord.HTTPException) -> str:
    """Discord's refusal in a few words: "403 Missing Access"."""
    return f"{error.status} {error.text}".strip() if error.text else str(error.status)


async def answer_orphan_form(interaction: discord.Interaction[Any]) -> None:
    """A form left open across a restart, or a control no button of the bot's recognises, gets a
    sentence instead of "interaction failed"."""
    if interaction.response.is_done():
        return
    if is_orphan_form(interaction):
        await interaction.response.send_message(
            "That form was open while the bot restarted; open it again.", ephemeral=True
        )
    elif is_unknown_control(interaction):
        await interaction.response.send_message(
            "That control is not one of this bot's, or is from an older version; it does "
            "nothing. Use `/table status` to see where your game is.",
            ephemeral=True,
        )


class Shutdown:
    """Stops the bot on SIGTERM or SIGINT, at any moment from the start of `main`.

    A signal is noted until the loop runs; then it cancels the bot's main task wherever that
    waits (logging in, starting workers, syncing, connected), and leaving `async with bot`
    closes the bot. Closing the bot beside a start-up that went on left that start-up running
    into a closed HTTP session or a shut worker pool.
    """

    def __init__(self) -> None:
        self.signal: signal.Signals | None = None
        self._task: asyncio.Task[Any] | None = None

    def note_signals(self) -> None:
        """Until the loop runs, a signal is only noted (its handler must not touch the loop)."""
        for sig in SHUTDOWN_SIGNALS:
            signal.signal(sig, self._note)

    def _note(self, signum: int, frame: FrameType | None) -> None:
        if self.signal is None:
            self.signal = signal.Signals(signum)

    def watch(self, task: asyncio.Task[Any]) -> None:
        """From now on the first signal cancels ``task`` (later ones wait for its shutdown)."""
        self._task = task
        loop = asyncio.get_running_loop()
        for sig in SHUTDOWN_SIGNALS:
            loop.add_signal_handler(sig, self._stop, sig)
        if self.signal is not None:
            log.info("%s received: shutting down.", self.signal.name)

    def _stop(self, sig: signal.Signals) -> None:
        if self.signal is not None or self._task is None:
            return
        self.signal = sig
        log.info("%s received: shutting down.", sig.name)
        self._task.cancel()


async def run_bot(settings: Settings, shutdown: Shutdown, *, sync_only: bool = False) -> None:
    """Run until the connection ends or SIGTERM/SIGINT asks for a clean shutdown; with
    ``sync_only``, log in, sync the commands and stop."""
    task = asyncio.current_task()
    assert task is not None
    shutdown.watch(task)
    if shutdown.signal is not None:  # it came before the loop ran: there is nothing to undo
        log.info("Shut down cleanly.")
        return
    point_at(settings)
    bot = PyramidBot(settings, sync_only=sync_only)
    try:
        async with bot:
            # Before logging in, so that a bad DATABASE_URL is told without waiting for Discord.
            await bot.open_storage()
            try:
                await bot.login(settings.discord_token)  # and setup_hook, which syncs commands
            except aiohttp.ClientConnectionError as error:
                raise UnreachableError(
                    discord.http.Route.BASE, unreachable_reason(error)
                ) from error
            if sync_only:
                return
            await reach_gateway()
            await bot.connect()
    except asyncio.CancelledError:
        if shutdown.signal is None:
            raise
        task.uncancel()
    log.info("Shut down cleanly.")


async def reach_gateway() -> None:
    """Open and close a connection to Discord's gateway; raise `UnreachableError` if none opens.

    Once connected, discord.py reconnects by itself; but it retries a first connection that
    failed with the session of a gateway it never reached, and dies of an AttributeError.
    """
    url = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(url.host, url.port), GATEWAY_CHECK_SECONDS
        )
    except (OSError, TimeoutError) as error:
        raise UnreachableError(str(url), unreachable_reason(error)) from error
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


def unreachable_reason(error: BaseException) -> str:
    """Why a connection to Discord failed, in a few words ("connection refused")."""
    cause = error.os_error if isinstance(error, aiohttp.ClientConnectorError) else error
    if isinstance(cause, TimeoutError):
        return "no answer in time"
    if isinstance(cause, socket.gaierror):
        reason = cause.strerror or str(cause)
    elif isinstance(cause, OSError) and cause.errno:
        reason = os.strerror(cause.errno)
    else:
        reason = str(cause) or type(cause).__name__
    return reason[:1].lower() + reason[1:]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot with the arguments after the program name; return the exit status."""
    parser = argparse.ArgumentParser(
        description="Pyramid Poker Discord bot. Settings come from the environment and ./.env."
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="sync the slash commands now and exit (a start syncs them when they changed)",
    )
    parser.add_argument(
        "--demo",
        metavar="VARIANT",
        help="play one table of solver players without Discord and write its pictures to a "
        "folder (no token needed); VARIANT is one of " + ", ".join(GAMES),
    )
    parser.add_argument(
        "--out", type=Path, help="the folder for --demo (default: demo-output/VARIANT)"
    )
    parser.add_argument("--players", type=int, help="how many players --demo seats")
    args = parser.parse_args(argv)
    if args.demo is not None:
        # The demo is a command-line run like any other: Ctrl-C interrupts it as Python does.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        from demo import run_demo

        return run_demo(args.demo, args.out or Path("demo-output") / args.demo, args.players)
    shutdown = Shutdown()
    shutdown.note_signals()
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # Only the .env of the working directory counts, and real environment variables win over it.
    load_dotenv(Path.cwd() / ".env")
    try:
        settings = load_settings(os.environ)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_SETTINGS
    log.info("Settings loaded: %s, database %s", settings, shown_url(settings.database))
    try:
        asyncio.run(run_bot(settings, shutdown, sync_only=args.sync))
    except UnreachableError as error:
        print(error, file=sys.stderr)
        return EXIT_UNREACHABLE
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN: check it in .env.", file=sys.stderr)
        return EXIT_BAD_SETTINGS
    except discord.HTTPException as error:  # only --sync lets Discord's refusal through
        print(f"Discord refused the slash commands ({refusal(error)}).", file=sys.stderr)
        return EXIT_UNREACHABLE
    except DatabaseFileError as error:
        print(
            f"Cannot open or create the database {error.path} ({error.reason}); "
            "check DATABASE_URL and that the bot may write its folder.",
            file=sys.stderr,
        )
        return EXIT_BAD_SETTINGS
    except DatabaseUnreachableError as error:
        print(f"{error}; check DATABASE_URL and that the server runs.", file=sys.stderr)
        return EXIT_UNREACHABLE
    except DatabaseSettingError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_SETTINGS
    except MigrationError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_SETTINGS
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
