"""The slash commands in every language of the bot: discord.py hands each command's, option's and
choice's name and description to `CatalogTranslator`, which looks it up in the catalogs
(`i18n`), so that the synced payload carries Discord's ``name_localizations`` and
``description_localizations``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location

import i18n

#: Where a text stands in the tree, as the catalogs' context (``msgctxt``) names it.
CONTEXT_OF: dict[Location, str] = {
    Location.command_name: i18n.COMMAND,
    Location.group_name: i18n.COMMAND,
    Location.parameter_name: i18n.OPTION,
    Location.command_description: i18n.DESCRIPTION,
    Location.group_description: i18n.DESCRIPTION,
    Location.parameter_description: i18n.DESCRIPTION,
    Location.choice_name: i18n.CHOICE,
}


def context_of(location: Location) -> str | None:
    """The catalogs' context for a place in the tree (None: a text the catalogs do not hold)."""
    return CONTEXT_OF.get(location)


class CatalogTranslator(app_commands.Translator):
    """Translates the command tree from the catalogs; English, or a text without a translation,
    gets none (Discord then shows the English)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text in ``locale``'s language, or None where there is no translation."""
        language = i18n.language_of(locale.value)
        where = context_of(context.location)
        # English is the source; Latin American Spanish (es-419) reads Spain's catalog, as its
        # readers do everywhere else (i18n.ALIASES).
        if language is i18n.ENGLISH or where is None:
            return None
        found = i18n.translations(language)
        return found.text(string.message, where) if found.has(string.message, where) else None


class TextCollector(app_commands.Translator):
    """Notes every text the tree hands a translator, with its context: what the catalogs must
    hold (locales/extract.py writes them into the template; a test checks none is missing)."""

    def __init__(self) -> None:
        self.texts: dict[tuple[str, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """Note the text; translate nothing."""
        where = context_of(context.location)
        if where is not None:
            self.texts.setdefault((where, string.message))
        return None


async def tree_texts(tree: app_commands.CommandTree[Any]) -> list[tuple[str, str]]:
    """Every (context, text) of the tree's commands that a translator is asked for, in the
    tree's order."""
    collector = TextCollector()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, collector)
    return list(collector.texts)
