"""The tables a process holds in memory, kept true to the database.

With SQLite one process has the file, and what it holds is the truth. With PostgreSQL several
processes of the bot share the tables: any of them may act on any table, so before reading or
acting on one a process compares its version with the saved snapshot's and loads the snapshot
when another process has moved the table on (or drops it when the table is gone). Finding a
table (a player's seat, a channel, a game) then asks the database, not the memory.
"""

from __future__ import annotations

from collections.abc import Iterator

from storage.database import Held
from storage.games import SnapshotRepository
from tables.snapshot import table_from_state
from tables.table import Table

Key = tuple[int, int]


class LiveTables:
    """A process's tables by (server, channel), with the snapshot version each was saved at."""

    def __init__(self, snapshots: SnapshotRepository, *, shared: bool) -> None:
        self.snapshots = snapshots
        #: Whether other processes may change the tables (a PostgreSQL store).
        self.shared = shared
        self._tables: dict[Key, Table] = {}
        self._versions: dict[Key, int] = {}

    def __contains__(self, key: object) -> bool:
        return key in self._tables

    def __iter__(self) -> Iterator[Key]:
        return iter(list(self._tables))

    def held(self, key: Key) -> Table | None:
        """The table as this process last saw it (no database read)."""
        return self._tables.get(key)

    def version(self, key: Key) -> int:
        """The snapshot version the held table was saved at (0: none)."""
        return self._versions.get(key, 0)

    def put(self, key: Key, table: Table, version: int) -> None:
        self._tables[key] = table
        self._versions[key] = version

    def drop(self, key: Key) -> None:
        self._tables.pop(key, None)
        self._versions.pop(key, None)

    async def get(self, key: Key, held: Held | None = None) -> Table | None:
        """The channel's table as saved now: reloaded if another process changed it.

        ``held``: the table's lock, whose taking read the snapshot's version (one round trip
        for both), or which the last action here handed over with the version it saved; else
        the version is read here. A deferred lock not taken yet (`Database.lock`) trusts the
        table held here, as it was last saved or read: the save that claims the lock checks
        that version, and a table not held here takes the lock first.
        """
        if not self.shared:
            return self._tables.get(key)
        if held is not None and not held.taken:
            if key in self._tables:
                return self._tables[key]
            await self.snapshots.database.take(held)
        version = held.value if held is not None and held.read else None
        if held is None or not held.read:
            version = await self.snapshots.version(*key)
        if version is None:
            self.drop(key)
            return None
        if version != self._versions.get(key):
            snapshot = await self.snapshots.load(*key)
            if snapshot is None:
                self.drop(key)
                return None
            self.put(key, table_from_state(snapshot.state), snapshot.version)
        return self._tables[key]

    async def seat_of(self, guild_id: int, user: int) -> Key | None:
        """The table where the player sits on this server."""
        if not self.shared:
            return next(
                (k for k, t in self._tables.items() if k[0] == guild_id and t.is_seated(user)),
                None,
            )
        channel = await self.snapshots.seat_of(guild_id, user)
        return None if channel is None else (guild_id, channel)

    async def in_channel(self, channel_id: int) -> Key | None:
        """The table in this channel (whichever server it is on)."""
        if not self.shared:
            return next((key for key in self._tables if key[1] == channel_id), None)
        found = await self.snapshots.keys(channel_id=channel_id)
        return found[0] if found else None

    async def playing(self, game_id: int) -> Key | None:
        """The table whose game is this one."""
        if not self.shared:
            return next((k for k, t in self._tables.items() if t.game_id == game_id), None)
        found = await self.snapshots.keys(game_id=game_id)
        return found[0] if found else None

    async def keys(self, guild_id: int | None = None) -> list[Key]:
        """Every table (of one server)."""
        if not self.shared:
            return [key for key in self._tables if guild_id is None or key[0] == guild_id]
        return await self.snapshots.keys(guild_id=guild_id)


class TableReader:
    """Reading the tables as they are saved now: copies, which change nothing when changed."""

    live: LiveTables

    async def table(self, guild_id: int, channel_id: int) -> Table | None:
        """A copy of the channel's table, or None (changing it changes nothing)."""
        table = await self.live.get((guild_id, channel_id))
        return None if table is None else table.copy()

    async def tables(self, guild_id: int | None = None) -> tuple[Table, ...]:
        """Copies of every open table (of one server)."""
        found = [await self.live.get(key) for key in await self.live.keys(guild_id)]
        return tuple(table.copy() for table in found if table is not None)

    async def table_of(self, guild_id: int, user: int) -> Table | None:
        """A copy of the table where the player sits on this server, or None."""
        key = await self.live.seat_of(guild_id, user)
        return None if key is None else await self.table(*key)

    async def key_of(self, channel_id: int) -> Key | None:
        """The (server, channel) of the table in this channel, or None."""
        return await self.live.in_channel(channel_id)

    async def find_game(self, game_id: int) -> Key | None:
        """The (server, channel) of the table playing this game now, or None."""
        key = await self.live.playing(game_id)
        table = None if key is None else await self.live.get(key)
        return key if table is not None and table.game_id == game_id and table.in_game else None
