"""The outbox: a table's events kept until every subscriber has taken them, written with the
change they report; each subscriber's position per channel (the last row it is done with)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.database import Connection, Database, marks, parse_time
from storage.rows import OutboxRow

Payload = Mapping[str, Any]


async def queue_events(
    connection: Connection,
    *,
    guild_id: int,
    channel_id: int,
    game_id: int | None,
    events: Sequence[Payload],
    created: str,
) -> None:
    """Queue events inside the caller's transaction (they stand or fall with its change)."""
    await queue_payloads(
        connection,
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game_id,
        payloads=[json.dumps(dict(event)) for event in events],
        created=created,
    )


async def queue_payloads(
    connection: Connection,
    *,
    guild_id: int,
    channel_id: int,
    game_id: int | None,
    payloads: Sequence[str],
    created: str,
) -> None:
    """Queue events already made JSON (before the transaction began) inside it."""
    if not payloads:
        return
    # One statement for them all, in order (ids ascend with the rows' order).
    await connection.executemany(
        "INSERT INTO outbox (guild_id, channel_id, game_id, event, created) VALUES (?, ?, ?, ?, ?)",
        [(guild_id, channel_id, game_id, payload, created) for payload in payloads],
    )


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
        await self.database.execute(
            "INSERT INTO outbox_positions (subscriber, guild_id, channel_id, position)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (subscriber, guild_id, channel_id)"
            " DO UPDATE SET position = excluded.position"
            " WHERE excluded.position > outbox_positions.position",
            (subscriber, guild_id, channel_id, position),
        )

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
