-- Achievements: see the SQLite store's 0016.
ALTER TABLE guild_settings ADD COLUMN announce_achievements INTEGER NOT NULL DEFAULT 1
    CHECK (announce_achievements IN (0, 1));

CREATE TABLE achievements (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    achievement TEXT NOT NULL,
    earned TEXT NOT NULL,
    game_id BIGINT,
    PRIMARY KEY (guild_id, user_id, achievement)
);

CREATE TABLE achievement_games (
    game_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX achievement_games_by_player ON achievement_games (guild_id, user_id);
