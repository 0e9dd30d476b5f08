"""Errors storage raises; like the engine's, every message is a sentence fit to show a player."""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import GameError
from engine.text import Text, Where, Who, tr


class StorageError(GameError):
    """Chips or a game cannot be changed as asked; the message says why."""


class ShortOfChipsError(StorageError):
    """Some players lack the chips a stake or a loss needs; nothing was moved."""

    def __init__(self, needs: Mapping[int, tuple[int, int]]) -> None:
        #: user id -> (chips they have, chips needed).
        self.needs = dict(needs)
        #: user id -> chips missing.
        self.shortfalls = {user: need - have for user, (have, need) in self.needs.items()}
        super().__init__(tr("Not enough chips: {needs}.", needs=_shortfalls(self.needs)))


def _shortfalls(needs: Mapping[int, tuple[int, int]]) -> Text:
    """Who is short and by how much, one player after another, separated by semicolons."""
    parts = [
        tr("{player} has {chips} and needs {needed}", player=Who(user), chips=have, needed=need)
        for user, (have, need) in needs.items()
    ]
    joined = parts[0]
    for part in parts[1:]:
        joined = tr("{earlier}; {later}", earlier=joined, later=part)
    return joined


class TakeTooLargeError(StorageError):
    """An admin asked to take more chips than a player has; nothing was taken."""

    def __init__(self, user_id: int, balance: int, amount: int) -> None:
        self.user_id, self.balance, self.amount = user_id, balance, amount
        super().__init__(
            tr(
                "{player} has only {balance} chips to take, not {amount}.",
                player=Who(user_id),
                balance=balance,
                amount=amount,
            )
        )


class StaleHouseDayError(StorageError):
    """A settlement's cut was reckoned on a day of winnings from the house that has changed
    since (another game paid a player, the cap changed); nothing was moved."""

    def __init__(self) -> None:
        super().__init__(tr("Another game changed what the house owes today; settle again."))


class DailyBonusTakenError(StorageError):
    """The daily bonus was already taken this UTC day."""


class GameStateError(StorageError):
    """The game is not in a state that allows the change (settled, refunded or unknown)."""


class StaleSnapshotError(StorageError):
    """A table snapshot was saved over a newer one."""


class SeatTakenError(StorageError):
    """A player would sit at two tables of one server; nothing was saved."""

    def __init__(self, user_id: int, channel_id: int) -> None:
        self.user_id = user_id
        #: The channel of the table where the player already sits.
        self.channel_id = channel_id
        super().__init__(
            tr(
                "You already sit at a table in {channel}; a player sits at one table per server.",
                channel=Where(channel_id),
            )
        )


class MigrationError(Exception):
    """The database file is from a newer bot, or a migration file is malformed."""
