-- Tournaments. A tournament's prize pool is the escrow of a game of its own (pool_game_id): a
-- buy-in is an escrow row, an unregistration or a cancellation a refund, the prizes the pool
-- game's settlement, so every chip still moves as a ledger row and the audit reads them as any
-- game's. The pool game is the tournament's to finish: a restart does not refund it.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    -- The registration message, once posted.
    message_id INTEGER,
    pool_game_id INTEGER NOT NULL UNIQUE REFERENCES games (id),
    host_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    buy_in INTEGER NOT NULL CHECK (buy_in > 0),
    max_players INTEGER NOT NULL CHECK (max_players >= 2),
    -- When registration closes and play starts; NULL: as soon as the tournament is full.
    starts TEXT,
    level_hands INTEGER NOT NULL CHECK (level_hands >= 1),
    -- The level of the computers that fill registration; NULL: people only.
    computers TEXT,
    status TEXT NOT NULL DEFAULT 'registering'
        CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    -- The tournament's own state once it runs (tables/tournament.py), checked by its version.
    state TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    finished TEXT,
    -- A finished tournament's closing (its last news posted, its tables dismissed) is done;
    -- until then a start takes it up again, as it does a running one.
    closed INTEGER NOT NULL DEFAULT 0,
    CHECK ((status IN ('registering', 'running')) = (finished IS NULL))
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

-- Who entered a tournament: a person (their buy-in escrowed in the pool game) or a computer
-- (negative user id, the house's entry). An unregistered person keeps the row, inactive, so a
-- second registration's buy-in is a stake of its own (buy_ins names it).
CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    registered TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    buy_ins INTEGER NOT NULL DEFAULT 1,
    place INTEGER,
    prize INTEGER,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- A game whose chips live in a ledger scope of its own (a tournament table's: the scope is a
-- guild_id no server has): its escrow, balances and ledger rows are the scope's, while the game
-- stays in its server and channel (its outbox, its table). NULL: the server's own chips.
ALTER TABLE games ADD COLUMN scope INTEGER;
