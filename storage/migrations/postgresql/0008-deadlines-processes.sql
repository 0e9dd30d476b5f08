-- Each table's next deadline as a row, written with its snapshot (see the SQLite store's 0008).
CREATE TABLE deadlines (
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    due DOUBLE PRECISION NOT NULL,
    version BIGINT NOT NULL,
    claimed_by TEXT,
    claimed_until DOUBLE PRECISION,
    PRIMARY KEY (guild_id, channel_id),
    FOREIGN KEY (guild_id, channel_id) REFERENCES table_snapshots (guild_id, channel_id)
        ON DELETE CASCADE
);

CREATE INDEX deadlines_by_due ON deadlines (due);

-- The bot's processes, each announcing itself while it runs.
CREATE TABLE processes (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid BIGINT NOT NULL,
    shards TEXT NOT NULL,
    started TEXT NOT NULL,
    seen TEXT NOT NULL
);
