-- Each table's message of the game under way: whichever process of the bot shows the game's
-- next step edits this one message (a restart, a step played on another process) rather than
-- posting another.
CREATE TABLE table_messages (
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;
