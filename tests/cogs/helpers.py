"""What the bot's tests share: the simulated server (``Scene``) and the steps players take in it
(open a table, declare, set hands, play a game out), and how to read what the bot posted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord
import simcord.interactions

from bot import PyramidBot, Settings
from cogs.builder import held_indices
from engine.cards import AnyCard
from tables.games import GameSpec
from tables.phase import Phase
from tables.runtime import ThreadOffload
from tables.setting import Setting
from tests.tables.helpers import quick_arranger

GUILD_ID = 424242424242424242


def make_bot(path: Path, *, prepare_suggestions: bool = False) -> PyramidBot:
    """The bot as it runs, on a temp database, with fast test hands for absent players (and no
    suggestion made before it is asked for, unless ``prepare_suggestions``: the solver's work
    for every holding of every test game would only slow the suite)."""
    settings = Settings(
        discord_token="test", database=str(path), dev_guild_id=GUILD_ID, shard_count=1
    )
    # Threads, not worker processes: simcord runs everything in one process.
    return PyramidBot(
        settings,
        offload=ThreadOffload(),
        arranger=quick_arranger,
        prepare_suggestions=prepare_suggestions,
    )


@dataclass
class Scene:
    """A server with a channel and six members, and the running simulated Discord."""

    env: simcord.Env
    bot: PyramidBot
    path: Path
    guild: Any
    channel: Any
    members: list[Any]

    @property
    def tables(self) -> Any:
        return self.bot.services.tables

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database (a deploy or a crash)."""
        old, self.bot = self.bot, make_bot(self.path)
        await self.env.restart_bot(self.bot)
        await release(old)


async def release(bot: PyramidBot) -> None:
    """Stop a bot's timers and close its database.

    simcord detaches a bot without closing it, and an open aiosqlite connection keeps a thread
    that would hold the test process at exit (a failed test keeps its bot referenced).
    """
    bot.stop_announcing()
    if hasattr(bot, "services"):
        await bot.services.tables.close()
    if bot.database is not None:
        await bot.database.close()
        bot.database = None


def speak(monkeypatch: Any, locales: dict[int, str], *, server: str | None = None) -> None:
    """Give these users' Discord clients a locale (user id -> "es-ES"), and the server a
    preferred one: simcord's interactions all say en-US."""
    made = simcord.interactions.base_payload

    def localised(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = made(*args, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], payload["locale"])
        if server is not None and "guild_locale" in payload:
            payload["guild_locale"] = server
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", localised)


# ----- what players do ------------------------------------------------------------------------


async def open_table(scene: Scene, game: str, count: int, **options: Any) -> list[Any]:
    """The first ``count`` members at a new table of ``game``: created and joined by typing."""
    ann, *others = scene.members[:count]
    result = await ann.slash(scene.channel, "table create", game=game, **options)
    assert result.acknowledged
    for member in others:
        joined = await member.slash(scene.channel, "table join")
        assert joined.acknowledged
    return scene.members[:count]


async def the_table(scene: Scene) -> Any:
    """The table of the scene's channel (None: none)."""
    return await scene.tables.table(scene.guild.id, scene.channel.id)


async def play_out(scene: Scene, players: list[Any], how: str) -> None:
    """Declare play for everyone, then set hands by text, by suggestion or by the timer."""
    while (table := await the_table(scene)) is not None and table.in_game:
        if table.phase is Phase.DECLARING:
            for member in players:
                if member.id in table.waiting_for():
                    message = member.user.dm_channel.last_message
                    result = await member.user.click(message, custom_id=play_id(message))
                    assert result.acknowledged
        elif table.phase is Phase.ARRANGING:
            for member in players:
                if member.id not in table.waiting_for():
                    continue
                if how == "text":
                    await by_text(member, scene)
                elif how == "builder":
                    await build(member, scene)
                elif how == "suggest":
                    message = member.user.dm_channel.last_message
                    shown = await member.user.click(message, label="Suggest")
                    assert shown.acknowledged
                    taken = await member.user.click(shown.response.message, label="Take it")
                    assert taken.acknowledged
            if how == "timer":
                await scene.env.advance_time(table.config.arrangement_seconds + 1)
        else:
            break


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def form_default(opened: Any) -> str:
    """What the Type hands form's hands field was filled with."""
    modal = opened.modal
    assert modal is not None
    fields = [c for row in modal["components"] for c in row["components"]]
    hands = next(field for field in fields if field["custom_id"] == "hands")
    return str(hands.get("value") or "")


