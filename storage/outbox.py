"""The outbox: a table's events kept until every subscriber has taken them, written with the
change they report; each subscriber's position per channel (the last row it is done with)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.database import Connection, Database, Held, LockRead, marks, parse_time
from storage.rows import OutboxRow, Queued

Payload = Mapping[str, Any]


async def queue_events(
    connection: Connection,
    *,
    guild_id: int,
    channel_id: int,
    game_id: int | None,
    events: Sequence[Payload],
    created: str,
    passing: Sequence[str] = (),
) -> Queued:
    """Queue events inside the caller's transaction (they stand or fall with its change)."""
    return await queue_payloads(
        connection,
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game_id,
        payloads=[json.dumps(dict(event)) for event in events],
        created=created,
        passing=passing,
    )


async def queue_payloads(
    connection: Connection,
    *,
    guild_id: int,
    channel_id: int,
    game_id: int | None,
    payloads: Sequence[str],
    created: str,
    passing: Sequence[str] = (),
) -> Queued:
    """Queue events already made JSON (before the transaction began) inside it; ``passing``
    are the lanes that want none of them, moved past them where nothing before them is pending
    (`pass_by`). What was queued, for showing from memory once committed.

    A channel's rows are queued under its table's lock, so none is queued beside these.
    """
    if not payloads:
        return Queued()
    row = await connection.fetchone(
        "SELECT MAX(id) FROM outbox WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id)
    )
    previous = 0 if row is None or row[0] is None else int(row[0])
    # One statement for them all, in order (ids ascend with the rows' order).
    await connection.executemany(
        "INSERT INTO outbox (guild_id, channel_id, game_id, event, created) VALUES (?, ?, ?, ?, ?)",
        [(guild_id, channel_id, game_id, payload, created) for payload in payloads],
    )
    rows = await connection.fetchall(
        "SELECT id FROM outbox WHERE guild_id = ? AND channel_id = ? AND id > ? ORDER BY id",
        (guild_id, channel_id, previous),
    )
    ids = tuple(int(row[0]) for row in rows)
    passed = await pass_by(
        connection,
        guild_id=guild_id,
        channel_id=channel_id,
        lanes=passing,
        previous=previous,
        last=ids[-1],
    )
    return Queued(previous, ids, passed, game_id, parse_time(created))


async def pass_by(
    connection: Connection,
    *,
    guild_id: int,
    channel_id: int,
    lanes: Sequence[str],
    previous: int,
    last: int,
) -> frozenset[str]:
    """Move each lane of ``lanes`` to ``last`` if nothing before ``previous`` is pending for it
    (its position is there or beyond; with no row before, a lane with no position yet); the
    lanes moved. So a lane that wants none of an action's events need not read them."""
    moved: list[str] = []
    for lane in lanes:
        changed = await connection.execute(
            "UPDATE outbox_positions SET position = ? WHERE subscriber = ? AND guild_id = ?"
            " AND channel_id = ? AND position >= ? AND position < ?",
            (last, lane, guild_id, channel_id, previous, last),
        )
        if not changed and not previous:
            changed = await connection.execute(
                "INSERT INTO outbox_positions (subscriber, guild_id, channel_id, position)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (subscriber, guild_id, channel_id) DO NOTHING",
                (lane, guild_id, channel_id, last),
            )
        if changed:
            moved.append(lane)
    return frozenset(moved)


class ChannelBusyError(Exception):
    """An action holds the channel's table just now: the events that were to be queued behind
    its rows wait for a later try (nothing of the transaction is kept)."""


