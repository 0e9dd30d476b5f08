-- Any number of subscribers read the tables' events from the one outbox, each from its own
-- position in each channel (see the SQLite store's 0010). The outbox's identity never gives an
-- id twice, so it stays as it is.
CREATE TABLE outbox_positions (
    subscriber TEXT NOT NULL,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    position BIGINT NOT NULL,
    PRIMARY KEY (subscriber, guild_id, channel_id)
);

-- Each player's results per server, UTC day and game (see the SQLite store's 0010).
CREATE TABLE player_stats (
    guild_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    played BIGINT NOT NULL,
    won BIGINT NOT NULL,
    lost BIGINT NOT NULL,
    pushed BIGINT NOT NULL,
    net BIGINT NOT NULL,
    best BIGINT NOT NULL,
    worst BIGINT NOT NULL,
    PRIMARY KEY (guild_id, day, game, user_id)
);

CREATE INDEX player_stats_by_player ON player_stats (guild_id, user_id, game);

CREATE TABLE player_stats_games (
    game_id BIGINT NOT NULL REFERENCES games (id),
    user_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Every game settled before this version counts, from its result rows in the ledger.
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
