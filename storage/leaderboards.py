"""Leaderboards per server (balance, net winnings over a period, games won) and player records.

Net winnings, games won and a player's record are read from the players' statistics
(``storage.statistics``: a row per player, server, UTC day and game, which the statistics
subscriber keeps from the settled games), not from the ledger's every row; a player's history
of games still comes from the ledger.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, time, timedelta
from enum import Enum

from storage.database import Database, Row, parse_time
from storage.rows import GameStatus, HistoryEntry, PlayerStats, Standing
from storage.statistics import stats_day


class Period(Enum):
    """A leaderboard's span, in UTC calendar terms like the daily bonus."""

    DAY = "day"
    WEEK = "week"
    ALL = "all"

    def since(self, now: datetime) -> datetime | None:
        """The period's first moment (today's midnight, this Monday's), or None for all time."""
        if self is Period.ALL:
            return None
        now = now.astimezone(UTC)
        midnight = datetime.combine(now.date(), time(), UTC)
        return midnight if self is Period.DAY else midnight - timedelta(days=now.weekday())


def _ranked(rows: list[Row]) -> list[Standing]:
    # Equal values share a rank (1, 2, 2, 4), as sports tables do.
    standings: list[Standing] = []
    for index, (user_id, value) in enumerate(rows):
        tied = standings and standings[-1].value == value
        standings.append(Standing(standings[-1].rank if tied else index + 1, user_id, value))
    return standings


class LeaderboardRepository:
    """Read-only views of one server's balances, statistics and games."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def by_balance(self, guild_id: int, *, limit: int = 10) -> list[Standing]:
        """The richest players (chips in escrow are not counted until the game ends)."""
        rows = await self.database.fetchall(
            "SELECT user_id, balance FROM players WHERE guild_id = ?"
            " ORDER BY balance DESC, user_id LIMIT ?",
            (guild_id, limit),
        )
        return _ranked(rows)

    def _statistics(
        self, guild_id: int, period: Period, game: str | None
    ) -> tuple[str, list[object]]:
        # The days of the period: it starts at a UTC midnight, and a row is one UTC day.
        sql = " FROM player_stats WHERE guild_id = ?"
        params: list[object] = [guild_id]
        since = period.since(self.database.clock())
        if since is not None:
            sql += " AND day >= ?"
            params.append(stats_day(since))
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        return sql, params

    async def by_net(
        self,
        guild_id: int,
        *,
        period: Period = Period.ALL,
        game: str | None = None,
        limit: int = 10,
    ) -> list[Standing]:
        """The biggest net winners of the period (settled games only)."""
        body, params = self._statistics(guild_id, period, game)
        rows = await self.database.fetchall(
            f"SELECT user_id, CAST(SUM(net) AS BIGINT) AS total{body}"
            " GROUP BY user_id ORDER BY total DESC, user_id LIMIT ?",
            (*params, limit),
        )
        return _ranked(rows)

    async def by_wins(
        self,
        guild_id: int,
        *,
        period: Period = Period.ALL,
        game: str | None = None,
        limit: int = 10,
    ) -> list[Standing]:
        """The players with the most games won (a won game is one that left them chips up)."""
        body, params = self._statistics(guild_id, period, game)
        rows = await self.database.fetchall(
            f"SELECT user_id, CAST(SUM(won) AS BIGINT) AS total{body}"
            " GROUP BY user_id HAVING SUM(won) > 0 ORDER BY total DESC, user_id LIMIT ?",
            (*params, limit),
        )
        return _ranked(rows)

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10) -> list[HistoryEntry]:
        """The player's latest games, newest first, with what each did to their chips."""
        rows = await self.database.fetchall(
            "SELECT g.id, g.game, g.status, g.created, g.finished,"
            " CAST(COALESCE(SUM(CASE WHEN l.kind = 'result' THEN l.amount END), 0) AS BIGINT),"
            " g.result"
            " FROM ledger l JOIN games g ON g.id = l.game_id"
            " WHERE l.guild_id = ? AND l.user_id = ? AND l.account = 'player'"
            " GROUP BY g.id ORDER BY g.id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [
            HistoryEntry(
                game_id=row[0],
                game=row[1],
                status=GameStatus(row[2]),
                created=parse_time(row[3]),
                finished=None if row[4] is None else parse_time(row[4]),
                net=row[5],
                result=None if row[6] is None else json.loads(row[6]),
            )
            for row in rows
        ]

    async def statistics(
        self, guild_id: int, user_id: int, *, game: str | None = None
    ) -> PlayerStats:
        """The player's record over their settled games (all games, or one)."""
        body, params = self._statistics(guild_id, Period.ALL, game)
        row = await self.database.fetchone(
            "SELECT CAST(COALESCE(SUM(played), 0) AS BIGINT),"
            " CAST(COALESCE(SUM(won), 0) AS BIGINT), CAST(COALESCE(SUM(lost), 0) AS BIGINT),"
            " CAST(COALESCE(SUM(pushed), 0) AS BIGINT), CAST(COALESCE(SUM(net), 0) AS BIGINT),"
            f" COALESCE(MAX(best), 0), COALESCE(MIN(worst), 0){body} AND user_id = ?",
            (*params, user_id),
        )
        assert row is not None
        return PlayerStats(*row)
