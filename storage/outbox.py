"""The outbox: a table's events kept until they are shown, written with the change they report."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.database import Connection, Database
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
    for event in events:
        await connection.execute(
            "INSERT INTO outbox (guild_id, channel_id, game_id, event, created)"
            " VALUES (?, ?, ?, ?, ?)",
            (guild_id, channel_id, game_id, json.dumps(dict(event)), created),
        )


class OutboxRepository:
    """Read what is still to be shown, and forget what was."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def pending(self, guild_id: int, channel_id: int) -> list[OutboxRow]:
        """The channel's queued events, oldest first."""
        rows = await self.database.fetchall(
            "SELECT id, guild_id, channel_id, game_id, event FROM outbox"
            " WHERE guild_id = ? AND channel_id = ? ORDER BY id",
            (guild_id, channel_id),
        )
        return [OutboxRow(row[0], row[1], row[2], row[3], json.loads(row[4])) for row in rows]

    async def channels(self) -> list[tuple[int, int]]:
        """Every (server, channel) with events still to show."""
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

    async def remove(self, ids: Sequence[int]) -> None:
        """Forget events that were shown."""
        if not ids:
            return
        async with self.database.transaction() as connection:
            await connection.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in ids])
