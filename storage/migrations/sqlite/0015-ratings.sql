-- Each player's rating per server and game (tables/ratings.py keeps them from the settled
-- games' showdowns), the seasons they are ranked in, and each season's final standings.

-- A season's length in days; NULL or 0: a calendar month (the default).
ALTER TABLE guild_settings ADD COLUMN season_days INTEGER CHECK (season_days >= 0);

-- A server's seasons, numbered from 1. The latest is the one under way (ends NULL: its end is
-- reckoned from its start and the server's season length). The unique number is what makes a
-- rollover happen once when two processes see the boundary together.
CREATE TABLE rating_seasons (
    guild_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    starts TEXT NOT NULL,
    ends TEXT,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;

-- A player's rating in one game on one server: the rating library's mu and sigma, the number
-- shown, the rated games in all and in the season under way.
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    shown INTEGER NOT NULL,
    games INTEGER NOT NULL,
    season_games INTEGER NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;

CREATE INDEX ratings_by_player ON ratings (guild_id, user_id);

-- Each game rated, noted in the transaction that rates it: a showdown delivered twice is
-- rated once.
CREATE TABLE rated_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id INTEGER NOT NULL,
    season INTEGER NOT NULL,
    rated TEXT NOT NULL
);

-- A season's final standings, written once by the rollover that ends it.
CREATE TABLE season_standings (
    guild_id INTEGER NOT NULL,
    season INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    shown INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES rating_seasons (guild_id, number)
) WITHOUT ROWID;
