"""What the bot last synced as its slash commands: a digest per application and scope, so that a
start syncs only when the command tree changed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.database import Database, parse_time


@dataclass(frozen=True, slots=True)
class CommandSync:
    """The last sync to a scope: the payload's digest, how many commands, and when."""

    digest: str
    commands: int
    synced: datetime


class CommandSyncRepository:
    """Read and record the last sync of an application's commands to a scope."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def last(self, application_id: int, scope: str) -> CommandSync | None:
        """The last sync recorded for ``scope`` ("global", or a server's id), if any."""
        row = await self.database.fetchone(
            "SELECT digest, commands, synced FROM command_syncs"
            " WHERE application_id = ? AND scope = ?",
            (application_id, scope),
        )
        return None if row is None else CommandSync(row[0], row[1], parse_time(row[2]))

    async def record(self, application_id: int, scope: str, digest: str, commands: int) -> None:
        """Discord accepted ``commands`` commands whose payload hashes to ``digest``."""
        await self.database.execute(
            "INSERT INTO command_syncs (application_id, scope, digest, commands, synced)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (application_id, scope) DO UPDATE SET"
            " digest = excluded.digest, commands = excluded.commands, synced = excluded.synced",
            (application_id, scope, digest, commands, self.database.now()),
        )
