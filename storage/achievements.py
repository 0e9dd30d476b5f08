"""Achievements earned, once per player and server, and the games each player played (by game
id, so a count is never raised twice by one game): what the achievements subscriber writes in
its transaction (tables/achievements.py) and ``/profile`` reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from storage.database import Database, format_time, marks, parse_time


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

    async def note_games(
        self, *, guild_id: int, game_id: int, game: str, won: Mapping[int, bool]
    ) -> dict[int, Tally]:
        """Count one game each player of ``won`` played (a game noted already counts once),
        then each player's tally with it: two statements for the table."""
        if not won:
            return {}
        users = sorted(won)
        async with self.database.transaction() as connection:
            await connection.execute(
                "INSERT INTO achievement_games (game_id, user_id, guild_id, game, won) VALUES "
                + ", ".join("(?, ?, ?, ?, ?)" for _ in users)
                + " ON CONFLICT (game_id, user_id) DO NOTHING",
                [
                    value
                    for user in users
                    for value in (game_id, user, guild_id, game, int(won[user]))
                ],
            )
            return await self.tallies(guild_id, users)

    async def tally(self, guild_id: int, user_id: int) -> Tally:
        """The player's games on the server: how many, how many won, which games."""
        return (await self.tallies(guild_id, [user_id]))[user_id]

    async def tallies(self, guild_id: int, users: Sequence[int]) -> dict[int, Tally]:
        """Each player's games on the server (`tally`), read at once."""
        rows = await self.database.fetchall(
            "SELECT user_id, game, COUNT(*), CAST(SUM(won) AS BIGINT) FROM achievement_games"
            f" WHERE guild_id = ? AND user_id IN ({marks(len(users))}) GROUP BY user_id, game",
            (guild_id, *users),
        )
        tallies: dict[int, Tally] = {}
        for user in users:
            mine = [row for row in rows if row[0] == user]
            tallies[user] = Tally(
                played=sum(int(row[2]) for row in mine),
                won=sum(int(row[3]) for row in mine),
                games=frozenset(str(row[1]) for row in mine),
            )
        return tallies

    async def earn(
        self,
        *,
        guild_id: int,
        achievements: Mapping[int, Sequence[str]],
        game_id: int | None,
        earned: datetime,
    ) -> dict[int, list[str]]:
        """Keep the achievements (by player) the players have not earned yet, in one statement;
        those earned now by each player, in the order given (an achievement earned already is
        not earned again)."""
        wanted = [(user, key) for user, keys in achievements.items() for key in keys]
        if not wanted:
            return {}
        async with self.database.transaction() as connection:
            rows = await connection.fetchall(
                "INSERT INTO achievements (guild_id, user_id, achievement, earned, game_id)"
                " VALUES "
                + ", ".join("(?, ?, ?, ?, ?)" for _ in wanted)
                + " ON CONFLICT (guild_id, user_id, achievement) DO NOTHING"
                " RETURNING user_id, achievement",
                [
                    value
                    for user, key in wanted
                    for value in (guild_id, user, key, format_time(earned), game_id)
                ],
            )
        new = {(int(row[0]), str(row[1])) for row in rows}
        return {
            user: [key for key in keys if (user, key) in new]
            for user, keys in achievements.items()
            if any((user, key) in new for key in keys)
        }

    async def earned(self, guild_id: int, user_id: int) -> list[Earned]:
        """The player's achievements on the server, first earned first."""
        rows = await self.database.fetchall(
            "SELECT achievement, earned, game_id FROM achievements"
            " WHERE guild_id = ? AND user_id = ? ORDER BY earned, achievement",
            (guild_id, user_id),
        )
        return [Earned(str(row[0]), parse_time(row[1]), row[2]) for row in rows]
