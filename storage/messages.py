"""Each table's message of the game under way, by channel: which game it shows and its id, so
that any process of the bot edits the one message."""

from __future__ import annotations

from storage.database import Database


class TableMessageRepository:
    """Remember and find the message that shows a channel's game."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def remember(self, guild_id: int, channel_id: int, game_id: int, message_id: int) -> None:
        """The channel's game ``game_id`` is shown in message ``message_id`` (replacing the
        message of an earlier game)."""
        await self.database.execute(
            "INSERT INTO table_messages (guild_id, channel_id, game_id, message_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, channel_id) DO UPDATE SET"
            " game_id = excluded.game_id, message_id = excluded.message_id",
            (guild_id, channel_id, game_id, message_id),
        )

    async def find(self, guild_id: int, channel_id: int, game_id: int) -> int | None:
        """The id of the message showing game ``game_id`` in the channel, if one was posted."""
        row = await self.database.fetchone(
            "SELECT message_id FROM table_messages"
            " WHERE guild_id = ? AND channel_id = ? AND game_id = ?",
            (guild_id, channel_id, game_id),
        )
        return None if row is None else int(row[0])
