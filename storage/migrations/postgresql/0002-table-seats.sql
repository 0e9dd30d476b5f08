-- Who sits at which table; the key makes "a player sits at one table per server" hold whatever
-- the code (or any process of the bot) does.
CREATE TABLE table_seats (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, channel_id) REFERENCES table_snapshots (guild_id, channel_id)
        ON DELETE CASCADE
);

CREATE INDEX table_seats_by_channel ON table_seats (guild_id, channel_id);

INSERT INTO table_seats (guild_id, user_id, channel_id)
SELECT snapshot.guild_id, (seat.value ->> 'user')::BIGINT, snapshot.channel_id
FROM table_snapshots AS snapshot,
    jsonb_array_elements(snapshot.state::jsonb -> 'seats') AS seat
ON CONFLICT DO NOTHING;
