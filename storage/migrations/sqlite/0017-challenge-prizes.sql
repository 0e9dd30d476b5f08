-- A server's prize for the best score of each day's challenge (no row: no prize, the default).
-- It is paid for the days from `since` (the UTC day it was set) on.
CREATE TABLE challenge_prizes (
    guild_id INTEGER PRIMARY KEY,
    chips INTEGER NOT NULL CHECK (chips > 0),
    since TEXT NOT NULL
);
-- One row per server, day and game whose prize was paid: written in the transaction that pays
-- it (its ledger rows), so a day's prize is paid once whichever process or restart comes first.
CREATE TABLE challenge_awards (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    prize INTEGER NOT NULL CHECK (prize > 0),
    paid TEXT NOT NULL,
    PRIMARY KEY (guild_id, day, game)
) WITHOUT ROWID;
-- Who won it and how many chips each (a tie splits the prize).
CREATE TABLE challenge_winners (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    chips INTEGER NOT NULL CHECK (chips > 0),
    PRIMARY KEY (guild_id, day, game, user_id),
    FOREIGN KEY (guild_id, day, game) REFERENCES challenge_awards (guild_id, day, game)
) WITHOUT ROWID;
