"""Opening the store a setting names: the one module that knows both stores.

`storage.database` holds what the two stores share (the `Database` interface, the setting's
reading); `storage.sqlite` and `storage.postgres` build on it, and this module, above all three,
picks one. Nothing below imports it, so the stores never import their own opener.
"""

from __future__ import annotations

from pathlib import Path

from storage.database import DEFAULT_DATABASE_PATH, Clock, Database, locate_database, utc_now
from storage.sqlite import open_sqlite


async def open_database(
    target: str | Path = DEFAULT_DATABASE_PATH,
    *,
    clock: Clock = utc_now,
    migrate_schema: bool = True,
) -> Database:
    """Open the store ``target`` names, migrated to the latest schema.

    A PostgreSQL URL opens a pool; a file's path or a ``sqlite:///`` URL a SQLite file (created
    if missing; `storage.sqlite.DatabaseFileError` says why one cannot be). Anything else is a
    `DatabaseSettingError` (`locate_database`).
    """
    location = locate_database(target)
    if location.store == "postgresql":
        # asyncpg is imported only by a bot that runs on PostgreSQL.
        from storage.postgres import open_postgres

        return await open_postgres(location.address, clock=clock, migrate_schema=migrate_schema)
    return await open_sqlite(location.address, clock=clock, migrate_schema=migrate_schema)
