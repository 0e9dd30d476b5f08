-- Any number of subscribers read the tables' events from the one outbox (the publisher, the
-- players' statistics, ...), each from its own position in each channel: the id of the last row
-- it is done with. A row is deleted once every subscriber is past it (tables/outbox.py).
CREATE TABLE outbox_positions (
    subscriber TEXT NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (subscriber, guild_id, channel_id)
) WITHOUT ROWID;

-- A position must never be past a row still to come, but SQLite gives a new row the largest id
-- again once that row is deleted, unless the table is AUTOINCREMENT: the outbox is rebuilt so.
-- (PostgreSQL's identity never goes back.)
CREATE TABLE outbox_rebuilt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game_id INTEGER REFERENCES games (id),
    event TEXT NOT NULL,
    created TEXT NOT NULL
);

INSERT INTO outbox_rebuilt (id, guild_id, channel_id, game_id, event, created)
    SELECT id, guild_id, channel_id, game_id, event, created FROM outbox;

DROP TABLE outbox;

ALTER TABLE outbox_rebuilt RENAME TO outbox;

CREATE INDEX outbox_by_channel ON outbox (guild_id, channel_id, id);

-- Each player's results per server, UTC day ('YYYY-MM-DD') and game, kept by the statistics
-- subscriber from the settled games' showdowns (tables/statistics.py); the leaderboards of a
-- day, a week or all time and a player's record are read from here.
CREATE TABLE player_stats (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    played INTEGER NOT NULL,
    won INTEGER NOT NULL,
    lost INTEGER NOT NULL,
    pushed INTEGER NOT NULL,
    net INTEGER NOT NULL,
    best INTEGER NOT NULL,
    worst INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day, game, user_id)
) WITHOUT ROWID;

CREATE INDEX player_stats_by_player ON player_stats (guild_id, user_id, game);

-- Each player's result counted above, by game: a showdown delivered twice is counted once.
CREATE TABLE player_stats_games (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- Every game settled before this version counts, from its result rows in the ledger (one per
-- player and game, stamped at the settlement), so no leaderboard starts again from nothing.
INSERT INTO player_stats_games (game_id, user_id)
    SELECT game_id, user_id FROM ledger WHERE account = 'player' AND kind = 'result';

INSERT INTO player_stats (
    guild_id, day, game, user_id, played, won, lost, pushed, net, best, worst
)
    SELECT
        l.guild_id,
        substr(l.created, 1, 10),
        g.game,
        l.user_id,
        COUNT(*),
        COUNT(CASE WHEN l.amount > 0 THEN 1 END),
        COUNT(CASE WHEN l.amount < 0 THEN 1 END),
        COUNT(CASE WHEN l.amount = 0 THEN 1 END),
        SUM(l.amount),
        MAX(l.amount),
        MIN(l.amount)
    FROM ledger l JOIN games g ON g.id = l.game_id
    WHERE l.account = 'player' AND l.kind = 'result'
    GROUP BY l.guild_id, substr(l.created, 1, 10), g.game, l.user_id;
