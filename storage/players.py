"""Players per server: starting chips on first sight, the daily bonus, admin grants and takes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta

from engine.text import Text, tr
from storage.database import Database, format_time, marks, parse_time
from storage.errors import DailyBonusTakenError, StorageError, TakeTooLargeError
from storage.ledger import (
    PLAYER_COLUMNS,
    Kind,
    change_balance,
    ensure_player,
    find_player,
    player_row,
)
from storage.rows import LedgerEntry, Player
from storage.settings import read_settings

#: Discord's display names are at most 32 characters; keep a little more, never a page.
NAME_CHARS = 100


def _wait_text(delta: timedelta) -> Text:
    minutes = max(1, int(delta.total_seconds() + 59) // 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return tr("{hours} h {minutes} min", hours=hours, minutes=minutes)
    return tr("{minutes} min", minutes=minutes)


class PlayerRepository:
    """A server's players and the chip movements that are not games."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def get_or_create(
        self, guild_id: int, user_id: int, *, name: str | None = None
    ) -> Player:
        """The player, given the server's starting chips the first time they are seen.

        ``name`` is how the player shows on the server now; it is kept for pictures and
        leaderboards (a plain name, at most 100 characters).
        """
        async with self.database.transaction() as connection:
            player = await ensure_player(connection, guild_id, user_id, self.database.now())
            name = None if name is None else name.strip()[:NAME_CHARS] or None
            if name is not None and name != player.name:
                await connection.execute(
                    "UPDATE players SET name = ? WHERE guild_id = ? AND user_id = ?",
                    (name, guild_id, user_id),
                )
                player = replace(player, name=name)
            return player

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The kept names of these players (those the bot has a name for)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self.database.fetchall(
            "SELECT user_id, name FROM players WHERE guild_id = ?"
            f" AND user_id IN ({marks(len(wanted))}) AND name IS NOT NULL",
            (guild_id, *wanted),
        )
        return {row[0]: row[1] for row in rows}

    async def get(self, guild_id: int, user_id: int) -> Player | None:
        """The player, or None if this server has never seen them."""
        row = await self.database.fetchone(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else player_row(row)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The chips the player can stake now (escrowed chips are not part of it)."""
        return (await self.balances(guild_id, (user_id,)))[user_id]

    async def balances(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, int]:
        """The chips each player can stake now, read at once (a player never seen is given the
        starting chips first). A stake is checked again inside the transaction that takes it."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self.database.fetchall(
            "SELECT user_id, balance FROM players WHERE guild_id = ?"
            f" AND user_id IN ({marks(len(wanted))})",
            (guild_id, *wanted),
        )
        found: dict[int, int] = {row[0]: row[1] for row in rows}
        for user_id in wanted:
            if user_id not in found:
                found[user_id] = (await self.get_or_create(guild_id, user_id)).balance
        return found

    async def claim_daily(self, guild_id: int, user_id: int) -> Player:
        """Add the server's daily bonus, once per UTC day."""
        moment = self.database.clock().astimezone(UTC)
        now = format_time(moment)
        async with self.database.transaction() as connection:
            player = await ensure_player(connection, guild_id, user_id, now, lock=True)
            today = moment.date()
            last = player.last_daily
            if last is not None and last.astimezone(UTC).date() >= today:
                tomorrow = datetime.combine(today + timedelta(days=1), time(), UTC)
                raise DailyBonusTakenError(
                    tr(
                        "You have already taken today's daily bonus; the next one is ready in "
                        "{wait} (at midnight UTC).",
                        wait=_wait_text(tomorrow - moment),
                    )
                )
            bonus = (await read_settings(connection, guild_id)).daily_bonus
            await connection.execute(
                "UPDATE players SET last_daily = ? WHERE guild_id = ? AND user_id = ?",
                (now, guild_id, user_id),
            )
            await change_balance(
                connection,
                guild_id=guild_id,
                user_id=user_id,
                amount=bonus,
                kind=Kind.DAILY,
                reason="daily bonus",
                created=now,
            )
            updated = await find_player(connection, guild_id, user_id)
        assert updated is not None
        return updated

    async def grant(
        self, guild_id: int, user_id: int, amount: int, *, admin_id: int, note: str = ""
    ) -> Player:
        """An admin gives chips; the ledger row names the admin."""
        if amount <= 0:
            raise StorageError(tr("A grant must be at least 1 chip."))
        return await self._admin(guild_id, user_id, amount, Kind.GRANT, admin_id, note)

    async def take(
        self, guild_id: int, user_id: int, amount: int, *, admin_id: int, note: str = ""
    ) -> Player:
        """An admin removes chips, never below zero and never from escrow."""
        if amount <= 0:
            raise StorageError(tr("A take must be at least 1 chip."))
        return await self._admin(guild_id, user_id, -amount, Kind.TAKE, admin_id, note)

    async def _admin(
        self, guild_id: int, user_id: int, amount: int, kind: Kind, admin_id: int, note: str
    ) -> Player:
        now = self.database.now()
        async with self.database.transaction() as connection:
            player = await ensure_player(connection, guild_id, user_id, now, lock=True)
            if player.balance + amount < 0:
                raise TakeTooLargeError(user_id, player.balance, -amount)
            reason = f"{kind.value} by admin {admin_id}" + (f": {note}" if note else "")
            await change_balance(
                connection,
                guild_id=guild_id,
                user_id=user_id,
                amount=amount,
                kind=kind,
                reason=reason,
                created=now,
            )
            updated = await find_player(connection, guild_id, user_id)
        assert updated is not None
        return updated

    async def ledger(
        self, guild_id: int, user_id: int | None = None, *, limit: int = 20
    ) -> list[LedgerEntry]:
        """The player's latest balance movements, newest first; with no player, the server's
        latest rows on every account (balances, escrow, the house)."""
        columns = "id, guild_id, account, user_id, game_id, kind, amount, reason, created"
        if user_id is None:
            rows = await self.database.fetchall(
                f"SELECT {columns} FROM ledger WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                (guild_id, limit),
            )
        else:
            rows = await self.database.fetchall(
                f"SELECT {columns} FROM ledger WHERE guild_id = ? AND user_id = ?"
                " AND account = 'player' ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, limit),
            )
        return [
            LedgerEntry(
                id=row[0],
                guild_id=row[1],
                account=row[2],
                user_id=row[3],
                game_id=row[4],
                kind=row[5],
                amount=row[6],
                reason=row[7],
                created=parse_time(row[8]),
            )
            for row in rows
        ]
