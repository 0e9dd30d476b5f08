"""Per-server settings: starting chips, the daily bonus, lobby expiry, the table defaults, the
daily cap on chips from the house's computers, the rating seasons' length, whether
achievements are announced and the language of the channel posts."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from engine.text import tr
from storage.database import Connection, Database, Row
from storage.errors import StorageError
from storage.rows import GuildSettings

DEFAULT_STARTING_CHIPS: Final = 1_000
DEFAULT_DAILY_BONUS: Final = 100
DEFAULT_LOBBY_MINUTES: Final = 30
#: What a player may net from the house's computers in a UTC day: five Standard antes, ten
#: Showdown ones, the daily bonus (docs/rules.md, "Whose chips").
DEFAULT_HOUSE_CAP: Final = 100
#: An idle lobby may stay open from a minute to a week.
LOBBY_MINUTES_RANGE: Final = (1, 7 * 24 * 60)
#: A rating season lasts a calendar month (0) or this many days.
SEASON_DAYS_RANGE: Final = (0, 366)
#: Starting chips and the daily bonus stay within this (a bigger number is a typing slip).
MAX_CHIPS: Final = 1_000_000_000
#: How long a server's language stays trusted in memory (seconds): a channel post reads it
#: without a query, and a process sees within this time a change another process made.
LANGUAGE_TTL: Final = 300.0

_SELECT = (
    "SELECT starting_chips, daily_bonus, lobby_minutes, table_defaults, house_cap, season_days,"
    " announce_achievements, language FROM guild_settings WHERE guild_id = ?"
)


def _settings(guild_id: int, row: Row | None) -> GuildSettings:
    if row is None:
        return GuildSettings(
            guild_id,
            DEFAULT_STARTING_CHIPS,
            DEFAULT_DAILY_BONUS,
            DEFAULT_LOBBY_MINUTES,
            house_cap=DEFAULT_HOUSE_CAP,
        )
    cap = DEFAULT_HOUSE_CAP if row[4] is None else row[4]
    return GuildSettings(
        guild_id,
        row[0],
        row[1],
        row[2],
        json.loads(row[3]),
        cap,
        row[5] or 0,
        bool(row[6]),
        row[7],
    )


async def read_settings(connection: Connection, guild_id: int) -> GuildSettings:
    """A server's settings inside a transaction already open on ``connection``."""
    return _settings(guild_id, await connection.fetchone(_SELECT, (guild_id,)))


class SettingsRepository:
    """Read and change a server's settings; a server that changed nothing gets the defaults."""

    def __init__(
        self, database: Database, *, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.database = database
        self.monotonic = monotonic
        #: Each server's chosen language (None: its own), and when it was read or set.
        self._languages: dict[int, tuple[str | None, float]] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings, defaults filled in (its language kept in memory, as read)."""
        settings = _settings(guild_id, await self.database.fetchone(_SELECT, (guild_id,)))
        self._languages[guild_id] = (settings.language, self.monotonic())
        return settings

    async def set(
        self,
        guild_id: int,
        *,
        starting_chips: int | None = None,
        daily_bonus: int | None = None,
        lobby_minutes: int | None = None,
        table_defaults: Mapping[str, Any] | None = None,
        house_cap: int | None = None,
        season_days: int | None = None,
        announce_achievements: bool | None = None,
    ) -> GuildSettings:
        """Change the settings given, keep the others; return the result.

        ``table_defaults`` is stored as given: the tables check it (tables/defaults.py).
        """
        async with self.database.transaction() as connection:
            old = await read_settings(connection, guild_id)
            new = GuildSettings(
                guild_id,
                old.starting_chips if starting_chips is None else starting_chips,
                old.daily_bonus if daily_bonus is None else daily_bonus,
                old.lobby_minutes if lobby_minutes is None else lobby_minutes,
                old.table_defaults if table_defaults is None else dict(table_defaults),
                old.house_cap if house_cap is None else house_cap,
                old.season_days if season_days is None else season_days,
                old.announce_achievements
                if announce_achievements is None
                else announce_achievements,
                old.language,
            )
            for name, value in (
                (tr("Starting chips"), new.starting_chips),
                (tr("The daily bonus"), new.daily_bonus),
                (tr("The daily cap on chips from the house"), new.house_cap),
            ):
                if not 0 <= value <= MAX_CHIPS:
                    raise StorageError(
                        tr(
                            "{name} must be 0 to {most}, not {value}.",
                            name=name,
                            most=MAX_CHIPS,
                            value=value,
                        )
                    )
            low, high = LOBBY_MINUTES_RANGE
            if not low <= new.lobby_minutes <= high:
                raise StorageError(
                    tr("An idle lobby closes after {low} to {high} minutes.", low=low, high=high)
                )
            low, high = SEASON_DAYS_RANGE
            if not low <= new.season_days <= high:
                raise StorageError(
                    tr(
                        "A season lasts {low} to {high} days (0: a calendar month), not {days}.",
                        low=low + 1,
                        high=high,
                        days=new.season_days,
                    )
                )
            await self._write(connection, new)
        return new

    async def set_language(self, guild_id: int, language: str | None) -> GuildSettings:
        """Set the language of the server's channel posts (a Discord locale code, which the cog
        checks), or None for the server's preferred locale; keep the other settings."""
        async with self.database.transaction() as connection:
            new = replace(await read_settings(connection, guild_id), language=language)
            await self._write(connection, new)
        self._languages[guild_id] = (language, self.monotonic())
        return new

    async def language(self, guild_id: int) -> str | None:
        """The language chosen for the server's channel posts (None: the server's own), from
        memory while it is trusted (`LANGUAGE_TTL`): a channel post costs no query."""
        found = self._languages.get(guild_id)
        if found is not None and self.monotonic() - found[1] <= LANGUAGE_TTL:
            return found[0]
        row = await self.database.fetchone(
            "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        language: str | None = None if row is None else row[0]
        self._languages[guild_id] = (language, self.monotonic())
        return language

    def forget_language(self, guild_id: int | None = None) -> None:
        """Read the server's language (every server's: None) from the store again next time."""
        if guild_id is None:
            self._languages.clear()
        else:
            self._languages.pop(guild_id, None)

    async def _write(self, connection: Connection, new: GuildSettings) -> None:
        """Store a server's settings whole, in the caller's transaction."""
        await connection.execute(
            "INSERT INTO guild_settings (guild_id, starting_chips, daily_bonus, lobby_minutes,"
            " table_defaults, house_cap, season_days, announce_achievements, language,"
            " updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET starting_chips = excluded.starting_chips,"
            " daily_bonus = excluded.daily_bonus, lobby_minutes = excluded.lobby_minutes,"
            " table_defaults = excluded.table_defaults, house_cap = excluded.house_cap,"
            " season_days = excluded.season_days,"
            " announce_achievements = excluded.announce_achievements,"
            " language = excluded.language, updated = excluded.updated",
            (
                new.guild_id,
                new.starting_chips,
                new.daily_bonus,
                new.lobby_minutes,
                json.dumps(new.table_defaults),
                new.house_cap,
                new.season_days,
                int(new.announce_achievements),
                new.language,
                self.database.now(),
            ),
        )
