-- The house's computers pay each player at most a server's daily cap. house_cap is the cap in
-- chips (NULL: the default in storage/settings.py); house_nets holds what each player netted
-- against the house's computers in each settled game (won: positive), stamped at settlement, so
-- the settlement's own transaction reads what the player already won that UTC day.
ALTER TABLE guild_settings ADD COLUMN house_cap INTEGER CHECK (house_cap >= 0);

CREATE TABLE house_nets (
    game_id INTEGER NOT NULL REFERENCES games (id),
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX house_nets_by_day ON house_nets (guild_id, user_id, created);