def preview_sentence(setting: Setting, *, strongest_first: bool = False) -> str:
    """What a player reads under the picture of the hands they typed, before setting them."""
    auto = setting.automatic and f" with the automatic **{setting.automatic.replace('_', ' ')}**"
    order = " (read strongest first)" if strongest_first else ""
    return f"Preview{order}: `{setting.text}`{auto or ''}. Press **Set these hands** to play them."


def set_sentence(setting: Setting) -> str:
    """What a player reads once their hands are set."""
    return f"Your hands are set: `{setting.text}`. You may replace them until everyone is in."


def chosen(
    held: Sequence[AnyCard], slots: Sequence[Sequence[int]], automatic: str | None = None
) -> Setting:
    """The setting of held-card indices (the builder's, or Set these hands'): the cards left
    over are discarded."""
    taken = {i for slot in slots for i in slot}
    hands = tuple(tuple(held[i] for i in slot) for slot in slots)
    return Setting(hands, tuple(card for i, card in enumerate(held) if i not in taken), automatic)


async def by_text(member: Any, scene: Scene) -> None:
    """Set the hands with /arrange hands: a picture previews them, Set these hands sets them."""
    table = await the_table(scene)
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)
    setting = quick_arranger(table.spec, held)
    options = {"automatic": setting.automatic} if setting.automatic else {}
    preview = await member.slash(scene.channel, "arrange hands", hands=setting.text, **options)
    assert preview.response.content == str(preview_sentence(setting))
    assert preview.response.attachments
    assert (await the_table(scene)).seat_of(member.id).setting is None  # not set until confirmed
    confirmed = await member.click(preview.response.message, label="Set these hands")
    slots = held_indices(held, setting.hands)
    assert confirmed.response.content == set_sentence(chosen(held, slots, setting.automatic))


async def build(member: Any, scene: Scene) -> None:
    """Set the hands with the menus of the DM's Build hands, one hand at a time."""
    table = await the_table(scene)
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)
    setting = quick_arranger(table.spec, held)
    if setting.automatic:  # an automatic is declared in text; the menus set hands only
        await by_text(member, scene)
        return
    shown = await member.user.click(member.user.dm_channel.last_message, label="Build hands")
    builder = shown.response.message
    slots = [sorted(slot) for slot in held_indices(held, setting.hands)]
    for slot in slots:
        picked = await member.user.select(builder, [DIGITS[i] for i in slot])
        assert picked.acknowledged
    submitted = await member.user.click(builder, label="Submit")
    assert submitted.response.content == set_sentence(chosen(held, slots))


async def start_game(scene: Scene, game: str, count: int, **options: Any) -> list[Any]:
    """``open_table``, then the host's typed start."""
    players = await open_table(scene, game, count, **options)
    started = await players[0].slash(scene.channel, "table start")
    assert started.acknowledged
    return players


async def arranging(scene: Scene, game: str) -> tuple[Any, GameSpec, tuple[AnyCard, ...]]:
    """A two-player game of ``game`` started and declared: its first player, the game, and the
    cards that player sets."""
    players = await start_game(scene, game, 2)
    await declare_all(scene, players)
    spec = (await the_table(scene)).spec
    member = players[0]
    return member, spec, await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)


