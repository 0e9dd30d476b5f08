-- The house's computers pay each player at most a server's daily cap: see the SQLite store's
-- 0009.
ALTER TABLE guild_settings ADD COLUMN house_cap BIGINT CHECK (house_cap >= 0);

CREATE TABLE house_nets (
    game_id BIGINT NOT NULL REFERENCES games (id),
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
);

CREATE INDEX house_nets_by_day ON house_nets (guild_id, user_id, created);
