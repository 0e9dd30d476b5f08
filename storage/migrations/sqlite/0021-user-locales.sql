-- The Discord locale each user's client last showed the bot ("de", "zh-CN"), kept from their
-- interactions: the DMs the tables send later, unasked, are written in it. One row per user,
-- whatever the server (a locale is the client's, not the server's); a user never seen reads
-- English.
CREATE TABLE user_locales (
    user_id INTEGER NOT NULL PRIMARY KEY,
    locale TEXT NOT NULL,
    updated TEXT NOT NULL
) WITHOUT ROWID;