async def declare_all(scene: Scene, players: list[Any]) -> None:
    """Press Play in every DM until the table is setting hands."""
    while (table := await the_table(scene)) is not None and table.phase is Phase.DECLARING:
        for member in players:
            if member.id in table.waiting_for():
                message = member.user.dm_channel.last_message
                pressed = await member.user.click(message, custom_id=play_id(message))
                assert pressed.acknowledged


def play_id(message: Any) -> str:
    """The custom id of a declaration DM's Play button (labelled in its reader's language)."""
    return next(found for found in custom_ids(message) if str(found).endswith(":play"))


async def forged(scene: Scene, member: Any, custom_id: str) -> str:
    """What ``member`` reads on pressing a forged button with this id, in their own DM."""
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Press", custom_id=custom_id))
    dm = await scene.bot.create_dm(discord.Object(id=member.id))
    await dm.send("forged", view=view)
    await scene.env.settle()
    pressed = await member.user.click(member.user.dm_channel.last_message, label="Press")
    assert pressed.acknowledged and pressed.ephemeral
    return str(pressed.response.content)


def arranging_controls(guild: int, channel: int, game: int) -> list[str]:
    """The custom ids of a game's controls while hands are set: Suggest, Take it, Type hands,
    Build hands and a Set these hands."""
    return [
        f"pp:suggest:{guild}:{channel}:{game}",
        f"pp:take:{guild}:{channel}:{game}",
        f"pp:type:{guild}:{channel}:{game}",
        f"pp:build:{game}:_:start",
        f"pp:confirm:{game}:0-123-456-789-abcde-fghij:",
    ]


# ----- what the bot posted -----------------------------------------------------------------------

#: Long enough for the computers' turns, well short of any deadline (a settle runs the timers due
#: within its timeout).
SETTLE_S = 10


def labels(message: Any) -> list[str]:
    """The buttons' labels (a menu has none)."""
    return [
        child.label
        for row in message.components
        for child in row.children
        if isinstance(child, discord.Button)
    ]


def custom_ids(message: Any) -> list[str]:
    """The custom ids of a message's controls, in order."""
    return [child.custom_id for row in message.components for child in row.children]


def lobby_message(scene: Scene) -> Any:
    """The newest message that carries the lobby's buttons."""
    return next(m for m in reversed(scene.channel.history()) if "Start" in labels(m))


def menu_id(message: Any, part: str) -> str:
    """The custom id of the message's menu whose id holds ``part`` (":move", ":swap", ":to:")."""
    return str(
        next(
            child.custom_id
            for row in message.components
            for child in row.children
            if isinstance(child, discord.SelectMenu) and part in child.custom_id
        )
    )


def board_message(scene: Scene) -> Any:
    """The table's message of the game under way (the one with Show my hand, in whatever
    language the channel reads)."""
    return next(
        m
        for m in reversed(scene.channel.history())
        if any(str(found).startswith("pp:hand:") for found in custom_ids(m))
    )


def showdowns(scene: Scene) -> list[Any]:
    """The channel's showdown messages, oldest first."""
    return [m for m in scene.channel.history() if m.content.startswith("**Showdown, game")]


async def play_person(scene: Scene, member: Any) -> None:
    """One person plays on at each declaration and takes the Suggest; computers play theirs."""
    for _ in range(50):
        await scene.env.settle(timeout=SETTLE_S)
        table = await the_table(scene)
        if table is None or not table.in_game:
            return
        if member.id not in table.waiting_for():
            continue
        message = member.user.dm_channel.last_message
        if table.phase is Phase.DECLARING:
            assert (await member.user.click(message, custom_id=play_id(message))).acknowledged
        else:
            shown = await member.user.click(message, label="Suggest")
            taken = await member.user.click(shown.response.message, label="Take it")
            assert taken.acknowledged
    raise AssertionError("the game did not end")


def an_admin(scene: Scene) -> Any:
    """A member with Manage Server."""
    role = scene.guild.create_role("croupier", permissions=discord.Permissions(manage_guild=True))
    return scene.guild.add_member(scene.env.create_user("boss"), roles=[role])
