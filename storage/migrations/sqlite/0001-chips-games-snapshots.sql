-- Players, the chip ledger, games with their escrow, table snapshots and server settings.

-- Absent rows mean the defaults in storage/settings.py.
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    starting_chips INTEGER NOT NULL CHECK (starting_chips >= 0),
    daily_bonus INTEGER NOT NULL CHECK (daily_bonus >= 0),
    default_ante INTEGER NOT NULL CHECK (default_ante > 0),
    updated TEXT NOT NULL
);

-- balance is a cache of the player's ledger rows; the CHECK makes overspending impossible.
CREATE TABLE players (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    created TEXT NOT NULL,
    last_daily TEXT,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX players_by_balance ON players (guild_id, balance DESC);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    variant TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled', 'refunded')),
    created TEXT NOT NULL,
    finished TEXT,
    seats TEXT NOT NULL DEFAULT '[]',
    result TEXT,
    CHECK ((status = 'open') = (finished IS NULL))
);

-- Resume reads the open games only; they are few beside the finished ones.
CREATE INDEX games_open ON games (guild_id, channel_id) WHERE status = 'open';
CREATE INDEX games_by_variant ON games (guild_id, variant);

-- Chips held for a game, per player: a cache of the escrow account's ledger rows.
CREATE TABLE escrow (
    game_id INTEGER NOT NULL REFERENCES games (id),
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    amount INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (game_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
) WITHOUT ROWID;

-- One row per chip movement on one account: a player's balance, a player's escrow in a game,
-- or the house. Only starting, daily, grant and take rows bring chips in or out; the rows of
-- every other kind sum to zero per game.
CREATE TABLE ledger (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    account TEXT NOT NULL CHECK (account IN ('player', 'escrow', 'house')),
    user_id INTEGER,
    game_id INTEGER REFERENCES games (id),
    kind TEXT NOT NULL CHECK (
        kind IN ('starting', 'daily', 'grant', 'take', 'escrow', 'release', 'result', 'refund')
    ),
    amount INTEGER NOT NULL,
    reason TEXT NOT NULL,
    created TEXT NOT NULL,
    CHECK ((account = 'house') = (user_id IS NULL)),
    CHECK (account = 'player' OR game_id IS NOT NULL),
    -- A zero result row still records that the player played (history, statistics).
    CHECK (amount != 0 OR kind = 'result'),
    -- NULL user_id (the house) leaves this key unchecked, as SQLite does for any NULL column.
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
);

CREATE INDEX ledger_by_player ON ledger (guild_id, user_id, account, game_id);
CREATE INDEX ledger_by_game ON ledger (game_id);
-- Leaderboards over a period read the result rows of one server by time.
CREATE INDEX ledger_results ON ledger (guild_id, kind, created);

-- The latest state of the table in each channel, rebuilt after a restart.
CREATE TABLE table_snapshots (
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game_id INTEGER REFERENCES games (id),
    state TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version > 0),
    updated TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;
