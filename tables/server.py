"""A server's settings as the tables and the cogs use them, read once per action through one
accessor (``TableManager.server``): its table defaults, and the policies it holds every table
to (its cap on computers, its lobbies' idle time)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from storage.rows import GuildSettings
from tables.config import TableConfig, computer_cap
from tables.defaults import TableDefaults


@dataclass(frozen=True, slots=True)
class Server:
    """One reading of a server's settings, with its table defaults checked."""

    settings: GuildSettings
    defaults: TableDefaults

    @classmethod
    def of(cls, settings: GuildSettings) -> Server:
        """The settings as read; ``GameError`` if their table defaults cannot be read."""
        return cls(settings, TableDefaults.from_json(settings.table_defaults))

    def govern(self, config: TableConfig) -> TableConfig:
        """The table's settings under the server's policies as they are now: its cap on
        computers and its lobbies' idle time. The host's own choices (game, ante, options)
        stay as chosen."""
        return replace(
            config,
            computer_seats=computer_cap(self.defaults),
            lobby_seconds=self.settings.lobby_minutes * 60,
        )
