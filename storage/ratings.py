"""Players' ratings per server and game, the rating seasons and their final standings.

The rating rules (the model, the number shown, how a new season softens the ratings) belong to
the tables (``tables.ratings``) and come in as functions; this module keeps the rows, rates a
game once however often its showdown comes, and rolls a season over once however many
processes see its end (the latest season's row is locked, and the next number is unique).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, time, timedelta

from storage.database import Connection, Database, format_time, marks, parse_time
from storage.rows import PlayerRating, Season, SeasonStanding, Skill
from storage.settings import read_settings

#: The new ratings of a game's people from their ratings before it (None: never rated).
RateGame = Callable[[Mapping[int, Skill | None]], Mapping[int, Skill]]
#: A rating as the next season starts it.
Soften = Callable[[Skill], Skill]

_LATEST = (
    "SELECT number, starts, ends FROM rating_seasons WHERE guild_id = ?"
    " ORDER BY number DESC LIMIT 1 FOR UPDATE"
)


def season_start(now: datetime, days: int) -> datetime:
    """Where a server's first season starts: this month's first day, or today (UTC midnight)."""
    today = now.astimezone(UTC).date()
    first = today.replace(day=1) if days == 0 else today
    return datetime.combine(first, time(), UTC)


def season_end(starts: datetime, days: int) -> datetime:
    """Where a season that starts at ``starts`` ends: the first of the next month (``days`` 0),
    or ``days`` days later."""
    if days:
        return starts + timedelta(days=days)
    month = starts.astimezone(UTC).date().replace(day=1)
    following = (month + timedelta(days=32)).replace(day=1)
    return datetime.combine(following, time(), UTC)


def ranked(shown: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(rank, user, shown) for (user, shown) pairs, best first; equal numbers share a rank."""
    ordered = sorted(shown, key=lambda pair: (-pair[1], pair[0]))
    ranks: list[tuple[int, int, int]] = []
    for index, (user, value) in enumerate(ordered):
        tied = ranks and ranks[-1][2] == value
        ranks.append((ranks[-1][0] if tied else index + 1, user, value))
    return ranks


