"""The house's side of the books: the daily cap on what a player may net from the house's
computers, checked and recorded inside a settlement, and the house's net per day for admins."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta

from storage.database import Connection, Database, Row, format_time, marks
from storage.errors import StaleHouseDayError
from storage.rows import HouseDay, HouseNet
from storage.settings import DEFAULT_HOUSE_CAP, read_settings


def day_start(moment: datetime) -> datetime:
    """Midnight UTC of the moment's day (the cap's day, like the daily bonus's)."""
    return datetime.combine(moment.astimezone(UTC).date(), time(), UTC)


async def _won_since(
    connection: Connection | Database, guild_id: int, user_ids: Iterable[int], since: datetime
) -> dict[int, int]:
    users = sorted(set(user_ids))
    if not users:
        return {}
    rows = await connection.fetchall(
        "SELECT user_id, CAST(SUM(amount) AS BIGINT) FROM house_nets WHERE guild_id = ?"
        f" AND user_id IN ({marks(len(users))}) AND created >= ? GROUP BY user_id",
        (guild_id, *users, format_time(since)),
    )
    return {row[0]: row[1] for row in rows}


async def record_house_nets(
    connection: Connection,
    *,
    guild_id: int,
    game_id: int,
    day: HouseDay,
    nets: Mapping[int, int],
    moment: datetime,
) -> None:
    """Record what each player netted against the house's computers in a game, whose cut was
    reckoned on ``day`` (the cap and the day's winnings as read before the settlement).

    Inside the settlement's transaction, with the players' rows locked: two games settling for
    one player (at two tables, in two processes) read each other's rows, and one reckoned on a
    day that has changed since (another game paid the player, the cap was changed, midnight
    passed) raises `StaleHouseDayError` with nothing written, to be reckoned again.
    """
    cap = (await read_settings(connection, guild_id)).house_cap
    won = await _won_since(connection, guild_id, day.won, day_start(moment))
    if cap != day.cap or any(won.get(user, 0) != amount for user, amount in day.won.items()):
        raise StaleHouseDayError()
    nets = {user: amount for user, amount in nets.items() if amount}
    if not nets:
        return
    await connection.executemany(
        "INSERT INTO house_nets (game_id, guild_id, user_id, amount, created)"
        " VALUES (?, ?, ?, ?, ?)",
        [(game_id, guild_id, user, amount, format_time(moment)) for user, amount in nets.items()],
    )


def house_day_sql(guild_id: int, users: Sequence[int], since: datetime) -> tuple[str, list[object]]:
    """One query for a `HouseDay`: rows of (kind, amount, user), the cap's and each player's
    winnings since ``since``; `house_day_of` reads them. Other reads join it with UNION ALL."""
    sql = (
        "SELECT 'cap' AS kind, house_cap AS amount, CAST(NULL AS BIGINT) AS user_id"
        " FROM guild_settings WHERE guild_id = ?"
    )
    params: list[object] = [guild_id]
    if users:
        sql += (
            " UNION ALL SELECT 'won', CAST(SUM(amount) AS BIGINT), user_id FROM house_nets"
            f" WHERE guild_id = ? AND user_id IN ({marks(len(users))}) AND created >= ?"
            " GROUP BY user_id"
        )
        params += [guild_id, *users, format_time(since)]
    return sql, params


def house_day_of(users: Sequence[int], rows: Iterable[Row]) -> HouseDay:
    """The `HouseDay` in the rows of `house_day_sql` (others' rows passed by)."""
    cap, won = DEFAULT_HOUSE_CAP, dict.fromkeys(users, 0)
    for kind, amount, user_id, *_ in rows:
        if kind == "cap":
            cap = DEFAULT_HOUSE_CAP if amount is None else int(amount)
        elif kind == "won":
            won[int(user_id)] = int(amount)
    return HouseDay(cap, won)


class HouseRepository:
    """Read the house's cap and winnings for the tables and for admins."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def today(self, guild_id: int, user_ids: Iterable[int]) -> HouseDay:
        """The server's cap and what each of these players netted from the house's computers
        today (read before a settlement, which checks it is still so in its transaction), with
        one statement."""
        users = sorted(set(user_ids))
        sql, params = house_day_sql(guild_id, users, day_start(self.database.clock()))
        return house_day_of(users, await self.database.fetchall(sql, params))

    async def by_day(self, guild_id: int, *, days: int = 7) -> list[HouseNet]:
        """The house's net chips on each of the last ``days`` UTC days, today first (days
        without a game at 0), and the part of it at tables with computers."""
        today = day_start(self.database.clock())
        since = format_time(today - timedelta(days=days - 1))
        # Stored times are fixed-width ISO 8601 UTC text: the first ten characters are the day.
        ledger = await self.database.fetchall(
            "SELECT substr(created, 1, 10) AS day, CAST(SUM(amount) AS BIGINT) FROM ledger"
            " WHERE guild_id = ? AND account = 'house' AND created >= ? GROUP BY day",
            (guild_id, since),
        )
        computers = await self.database.fetchall(
            "SELECT substr(created, 1, 10) AS day, CAST(SUM(amount) AS BIGINT) FROM house_nets"
            " WHERE guild_id = ? AND created >= ? GROUP BY day",
            (guild_id, since),
        )
        nets = {date.fromisoformat(day): amount for day, amount in ledger}
        # house_nets holds the players' side: the house's is its opposite.
        paid = {date.fromisoformat(day): -amount for day, amount in computers}
        return [
            HouseNet(day, nets.get(day, 0), paid.get(day, 0))
            for day in (today.date() - timedelta(days=back) for back in range(days))
        ]
