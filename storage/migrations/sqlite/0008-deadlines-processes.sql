-- Each table's next deadline as a row, written with its snapshot, so that any process of the
-- bot can fire it: the one that set it (its own timer), or another one once it is overdue (the
-- first process died). A process claims a row for a while before firing it; a claim that ran out
-- without the row changing means the firing failed, and the row may be claimed again.
CREATE TABLE deadlines (
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    -- Seconds since the epoch, as the tables' clock reads time.
    due REAL NOT NULL,
    -- The snapshot's version that set this deadline.
    version INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_until REAL,
    PRIMARY KEY (guild_id, channel_id),
    FOREIGN KEY (guild_id, channel_id) REFERENCES table_snapshots (guild_id, channel_id)
        ON DELETE CASCADE
) WITHOUT ROWID;

CREATE INDEX deadlines_by_due ON deadlines (due);

-- The bot's processes, each announcing itself while it runs (operators see the cluster).
CREATE TABLE processes (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    shards TEXT NOT NULL,
    started TEXT NOT NULL,
    seen TEXT NOT NULL
) WITHOUT ROWID;
