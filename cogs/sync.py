"""Slash commands reach Discord when they changed: at start-up the bot hashes what a sync would
send and syncs only when the digest differs from the last one Discord accepted (kept in the
store per application and scope), as Discord asks of bots (syncing is rate-limited, and global
commands take a while to show). ``python bot.py --sync`` syncs whatever the digest says."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from storage.commands import CommandSyncRepository

GLOBAL = "global"


@dataclass(frozen=True, slots=True)
class SyncResult:
    """What a start did about the commands: synced or not, how many, where, and why."""

    synced: bool
    commands: int
    guild_id: int | None
    forced: bool = False

    @property
    def where(self) -> str:
        """Where the commands went, as the log says it."""
        if self.guild_id is None:
            return "globally"
        return f"to the development server {self.guild_id}"

    @property
    def sentence(self) -> str:
        """The one log line that says what was done."""
        count = f"{self.commands} command{'' if self.commands == 1 else 's'}"
        if not self.synced:
            return f"The {count} are as last synced {self.where}: not syncing."
        why = "as --sync asks" if self.forced else "the command tree changed since the last sync"
        later = " (Discord may take up to an hour to show them)" if self.guild_id is None else ""
        return f"Synced {count} {self.where}: {why}{later}."


async def payload(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> list[Any]:
    """What ``tree.sync(guild=guild)`` sends Discord, translated as it translates."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def digest(sent: list[Any]) -> str:
    """A stable hash of a sync's payload: the same commands give the same digest."""
    text = json.dumps(sent, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    syncs: CommandSyncRepository,
    *,
    application_id: int,
    guild_id: int | None = None,
    force: bool = False,
) -> SyncResult:
    """Sync the tree globally (or to ``guild_id``, with the global commands copied there) when
    its payload changed since the last sync recorded, or when ``force``; record what was sent.

    Raises what ``tree.sync`` raises when Discord refuses; nothing is recorded then.
    """
    guild = None if guild_id is None else discord.Object(guild_id)
    if guild is not None:
        tree.copy_global_to(guild=guild)
    sent = await payload(tree, guild)
    scope, now = GLOBAL if guild_id is None else str(guild_id), digest(sent)
    last = await syncs.last(application_id, scope)
    if not force and last is not None and last.digest == now:
        return SyncResult(False, len(sent), guild_id)
    synced = await tree.sync(guild=guild)
    await syncs.record(application_id, scope, now, len(synced))
    return SyncResult(True, len(synced), guild_id, forced=force)
