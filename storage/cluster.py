"""What the bot's processes share besides the chips: the tables' deadlines, which any process may
claim and fire, and the processes themselves, each announcing that it is alive."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from storage.database import Connection, Database, format_time, parse_time
from storage.rows import ProcessRow


@dataclass(frozen=True, slots=True)
class Claim:
    """A deadline a process claimed: its table's channel, when it fell due, the version."""

    guild_id: int
    channel_id: int
    due: float
    version: int


async def set_deadline(
    connection: Connection, guild_id: int, channel_id: int, due: float | None, version: int
) -> None:
    """The table's next deadline (None: it has none), inside the snapshot's transaction.

    Writing it again clears any claim: the table moved on, so whatever fired it is done.
    """
    if due is None:
        await connection.execute(
            "DELETE FROM deadlines WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id)
        )
        return
    await connection.execute(
        "INSERT INTO deadlines (guild_id, channel_id, due, version) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, channel_id) DO UPDATE SET due = excluded.due,"
        " version = excluded.version, claimed_by = NULL, claimed_until = NULL",
        (guild_id, channel_id, float(due), version),
    )


class DeadlineRepository:
    """Claim the tables' deadlines that fell due, so that exactly one process fires each."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def claim(
        self,
        guild_id: int,
        channel_id: int,
        *,
        by: str,
        now: float,
        lease_s: float,
        take_over: bool = False,
    ) -> Claim | None:
        """Claim one table's deadline if it is due and no other process holds it; else None.

        ``take_over`` claims it whoever holds it: a process starting up takes the deadlines
        its predecessor claimed and died before firing.
        """
        sql = "UPDATE deadlines SET claimed_by = ?, claimed_until = ?"
        sql += " WHERE guild_id = ? AND channel_id = ? AND due <= ?"
        parameters: tuple[object, ...] = (by, now + lease_s, guild_id, channel_id, now)
        if not take_over:
            sql += " AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)"
            parameters += (now, by)
        async with self.database.transaction() as connection:
            row = await connection.fetchone(
                sql + " RETURNING guild_id, channel_id, due, version", parameters
            )
        return None if row is None else Claim(*row)

    async def held_until(self, guild_id: int, channel_id: int, *, now: float) -> float | None:
        """When the claim that holds the table's due deadline runs out; None if no claim holds
        it (or it is not due, or the table has none)."""
        row = await self.database.fetchone(
            "SELECT claimed_until FROM deadlines WHERE guild_id = ? AND channel_id = ?"
            " AND due <= ? AND claimed_until > ?",
            (guild_id, channel_id, now, now),
        )
        return None if row is None else float(row[0])

    async def claim_due(
        self, *, by: str, now: float, lease_s: float, overdue_s: float = 0.0, limit: int = 20
    ) -> list[Claim]:
        """Claim up to ``limit`` deadlines that fell due ``overdue_s`` ago or more, oldest first.

        On PostgreSQL a row another process is claiming at this moment is skipped, not waited
        for (``SKIP LOCKED``); a claim lasts ``lease_s``, after which a deadline whose firing
        failed (or whose process died) may be claimed again.
        """
        async with self.database.transaction() as connection:
            rows = await connection.fetchall(
                "UPDATE deadlines SET claimed_by = ?, claimed_until = ?"
                " WHERE (guild_id, channel_id) IN ("
                "SELECT guild_id, channel_id FROM deadlines WHERE due <= ?"
                " AND (claimed_until IS NULL OR claimed_until <= ?)"
                " ORDER BY due LIMIT ? FOR UPDATE SKIP LOCKED)"
                " RETURNING guild_id, channel_id, due, version",
                (by, now + lease_s, now - overdue_s, now, limit),
            )
        return sorted((Claim(*row) for row in rows), key=lambda claim: claim.due)

    async def pending(self, *, guild_id: int | None = None) -> int:
        """How many tables (of one server, if given) have a deadline ahead (or due now)."""
        if guild_id is None:
            row = await self.database.fetchone("SELECT COUNT(*) FROM deadlines")
        else:
            row = await self.database.fetchone(
                "SELECT COUNT(*) FROM deadlines WHERE guild_id = ?", (guild_id,)
            )
        assert row is not None
        return int(row[0])

    async def due(self, guild_id: int, channel_id: int) -> float | None:
        """When the table's deadline falls due, or None."""
        row = await self.database.fetchone(
            "SELECT due FROM deadlines WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return None if row is None else float(row[0])


class ProcessRepository:
    """The processes of the bot, as each announces itself."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def announce(
        self, process_id: str, *, host: str, pid: int, shards: Sequence[int]
    ) -> None:
        """A process started (or beats again): it is alive now."""
        now = self.database.now()
        async with self.database.transaction() as connection:
            await connection.execute(
                "INSERT INTO processes (id, host, pid, shards, started, seen)"
                " VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET seen = excluded.seen, shards = excluded.shards",
                (process_id, host, pid, ",".join(map(str, shards)), now, now),
            )

    async def leave(self, process_id: str) -> None:
        """A process shut down cleanly."""
        async with self.database.transaction() as connection:
            await connection.execute("DELETE FROM processes WHERE id = ?", (process_id,))

    async def alive(self, *, within_s: float) -> list[ProcessRow]:
        """The processes seen in the last ``within_s`` seconds, oldest first."""
        since = format_time(self.database.clock() - timedelta(seconds=within_s))
        rows = await self.database.fetchall(
            "SELECT id, host, pid, shards, started, seen FROM processes WHERE seen >= ?"
            " ORDER BY started, id",
            (since,),
        )
        return [
            ProcessRow(
                id=row[0],
                host=row[1],
                pid=row[2],
                shards=tuple(int(s) for s in row[3].split(",") if s),
                started=parse_time(row[4]),
                seen=parse_time(row[5]),
            )
            for row in rows
        ]

    async def forget(self, *, silent_s: float) -> int:
        """Forget processes not seen for ``silent_s`` seconds (they died); how many."""
        since = format_time(self.database.clock() - timedelta(seconds=silent_s))
        async with self.database.transaction() as connection:
            return await connection.execute("DELETE FROM processes WHERE seen < ?", (since,))
