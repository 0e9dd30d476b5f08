"""Which language a Discord locale reads, and which a server's channel posts are in."""

from __future__ import annotations

import i18n


def test_a_discord_locale_with_a_catalog_reads_its_own_language() -> None:
    assert [i18n.language_of(language.discord) for language in i18n.LANGUAGES] == list(
        i18n.LANGUAGES
    )
    assert i18n.language_of("en-US") == i18n.ENGLISH


def test_latin_american_spanish_reads_spains_and_any_other_locale_english() -> None:
    assert i18n.language_of("es-419").discord == "es-ES"
    assert i18n.language_of("en-GB") == i18n.ENGLISH
    assert i18n.language_of("zh-TW") == i18n.ENGLISH
    assert i18n.language_of("ja") == i18n.ENGLISH
    assert i18n.translate("es-419", "help", context=i18n.COMMAND) == "ayuda"


def test_a_servers_chosen_language_goes_before_its_preferred_locale() -> None:
    assert i18n.channel_locale(None, "fr") == "fr"
    assert i18n.channel_locale("de", "fr") == "de"
