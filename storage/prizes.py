"""The daily challenge's prizes: a server's prize for the day's best score, and each (server,
day, game) paid once, its chips a ledger ``grant`` in the same transaction as the row that says
it was paid (docs/architecture.md, "The daily challenge")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.text import tr
from storage.database import Database
from storage.errors import StorageError
from storage.ledger import Kind, change_balance, ensure_player

#: The largest prize a server may set (a bigger number is a typing slip).
MAX_PRIZE: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class Prize:
    """A server's prize for each day's best: its chips, paid for the days from ``since`` on."""

    guild_id: int
    chips: int
    since: str


@dataclass(frozen=True, slots=True)
class PrizeDue:
    """A day's game a server's players played whose prize is not paid yet."""

    guild_id: int
    day: str
    game: str


@dataclass(frozen=True, slots=True)
class Winner:
    """One winner of a day's prize and the chips they were paid."""

    user_id: int
    chips: int


def split_prize(chips: int, tied: Sequence[int]) -> list[Winner]:
    """The prize shared evenly among the tied best (``tied``, earliest submission first); the
    chips left over go one each to the earliest. A winner whose share is 0 (more tied players
    than chips) is not paid."""
    share, left = divmod(chips, len(tied))
    paid = [Winner(user, share + (1 if place < left else 0)) for place, user in enumerate(tied)]
    return [winner for winner in paid if winner.chips > 0]


class PrizeRepository:
    """Set a server's prize, find the days due and pay each once."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def set(self, guild_id: int, chips: int, today: str) -> Prize | None:
        """Set the server's prize (0: none); a prize newly set is paid from ``today`` on, one
        changed keeps its first day. A number out of range raises `StorageError`."""
        if not 0 <= chips <= MAX_PRIZE:
            raise StorageError(
                tr(
                    "A challenge prize is 0 (none) to {most} chips, not {chips}.",
                    most=MAX_PRIZE,
                    chips=chips,
                )
            )
        if chips == 0:
            await self.database.execute(
                "DELETE FROM challenge_prizes WHERE guild_id = ?", (guild_id,)
            )
            return None
        await self.database.execute(
            "INSERT INTO challenge_prizes (guild_id, chips, since) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET chips = excluded.chips",
            (guild_id, chips, today),
        )
        return await self.get(guild_id)

    async def get(self, guild_id: int) -> Prize | None:
        """The server's prize, or None (the default: no prize)."""
        row = await self.database.fetchone(
            "SELECT guild_id, chips, since FROM challenge_prizes WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else Prize(int(row[0]), int(row[1]), str(row[2]))

    async def due(self, today: str) -> list[PrizeDue]:
        """Each day's game (before ``today``) that a server with a prize played since it set it
        and whose prize is not paid yet."""
        rows = await self.database.fetchall(
            "SELECT DISTINCT p.guild_id, p.day, p.game FROM challenge_plays p"
            " JOIN challenge_prizes z ON z.guild_id = p.guild_id"
            " LEFT JOIN challenge_awards a"
            " ON a.guild_id = p.guild_id AND a.day = p.day AND a.game = p.game"
            " WHERE p.day >= z.since AND p.day < ? AND a.guild_id IS NULL"
            " ORDER BY p.day, p.guild_id, p.game",
            (today,),
        )
        return [PrizeDue(int(row[0]), str(row[1]), str(row[2])) for row in rows]

    async def pay(self, due: PrizeDue, *, reason: str) -> list[Winner] | None:
        """Pay the day's prize to the server's best score against par, in one transaction with
        the row that marks it paid; None when it was paid already (another process, or before
        a restart) or the server has no prize any more."""
        now = self.database.now()
        async with self.database.transaction() as connection:
            prize = await connection.fetchone(
                "SELECT chips FROM challenge_prizes WHERE guild_id = ?", (due.guild_id,)
            )
            if prize is None:
                return None
            claimed = await connection.fetchall(
                "INSERT INTO challenge_awards (guild_id, day, game, prize, paid)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, day, game) DO NOTHING"
                " RETURNING guild_id",
                (due.guild_id, due.day, due.game, int(prize[0]), now),
            )
            if not claimed:
                return None
            board = await connection.fetchall(
                "SELECT user_id, points - par FROM challenge_plays"
                " WHERE day = ? AND game = ? AND guild_id = ?"
                " ORDER BY points - par DESC, played, user_id",
                (due.day, due.game, due.guild_id),
            )
            best = board[0][1] if board else None
            tied = [int(user) for user, score in board if score == best]
            winners = split_prize(int(prize[0]), tied) if tied else []
            for winner in winners:
                await ensure_player(connection, due.guild_id, winner.user_id, now, lock=True)
                await change_balance(
                    connection,
                    guild_id=due.guild_id,
                    user_id=winner.user_id,
                    amount=winner.chips,
                    kind=Kind.GRANT,
                    reason=reason,
                    created=now,
                )
            if winners:
                await connection.executemany(
                    "INSERT INTO challenge_winners (guild_id, day, game, user_id, chips)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(due.guild_id, due.day, due.game, w.user_id, w.chips) for w in winners],
                )
        return winners

    async def winners(self, guild_id: int, day: str, game: str) -> list[Winner]:
        """Who won the server's prize of the day's game (earliest submission first), if it
        was paid."""
        rows = await self.database.fetchall(
            "SELECT w.user_id, w.chips FROM challenge_winners w JOIN challenge_plays p"
            " ON p.day = w.day AND p.game = w.game AND p.user_id = w.user_id"
            " WHERE w.guild_id = ? AND w.day = ? AND w.game = ? ORDER BY p.played, w.user_id",
            (guild_id, day, game),
        )
        return [Winner(int(row[0]), int(row[1])) for row in rows]
