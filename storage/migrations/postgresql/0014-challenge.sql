-- The daily challenge (duplicate play): see the SQLite store's 0014.
CREATE TABLE challenge_deals (
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    deal TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (day, game)
);
CREATE TABLE challenge_plays (
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    setting TEXT NOT NULL,
    points BIGINT NOT NULL,
    par BIGINT NOT NULL,
    played TEXT NOT NULL,
    PRIMARY KEY (day, game, user_id)
);
CREATE INDEX challenge_plays_board ON challenge_plays (day, game, guild_id);
CREATE INDEX challenge_plays_player ON challenge_plays (user_id, day);
CREATE TABLE challenge_channels (
    guild_id BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    announced TEXT
);
