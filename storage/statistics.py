"""Each player's results per server, UTC day and game, counted once per settled game: what the
leaderboards and a player's record read (``storage.leaderboards``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from storage.database import Database

#: A day's row takes the game's result in: counts, the sum, the best and the worst.
_ADD = (
    "INSERT INTO player_stats"
    " (guild_id, day, game, user_id, played, won, lost, pushed, net, best, worst)"
    " VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, day, game, user_id) DO UPDATE SET"
    " played = player_stats.played + 1,"
    " won = player_stats.won + excluded.won,"
    " lost = player_stats.lost + excluded.lost,"
    " pushed = player_stats.pushed + excluded.pushed,"
    " net = player_stats.net + excluded.net,"
    " best = CASE WHEN excluded.best > player_stats.best"
    " THEN excluded.best ELSE player_stats.best END,"
    " worst = CASE WHEN excluded.worst < player_stats.worst"
    " THEN excluded.worst ELSE player_stats.worst END"
)


def stats_day(moment: datetime) -> str:
    """The UTC day a result counts on, as the rows keep it (the leaderboards' periods start at
    a UTC midnight, so a period is a range of days)."""
    return moment.astimezone(UTC).date().isoformat()


class StatisticsRepository:
    """Counts settled games into each player's statistics."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def count(
        self,
        *,
        guild_id: int,
        game_id: int,
        game: str,
        settled: datetime,
        nets: Mapping[int, int],
    ) -> int:
        """Count each player's net in one settled game on the day it settled; a player already
        counted for the game is not counted again. How many were counted now."""
        if not nets:
            return 0
        users = sorted(nets)
        async with self.database.transaction() as connection:
            # Keyed by game and player: a showdown delivered twice is counted once.
            rows = await connection.fetchall(
                "INSERT INTO player_stats_games (game_id, user_id) VALUES "
                + ", ".join("(?, ?)" for _ in users)
                + " ON CONFLICT DO NOTHING RETURNING user_id",
                [value for user in users for value in (game_id, user)],
            )
            counted = sorted(row[0] for row in rows)
            if not counted:
                return 0
            day = stats_day(settled)
            await connection.executemany(
                _ADD,
                [
                    (
                        guild_id,
                        day,
                        game,
                        user,
                        int(nets[user] > 0),
                        int(nets[user] < 0),
                        int(nets[user] == 0),
                        nets[user],
                        nets[user],
                        nets[user],
                    )
                    for user in counted
                ],
            )
        return len(counted)
