"""Games and their results, and the table snapshots that bring a table back after a restart."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.text import tr
from storage.cluster import set_deadline
from storage.database import (
    Connection,
    Database,
    Held,
    LockRead,
    RefusedCallError,
    Row,
    parse_time,
)
from storage.errors import GameStateError, SeatTakenError, ShortOfChipsError, StaleSnapshotError
from storage.outbox import Payload, queue_payloads
from storage.rows import Cover, Deleted, Escrow, Game, GameStatus, Queued, SettleCall, Snapshot

_GAME_COLUMNS = "id, guild_id, channel_id, game, status, created, finished, seats, result"


def _game(row: Row) -> Game:
    return Game(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        game=row[3],
        status=GameStatus(row[4]),
        created=parse_time(row[5]),
        finished=None if row[6] is None else parse_time(row[6]),
        seats=json.loads(row[7]),
        result=None if row[8] is None else json.loads(row[8]),
    )


class GameRepository:
    """Create games, record their results, and find the open ones to resume."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        seats: Sequence[Any] = (),
        scope: int | None = None,
    ) -> Game:
        """A new open game in a channel (``scope``: the ledger scope of its chips, when not
        the server's)."""
        async with self.database.transaction() as connection:
            row = await connection.fetchone(
                "INSERT INTO games (guild_id, channel_id, game, created, seats, scope)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, game, self.database.now(), json.dumps(list(seats)), scope),
            )
        assert row is not None
        created = await self.get(row[0])
        assert created is not None
        return created

    async def get(self, game_id: int) -> Game | None:
        """The game, or None."""
        row = await self.database.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        )
        return None if row is None else _game(row)

    async def save_seats(self, game_id: int, seats: Sequence[Any]) -> None:
        """Record who sits where while the game is open."""
        await self._update_open(game_id, "seats", list(seats))

    async def save_result(self, game_id: int, result: Mapping[str, Any]) -> None:
        """Record an open game's result (arrangements, net matrix, pot winners) before settling."""
        await self._update_open(game_id, "result", dict(result))

    async def _update_open(self, game_id: int, column: str, value: Any) -> None:
        # column is one of two literals above, never user input.
        async with self.database.transaction() as connection:
            changed = await connection.execute(
                f"UPDATE games SET {column} = ? WHERE id = ? AND status = 'open'",
                (json.dumps(value), game_id),
            )
            if changed != 1:
                raise GameStateError(tr("Game {game} is not open.", game=str(game_id)))

    async def recent(self, guild_id: int, *, limit: int = 50) -> list[Game]:
        """A server's settled games, newest first."""
        rows = await self.database.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'settled'"
            " ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [_game(row) for row in rows]

    async def latest_played(self, guild_id: int, user_id: int) -> Game | None:
        """The player's latest settled game on this server (the newest in their history), or
        None: found by the player's own result rows, however many games others played since."""
        # Settlement writes a result row for every player of the game, a zero one included.
        row = await self.database.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ("
            "SELECT MAX(game_id) FROM ledger WHERE guild_id = ? AND user_id = ?"
            " AND account = 'player' AND kind = 'result'"
            # A tournament's pool game has no showdown to review.
            " AND game_id NOT IN (SELECT pool_game_id FROM tournaments))",
            (guild_id, user_id),
        )
        return None if row is None else _game(row)

    async def list_open(self, guild_id: int | None = None) -> list[Game]:
        """Open games (all servers, or one), oldest first: what a restart must finish or refund
        (not a tournament's prize pool, which its tournament finishes or refunds)."""
        # A tournament's pool game is the tournament's to finish (storage/tournaments.py).
        where = "status = 'open' AND id NOT IN (SELECT pool_game_id FROM tournaments)" + (
            "" if guild_id is None else " AND guild_id = ?"
        )
        params = () if guild_id is None else (guild_id,)
        rows = await self.database.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id", params
        )
        return [_game(row) for row in rows]


