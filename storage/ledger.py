"""The ledger's primitives, run inside a transaction: every chip change is a row."""

from __future__ import annotations

import sqlite3
from enum import Enum

import aiosqlite

from storage.database import parse_time
from storage.rows import Player
from storage.settings import read_settings


class Account(Enum):
    """Who holds the chips a ledger row moves."""

    PLAYER = "player"
    ESCROW = "escrow"
    HOUSE = "house"


class Kind(Enum):
    """Why chips moved; only the first four bring chips into or out of a server."""

    STARTING = "starting"
    DAILY = "daily"
    GRANT = "grant"
    TAKE = "take"
    ESCROW = "escrow"
    RELEASE = "release"
    RESULT = "result"
    REFUND = "refund"


MINTING_KINDS = (Kind.STARTING, Kind.DAILY, Kind.GRANT, Kind.TAKE)

PLAYER_COLUMNS = "guild_id, user_id, balance, created, last_daily, name"


def player_row(row: sqlite3.Row) -> Player:
    """A `Player` from a row of `PLAYER_COLUMNS`."""
    last_daily = None if row[4] is None else parse_time(row[4])
    return Player(row[0], row[1], row[2], parse_time(row[3]), last_daily, row[5])


async def post(
    connection: aiosqlite.Connection,
    *,
    guild_id: int,
    account: Account,
    user_id: int | None,
    game_id: int | None,
    kind: Kind,
    amount: int,
    reason: str,
    created: str,
) -> None:
    """Write one ledger row (zero amounts only for results, which record who played)."""
    if amount == 0 and kind is not Kind.RESULT:
        return
    await connection.execute(
        "INSERT INTO ledger (guild_id, account, user_id, game_id, kind, amount, reason, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, account.value, user_id, game_id, kind.value, amount, reason, created),
    )


async def change_balance(
    connection: aiosqlite.Connection,
    *,
    guild_id: int,
    user_id: int,
    amount: int,
    kind: Kind,
    reason: str,
    created: str,
    game_id: int | None = None,
) -> None:
    """Move chips on a player's balance and record the row; the schema refuses a negative one."""
    if amount:
        await connection.execute(
            "UPDATE players SET balance = balance + ? WHERE guild_id = ? AND user_id = ?",
            (amount, guild_id, user_id),
        )
    await post(
        connection,
        guild_id=guild_id,
        account=Account.PLAYER,
        user_id=user_id,
        game_id=game_id,
        kind=kind,
        amount=amount,
        reason=reason,
        created=created,
    )


async def find_player(
    connection: aiosqlite.Connection, guild_id: int, user_id: int
) -> Player | None:
    """The player, or None if this server has never seen them."""
    async with connection.execute(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else player_row(row)


async def ensure_player(
    connection: aiosqlite.Connection, guild_id: int, user_id: int, created: str
) -> Player:
    """The player, created on first sight with the server's starting chips as a ledger row."""
    player = await find_player(connection, guild_id, user_id)
    if player is not None:
        return player
    settings = await read_settings(connection, guild_id)
    await connection.execute(
        "INSERT INTO players (guild_id, user_id, balance, created) VALUES (?, ?, 0, ?)",
        (guild_id, user_id, created),
    )
    await change_balance(
        connection,
        guild_id=guild_id,
        user_id=user_id,
        amount=settings.starting_chips,
        kind=Kind.STARTING,
        reason="starting chips",
        created=created,
    )
    player = await find_player(connection, guild_id, user_id)
    assert player is not None
    return player
