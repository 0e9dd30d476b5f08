"""Each user's last Discord locale (the language of their DMs), on both stores: kept, read back
by another process, written only when it changed, and the server's chosen language in memory."""

from __future__ import annotations

from typing import Any

import pytest

from storage import Storage
from storage.database import Database
from storage.locales import TTL, LocaleRepository
from storage.settings import LANGUAGE_TTL, SettingsRepository
from tests.storage.helpers import GUILD, OTHER_GUILD

ANN, BOB, CAL = 11, 12, 13


class Ticks:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def count_statements(monkeypatch: pytest.MonkeyPatch, database: Database) -> dict[str, int]:
    """How many writes and reads go to the store from now on."""
    counts = {"writes": 0, "reads": 0}
    execute, fetchall = database.execute, database.fetchall

    async def counted_execute(sql: str, params: Any = ()) -> int:
        counts["writes"] += 1
        return await execute(sql, params)

    async def counted_fetchall(sql: str, params: Any = ()) -> Any:
        counts["reads"] += 1
        return await fetchall(sql, params)

    monkeypatch.setattr(database, "execute", counted_execute)
    monkeypatch.setattr(database, "fetchall", counted_fetchall)
    return counts


async def test_a_locale_is_kept_and_read_back_by_another_process(store: Storage) -> None:
    assert await store.locales.get(ANN) is None  # never seen: the caller reads English
    assert await store.locales.remember(ANN, "de")
    assert await store.locales.remember(BOB, "zh-CN")
    # Another process of the bot (its own memory) reads the store.
    other = LocaleRepository(store.database)
    assert await other.many([ANN, BOB, CAL]) == {ANN: "de", BOB: "zh-CN", CAL: None}
    # The last locale wins.
    assert await other.remember(ANN, "fr")
    assert await LocaleRepository(store.database).get(ANN) == "fr"


async def test_an_unchanged_locale_writes_nothing_and_a_changed_one_writes_once(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = Ticks()
    locales = LocaleRepository(store.database, monotonic=ticks)
    counts = count_statements(monkeypatch, store.database)
    assert await locales.remember(ANN, "de")
    assert counts["writes"] == 1
    for _ in range(5):
        assert not await locales.remember(ANN, "de")
    assert counts["writes"] == 1
    # Read from memory: a DM costs no query.
    assert await locales.get(ANN) == "de"
    assert counts["reads"] == 0
    assert await locales.remember(ANN, "zh-CN")
    assert not await locales.remember(ANN, "zh-CN")
    assert counts["writes"] == 2
    # Long after, the process trusts its memory no more: it writes once again (another process
    # may have written something else meanwhile), then nothing.
    ticks.now += TTL + 1
    assert await locales.remember(ANN, "zh-CN")
    assert not await locales.remember(ANN, "zh-CN")
    assert counts["writes"] == 3
    assert await LocaleRepository(store.database).get(ANN) == "zh-CN"


async def test_locales_not_in_memory_are_read_in_one_query_then_kept(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.locales.remember(ANN, "de")
    locales = LocaleRepository(store.database)
    counts = count_statements(monkeypatch, store.database)
    assert await locales.many([ANN, BOB, CAL]) == {ANN: "de", BOB: None, CAL: None}
    assert counts["reads"] == 1
    assert await locales.many([CAL, BOB, ANN]) == {ANN: "de", BOB: None, CAL: None}
    assert counts == {"reads": 1, "writes": 0}


async def test_a_failed_write_is_not_taken_as_kept(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = LocaleRepository(store.database)

    async def refused(sql: str, params: Any = ()) -> int:
        raise OSError("the store is away")

    with monkeypatch.context() as patched:
        patched.setattr(store.database, "execute", refused)
        with pytest.raises(OSError, match="away"):
            await locales.remember(ANN, "de")
    assert await locales.remember(ANN, "de")  # tried again, and kept
    assert await LocaleRepository(store.database).get(ANN) == "de"


async def test_a_servers_language_is_read_once_and_follows_settings_language(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = Ticks()
    settings = SettingsRepository(store.database, monotonic=ticks)
    counts = count_statements(monkeypatch, store.database)
    assert await settings.language(GUILD) is None
    assert await settings.language(GUILD) is None
    assert counts["reads"] == 1
    await settings.set_language(GUILD, "fr")
    reads = counts["reads"]
    assert await settings.language(GUILD) == "fr"
    assert counts["reads"] == reads  # what /settings language set, known at once
    # Another process's change is seen once the memory is no longer trusted, or forgotten.
    await SettingsRepository(store.database).set_language(GUILD, "de")
    await SettingsRepository(store.database).set_language(OTHER_GUILD, "es-ES")
    assert await settings.language(GUILD) == "fr"
    ticks.now += LANGUAGE_TTL + 1
    assert await settings.language(GUILD) == "de"
    assert await settings.language(OTHER_GUILD) == "es-ES"
    await SettingsRepository(store.database).set_language(OTHER_GUILD, None)
    settings.forget_language(OTHER_GUILD)
    assert await settings.language(OTHER_GUILD) is None
