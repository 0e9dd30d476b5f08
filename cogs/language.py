"""Which language a text is in: the user's own Discord locale for what only they see (ephemeral
answers, DMs), the server's for its channel posts (`/settings language`, else the server's
preferred locale). Discord locales without a catalog read English (`i18n.language_of`)."""

from __future__ import annotations

import logging
from typing import Any

import discord

import i18n
from cogs.common import Services, services

log = logging.getLogger(__name__)


def user_locale(interaction: discord.Interaction[Any]) -> str:
    """The locale of an answer only the user sees: their Discord client's."""
    return interaction.locale.value


def server_locale(interaction: discord.Interaction[Any]) -> str:
    """The server's preferred locale (its Community setting), as the interaction tells it."""
    if interaction.guild_locale is not None:
        return interaction.guild_locale.value
    if interaction.guild is not None:
        return interaction.guild.preferred_locale.value
    return discord.Locale.american_english.value


async def channel_locale(interaction: discord.Interaction[Any]) -> str:
    """The locale of a post in the server's channel: the server's chosen language, else its
    preferred locale; a DM's is the user's own."""
    if interaction.guild_id is None:
        return user_locale(interaction)
    chosen = await chosen_language(services(interaction), interaction.guild_id)
    return i18n.channel_locale(chosen, server_locale(interaction))


async def chosen_language(found: Services, guild_id: int) -> str | None:
    """The language the server chose for its channel posts (None: its own), read at most once
    a few minutes (`storage.settings.SettingsRepository.language`)."""
    return await found.storage.settings.language(guild_id)


async def server_language(client: Any, guild_id: int) -> str:
    """The locale of a server's channel posts where no interaction tells the server's own (a
    post of the bot's own timing): the language chosen with ``/settings language``, else the
    server's preferred locale as the cache knows it (English if unknown)."""
    chosen = await chosen_language(client.services, guild_id)
    guild = client.get_guild(guild_id)
    preferred = guild.preferred_locale.value if guild is not None else i18n.ENGLISH.discord
    return i18n.channel_locale(chosen, preferred)


async def remember_locale(interaction: discord.Interaction[Any]) -> None:
    """Every interaction (a listener of ``on_interaction``): keep the user's Discord locale, so
    the DMs the tables send later, unasked, are in it. An unchanged locale writes nothing; a
    failure to keep it is logged, never shown (the action itself goes on)."""
    found: Services | None = getattr(interaction.client, "services", None)
    if found is None:
        return
    try:
        await found.storage.locales.remember(interaction.user.id, user_locale(interaction))
    except Exception as error:  # the store away: the next interaction tries again
        log.info("could not keep the locale of user %s: %r", interaction.user.id, error)
