-- The Discord locale each user's client last showed the bot: see the SQLite store's 0021.
CREATE TABLE user_locales (
    user_id BIGINT NOT NULL PRIMARY KEY,
    locale TEXT NOT NULL,
    updated TEXT NOT NULL
);
