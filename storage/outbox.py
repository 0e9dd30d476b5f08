"""The outbox: a table's events kept until they are shown, written with the change they report."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.database import Connection, Database, marks
from storage.rows import OutboxRow

Payload = Mapping[str, Any]
#: Shown events forgotten by one statement (SQLite takes at least 999 parameters).
REMOVED_AT_ONCE = 500


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
        """Forget events that were shown: a statement per hundreds of them, each its own commit
        (an event forgotten is shown no more; one left is shown again after a restart)."""
        for start in range(0, len(ids), REMOVED_AT_ONCE):
            chunk = ids[start : start + REMOVED_AT_ONCE]
            sql = f"DELETE FROM outbox WHERE id IN ({marks(len(chunk))})"
            await self.database.execute(sql, chunk)
