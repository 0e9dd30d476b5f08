"""The ledger's primitives, run inside a transaction: every chip change is a row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from storage.database import Connection, Row, marks, parse_time
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


def player_row(row: Row) -> Player:
    """A `Player` from a row of `PLAYER_COLUMNS`."""
    last_daily = None if row[4] is None else parse_time(row[4])
    return Player(row[0], row[1], row[2], parse_time(row[3]), last_daily, row[5])


async def post(
    connection: Connection,
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
    entry = Entry(account, user_id, amount, kind, reason)
    await post_all(connection, guild_id=guild_id, game_id=game_id, entries=[entry], created=created)


@dataclass(frozen=True, slots=True)
class Entry:
    """One ledger row to write with others of the same game and moment (`post_all`)."""

    account: Account
    user_id: int | None
    amount: int
    kind: Kind
    reason: str


async def post_all(
    connection: Connection,
    *,
    guild_id: int,
    game_id: int | None,
    entries: Sequence[Entry],
    created: str,
) -> None:
    """Write ledger rows in order with one statement (zero amounts only for results, as `post`)."""
    rows = [
        (guild_id, e.account.value, e.user_id, game_id, e.kind.value, e.amount, e.reason, created)
        for e in entries
        if e.amount or e.kind is Kind.RESULT
    ]
    if rows:
        await connection.executemany(
            "INSERT INTO ledger"
            " (guild_id, account, user_id, game_id, kind, amount, reason, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


async def move_balances(
    connection: Connection, *, guild_id: int, amounts: Mapping[int, int]
) -> None:
    """Add to players' balances with one statement; their ledger rows are the caller's to write
    in the same transaction (`post_all`). The schema refuses a negative balance."""
    rows = [(amount, guild_id, user) for user, amount in sorted(amounts.items()) if amount]
    if rows:
        await connection.executemany(
            "UPDATE players SET balance = balance + ? WHERE guild_id = ? AND user_id = ?", rows
        )


async def change_balance(
    connection: Connection,
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
    await move_balances(connection, guild_id=guild_id, amounts={user_id: amount})
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
    connection: Connection, guild_id: int, user_id: int, *, lock: bool = False
) -> Player | None:
    """The player, or None if this server has never seen them.

    ``lock``: keep the row locked until the transaction ends, for a change that depends on
    what was read (the daily bonus, a take), so two processes cannot both act on one reading.
    """
    row = await connection.fetchone(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?"
        + (" FOR UPDATE" if lock else ""),
        (guild_id, user_id),
    )
    return None if row is None else player_row(row)


async def ensure_player(
    connection: Connection, guild_id: int, user_id: int, created: str, *, lock: bool = False
) -> Player:
    """The player, created on first sight with the server's starting chips as a ledger row.

    ``lock`` as for `find_player`.
    """
    player = await find_player(connection, guild_id, user_id, lock=lock)
    if player is not None:
        return player
    # Another transaction may create the same player meanwhile: only the one whose row went
    # in gives the starting chips; the other waits for it and reads its row.
    inserted = await connection.execute(
        "INSERT INTO players (guild_id, user_id, balance, created) VALUES (?, ?, 0, ?)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, user_id, created),
    )
    if not inserted:
        player = await find_player(connection, guild_id, user_id, lock=lock)
        assert player is not None
        return player
    settings = await read_settings(connection, guild_id)
    await change_balance(
        connection,
        guild_id=guild_id,
        user_id=user_id,
        amount=settings.starting_chips,
        kind=Kind.STARTING,
        reason="starting chips",
        created=created,
    )
    player = await find_player(connection, guild_id, user_id, lock=lock)
    assert player is not None
    return player


async def lock_players(
    connection: Connection, guild_id: int, user_ids: Sequence[int], created: str
) -> dict[int, Player]:
    """The players, their rows locked until the transaction ends, read with one statement in
    user order (as every transaction locks players: two cannot wait on each other); a player
    never seen is created with the starting chips, as `ensure_player` does."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    rows = await connection.fetchall(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id IN"
        f" ({marks(len(wanted))})"
        " ORDER BY user_id FOR UPDATE",
        (guild_id, *wanted),
    )
    found = {player.user_id: player for player in map(player_row, rows)}
    for user_id in wanted:
        if user_id not in found:  # rare: the tables meet their players when they sit down
            found[user_id] = await ensure_player(connection, guild_id, user_id, created, lock=True)
    return found
