"""Bring the catalogs up to the slash commands and the messages: write every text of the command
tree, and every message marked with ``i18n.message``, into the template (messages.pot) and merge
the template into each language's catalog, keeping what is translated, adding what is new
(empty, to translate) and dropping what nothing uses any more.

Run from the project's root after changing a command or a marked message, then translate the new
entries::

    .venv/bin/python locales/extract.py

tests/i18n/test_catalogs.py fails while a text lacks a translation in any language.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import i18n
from bot import PyramidBot, Settings, command_cogs
from cogs.translator import tree_texts
from tables.runtime import ThreadOffload

HEADER = "Pyramid Poker Bot's slash commands and messages. Message ids are the English text."


async def command_texts() -> list[tuple[str, str]]:
    """Every (context, text) of the bot's slash commands."""
    bot = PyramidBot(Settings(discord_token="unused"), offload=ThreadOffload())
    for cog in command_cogs():
        await bot.add_cog(cog)
    return await tree_texts(bot.tree)


def write(catalog: Catalog, path: Path) -> None:
    """Write a catalog as Babel does (``pybabel update`` writes the same)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, omit_header=False, sort_output=False)


def main() -> None:
    """Write the template and update every language's catalog from it."""
    template = Catalog(project="pyramid-poker-bot", header_comment=f"# {HEADER}", fuzzy=False)
    for context, text in asyncio.run(command_texts()):
        template.add(text, context=context)
    # Importing the cogs (command_texts) marked their messages.
    for text in i18n.MESSAGES:
        template.add(text, flags=("python-brace-format",) if "{" in text else ())
    path = i18n.LOCALES / f"{i18n.DOMAIN}.pot"
    if path.exists():
        kept = i18n.read_catalog(path)
        # Unchanged texts keep their date, so that a run with nothing new changes no file.
        if [(m.context, m.id) for m in kept] == [(m.context, m.id) for m in template]:
            template.creation_date = kept.creation_date
    write(template, path)
    for language in i18n.LANGUAGES:
        path = i18n.catalog_path(language)
        if path.exists():
            catalog = i18n.read_catalog(path, language)
        else:
            catalog = Catalog(locale=language.catalog, project="pyramid-poker-bot", fuzzy=False)
        # Fuzzy matching would offer another text's translation as this one's: none is better.
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(catalog, path)
        print(f"{path.relative_to(i18n.LOCALES.parent)}: {len(catalog)} texts")


if __name__ == "__main__":
    main()
