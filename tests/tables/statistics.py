"""The leaderboards as the ledger's result rows answered them before the statistics: the oracle
that the statistics subscriber's boards are checked against (tests/tables/test_statistics.py,
tests/tables/test_property.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from storage.database import Database, format_time
from storage.leaderboards import Period
from storage.rows import PlayerStats, Standing
from tests.tables.helpers import GUILD, OTHER_GUILD, PLAYERS, World

#: The games the oracle compares board by board (besides every game at once).
GAMES = ("casino", "no-surrender", "three-card", "paigow", "standard")
BOARD = 100

# ----- the leaderboards as the ledger answered them (before the statistics) ------------------


def _results(
    guild_id: int, period: Period, game: str | None, now: datetime
) -> tuple[str, list[object]]:
    sql = (
        " FROM ledger l JOIN games g ON g.id = l.game_id WHERE l.guild_id = ?"
        " AND l.account = 'player' AND l.kind = 'result'"
    )
    params: list[object] = [guild_id]
    since = period.since(now)
    if since is not None:
        sql += " AND l.created >= ?"
        params.append(format_time(since))
    if game is not None:
        sql += " AND g.game = ?"
        params.append(game)
    return sql, params


def _ranked(rows: list[tuple[int, int]]) -> list[Standing]:
    standings: list[Standing] = []
    for index, (user_id, value) in enumerate(rows):
        tied = standings and standings[-1].value == value
        standings.append(Standing(standings[-1].rank if tied else index + 1, user_id, value))
    return standings


async def ledger_by_net(
    database: Database, guild_id: int, period: Period, game: str | None
) -> list[Standing]:
    body, params = _results(guild_id, period, game, database.clock())
    rows = await database.fetchall(
        f"SELECT l.user_id, CAST(SUM(l.amount) AS BIGINT) AS net{body}"
        " GROUP BY l.user_id ORDER BY net DESC, l.user_id LIMIT ?",
        (*params, BOARD),
    )
    return _ranked([(row[0], row[1]) for row in rows])


async def ledger_by_wins(
    database: Database, guild_id: int, period: Period, game: str | None
) -> list[Standing]:
    body, params = _results(guild_id, period, game, database.clock())
    rows = await database.fetchall(
        f"SELECT l.user_id, COUNT(*) AS won{body} AND l.amount > 0"
        " GROUP BY l.user_id ORDER BY won DESC, l.user_id LIMIT ?",
        (*params, BOARD),
    )
    return _ranked([(row[0], row[1]) for row in rows])


async def ledger_statistics(
    database: Database, guild_id: int, user_id: int, game: str | None
) -> PlayerStats:
    body, params = _results(guild_id, Period.ALL, game, database.clock())
    row = await database.fetchone(
        "SELECT COUNT(*), COUNT(CASE WHEN l.amount > 0 THEN 1 END),"
        " COUNT(CASE WHEN l.amount < 0 THEN 1 END), COUNT(CASE WHEN l.amount = 0 THEN 1 END),"
        " CAST(COALESCE(SUM(l.amount), 0) AS BIGINT),"
        f" COALESCE(MAX(l.amount), 0), COALESCE(MIN(l.amount), 0){body} AND l.user_id = ?",
        (*params, user_id),
    )
    assert row is not None
    return PlayerStats(*row)


async def assert_the_same_as_the_ledgers(
    world: World,
    users: Sequence[int] = (*PLAYERS[:4], -1),
    games: Sequence[str] = GAMES,
    periods: Sequence[Period] = tuple(Period),
) -> None:
    """Every board, for every server, period and game, and every player's record."""
    boards, database = world.storage.leaderboards, world.database
    for guild in (GUILD, OTHER_GUILD):
        for period in periods:
            for game in (None, *games):
                assert await boards.by_net(
                    guild, period=period, game=game, limit=BOARD
                ) == await ledger_by_net(database, guild, period, game), (guild, period, game)
                assert await boards.by_wins(
                    guild, period=period, game=game, limit=BOARD
                ) == await ledger_by_wins(database, guild, period, game), (guild, period, game)
        for user in users:
            for game in (None, *games):
                assert await boards.statistics(guild, user, game=game) == await ledger_statistics(
                    database, guild, user, game
                ), (guild, user, game)