_SNAPSHOT_COLUMNS = "guild_id, channel_id, game_id, state, version, updated"


def _snapshot(row: Row) -> Snapshot:
    return Snapshot(row[0], row[1], row[2], json.loads(row[3]), row[4], parse_time(row[5]))


async def _save_seats(
    connection: Connection, guild_id: int, channel_id: int, players: Sequence[int]
) -> None:
    saved = await connection.fetchall(
        "SELECT user_id FROM table_seats WHERE guild_id = ? AND channel_id = ?",
        (guild_id, channel_id),
    )
    if sorted(row[0] for row in saved) == sorted(players):
        return  # most saves change no seat: one read instead of a delete and an insert each
    await connection.execute(
        "DELETE FROM table_seats WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id)
    )
    for user_id in players:
        # A racing save that seated the player elsewhere holds the key: this one is refused
        # (and rolled back whole) instead of failing on the key.
        seated = await connection.execute(
            "INSERT INTO table_seats (guild_id, user_id, channel_id) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO NOTHING",
            (guild_id, user_id, channel_id),
        )
        if not seated:
            row = await connection.fetchone(
                "SELECT channel_id FROM table_seats WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            raise SeatTakenError(user_id, channel_id if row is None else row[0])


async def _replace_snapshot(
    connection: Connection,
    *,
    guild_id: int,
    channel_id: int,
    game_id: int | None,
    state: str,
    now: str,
    expected_version: int | None,
) -> int:
    """Write the channel's snapshot over ``expected_version``; the version it is saved at.

    One statement when the version expected is known (every save of the tables'): an update
    that finds no row at that version, or an insert that meets a row, was overtaken by another
    save (or the table was closed meanwhile), and is refused whole.
    """
    if expected_version is None:
        row = await connection.fetchone(
            "SELECT version FROM table_snapshots WHERE guild_id = ? AND channel_id = ? FOR UPDATE",
            (guild_id, channel_id),
        )
        expected_version = 0 if row is None else row[0]
    if expected_version == 0:
        # A first save racing another (no row to lock yet) meets its row here and is refused.
        saved = await connection.execute(
            "INSERT INTO table_snapshots (guild_id, channel_id, game_id, state, version, updated)"
            " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, channel_id) DO NOTHING",
            (guild_id, channel_id, game_id, state, now),
        )
    else:
        saved = await connection.execute(
            "UPDATE table_snapshots SET game_id = ?, state = ?, version = ?, updated = ?"
            " WHERE guild_id = ? AND channel_id = ? AND version = ?",
            (game_id, state, expected_version + 1, now, guild_id, channel_id, expected_version),
        )
    if not saved:
        row = await connection.fetchone(
            "SELECT version FROM table_snapshots WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        found = "none" if row is None else row[0]
        raise StaleSnapshotError(
            tr(
                "The table changed meanwhile (version {found}, not {expected}).",
                found=str(found),
                expected=str(expected_version),
            )
        )
    return expected_version + 1


def _queued(
    previous: int | None,
    ids: Sequence[int] | None,
    passed: Sequence[str] | None,
    game_id: int | None,
    created: str,
) -> Queued:
    """What a server-side function queued, as its row answers it."""
    return Queued(
        previous or 0, tuple(ids or ()), frozenset(passed or ()), game_id, parse_time(created)
    )


async def _check_cover(connection: Connection, cover: Cover) -> None:
    """`ShortOfChipsError` if the player holds fewer chips than ``cover`` says."""
    row = await connection.fetchone(
        "SELECT balance FROM players WHERE guild_id = ? AND user_id = ?",
        (cover.scope, cover.user_id),
    )
    if row is not None and row[0] < cover.chips:
        raise ShortOfChipsError({cover.user_id: (int(row[0]), cover.chips)})


def _refusal(refusal: RefusedCallError) -> Exception:
    """A snapshot function's refusal in the repository's words."""
    if refusal.code == "PPSHO":
        needs: dict[int, tuple[int, int]] = {}
        for line in refusal.detail.splitlines():
            user, have, need = (int(part) for part in line.split())
            needs[user] = (have, need)
        return ShortOfChipsError(needs)
    if refusal.code == "PPSEA":
        user, channel = (int(part) for part in refusal.detail.split())
        return SeatTakenError(user, channel)
    if refusal.code == "PPLCK":
        return StaleSnapshotError(tr("The table's lock was lost meanwhile."))
    return StaleSnapshotError(refusal.message)


class SnapshotRepository:
    """The latest state JSON of each channel's table."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def version_read(self, guild_id: int, channel_id: int) -> LockRead:
        """The channel's snapshot version, read under its table's lock (`Database.lock`)."""
        return LockRead(
            "SELECT version FROM table_snapshots WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
            "pp_take_table",
        )

    async def save(
        self,
        *,
        guild_id: int,
        channel_id: int,
        state: Mapping[str, Any],
        game_id: int | None = None,
        expected_version: int | None = None,
        players: Sequence[int] = (),
        events: Sequence[Payload] = (),
        deadline: float | None = None,
        passing: Sequence[str] = (),
        held: Held | None = None,
        cover: Cover | None = None,
        escrow: Escrow | None = None,
        settle: SettleCall | None = None,
    ) -> Snapshot:
        """Replace the channel's snapshot; ``expected_version`` guards against a newer one.

        ``players`` are the people seated (a table's computers are its own and sit nowhere
        else): a player seated at another table of the server is refused with a
        `SeatTakenError`, and nothing is saved. ``events`` join the outbox (``passing``: the
        outbox's lanes that want none of them, moved past them where they can be), and
        ``deadline`` (when the table has work due, in the tables' clock) replaces its deadline
        row, in the same transaction. ``held``: the table's lock, which PostgreSQL lets go with
        the save's commit, in the same round trip. ``cover``: chips a player must hold, checked
        in the same transaction (PostgreSQL: the same statement); a `ShortOfChipsError` if not,
        and nothing is saved. A player with no row yet passes (their first stake gives them
        their starting chips, and checks again).
        ``escrow``: stakes taken into the game's escrow in the same transaction, all or none (a
        reveal's; PostgreSQL only, a server's chips): a `ShortOfChipsError` naming every player
        short, or a `StaleSnapshotError` if any stake was taken already or a player is new (the
        caller escrows the slower way), and nothing is saved. ``settle``: the game's settlement
        as worked out from its reading (`ChipRepository.settle_call`), applied in the same
        statement before the save (PostgreSQL only): any refusal of the settlement's (the game
        changed or was settled, a balance moved since it was read, a player short, the house's
        day changed) is a
        `StaleSnapshotError`, for the caller to settle the slower way, and nothing is saved.
        The snapshot's ``settlement`` is what it did.
        """
        now = self.database.now()
        settlement = None
        # Made before the transaction: it holds the one writing connection (SQLite) meanwhile.
        text = json.dumps(dict(state))
        payloads = [json.dumps(dict(event)) for event in events]
        due = None if deadline is None else float(deadline)
        if self.database.functions:
            params: tuple[object, ...] = (
                guild_id,
                channel_id,
                game_id,
                text,
                now,
                expected_version,
                list(players),
                due,
                payloads,
                list(passing),
            )
            function = "pp_save_table"
            if cover is not None:
                function = "pp_save_covered"  # migration 0019
                params = (*params, cover.scope, cover.user_id, cover.chips)
            elif escrow is not None:
                function = "pp_save_escrowed"  # migration 0022
                users = list(escrow.stakes)
                amounts = [escrow.stakes[user] for user in users]
                params = (*params, escrow.game_id, escrow.reason, users, amounts)
            elif settle is not None:
                function = "pp_save_settled"  # migration 0022
                read = list(settle.read)
                params = (*params, *settle.params, read, [settle.read[user] for user in read])
            try:
                rows = await self.database.call_releasing(function, params, held)
            except RefusedCallError as refusal:
                if settle is not None:
                    raise StaleSnapshotError(refusal.message) from None
                raise _refusal(refusal) from None
            version, previous, ids, passed, *settled_at = rows[0]
            queued = _queued(previous, ids, passed, game_id, now)
            if settle is not None:
                settlement = settle.settled(*settled_at)
        else:
            if escrow is not None or settle is not None:
                # The tables escrow and settle before the save on this store.
                raise ValueError("a save moves chips only on PostgreSQL")
            async with self.database.transaction() as connection:
                version = await _replace_snapshot(
                    connection,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_id=game_id,
                    state=text,
                    now=now,
                    expected_version=expected_version,
                )
                await _save_seats(connection, guild_id, channel_id, players)
                await set_deadline(connection, guild_id, channel_id, due, version)
                queued = await queue_payloads(
                    connection,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_id=game_id,
                    payloads=payloads,
                    created=now,
                    passing=passing,
                )
                if cover is not None:
                    await _check_cover(connection, cover)
        self.database.leave(held, version)
        return Snapshot(
            guild_id,
            channel_id,
            game_id,
            dict(state),
            version,
            parse_time(now),
            queued,
            settlement,
        )

    async def load(self, guild_id: int, channel_id: int) -> Snapshot | None:
        """The channel's snapshot, or None."""
        row = await self.database.fetchone(
            f"SELECT {_SNAPSHOT_COLUMNS} FROM table_snapshots"
            " WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return None if row is None else _snapshot(row)

    async def version(self, guild_id: int, channel_id: int) -> int | None:
        """The version of the channel's snapshot, or None if it has no table."""
        row = await self.database.fetchone(
            "SELECT version FROM table_snapshots WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return None if row is None else int(row[0])

    async def seat_of(self, guild_id: int, user_id: int) -> int | None:
        """The channel of the table where the player sits on this server, or None."""
        row = await self.database.fetchone(
            "SELECT channel_id FROM table_seats WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else int(row[0])

    async def keys(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        game_id: int | None = None,
    ) -> list[tuple[int, int]]:
        """The (server, channel) of every saved table, or of those matching what is given."""
        where, params = ["1 = 1"], []
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        rows = await self.database.fetchall(
            "SELECT guild_id, channel_id FROM table_snapshots WHERE "
            + " AND ".join(where)
            + " ORDER BY guild_id, channel_id",
            params,
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def load_all(self) -> list[Snapshot]:
        """Every saved table, for resuming after a restart."""
        rows = await self.database.fetchall(
            f"SELECT {_SNAPSHOT_COLUMNS} FROM table_snapshots ORDER BY guild_id, channel_id"
        )
        return [_snapshot(row) for row in rows]

    async def delete(
        self,
        guild_id: int,
        channel_id: int,
        *,
        events: Sequence[Payload] = (),
        passing: Sequence[str] = (),
        held: Held | None = None,
    ) -> Deleted:
        """Forget the channel's table (``events`` join the outbox, ``passing`` and ``held`` as
        for `save`); true if there was one."""
        now = self.database.now()
        payloads = [json.dumps(dict(event)) for event in events]
        if self.database.functions:
            params = (guild_id, channel_id, payloads, now, list(passing))
            rows = await self.database.call_releasing("pp_delete_table", params, held)
            deleted, previous, ids, passed = rows[0]
            self.database.leave(held, None)
            return Deleted(bool(deleted), _queued(previous, ids, passed, None, now))
        async with self.database.transaction() as connection:
            gone = await connection.execute(
                "DELETE FROM table_snapshots WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
            queued = await queue_payloads(
                connection,
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=None,
                payloads=payloads,
                created=now,
                passing=passing,
            )
        return Deleted(gone > 0, queued)
