-- Events a table has committed but not yet shown, oldest first. A row is written in the same
-- transaction as the change it reports (a settlement, a snapshot) and deleted once published,
-- so a showdown settled just before a crash is still posted after the restart.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game_id INTEGER REFERENCES games (id),
    event TEXT NOT NULL,
    created TEXT NOT NULL
);

CREATE INDEX outbox_by_channel ON outbox (guild_id, channel_id, id);
