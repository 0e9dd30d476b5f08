"""Channels and servers that go away: their tables close, every escrowed chip goes back, and the
players hear of it by DM. On connecting, the tables whose channel vanished meanwhile close too,
and whatever the tables queued but never showed is published."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord.ext import commands

from cogs.common import Services
from engine.text import Text, tr

log = logging.getLogger(__name__)


def can_post(channel: Any) -> bool:
    """Whether the bot may still see and post in a server channel."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return True
    permissions = channel.permissions_for(me)
    # A thread takes its parent's permissions, but posting in it needs its own.
    send = "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"
    return bool(permissions.view_channel and getattr(permissions, send))


class LifecycleCog(commands.Cog):
    """Watches for the channels and servers the tables live in going away."""

    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services
        self._catching_up: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once connected: catch up with what happened while the bot was down (once)."""
        if self._catching_up is None:
            self._catching_up = asyncio.create_task(self._catch_up())

    async def stop(self) -> None:
        """Call off a catch-up still running (the bot is shutting down)."""
        if self._catching_up is not None and not self._catching_up.done():
            self._catching_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catching_up

    async def _catch_up(self) -> None:
        """Close tables whose channel went away while the bot was down, then show the queue."""
        tables = self.services.tables
        for table in await tables.tables():
            if not self.serves(table.guild_id):
                continue  # another process of the bot runs that server's shard
            reason = self.lost(table.guild_id, table.channel_id)
            if reason is not None:
                await tables.abandon(table.guild_id, table.channel_id, reason)
        channels = await tables.publish_pending()
        if channels:
            log.info("Published the queued events of %d channel(s).", channels)
        runner = self.services.tournaments
        if runner is not None:
            count = await runner.resume()
            if count:
                log.info("Carried on %d tournament(s).", count)

    def serves(self, guild_id: int) -> bool:
        """Whether this process runs the shard of the server (Discord's rule for which shard)."""
        count = self.client.shard_count or 1
        shards = getattr(self.client, "shard_ids", None) or range(count)
        return (guild_id >> 22) % count in shards

    def lost(self, guild_id: int, channel_id: int) -> Text | None:
        """Why the bot can no longer run a table in this channel, or None if it can."""
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return tr("the bot is no longer on that server")
        if guild.unavailable:
            return None  # an outage at Discord, not a removal: wait for it
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            return tr("its channel was deleted")
        if not can_post(channel):
            return tr("the bot can no longer post in #{channel}", channel=channel.name)
        return None

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel's table closes."""
        await self.services.tables.abandon(
            channel.guild.id,
            channel.id,
            tr("its channel #{channel} was deleted", channel=channel.name),
        )

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread's table closes."""
        await self.services.tables.abandon(
            payload.guild_id, payload.thread_id, tr("its thread was deleted")
        )

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel the bot may no longer post in closes its table."""
        if not can_post(after):
            await self.services.tables.abandon(
                after.guild.id,
                after.id,
                tr("the bot can no longer post in #{channel}", channel=after.name),
            )

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (or the server deleted): every table there closes."""
        closed = await self.services.tables.abandon_guild(
            guild.id, tr("the bot is no longer on **{server}**", server=guild.name)
        )
        if closed:
            log.info("Closed %d table(s) of a server the bot left.", closed)
