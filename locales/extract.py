"""Bring the catalogs up to the source: write every text of the command tree, and every text
written in the source as ``tr("...")``, ``tr_plural("...", "...", n)`` or ``i18n.message("...")``,
into its domain's template (``locales/<domain>.pot``, `i18n.DOMAINS` says which part of the bot
each domain takes) and merge each template into each language's catalog of that domain, keeping
what is translated (also a text that moved from another domain), adding what is new (empty, to
translate) and dropping what nothing uses any more.

Run from the project's root after changing a command or a text, then translate the new entries::

    .venv/bin/python locales/extract.py

The source is read, not run (Babel's Python extractor), so a message id must be a string literal
in the call. tests/i18n/test_catalogs.py fails while a text lacks a translation in any language,
and tests/i18n/test_extract.py while a template is behind the source.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import i18n  # noqa: E402 - after the project's root is on the path

HEADER = "Pyramid Poker Bot's texts. Message ids are the English text."
#: The calls that mark a text, and which of their arguments are message ids (Babel's spec).
KEYWORDS = {"tr": None, "tr_plural": (1, 2), "message": None}
#: Where texts are written.
SOURCES = ("bot.py", "engine", "storage", "tables", "cogs", "render", "i18n")

MsgId = str | tuple[str, str]
#: A translation as Babel holds it: a string, or a plural's forms.
Translated = str | tuple[str, ...] | list[str]


async def command_texts() -> list[tuple[str, str]]:
    """Every (context, text) of the bot's slash commands."""
    from bot import PyramidBot, Settings, command_cogs
    from cogs.translator import tree_texts
    from tables.runtime import ThreadOffload

    bot = PyramidBot(Settings(discord_token="unused"), offload=ThreadOffload())
    for cog in command_cogs():
        await bot.add_cog(cog)
    return await tree_texts(bot.tree)


def domain_of(path: str) -> str:
    """The domain of a source file (a path from the project's root)."""
    for domain, prefixes in i18n.DOMAINS.items():
        if any(path == prefix or path.startswith(prefix) for prefix in prefixes):
            return domain
    return i18n.DOMAIN


def source_files() -> Iterator[Path]:
    """Every Python file a text may be written in, in a stable order."""
    for name in SOURCES:
        path = ROOT / name
        yield from [path] if path.is_file() else sorted(path.rglob("*.py"))


def source_texts() -> dict[str, list[tuple[MsgId, tuple[str, int]]]]:
    """Every marked text of the source by domain: (id or (singular, plural), where it is)."""
    found: dict[str, list[tuple[MsgId, tuple[str, int]]]] = {d: [] for d in i18n.DOMAINS}
    for path in source_files():
        relative = path.relative_to(ROOT).as_posix()
        for line, ids, _comments, _context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
        ):
            msgid: MsgId = ids if isinstance(ids, str) else (ids[0], ids[1])
            found[domain_of(relative)].append((msgid, (relative, line)))
    return found


def templates() -> dict[str, Catalog]:
    """Every domain's template as the source has it now."""
    made = {
        domain: Catalog(project="pyramid-poker-bot", header_comment=f"# {HEADER}", fuzzy=False)
        for domain in i18n.DOMAINS
    }
    for context, text in asyncio.run(command_texts()):
        made[i18n.DOMAIN].add(text, context=context)
    for domain, texts in source_texts().items():
        for msgid, where in texts:
            existing = made[domain].get(msgid if isinstance(msgid, str) else msgid[0])
            if existing is not None:
                existing.locations.append(where)
                continue
            flags = ("python-brace-format",) if "{" in "".join(msgid) else ()
            made[domain].add(msgid, locations=[where], flags=flags)
    return made


def fresh(template: Catalog) -> Catalog:
    """A copy of a template with entries of its own (Babel's update hands the template's entries
    to the catalog it updates, so one template's entries must not serve two languages)."""
    copied = Catalog(project=template.project, fuzzy=False)
    copied.creation_date = template.creation_date
    for message in template:
        if message.id:
            copied.add(
                message.id,
                context=message.context,
                locations=list(message.locations),
                flags=tuple(message.flags),
            )
    return copied


def write(catalog: Catalog, path: Path) -> None:
    """Write a catalog as Babel does (``pybabel update`` writes the same), without locations,
    so that moving a line changes no catalog."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, omit_header=False, sort_output=False, no_location=True)


def known(language: i18n.Language) -> dict[tuple[str | None, str], Translated]:
    """Every translated text of a language in any of its catalogs (a text may move domains)."""
    found: dict[tuple[str | None, str], Translated] = {}
    for path in sorted((i18n.LOCALES / language.catalog / "LC_MESSAGES").glob("*.po")):
        for message in i18n.read_catalog(path, language):
            ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
            strings = (
                message.string if isinstance(message.string, tuple | list) else (message.string,)
            )
            if ids[0] and message.string is not None and all(strings) and not message.fuzzy:
                found.setdefault((message.context, str(ids[0])), message.string)
    return found


def main() -> None:
    """Write the templates and update every language's catalogs from them."""
    made = templates()
    translated = {language: known(language) for language in i18n.LANGUAGES}
    for domain, template in made.items():
        path = i18n.template_path(domain)
        if path.exists():
            kept = i18n.read_catalog(path)
            # Unchanged texts keep their date, so that a run with nothing new changes no file.
            if [(m.context, m.id) for m in kept] == [(m.context, m.id) for m in template]:
                template.creation_date = kept.creation_date
        write(template, path)
        for language in i18n.LANGUAGES:
            path = i18n.catalog_path(language, domain)
            if path.exists():
                catalog = i18n.read_catalog(path, language)
            else:
                catalog = Catalog(locale=language.catalog, project="pyramid-poker-bot", fuzzy=False)
                catalog.creation_date = template.creation_date
            # Fuzzy matching would offer another text's translation as this one's: none is better.
            # A copy each: Babel's update hands the template's own entries to the catalog.
            catalog.update(fresh(template), no_fuzzy_matching=True)
            catalog.obsolete.clear()
            for message in catalog:
                ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
                strings = (
                    message.string
                    if isinstance(message.string, tuple | list)
                    else (message.string,)
                )
                if ids[0] and not all(strings):
                    found = translated[language].get((message.context, str(ids[0])))
                    if found is not None:
                        message.string = found
            write(catalog, path)
            print(f"{path.relative_to(ROOT)}: {len(catalog)} texts")


if __name__ == "__main__":
    main()
