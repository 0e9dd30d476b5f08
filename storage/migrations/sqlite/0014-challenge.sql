-- The daily challenge (duplicate play). One row per day and game: the deal, the other seats'
-- settings and the solver's par, made once (the first process to need it) and the same for
-- everyone; a later process reads it rather than solving again.
CREATE TABLE challenge_deals (
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    deal TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (day, game)
) WITHOUT ROWID;
-- One submission per player, day and game; the server and channel where it was played make
-- the server's board.
CREATE TABLE challenge_plays (
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    setting TEXT NOT NULL,
    points INTEGER NOT NULL,
    par INTEGER NOT NULL,
    played TEXT NOT NULL,
    PRIMARY KEY (day, game, user_id)
) WITHOUT ROWID;
CREATE INDEX challenge_plays_board ON challenge_plays (day, game, guild_id);
CREATE INDEX challenge_plays_player ON challenge_plays (user_id, day);
-- The channel where a server hears of each day's challenge (no row: off).
CREATE TABLE challenge_channels (
    guild_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    announced TEXT
);
