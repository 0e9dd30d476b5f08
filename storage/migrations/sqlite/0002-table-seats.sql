-- Who sits at which table. The key makes "a player sits at one table per server" hold whatever
-- the code does: two actions racing to seat one player in two channels cannot both commit.
CREATE TABLE table_seats (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, channel_id) REFERENCES table_snapshots (guild_id, channel_id)
        ON DELETE CASCADE
) WITHOUT ROWID;

CREATE INDEX table_seats_by_channel ON table_seats (guild_id, channel_id);

-- The tables saved before this migration: their seats, read from the snapshots.
INSERT OR IGNORE INTO table_seats (guild_id, user_id, channel_id)
SELECT snapshot.guild_id, json_extract(seat.value, '$.user'), snapshot.channel_id
FROM table_snapshots AS snapshot, json_each(snapshot.state, '$.seats') AS seat;
