-- Each player's rating per server and game, the seasons and their final standings: see the
-- SQLite store's 0015.
ALTER TABLE guild_settings ADD COLUMN season_days BIGINT CHECK (season_days >= 0);

CREATE TABLE rating_seasons (
    guild_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    starts TEXT NOT NULL,
    ends TEXT,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE ratings (
    guild_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    shown BIGINT NOT NULL,
    games BIGINT NOT NULL,
    season_games BIGINT NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE INDEX ratings_by_player ON ratings (guild_id, user_id);

CREATE TABLE rated_games (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    guild_id BIGINT NOT NULL,
    season BIGINT NOT NULL,
    rated TEXT NOT NULL
);

CREATE TABLE season_standings (
    guild_id BIGINT NOT NULL,
    season BIGINT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    rank BIGINT NOT NULL,
    shown BIGINT NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES rating_seasons (guild_id, number)
);
