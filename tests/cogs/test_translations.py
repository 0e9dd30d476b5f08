"""The slash commands in every language: each text the tree hands the translator is in the
catalogs, the localised names and descriptions keep to Discord's rules, and the commands synced
(and hashed to decide whether to sync) carry every language's names."""

from __future__ import annotations

import string
import unicodedata
from typing import Any

import discord
from discord import app_commands

import i18n
from bot import PyramidBot, Settings, command_cogs
from cogs.info import BUTTON_PREFIX, BUTTONS, HELP, OPTION_PREFIX, RULES_PAGES
from cogs.sync import digest, payload
from cogs.translator import CatalogTranslator, tree_texts
from tables.runtime import ThreadOffload
from tests.cogs.helpers import Scene
from tests.i18n.helpers import key, template

#: Discord's limits on a command's or an option's name, description and choice names.
NAME_LIMIT, DESCRIPTION_LIMIT, CHOICE_LIMIT = 32, 100, 100
#: Every language's locale, and the locales read in another's catalog (es-419 in Spain's).
LOCALES = [language.discord for language in i18n.LANGUAGES] + sorted(i18n.ALIASES)
SUBCOMMANDS = (1, 2)  # an option of type SUB_COMMAND or SUB_COMMAND_GROUP


def is_name_character(character: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, one character at a time."""
    return (
        character in "-_"
        or unicodedata.category(character)[0] in "LN"
        or "\u0900" <= character <= "\u097f"  # Devanagari
        or "\u0e00" <= character <= "\u0e7f"  # Thai
    )


def name_problem(name: str) -> str | None:
    """Why Discord would refuse a command's or option's name, if it would."""
    if not 1 <= len(name) <= NAME_LIMIT:
        return f"{len(name)} characters"
    if not all(is_name_character(character) for character in name):
        return "a character Discord refuses in a name"
    if name != name.lower():
        return "not lowercase"
    return None


def rule_breaks(commands: list[dict[str, Any]], path: str = "") -> list[str]:
    """Every localised name, description or choice in a sync's payload that Discord refuses,
    and every pair of siblings that share a name in a language."""
    problems = []
    for locale in ("", *LOCALES):
        names = [c.get("name_localizations", {}).get(locale, c["name"]) for c in commands]
        problems += [
            f"{path}: {name!r} twice among siblings in {locale or 'English'}"
            for name in sorted({n for n in names if names.count(n) > 1})
        ]
    for command in commands:
        where = f"{path} {command['name']}".strip()
        for locale, name in {"": command["name"], **command.get("name_localizations", {})}.items():
            if (problem := name_problem(name)) is not None:
                problems.append(f"{where} [{locale or 'English'}] name {name!r}: {problem}")
        descriptions = {"": command["description"], **command.get("description_localizations", {})}
        for locale, description in descriptions.items():
            if not 1 <= len(description) <= DESCRIPTION_LIMIT:
                problems.append(f"{where} [{locale or 'English'}] description: {len(description)}")
        for choice in command.get("choices") or []:
            shown = {"": choice["name"], **choice.get("name_localizations", {})}
            for locale, name in shown.items():
                if not 1 <= len(name) <= CHOICE_LIMIT:
                    problems.append(f"{where} [{locale or 'English'}] choice {name!r}: {len(name)}")
        problems += rule_breaks(command.get("options") or [], where)
    return problems


async def the_tree(translator: app_commands.Translator | None = None) -> Any:
    """The bot's command tree, as a start builds it, not connected to anything."""
    bot = PyramidBot(Settings(discord_token="unused"), offload=ThreadOffload())
    if translator is not None:
        await bot.tree.set_translator(translator)
    for cog in command_cogs():
        await bot.add_cog(cog)
    return bot.tree


async def test_every_text_the_tree_hands_the_translator_is_in_the_catalogs() -> None:
    texts = await tree_texts(await the_tree())
    # The commands' texts are the messages domain's entries with a context; the texts the
    # source marks are checked against the templates by tests/i18n/test_extract.py.
    commands = template(i18n.DOMAIN)
    wanted = {key(message) for message in commands if message.id and message.context}
    # Run `python locales/extract.py` and translate what it adds.
    assert sorted(set(texts) - wanted, key=str) == [], "texts missing from the catalogs"
    assert sorted(wanted - set(texts), key=str) == [], "catalog entries nothing uses any more"


def test_helps_placeholders_name_commands_and_options_of_the_tree() -> None:
    wanted = {key(message) for message in template() if message.id}
    for msgid in (HELP, RULES_PAGES):
        for _, field, _, _ in string.Formatter().parse(msgid):
            if field is None:
                continue
            if field.startswith(BUTTON_PREFIX):
                assert field in BUTTONS, field  # a button's label (the answers' catalog)
            elif field.startswith(OPTION_PREFIX):
                assert ("option", field.removeprefix(OPTION_PREFIX)) in wanted, field
            else:
                assert ("command", field) in wanted, field


async def test_a_new_command_without_translations_is_caught() -> None:
    tree = await the_tree()

    @app_commands.command(name="fold", description="Give up this hand")
    @app_commands.describe(quietly="Without a word")
    async def fold(interaction: discord.Interaction[Any], quietly: bool = False) -> None:
        """Fold."""

    tree.add_command(fold)
    wanted = {key(message) for message in template() if message.id}
    assert sorted(set(await tree_texts(tree)) - wanted) == [
        ("command", "fold"),
        ("description", "Give up this hand"),
        ("description", "Without a word"),
        ("option", "quietly"),
    ]


async def test_every_localised_name_description_and_choice_keeps_to_discords_rules() -> None:
    sent = await payload(await the_tree(CatalogTranslator()), None)
    assert rule_breaks(sent) == []


def test_a_name_discord_refuses_or_two_siblings_sharing_one_are_caught() -> None:
    long = "x" * 101
    sent = [
        {
            "name": "table",
            "description": "Play",
            "name_localizations": {"de": "Tisch", "fr": "une table"},
            "options": [
                {"name": "join", "description": "Sit", "name_localizations": {"es-ES": "unirse"}},
                {"name": "leave", "description": long, "name_localizations": {"es-ES": "unirse"}},
                {"name": "game", "description": "Which", "choices": [{"name": "a", "value": "a"}]},
            ],
        }
    ]
    sent[0]["options"][2]["choices"][0]["name_localizations"] = {"fr": long}
    assert rule_breaks(sent) == [
        "table [de] name 'Tisch': not lowercase",
        "table [fr] name 'une table': a character Discord refuses in a name",
        "table: 'unirse' twice among siblings in es-ES",
        "table leave [English] description: 101",
        f"table game [fr] choice {long!r}: 101",
    ]


async def test_the_hashed_payload_is_the_translated_one() -> None:
    translated = await payload(await the_tree(CatalogTranslator()), None)
    plain = await payload(await the_tree(), None)
    assert all(set(command["name_localizations"]) == set(LOCALES) for command in translated)
    assert digest(translated) != digest(plain)


def localisations_missing(command: Any, path: str = "") -> list[str]:
    """Every command, option and choice of a synced command without every language's name
    (and, but for choices, description)."""
    where = f"{path} {command.name}".strip()
    missing = []
    for what in ("name_localizations", "description_localizations"):
        have = {locale.value for locale in getattr(command, what)}
        if have != set(LOCALES):
            missing.append(f"{where}: {what} has {sorted(have)}")
    for choice in getattr(command, "choices", None) or []:
        have = {locale.value for locale in choice.name_localizations}
        if have != set(LOCALES):
            missing.append(f"{where} choice {choice.name!r}: {sorted(have)}")
    for option in getattr(command, "options", None) or []:
        missing += localisations_missing(option, where)
    return missing


async def test_the_synced_commands_carry_every_languages_names(scene: Scene) -> None:
    synced = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    assert len(synced) == len(scene.bot.tree.get_commands()) == 19
    assert [problem for command in synced for problem in localisations_missing(command)] == []
    table = next(command for command in synced if command.name == "table")
    assert {locale.value: name for locale, name in table.name_localizations.items()} == {
        "es-ES": "mesa",
        "es-419": "mesa",
        "pt-BR": "mesa",
        "de": "tisch",
        "fr": "table",
        "zh-CN": "牌桌",
    }