class OutboxRepository:
    """Read what a subscriber has still to take, move its position on, and forget the rows that
    every subscriber is past."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def pending(
        self, guild_id: int, channel_id: int, *, subscriber: str | None = None
    ) -> list[OutboxRow]:
        """The channel's queued events, oldest first: all of them, or those past the
        subscriber's position."""
        sql = (
            "SELECT id, guild_id, channel_id, game_id, event, created FROM outbox"
            " WHERE guild_id = ? AND channel_id = ?"
        )
        params: list[object] = [guild_id, channel_id]
        if subscriber is not None:
            sql += (
                " AND id > COALESCE((SELECT position FROM outbox_positions WHERE subscriber = ?"
                " AND guild_id = ? AND channel_id = ?), 0)"
            )
            params += [subscriber, guild_id, channel_id]
        rows = await self.database.fetchall(sql + " ORDER BY id", params)
        return [
            OutboxRow(row[0], row[1], row[2], row[3], json.loads(row[4]), parse_time(row[5]))
            for row in rows
        ]

    async def channels(self) -> list[tuple[int, int]]:
        """Every (server, channel) with events still queued."""
        rows = await self.database.fetchall(
            "SELECT DISTINCT guild_id, channel_id FROM outbox ORDER BY guild_id, channel_id"
        )
        return [(row[0], row[1]) for row in rows]

    async def queue(
        self, *, guild_id: int, channel_id: int, game_id: int | None, events: Sequence[Payload]
    ) -> None:
        """Queue events on their own (for changes that are not a snapshot or a settlement)."""
        async with self.database.transaction() as connection:
            await queue_events(
                connection,
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=game_id,
                events=events,
                created=self.database.now(),
            )

    async def queue_following(
        self,
        lock: str,
        *,
        guild_id: int,
        channel_id: int,
        game_id: int | None,
        events: Sequence[Payload],
        passing: Sequence[str] = (),
    ) -> Queued:
        """Queue events in the running task's transaction (a subscriber's, which answers rows
        committed before it), under the channel's lock ``lock`` (its table's), held to the
        commit: no action queues rows beside these, so the channel's rows still ascend in
        commit order and no lane passes one before it is committed. `ChannelBusyError` while
        an action holds the lock (PostgreSQL; a SQLite transaction has the file to itself).
        ``passing`` as for `queue_payloads`."""
        held = self.database.held()
        assert held is not None, "queued in the subscriber's transaction"
        if not await self.database.try_hold(lock, (guild_id, channel_id)):
            raise ChannelBusyError(f"channel {channel_id} is busy")
        created = self.database.now()
        if not self.database.functions or not events:
            return await queue_events(
                held,
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=game_id,
                events=events,
                created=created,
                passing=passing,
            )
        # PostgreSQL: queued and passed by in one statement (migration 0013's functions).
        row = await held.fetchone(
            "SELECT q.previous, q.ids, pp_pass_by(?, ?, ?, q.previous, q.ids[cardinality(q.ids)])"
            " FROM pp_queue(?, ?, ?, ?, ?) q",
            (
                guild_id,
                channel_id,
                list(passing),
                guild_id,
                channel_id,
                game_id,
                [json.dumps(dict(event)) for event in events],
                created,
            ),
        )
        assert row is not None
        previous, ids, passed = row
        return Queued(
            previous or 0, tuple(ids), frozenset(passed or ()), game_id, parse_time(created)
        )

    async def positions(self, guild_id: int, channel_id: int) -> dict[str, int]:
        """Each subscriber's position in the channel (a subscriber not named is at 0)."""
        rows = await self.database.fetchall(
            "SELECT subscriber, position FROM outbox_positions"
            " WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return {row[0]: row[1] for row in rows}

    async def advance(self, subscriber: str, guild_id: int, channel_id: int, position: int) -> None:
        """The subscriber is done with the channel's rows up to ``position`` (in the caller's
        transaction, if it holds one: a subscriber's own writes commit with it). A position
        never goes back, so a second process that took the same rows changes nothing."""
        sql = (
            "INSERT INTO outbox_positions (subscriber, guild_id, channel_id, position)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (subscriber, guild_id, channel_id)"
            " DO UPDATE SET position = excluded.position"
            " WHERE excluded.position > outbox_positions.position"
        )
        params = (subscriber, guild_id, channel_id, position)
        held = self.database.held()
        if held is not None:
            # One statement of the subscriber's transaction, whose failure fails it anyway:
            # no savepoint of its own (two round trips on PostgreSQL).
            await held.execute(sql, params)
            return
        await self.database.execute(sql, params)

    def position_read(self, subscriber: str, guild_id: int, channel_id: int) -> LockRead:
        """The subscriber's position in the channel, read under its lane's lock
        (`Database.lock`; None: no position yet, before every row)."""
        return LockRead(
            "SELECT position FROM outbox_positions"
            " WHERE subscriber = ? AND guild_id = ? AND channel_id = ?",
            (subscriber, guild_id, channel_id),
            "pp_take_lane",
        )

    async def done(
        self,
        subscriber: str,
        guild_id: int,
        channel_id: int,
        *,
        position: int | None,
        subscribers: Sequence[str],
        held: Held | None = None,
    ) -> int:
        """The subscriber is done with the channel's rows up to ``position`` (None: it took
        none): its position moved on (`advance`), then the rows every one of ``subscribers`` is
        past forgotten (`forget`); how many. ``held``: the lane's lock, which PostgreSQL lets
        go with the same statement's commit (one round trip for the three)."""
        if self.database.functions:
            rows = await self.database.call_releasing(
                "pp_lane_done",
                (subscriber, guild_id, channel_id, position, list(subscribers)),
                held,
            )
            if position is not None:
                self.database.leave(held, position)
            return int(rows[0][0])
        if position is None:
            return 0  # took nothing: nothing more to forget
        await self.advance(subscriber, guild_id, channel_id, position)
        # Once the position is committed, not in its transaction: two lanes finishing at once
        # would each miss the other's uncommitted position and neither would forget the rows.
        return await self.forget(guild_id, channel_id, subscribers)

    async def forget(self, guild_id: int, channel_id: int, subscribers: Sequence[str]) -> int:
        """Delete the channel's rows that every one of ``subscribers`` is past (one statement);
        how many there were."""
        named = marks(len(subscribers))
        return await self.database.execute(
            "DELETE FROM outbox WHERE guild_id = ? AND channel_id = ? AND id <= ("
            " SELECT CASE WHEN COUNT(*) = ? THEN MIN(position) ELSE 0 END FROM outbox_positions"
            f" WHERE guild_id = ? AND channel_id = ? AND subscriber IN ({named}))",
            (guild_id, channel_id, len(subscribers), guild_id, channel_id, *subscribers),
        )