class RatingRepository:
    """Rates settled games, rolls the seasons over and reads the ratings and standings."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def season(self, guild_id: int, *, soften: Soften) -> Season:
        """The server's season under way, after rolling over the one whose end has passed
        (its final standings kept, every rating softened): the first read or rating after a
        season's end does it, once."""
        async with self.database.transaction() as connection:
            return await self._current(connection, guild_id, soften)

    async def rate(
        self,
        *,
        guild_id: int,
        game_id: int,
        game: str,
        users: Sequence[int],
        rate: RateGame,
        soften: Soften,
    ) -> bool:
        """Rate one settled game between ``users`` in the season under way; False (and nothing
        changed) if the game was rated before."""
        async with self.database.transaction() as connection:
            season = await self._current(connection, guild_id, soften)
            # Noted in the rating's own transaction: a showdown delivered twice is rated once.
            noted = await connection.fetchall(
                "INSERT INTO rated_games (game_id, guild_id, season, rated) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING RETURNING game_id",
                (game_id, guild_id, season.number, self.database.now()),
            )
            if not noted:
                return False
            ordered = sorted(users)
            rows = await connection.fetchall(
                "SELECT user_id, mu, sigma, shown FROM ratings WHERE guild_id = ? AND game = ?"
                f" AND user_id IN ({marks(len(ordered))}) FOR UPDATE",
                (guild_id, game, *ordered),
            )
            before: dict[int, Skill | None] = dict.fromkeys(ordered)
            for user, mu, sigma, shown in rows:
                before[user] = Skill(float(mu), float(sigma), shown)
            after = rate(before)
            await connection.executemany(
                "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, shown, games,"
                " season_games, updated) VALUES (?, ?, ?, ?, ?, ?, 1, 1, ?)"
                " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, shown = excluded.shown, games = ratings.games + 1,"
                " season_games = ratings.season_games + 1, updated = excluded.updated",
                [
                    (guild_id, game, user, skill.mu, skill.sigma, skill.shown, self.database.now())
                    for user, skill in sorted(after.items())
                ],
            )
        return True

    async def _current(self, connection: Connection, guild_id: int, soften: Soften) -> Season:
        now = self.database.clock()
        days = (await read_settings(connection, guild_id)).season_days
        row = await connection.fetchone(_LATEST, (guild_id,))
        if row is None:
            # The server's first: a second process creating it too finds it made.
            await connection.execute(
                "INSERT INTO rating_seasons (guild_id, number, starts) VALUES (?, 1, ?)"
                " ON CONFLICT DO NOTHING",
                (guild_id, format_time(season_start(now, days))),
            )
            row = await connection.fetchone(_LATEST, (guild_id,))
            assert row is not None
        number, starts = row[0], parse_time(row[1])
        # The length as set now: a shorter one ends the season under way sooner.
        ends = season_end(starts, days)
        if now < ends:
            return Season(guild_id, number, starts, None, ends)
        # The next season is the one that holds now: seasons nobody read or played are skipped.
        following = ends
        while season_end(following, days) <= now:
            following = season_end(following, days)
        claimed = await connection.fetchall(
            "INSERT INTO rating_seasons (guild_id, number, starts) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING RETURNING number",
            (guild_id, number + 1, format_time(following)),
        )
        if claimed:
            await self._close(connection, guild_id, number, ends, soften)
        row = await connection.fetchone(_LATEST, (guild_id,))
        assert row is not None
        starts = parse_time(row[1])
        return Season(guild_id, row[0], starts, None, season_end(starts, days))

    async def _close(
        self, connection: Connection, guild_id: int, number: int, ends: datetime, soften: Soften
    ) -> None:
        """End season ``number``: its final standings kept, every rating softened."""
        await connection.execute(
            "UPDATE rating_seasons SET ends = ? WHERE guild_id = ? AND number = ?",
            (format_time(ends), guild_id, number),
        )
        rows = await connection.fetchall(
            "SELECT game, user_id, mu, sigma, shown, season_games FROM ratings"
            " WHERE guild_id = ? ORDER BY game, user_id FOR UPDATE",
            (guild_id,),
        )
        by_game: dict[str, list[tuple[int, int]]] = {}
        played: dict[tuple[str, int], int] = {}
        for game, user, _, _, shown, season_games in rows:
            if season_games:
                by_game.setdefault(game, []).append((user, shown))
                played[game, user] = season_games
        await connection.executemany(
            "INSERT INTO season_standings (guild_id, season, game, user_id, rank, shown, games)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (guild_id, number, game, user, rank, shown, played[game, user])
                for game, standings in sorted(by_game.items())
                for rank, user, shown in ranked(standings)
            ],
        )
        softened = [
            (soften(Skill(float(mu), float(sigma), shown)), guild_id, game, user)
            for game, user, mu, sigma, shown, _ in rows
        ]
        await connection.executemany(
            "UPDATE ratings SET mu = ?, sigma = ?, shown = ?, season_games = 0"
            " WHERE guild_id = ? AND game = ? AND user_id = ?",
            [(s.mu, s.sigma, s.shown, guild, game, user) for s, guild, game, user in softened],
        )

    async def player(
        self, guild_id: int, user_id: int, *, game: str | None = None
    ) -> list[PlayerRating]:
        """The player's rating in each game they were rated in (or in ``game``), highest
        first, with their rank in the season under way (a plain read: call `season` first so
        that a season whose end has passed is rolled over)."""
        sql = (
            "SELECT r.game, r.shown, r.games, r.season_games, r.mu, r.sigma,"
            " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id"
            " AND o.game = r.game AND o.season_games > 0 AND o.shown > r.shown)"
            " FROM ratings r WHERE r.guild_id = ? AND r.user_id = ?"
        )
        params: list[object] = [guild_id, user_id]
        if game is not None:
            sql += " AND r.game = ?"
            params.append(game)
        rows = await self.database.fetchall(sql + " ORDER BY r.shown DESC, r.game", params)
        return [
            PlayerRating(
                game=row[0],
                user_id=user_id,
                shown=row[1],
                games=row[2],
                season_games=row[3],
                rank=row[6] + 1 if row[3] else None,
                mu=float(row[4]),
                sigma=float(row[5]),
            )
            for row in rows
        ]

    async def standings(self, guild_id: int, game: str, *, limit: int = 10) -> list[PlayerRating]:
        """The season under way in one game: its rated players, highest first (ties share a
        rank)."""
        rows = await self.database.fetchall(
            "SELECT user_id, shown, games, season_games, mu, sigma FROM ratings"
            " WHERE guild_id = ? AND game = ? AND season_games > 0"
            " ORDER BY shown DESC, user_id LIMIT ?",
            (guild_id, game, limit),
        )
        ranks = ranked([(row[0], row[1]) for row in rows])
        return [
            PlayerRating(game, row[0], row[1], row[2], row[3], rank, float(row[4]), float(row[5]))
            for row, (rank, _, _) in zip(rows, ranks, strict=True)
        ]

    async def past(self, guild_id: int, number: int) -> Season | None:
        """One of the server's seasons, by number (None: no such season yet)."""
        row = await self.database.fetchone(
            "SELECT number, starts, ends FROM rating_seasons WHERE guild_id = ? AND number = ?",
            (guild_id, number),
        )
        if row is None:
            return None
        ends = _moment(row[2])
        return Season(guild_id, row[0], parse_time(row[1]), ends, ends)

    async def final_standings(
        self, guild_id: int, number: int, game: str, *, limit: int = 10
    ) -> list[SeasonStanding]:
        """A finished season's final standings in one game, as its end kept them."""
        rows = await self.database.fetchall(
            "SELECT rank, user_id, shown, games FROM season_standings"
            " WHERE guild_id = ? AND season = ? AND game = ? ORDER BY rank, user_id LIMIT ?",
            (guild_id, number, game, limit),
        )
        return [SeasonStanding(*row) for row in rows]

    async def finished_games(self, guild_id: int, number: int) -> dict[str, int]:
        """How many players each game's final standings of a finished season hold."""
        rows = await self.database.fetchall(
            "SELECT game, CAST(COUNT(*) AS BIGINT) FROM season_standings"
            " WHERE guild_id = ? AND season = ? GROUP BY game ORDER BY game",
            (guild_id, number),
        )
        return {row[0]: row[1] for row in rows}


def _moment(text: str | None) -> datetime | None:
    return None if text is None else parse_time(text)
