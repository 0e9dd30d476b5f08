-- Each table's message of the game under way: see the SQLite store's 0012.
CREATE TABLE table_messages (
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
