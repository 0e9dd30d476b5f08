-- Achievements (tables/achievements.py): each earned once per player and server, whatever how
-- often the event that earned it is delivered (the key refuses a second row); the games each
-- player played, by game id, so "100 games" counts a replayed showdown once; and the server's
-- choice to announce them in the table's channel (1) or keep them quiet (0).
ALTER TABLE guild_settings ADD COLUMN announce_achievements INTEGER NOT NULL DEFAULT 1
    CHECK (announce_achievements IN (0, 1));

CREATE TABLE achievements (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    achievement TEXT NOT NULL,
    earned TEXT NOT NULL,
    game_id INTEGER,
    PRIMARY KEY (guild_id, user_id, achievement)
) WITHOUT ROWID;

CREATE TABLE achievement_games (
    game_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

CREATE INDEX achievement_games_by_player ON achievement_games (guild_id, user_id);
