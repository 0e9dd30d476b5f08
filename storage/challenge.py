"""The daily challenge's store: each day's deal (made once, the same for everyone), the players'
submissions (one per player, day and game), the boards, streaks and the announcing channel."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.text import Term, Text, tr
from storage.database import Database
from storage.errors import StorageError
from storage.outbox import queue_events
from storage.rows import Queued

#: The event a submission queues, made once its streak is known (the tables encode it).
EventOf = Callable[[int], Mapping[str, Any]]


class ChallengeTakenError(StorageError):
    """The player has already played this game's challenge today."""

    def __init__(self, title: str | Text) -> None:
        super().__init__(
            tr(
                "You have already played today's {game} challenge: one submission a day. "
                "See how you did with `/{challenge} {results}`.",
                game=Term(title, "choice") if isinstance(title, str) else title,
                challenge=Term("challenge"),
                results=Term("results"),
            )
        )


@dataclass(frozen=True, slots=True)
class ChallengePlay:
    """One player's submission: their points, the day's par and the setting as stored."""

    user_id: int
    guild_id: int
    points: int
    par: int
    setting: str

    @property
    def score(self) -> int:
        """Points against par: above 0 beat par."""
        return self.points - self.par


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """What a profile shows of a player's challenges."""

    #: Consecutive UTC days played (any game), up to today (or yesterday: today is still open).
    streak: int
    #: The best score against par ever (None: never played).
    best: int | None


def streak_upto(days: list[str], day: str) -> int:
    """Consecutive days among ``days`` (ISO dates) that end at ``day``."""
    played = set(days)
    current, count = dt.date.fromisoformat(day), 0
    while current.isoformat() in played:
        count += 1
        current -= dt.timedelta(days=1)
    return count


class ChallengeRepository:
    """Deals, submissions, boards and streaks of the daily challenge."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def deal(self, day: str, game: str) -> str | None:
        """The day's deal of ``game`` as stored (JSON), or None before it is made."""
        row = await self.database.fetchone(
            "SELECT deal FROM challenge_deals WHERE day = ? AND game = ?", (day, game)
        )
        return None if row is None else str(row[0])

    async def keep_deal(self, day: str, game: str, deal: str) -> str:
        """Keep the day's deal unless another process kept one first; the one kept."""
        async with self.database.transaction() as connection:
            await connection.execute(
                "INSERT INTO challenge_deals (day, game, deal, created) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (day, game) DO NOTHING",
                (day, game, deal, self.database.now()),
            )
            row = await connection.fetchone(
                "SELECT deal FROM challenge_deals WHERE day = ? AND game = ?", (day, game)
            )
        assert row is not None
        return str(row[0])

    async def submit(
        self,
        *,
        day: str,
        game: str,
        title: str,
        user_id: int,
        guild_id: int,
        channel_id: int,
        setting: str,
        points: int,
        par: int,
        event: EventOf,
    ) -> tuple[int, Queued]:
        """Store the player's submission and queue its event in the channel's outbox, in one
        transaction; the player's streak after it and the rows queued. A second submission of
        the day's game raises `ChallengeTakenError` and changes nothing."""
        async with self.database.transaction() as connection:
            rows = await connection.fetchall(
                "INSERT INTO challenge_plays (day, game, user_id, guild_id, channel_id, setting,"
                " points, par, played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (day, game, user_id) DO NOTHING RETURNING user_id",
                (
                    day,
                    game,
                    user_id,
                    guild_id,
                    channel_id,
                    setting,
                    points,
                    par,
                    self.database.now(),
                ),
            )
            if not rows:
                raise ChallengeTakenError(title)
            days = await connection.fetchall(
                "SELECT DISTINCT day FROM challenge_plays WHERE user_id = ? AND day <= ?",
                (user_id, day),
            )
            streak = streak_upto([str(row[0]) for row in days], day)
            queued = await queue_events(
                connection,
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=None,
                events=[event(streak)],
                created=self.database.now(),
            )
        return streak, queued

    async def play(self, day: str, game: str, user_id: int) -> ChallengePlay | None:
        """The player's submission of the day's game, if any."""
        row = await self.database.fetchone(
            "SELECT user_id, guild_id, points, par, setting FROM challenge_plays"
            " WHERE day = ? AND game = ? AND user_id = ?",
            (day, game, user_id),
        )
        return None if row is None else ChallengePlay(*row)

    async def board(self, day: str, game: str, guild_id: int) -> list[ChallengePlay]:
        """The server's submissions of the day's game, best score first (first played first
        among equals)."""
        rows = await self.database.fetchall(
            "SELECT user_id, guild_id, points, par, setting FROM challenge_plays"
            " WHERE day = ? AND game = ? AND guild_id = ?"
            " ORDER BY points - par DESC, played, user_id",
            (day, game, guild_id),
        )
        return [ChallengePlay(*row) for row in rows]

    async def scores(self, day: str, game: str) -> list[int]:
        """Every player's score against par for the day's game, on every server, lowest first
        (no names: other servers' players stay private)."""
        rows = await self.database.fetchall(
            "SELECT points - par FROM challenge_plays WHERE day = ? AND game = ?"
            " ORDER BY points - par",
            (day, game),
        )
        return [int(row[0]) for row in rows]

    async def record(self, user_id: int, today: str) -> ChallengeRecord:
        """The player's current streak (days up to today, or up to yesterday while today is
        still to play) and their best score against par: what ``/profile`` shows."""
        days = await self.database.fetchall(
            "SELECT DISTINCT day FROM challenge_plays WHERE user_id = ? AND day <= ?",
            (user_id, today),
        )
        played = [str(row[0]) for row in days]
        yesterday = (dt.date.fromisoformat(today) - dt.timedelta(days=1)).isoformat()
        streak = streak_upto(played, today) or streak_upto(played, yesterday)
        best = await self.database.fetchone(
            "SELECT MAX(points - par) FROM challenge_plays WHERE user_id = ?", (user_id,)
        )
        return ChallengeRecord(streak, None if best is None or best[0] is None else int(best[0]))

    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Announce the challenge in this channel (None: stop announcing)."""
        if channel_id is None:
            await self.database.execute(
                "DELETE FROM challenge_channels WHERE guild_id = ?", (guild_id,)
            )
            return
        await self.database.execute(
            "INSERT INTO challenge_channels (guild_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id",
            (guild_id, channel_id),
        )

    async def channel(self, guild_id: int) -> int | None:
        """The server's challenge channel, if it has one."""
        row = await self.database.fetchone(
            "SELECT channel_id FROM challenge_channels WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else int(row[0])

    async def to_announce(self, day: str) -> list[tuple[int, int]]:
        """The (server, channel) pairs not yet told of ``day``'s challenge."""
        rows = await self.database.fetchall(
            "SELECT guild_id, channel_id FROM challenge_channels"
            " WHERE announced IS NULL OR announced < ? ORDER BY guild_id",
            (day,),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def announced(self, guild_id: int, day: str) -> bool:
        """Note that the server heard of ``day``'s challenge; False if it had already (another
        process announced it), so each day is announced once per server."""
        changed = await self.database.execute(
            "UPDATE challenge_channels SET announced = ?"
            " WHERE guild_id = ? AND (announced IS NULL OR announced < ?)",
            (day, guild_id, day),
        )
        return bool(changed)
