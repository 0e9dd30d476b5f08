"""Which language a text is in: /help in the reader's own Discord locale, and the language of
a server's channel posts, which `/settings language` chooses over the server's own."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.language import channel_locale, user_locale
from storage.rows import GuildSettings
from tests.cogs.helpers import Scene, an_admin, speak

#: The first line of /help, and how its first step names `/table create`, in each language.
HELP_OPENS = {
    "en-US": ("**Pyramid Poker: how a game goes**", "1. `/table create` opens a table"),
    "es-ES": ("**Pyramid Poker: cómo va una partida**", "1. `/mesa crear` abre una mesa"),
    "pt-BR": ("**Pyramid Poker: como funciona uma partida**", "1. `/mesa criar` abre uma mesa"),
    "de": ("**Pyramid Poker: So läuft eine Partie**", "1. `/tisch erstellen` eröffnet einen"),
    "fr": ("**Pyramid Poker : déroulement d'une partie**", "1. `/table créer` ouvre une table"),
    "zh-CN": ("**Pyramid Poker：一局怎么玩**", "1. `/牌桌 创建` 在频道中开一张牌桌"),
}


@pytest.mark.parametrize("locale", list(HELP_OPENS))
async def test_help_reads_in_the_language_of_the_readers_discord(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    ann, bob = scene.members[:2]
    speak(monkeypatch, {ann.id: locale})
    shown = await ann.slash(scene.channel, "help")
    assert shown.ephemeral
    title, first = HELP_OPENS[locale]
    lines = shown.response.content.splitlines()
    assert lines[0] == title
    assert lines[1].startswith(first)
    # Another member, on an English Discord, reads it in English at the same moment.
    english = await bob.slash(scene.channel, "help")
    assert english.response.content.splitlines()[0] == HELP_OPENS["en-US"][0]


@pytest.mark.parametrize(("locale", "title"), [("es-419", "es-ES"), ("ja", "en-US")])
async def test_a_locale_without_a_catalog_reads_its_nearest_or_english(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str, title: str
) -> None:
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: locale})
    shown = await ann.slash(scene.channel, "help")
    assert shown.response.content.splitlines()[0] == HELP_OPENS[title][0]


async def test_the_servers_language_overrides_its_own_and_goes_back_to_it(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    boss = an_admin(scene)
    # A Spanish-speaking admin on a French server.
    speak(monkeypatch, {boss.id: "es-ES"}, server="fr")
    shown = await boss.slash(scene.channel, "settings show")
    # /settings show is the admin's answer: in their Spanish.
    assert (
        "- Mensajes en los canales: **Français**, el idioma propio del servidor"
        " (`/ajustes idioma`)." in shown.response.content.splitlines()
    )
    asked = await boss.slash(scene.channel, "settings language")
    assert asked.response.content == (
        "Los mensajes en los canales de este servidor están en Français, el idioma del propio"
        " servidor."
    )
    chosen = await boss.slash(scene.channel, "settings language", language="de")
    assert chosen.ephemeral
    assert chosen.response.content == (
        "Los mensajes en los canales de este servidor estarán en Deutsch."
    )
    shown = await boss.slash(scene.channel, "settings show")
    assert "- Mensajes en los canales: **Deutsch**, elegido con `/ajustes idioma`." in (
        shown.response.content.splitlines()
    )
    assert (await scene.bot.services.storage.settings.get(scene.guild.id)).language == "de"
    reset = await boss.slash(scene.channel, "settings language", language="default")
    assert reset.response.content == (
        "Los mensajes en los canales de este servidor seguirán el idioma del propio servidor:"
        " Français."
    )
    assert (await scene.bot.services.storage.settings.get(scene.guild.id)).language is None


async def test_a_member_who_may_not_manage_the_server_cannot_choose_its_language(
    scene: Scene,
) -> None:
    commands = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    bob = scene.members[1]
    # A server may unhide the group; the bot still checks.
    scene.guild.set_command_permissions(
        next(c for c in commands if c.name == "settings"), {bob: True}
    )
    refused = await bob.slash(scene.channel, "settings language", language="zh-CN")
    assert refused.ephemeral
    assert refused.response.content == "Only members who may manage this server can do that."
    assert (await scene.bot.services.storage.settings.get(scene.guild.id)).language is None


class Settings:
    """The settings store of a bot whose one server chose ``language``."""

    def __init__(self, language: str | None) -> None:
        self.chosen = language

    async def get(self, guild_id: int) -> GuildSettings:
        return GuildSettings(guild_id, 1_000, 100, language=self.chosen)

    async def language(self, guild_id: int) -> str | None:
        return self.chosen


def interaction(*, user: str, server: str, guild_id: int | None, chosen: str | None) -> Any:
    """Just what `cogs.language` reads of an interaction."""
    storage = SimpleNamespace(settings=Settings(chosen))
    found = SimpleNamespace(storage=storage)
    return SimpleNamespace(
        locale=discord.Locale(user),
        guild_locale=discord.Locale(server) if guild_id else None,
        guild=None,
        guild_id=guild_id,
        client=SimpleNamespace(services=found),
    )


@pytest.mark.parametrize(
    ("chosen", "guild_id", "expected"),
    [(None, 5, "fr"), ("de", 5, "de"), ("de", None, "es-ES")],
)
async def test_a_channel_post_is_in_the_servers_language_and_a_dm_in_the_users(
    chosen: str | None, guild_id: int | None, expected: str
) -> None:
    asked = interaction(user="es-ES", server="fr", guild_id=guild_id, chosen=chosen)
    assert user_locale(asked) == "es-ES"
    assert await channel_locale(asked) == expected
