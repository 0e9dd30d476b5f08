"""Achievements earned, once per player and server, and the games each player played (by game
id, so a count is never raised twice by one game): what the achievements subscriber writes in
its transaction (tables/achievements.py) and ``/profile`` reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from storage.database import Database, format_time, parse_time


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's games on one server as the achievements count them."""

    played: int = 0
    won: int = 0
    #: The names of the games the player has played at least once.
    games: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Earned:
    """One achievement a player earned, and when."""

    achievement: str
    earned: datetime
    game_id: int | None


class AchievementRepository:
    """Note games played and achievements earned, each once, and read them back."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def note_game(
        self, *, guild_id: int, user_id: int, game_id: int, game: str, won: bool
    ) -> Tally:
        """Count one game the player played (a game noted already counts once), then the
        player's tally with it."""
        async with self.database.transaction() as connection:
            await connection.execute(
                "INSERT INTO achievement_games (game_id, user_id, guild_id, game, won)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING",
                (game_id, user_id, guild_id, game, int(won)),
            )
            return await self.tally(guild_id, user_id)

    async def tally(self, guild_id: int, user_id: int) -> Tally:
        """The player's games on the server: how many, how many won, which games."""
        rows = await self.database.fetchall(
            "SELECT game, COUNT(*), CAST(SUM(won) AS BIGINT) FROM achievement_games"
            " WHERE guild_id = ? AND user_id = ? GROUP BY game",
            (guild_id, user_id),
        )
        return Tally(
            played=sum(int(row[1]) for row in rows),
            won=sum(int(row[2]) for row in rows),
            games=frozenset(str(row[0]) for row in rows),
        )

    async def earn(
        self,
        *,
        guild_id: int,
        user_id: int,
        achievements: Sequence[str],
        game_id: int | None,
        earned: datetime,
    ) -> list[str]:
        """Keep the achievements the player has not earned yet; those earned now, in the order
        given (an achievement earned already is not earned again)."""
        if not achievements:
            return []
        async with self.database.transaction() as connection:
            rows = await connection.fetchall(
                "INSERT INTO achievements (guild_id, user_id, achievement, earned, game_id)"
                " VALUES "
                + ", ".join("(?, ?, ?, ?, ?)" for _ in achievements)
                + " ON CONFLICT (guild_id, user_id, achievement) DO NOTHING RETURNING achievement",
                [
                    value
                    for key in achievements
                    for value in (guild_id, user_id, key, format_time(earned), game_id)
                ],
            )
        new = {str(row[0]) for row in rows}
        return [key for key in achievements if key in new]

    async def earned(self, guild_id: int, user_id: int) -> list[Earned]:
        """The player's achievements on the server, first earned first."""
        rows = await self.database.fetchall(
            "SELECT achievement, earned, game_id FROM achievements"
            " WHERE guild_id = ? AND user_id = ? ORDER BY earned, achievement",
            (guild_id, user_id),
        )
        return [Earned(str(row[0]), parse_time(row[1]), row[2]) for row in rows]
