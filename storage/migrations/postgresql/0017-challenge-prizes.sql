-- The daily challenge's prizes: see the SQLite store's 0017.
CREATE TABLE challenge_prizes (
    guild_id BIGINT PRIMARY KEY,
    chips BIGINT NOT NULL CHECK (chips > 0),
    since TEXT NOT NULL
);
CREATE TABLE challenge_awards (
    guild_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    prize BIGINT NOT NULL CHECK (prize > 0),
    paid TEXT NOT NULL,
    PRIMARY KEY (guild_id, day, game)
);
CREATE TABLE challenge_winners (
    guild_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    chips BIGINT NOT NULL CHECK (chips > 0),
    PRIMARY KEY (guild_id, day, game, user_id),
    FOREIGN KEY (guild_id, day, game) REFERENCES challenge_awards (guild_id, day, game)
);
