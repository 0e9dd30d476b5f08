"""Errors storage raises; like the engine's, every message is a sentence fit to show a player."""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import GameError


class StorageError(GameError):
    """Chips or a game cannot be changed as asked; the message says why."""


class ShortOfChipsError(StorageError):
    """Some players lack the chips a stake or a loss needs; nothing was moved."""

    def __init__(self, message: str, shortfalls: Mapping[int, int]) -> None:
        super().__init__(message)
        #: user id -> chips missing.
        self.shortfalls = dict(shortfalls)


class DailyBonusTakenError(StorageError):
    """The daily bonus was already taken this UTC day."""


class GameStateError(StorageError):
    """The game is not in a state that allows the change (settled, refunded or unknown)."""


class StaleSnapshotError(StorageError):
    """A table snapshot was saved over a newer one."""


class SeatTakenError(StorageError):
    """A player would sit at two tables of one server; nothing was saved."""

    def __init__(self, user_id: int, channel_id: int) -> None:
        super().__init__(
            f"You already sit at a table in <#{channel_id}>; a player sits at one table per server."
        )
        self.user_id = user_id
        #: The channel of the table where the player already sits.
        self.channel_id = channel_id


class MigrationError(Exception):
    """The database file is from a newer bot, or a migration file is malformed."""
