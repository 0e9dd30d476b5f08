-- How long a server's idle lobbies stay open (no game, no one joining or leaving).
ALTER TABLE guild_settings ADD COLUMN lobby_minutes INTEGER NOT NULL DEFAULT 30
    CHECK (lobby_minutes BETWEEN 1 AND 10080);
