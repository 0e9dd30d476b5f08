"""Every language's catalog translates every message id of the template, keeps its placeholders,
and reads plurals and numbers as that language writes them; English is the fallback."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import i18n
from tests.i18n.helpers import key, placeholder_mismatches, template, untranslated

LANGUAGES = [pytest.param(language, id=language.discord) for language in i18n.LANGUAGES]
CATALOGS = [
    pytest.param(language, domain, id=f"{language.discord}-{domain}")
    for language in i18n.LANGUAGES
    for domain in i18n.DOMAINS
]


def catalog_of(language: i18n.Language, domain: str) -> Catalog:
    return i18n.read_catalog(i18n.catalog_path(language, domain), language)


def write(catalog: Catalog, path: Path) -> Path:
    with path.open("wb") as file:
        write_po(file, catalog)
    return path


@pytest.mark.parametrize(("language", "domain"), CATALOGS)
def test_every_message_id_has_a_translation_in_every_language(
    language: i18n.Language, domain: str
) -> None:
    assert untranslated(template(domain), catalog_of(language, domain)) == []


@pytest.mark.parametrize(("language", "domain"), CATALOGS)
def test_every_translation_keeps_the_sources_placeholders(
    language: i18n.Language, domain: str
) -> None:
    assert placeholder_mismatches(catalog_of(language, domain)) == []


def test_every_language_is_a_discord_locale_with_a_catalog_of_its_own() -> None:
    import discord  # the tests may; i18n itself never does

    codes = [language.discord for language in i18n.LANGUAGES]
    assert len(set(codes)) == len(codes)
    assert set(codes) <= {locale.value for locale in discord.Locale}
    assert all(
        i18n.catalog_path(language, domain).is_file()
        for language in i18n.LANGUAGES
        for domain in i18n.DOMAINS
    )
    catalogs = {path.parent.parent.name for path in i18n.LOCALES.glob("*/LC_MESSAGES/*.po")}
    assert catalogs == {language.catalog for language in i18n.LANGUAGES}
    domains = {path.stem for path in i18n.LOCALES.glob("**/*.po*")}
    assert domains == set(i18n.DOMAINS)


def test_a_translation_that_drops_a_placeholder_is_caught(tmp_path: Path) -> None:
    broken = Catalog(locale="de")
    broken.add("Welcome, {name}!", "Willkommen!")
    broken.add("{count} chips", "{count} Chips")
    broken.add("{player} pays {amount}", "{amount} zahlt {spieler}")
    read = i18n.read_catalog(write(broken, tmp_path / "messages.po"))
    assert placeholder_mismatches(read) == [
        "[None] 'Welcome, {name}!': 'Willkommen!' has [], the source ['{name}']",
        "[None] '{player} pays {amount}': '{amount} zahlt {spieler}' has ['{amount}',"
        " '{spieler}'], the source ['{amount}', '{player}']",
    ]


def test_a_catalog_missing_an_entry_or_left_fuzzy_is_caught(tmp_path: Path) -> None:
    source = Catalog()
    for msgid in ("balance", "daily", "history"):
        source.add(msgid, context=i18n.COMMAND)
    broken = Catalog(locale="fr")
    broken.add("balance", "solde", context=i18n.COMMAND)
    broken.add("daily", "quotidien", context=i18n.COMMAND, flags=("fuzzy",))
    broken.add("rules", "règles", context=i18n.COMMAND)
    read = i18n.read_catalog(write(broken, tmp_path / "messages.po"))
    assert untranslated(source, read) == [
        "[command] 'daily': not translated (empty or fuzzy)",
        "[command] 'history': missing",
        "[command] 'rules': not in the template",
    ]


def test_a_text_without_a_translation_reads_in_english() -> None:
    assert i18n.translate("de", "no such text, {name}", name="Ann") == "no such text, Ann"
    assert i18n.translate("ja", "balance", context=i18n.COMMAND) == "balance"
    assert i18n.translate("de", "balance", context=i18n.COMMAND) == "guthaben"
    # The context tells a command's name from a choice's.
    assert i18n.translate("de", "balance", context=i18n.CHOICE) == "Guthaben"


def test_plural_forms_follow_each_languages_rule(tmp_path: Path) -> None:
    french = Catalog(locale="fr")
    french.add(("{count} chip", "{count} chips"), ("{count} jeton", "{count} jetons"))
    chinese = Catalog(locale="zh_CN")
    chinese.add(("{count} chip", "{count} chips"), ("{count} 个筹码",))
    fr = i18n.Translations(i18n.read_catalog(write(french, tmp_path / "fr.po")))
    zh = i18n.Translations(i18n.read_catalog(write(chinese, tmp_path / "zh.po")))
    # French counts 0 and 1 as singular; English only 1; Chinese has one form.
    assert [fr.plural("{count} chip", "{count} chips", n) for n in (0, 1, 2)] == [
        "{count} jeton",
        "{count} jeton",
        "{count} jetons",
    ]
    assert [i18n.Translations().plural("{count} chip", "{count} chips", n) for n in (0, 1)] == [
        "{count} chips",
        "{count} chip",
    ]
    assert zh.plural("{count} chip", "{count} chips", 5) == "{count} 个筹码"
    assert i18n.translate_plural("en-US", "{count} chip", "{count} chips", 1234) == "1,234 chips"


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert i18n.format_number("en-US", 1234567) == "1,234,567"
    assert i18n.format_number("de", 1234567) == "1.234.567"
    assert i18n.format_number("pt-BR", 1234) == "1.234"
    assert i18n.format_number("fr", 1234567) == "1\u202f234\u202f567"
    assert i18n.format_number("zh-CN", 1234567) == "1,234,567"
    assert i18n.translate("de", "{amount} chips", amount=25000) == "25.000 chips"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_text_in_two_parts_catalogs_is_translated_the_same_in_both(
    language: i18n.Language,
) -> None:
    # A language reads all its catalogs as one: two translations of one text would be one
    # reader's word in one place and another's elsewhere, whichever catalog was read last.
    seen: dict[tuple[str | None, str], tuple[str, object]] = {}
    differ = []
    for domain in i18n.DOMAINS:
        for message in catalog_of(language, domain):
            if not message.id:
                continue
            entry = key(message)
            first = seen.setdefault(entry, (domain, message.string))
            if first[1] != message.string:
                differ.append(f"{entry}: {first[0]} {first[1]!r}, {domain} {message.string!r}")
    assert differ == []
