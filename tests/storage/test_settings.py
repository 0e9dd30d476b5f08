"""A server's settings on both stores: the language of its channel posts."""

from __future__ import annotations

from storage import Storage

GUILD = 77


async def test_a_server_without_a_language_follows_its_preferred_locale(store: Storage) -> None:
    assert (await store.settings.get(GUILD)).language is None


async def test_a_servers_language_is_kept_beside_its_other_settings(store: Storage) -> None:
    await store.settings.set(GUILD, starting_chips=500)
    chosen = await store.settings.set_language(GUILD, "de")
    assert (chosen.language, chosen.starting_chips) == ("de", 500)
    # Another setting changed later keeps the language, and the language keeps the others.
    await store.settings.set(GUILD, daily_bonus=50)
    read = await store.settings.get(GUILD)
    assert (read.language, read.starting_chips, read.daily_bonus) == ("de", 500, 50)
    assert (await store.settings.get(GUILD + 1)).language is None


async def test_a_servers_language_set_back_to_its_default_is_forgotten(store: Storage) -> None:
    await store.settings.set_language(GUILD, "zh-CN")
    await store.settings.set_language(GUILD, None)
    assert (await store.settings.get(GUILD)).language is None
