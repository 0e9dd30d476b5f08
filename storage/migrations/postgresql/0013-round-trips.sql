-- A table's action in a few round trips: each step below is one statement, where the bot sent a
-- transaction of several (BEGIN, each statement, COMMIT), each a round trip that waited for a
-- turn of a busy event loop (issue 25; docs/architecture.md, "Storage"). They do what the
-- SQLite store does from Python (storage/games.py, storage/chips.py, storage/outbox.py), where
-- a statement costs no round trip, and tests/storage and tests/tables run both.
--
-- A refusal raises SQLSTATE PPxxx with nothing kept: PPSTA a snapshot saved over a newer one,
-- PPSEA a player seated at another table (DETAIL: user and channel), PPSHO players short of
-- chips (DETAIL: user, chips held and needed, per line), PPHOU a settlement reckoned on a day
-- from the house that changed, PPOPN a game not open, PPNEW a player never seen (the caller
-- takes its slower path, which creates them), PPLCK a lock this session does not hold.
--
-- A lock "released" with a statement's commit: the caller's session holds the advisory lock;
-- the function takes it again for its transaction and frees the session's hold, so the lock
-- goes with the commit, and a process that takes it next sees what was committed.

-- Take a table's advisory lock and read its snapshot's version under it (NULL: no table). Each
-- statement of a VOLATILE function reads a snapshot of its own, taken after the lock.
CREATE OR REPLACE FUNCTION pp_take_table(
    lock_id BIGINT, guild BIGINT, channel BIGINT, OUT taken BOOLEAN, OUT value BIGINT
) LANGUAGE plpgsql AS $$
BEGIN
    taken := pg_try_advisory_lock(lock_id);
    IF taken THEN
        SELECT s.version INTO value FROM table_snapshots s
        WHERE s.guild_id = guild AND s.channel_id = channel;
    END IF;
END
$$;

-- Take an outbox lane's advisory lock and read its position in the channel under it.
CREATE OR REPLACE FUNCTION pp_take_lane(
    lock_id BIGINT, lane TEXT, guild BIGINT, channel BIGINT, OUT taken BOOLEAN, OUT value BIGINT
) LANGUAGE plpgsql AS $$
BEGIN
    taken := pg_try_advisory_lock(lock_id);
    IF taken THEN
        SELECT p.position INTO value FROM outbox_positions p
        WHERE p.subscriber = lane AND p.guild_id = guild AND p.channel_id = channel;
    END IF;
END
$$;

-- Hold a lock of the session's until this transaction ends (see above); NULL: nothing to do.
CREATE OR REPLACE FUNCTION pp_hold_to_commit(release BIGINT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    IF release IS NULL THEN
        RETURN;
    END IF;
    IF NOT pg_try_advisory_xact_lock(release) THEN
        RAISE EXCEPTION USING ERRCODE = 'PPLCK', MESSAGE = 'The lock is held elsewhere.';
    END IF;
    PERFORM pg_advisory_unlock(release);
END
$$;

-- Queue events in order; the channel's last row before them (NULL: none left) and their ids.
CREATE OR REPLACE FUNCTION pp_queue(
    guild BIGINT, channel BIGINT, game BIGINT, events TEXT[], queued_at TEXT,
    OUT previous BIGINT, OUT ids BIGINT[]
) LANGUAGE plpgsql AS $$
DECLARE
    payload TEXT;
    added BIGINT;
BEGIN
    ids := '{}';
    IF COALESCE(cardinality(events), 0) = 0 THEN
        RETURN;
    END IF;
    SELECT max(o.id) INTO previous FROM outbox o
    WHERE o.guild_id = guild AND o.channel_id = channel;
    FOREACH payload IN ARRAY events LOOP
        INSERT INTO outbox (guild_id, channel_id, game_id, event, created)
        VALUES (guild, channel, game, payload, queued_at)
        RETURNING id INTO added;
        ids := ids || added;
    END LOOP;
END
$$;

-- Move the lanes that want none of the rows just queued past them, if nothing before them is
-- pending for the lane (its position is at ``previous`` or beyond); a lane whose position a
-- transaction holds is left to take the rows itself. The lanes moved.
CREATE OR REPLACE FUNCTION pp_pass_by(
    guild BIGINT, channel BIGINT, lanes TEXT[], previous BIGINT, last_id BIGINT
) RETURNS TEXT[] LANGUAGE plpgsql AS $$
DECLARE
    moved TEXT[];
    added TEXT[];
BEGIN
    IF COALESCE(cardinality(lanes), 0) = 0 OR last_id IS NULL THEN
        RETURN '{}';
    END IF;
    WITH done AS (
        UPDATE outbox_positions p SET position = last_id
        WHERE (p.subscriber, p.guild_id, p.channel_id) IN (
            SELECT q.subscriber, q.guild_id, q.channel_id FROM outbox_positions q
            WHERE q.guild_id = guild AND q.channel_id = channel AND q.subscriber = ANY (lanes)
                AND q.position >= COALESCE(previous, 0) AND q.position < last_id
            FOR UPDATE SKIP LOCKED
        )
        RETURNING p.subscriber
    )
    SELECT COALESCE(array_agg(done.subscriber), '{}') INTO moved FROM done;
    IF previous IS NULL THEN
        -- No row before these: a lane with no position yet has nothing pending either.
        WITH done AS (
            INSERT INTO outbox_positions (subscriber, guild_id, channel_id, position)
            SELECT lane, guild, channel, last_id FROM unnest(lanes) AS lane
            ON CONFLICT (subscriber, guild_id, channel_id) DO NOTHING
            RETURNING subscriber
        )
        SELECT COALESCE(array_agg(done.subscriber), '{}') INTO added FROM done;
        moved := moved || added;
    END IF;
    RETURN moved;
END
$$;

-- storage.games.SnapshotRepository.save: the snapshot over the version expected, the seats,
-- the deadline and the events, and the lanes that want none of them moved past them.
CREATE OR REPLACE FUNCTION pp_save_table(
    guild BIGINT,
    channel BIGINT,
    game BIGINT,
    saved_state TEXT,
    saved_at TEXT,
    expected BIGINT,
    seated BIGINT[],
    due_at DOUBLE PRECISION,
    events TEXT[],
    passing TEXT[],
    release BIGINT,
    OUT new_version BIGINT,
    OUT previous BIGINT,
    OUT ids BIGINT[],
    OUT passed TEXT[]
) LANGUAGE plpgsql AS $$
DECLARE
    changed INTEGER;
    found_version BIGINT;
    player BIGINT;
    elsewhere BIGINT;
BEGIN
    PERFORM pp_hold_to_commit(release);
    IF expected IS NULL THEN
        SELECT s.version INTO expected FROM table_snapshots s
        WHERE s.guild_id = guild AND s.channel_id = channel FOR UPDATE;
        expected := COALESCE(expected, 0);
    END IF;
    IF expected = 0 THEN
        -- A first save racing another (no row to lock yet) meets its row here and is refused.
        INSERT INTO table_snapshots (guild_id, channel_id, game_id, state, version, updated)
        VALUES (guild, channel, game, saved_state, 1, saved_at)
        ON CONFLICT (guild_id, channel_id) DO NOTHING;
    ELSE
        UPDATE table_snapshots
        SET game_id = game, state = saved_state, version = expected + 1, updated = saved_at
        WHERE guild_id = guild AND channel_id = channel AND version = expected;
    END IF;
    GET DIAGNOSTICS changed = ROW_COUNT;
    IF changed = 0 THEN
        SELECT s.version INTO found_version FROM table_snapshots s
        WHERE s.guild_id = guild AND s.channel_id = channel;
        RAISE EXCEPTION USING ERRCODE = 'PPSTA', MESSAGE = format(
            'The table changed meanwhile (version %s, not %s).',
            COALESCE(found_version::TEXT, 'none'), expected
        );
    END IF;
    new_version := expected + 1;

    -- Most saves change no seat: one read instead of a delete and an insert each.
    IF (
        SELECT COALESCE(array_agg(t.user_id ORDER BY t.user_id), '{}') FROM table_seats t
        WHERE t.guild_id = guild AND t.channel_id = channel
    ) IS DISTINCT FROM (
        SELECT COALESCE(array_agg(u ORDER BY u), '{}') FROM unnest(seated) AS u
    ) THEN
        DELETE FROM table_seats WHERE guild_id = guild AND channel_id = channel;
        FOREACH player IN ARRAY seated LOOP
            INSERT INTO table_seats (guild_id, user_id, channel_id) VALUES (guild, player, channel)
            ON CONFLICT (guild_id, user_id) DO NOTHING;
            IF NOT FOUND THEN
                SELECT t.channel_id INTO elsewhere FROM table_seats t
                WHERE t.guild_id = guild AND t.user_id = player;
                RAISE EXCEPTION USING ERRCODE = 'PPSEA',
                    MESSAGE = 'A player sits at another table of the server.',
                    DETAIL = format('%s %s', player, COALESCE(elsewhere, channel));
            END IF;
        END LOOP;
    END IF;

    IF due_at IS NULL THEN
        DELETE FROM deadlines WHERE guild_id = guild AND channel_id = channel;
    ELSE
        -- Writing it again clears any claim: the table moved on.
        INSERT INTO deadlines (guild_id, channel_id, due, version)
        VALUES (guild, channel, due_at, new_version)
        ON CONFLICT (guild_id, channel_id) DO UPDATE SET due = excluded.due,
            version = excluded.version, claimed_by = NULL, claimed_until = NULL;
    END IF;

    SELECT q.previous, q.ids INTO previous, ids
    FROM pp_queue(guild, channel, game, events, saved_at) q;
    passed := pp_pass_by(guild, channel, passing, previous, ids[cardinality(ids)]);
END
$$;

-- storage.games.SnapshotRepository.delete: forget a closed table, its events queued.
CREATE OR REPLACE FUNCTION pp_delete_table(
    guild BIGINT,
    channel BIGINT,
    events TEXT[],
    deleted_at TEXT,
    passing TEXT[],
    release BIGINT,
    OUT deleted BOOLEAN,
    OUT previous BIGINT,
    OUT ids BIGINT[],
    OUT passed TEXT[]
) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pp_hold_to_commit(release);
    DELETE FROM table_snapshots WHERE guild_id = guild AND channel_id = channel;
    deleted := FOUND;
    SELECT q.previous, q.ids INTO previous, ids
    FROM pp_queue(guild, channel, NULL, events, deleted_at) q;
    passed := pp_pass_by(guild, channel, passing, previous, ids[cardinality(ids)]);
END
$$;

-- A lane is done with the channel's rows up to ``done_at`` (NULL: none): its position moved
-- on (never back), the rows every lane of ``lanes`` is past forgotten, its lock freed. A lock
-- on the channel's forgetting, held to the commit, orders lanes finishing together, so the
-- later sees the earlier's position (in two transactions side by side neither would, and
-- neither would forget the rows).
CREATE OR REPLACE FUNCTION pp_lane_done(
    lane TEXT,
    guild BIGINT,
    channel BIGINT,
    done_at BIGINT,
    lanes TEXT[],
    release BIGINT,
    OUT forgotten BIGINT
) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pp_hold_to_commit(release);
    PERFORM pg_advisory_xact_lock(hashtextextended(format('forget:%s:%s', guild, channel), 0));
    IF done_at IS NOT NULL THEN
        INSERT INTO outbox_positions (subscriber, guild_id, channel_id, position)
        VALUES (lane, guild, channel, done_at)
        ON CONFLICT (subscriber, guild_id, channel_id) DO UPDATE SET position = excluded.position
        WHERE excluded.position > outbox_positions.position;
    END IF;
    DELETE FROM outbox o WHERE o.guild_id = guild AND o.channel_id = channel AND o.id <= (
        SELECT CASE WHEN COUNT(*) = cardinality(lanes) THEN MIN(p.position) ELSE 0 END
        FROM outbox_positions p
        WHERE p.guild_id = guild AND p.channel_id = channel AND p.subscriber = ANY (lanes)
    );
    GET DIAGNOSTICS forgotten = ROW_COUNT;
END
$$;

-- storage.chips.ChipRepository.escrow: each player's stake under ``stake_reason`` into the
-- game's escrow, all of them or none; a player already escrowed under it is skipped. The stakes
-- taken, by user.
CREATE OR REPLACE FUNCTION pp_escrow(
    for_game BIGINT,
    stake_reason TEXT,
    users BIGINT[],
    amounts BIGINT[],
    escrowed_at TEXT,
    OUT taken_users BIGINT[],
    OUT taken_amounts BIGINT[]
) LANGUAGE plpgsql AS $$
DECLARE
    guild BIGINT;
    game_status TEXT;
    short TEXT;
BEGIN
    -- Locked until the commit: a game's chips move in one transaction at a time.
    SELECT g.guild_id, g.status INTO guild, game_status FROM games g
    WHERE g.id = for_game FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'PPOPN',
            MESSAGE = format('There is no game %s.', for_game);
    END IF;
    IF game_status <> 'open' THEN
        RAISE EXCEPTION USING ERRCODE = 'PPOPN',
            MESSAGE = format('Game %s is over; it takes no more chips.', for_game);
    END IF;
    SELECT COALESCE(array_agg(s.u ORDER BY s.u), '{}'), COALESCE(array_agg(s.a ORDER BY s.u), '{}')
    INTO taken_users, taken_amounts
    FROM unnest(users, amounts) AS s(u, a)
    WHERE NOT EXISTS (
        SELECT 1 FROM ledger l
        WHERE l.game_id = for_game AND l.account = 'escrow' AND l.kind = 'escrow'
            AND l.reason = stake_reason AND l.user_id = s.u
    );
    IF cardinality(taken_users) = 0 THEN
        RETURN;
    END IF;
    -- In user order, as every transaction locks players: two cannot wait on each other.
    PERFORM 1 FROM players p WHERE p.guild_id = guild AND p.user_id = ANY (taken_users)
    ORDER BY p.user_id FOR UPDATE;
    IF (SELECT count(*) FROM players p WHERE p.guild_id = guild AND p.user_id = ANY (taken_users))
        < cardinality(taken_users) THEN
        RAISE EXCEPTION USING ERRCODE = 'PPNEW', MESSAGE = 'A player is new to the server.';
    END IF;
    SELECT string_agg(format('%s %s %s', p.user_id, p.balance, s.a), E'\n' ORDER BY p.user_id)
    INTO short
    FROM players p JOIN unnest(taken_users, taken_amounts) AS s(u, a) ON p.user_id = s.u
    WHERE p.guild_id = guild AND p.balance < s.a;
    IF short IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'PPSHO', MESSAGE = 'Not enough chips.', DETAIL = short;
    END IF;
    UPDATE players p SET balance = p.balance - s.a
    FROM unnest(taken_users, taken_amounts) AS s(u, a)
    WHERE p.guild_id = guild AND p.user_id = s.u;
    INSERT INTO escrow (game_id, guild_id, user_id, amount)
    SELECT for_game, guild, s.u, s.a FROM unnest(taken_users, taken_amounts) AS s(u, a)
    ON CONFLICT (game_id, user_id) DO UPDATE SET amount = escrow.amount + excluded.amount;
    INSERT INTO ledger (guild_id, account, user_id, game_id, kind, amount, reason, created)
    SELECT guild, e.account, s.u, for_game, 'escrow', e.sign * s.a, stake_reason, escrowed_at
    FROM unnest(taken_users, taken_amounts) WITH ORDINALITY AS s(u, a, n)
    CROSS JOIN (VALUES (1, 'player', -1), (2, 'escrow', 1)) AS e(k, account, sign)
    ORDER BY s.n, e.k;
END
$$;

-- storage.chips.ChipRepository.settle, with the ledger's rows, the balances' changes and the
-- game's record worked out by the caller from the game as it read it (``expected_*``: its
-- result and escrow), which is checked under the game's lock (PPSTA if it changed: the caller
-- settles the slower way). A game settled already answers its first settlement (``repeated``).
CREATE OR REPLACE FUNCTION pp_settle(
    for_game BIGINT,
    expected_result TEXT,
    held_users BIGINT[],
    held_amounts BIGINT[],
    players_in BIGINT[],
    deltas BIGINT[],
    entry_accounts TEXT[],
    entry_users BIGINT[],
    entry_amounts BIGINT[],
    entry_kinds TEXT[],
    entry_reasons TEXT[],
    record TEXT,
    settled_at TEXT,
    day_cap BIGINT,
    default_cap BIGINT,
    day_start TEXT,
    won_users BIGINT[],
    won_amounts BIGINT[],
    net_users BIGINT[],
    net_amounts BIGINT[],
    events TEXT[],
    OUT repeated BOOLEAN,
    OUT result_users BIGINT[],
    OUT result_amounts BIGINT[],
    OUT house_net BIGINT,
    OUT previous BIGINT,
    OUT ids BIGINT[]
) LANGUAGE plpgsql AS $$
DECLARE
    guild BIGINT;
    channel BIGINT;
    game_status TEXT;
    game_result TEXT;
    short TEXT;
    cap BIGINT;
BEGIN
    repeated := false;
    ids := '{}';
    SELECT g.guild_id, g.channel_id, g.status, g.result
    INTO guild, channel, game_status, game_result
    FROM games g WHERE g.id = for_game FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'PPOPN',
            MESSAGE = format('There is no game %s.', for_game);
    END IF;
    IF game_status = 'settled' THEN
        repeated := true;
        SELECT COALESCE(array_agg(l.user_id ORDER BY l.id), '{}'),
            COALESCE(array_agg(l.amount ORDER BY l.id), '{}')
        INTO result_users, result_amounts
        FROM ledger l WHERE l.game_id = for_game AND l.kind = 'result' AND l.account = 'player';
        SELECT COALESCE(sum(l.amount), 0) INTO house_net
        FROM ledger l WHERE l.game_id = for_game AND l.kind = 'result' AND l.account = 'house';
        RETURN;
    END IF;
    IF game_status = 'refunded' THEN
        RAISE EXCEPTION USING ERRCODE = 'PPOPN',
            MESSAGE = format('Game %s was cancelled and refunded; it cannot settle.', for_game);
    END IF;
    IF game_result IS DISTINCT FROM expected_result OR (
        SELECT COALESCE(array_agg(e.user_id ORDER BY e.user_id), '{}') FROM escrow e
        WHERE e.game_id = for_game
    ) IS DISTINCT FROM held_users OR (
        SELECT COALESCE(array_agg(e.amount ORDER BY e.user_id), '{}') FROM escrow e
        WHERE e.game_id = for_game
    ) IS DISTINCT FROM held_amounts THEN
        RAISE EXCEPTION USING ERRCODE = 'PPSTA', MESSAGE = 'The game changed since it was read.';
    END IF;
    PERFORM 1 FROM players p WHERE p.guild_id = guild AND p.user_id = ANY (players_in)
    ORDER BY p.user_id FOR UPDATE;
    IF (SELECT count(*) FROM players p WHERE p.guild_id = guild AND p.user_id = ANY (players_in))
        < cardinality(players_in) THEN
        RAISE EXCEPTION USING ERRCODE = 'PPNEW', MESSAGE = 'A player is new to the server.';
    END IF;
    -- Each player gets back their escrow plus their net: a loss beyond it from the balance.
    SELECT string_agg(
        format('%s %s %s', p.user_id, p.balance + COALESCE(h.a, 0), COALESCE(h.a, 0) - s.d),
        E'\n' ORDER BY p.user_id
    )
    INTO short
    FROM players p
    JOIN unnest(players_in, deltas) AS s(u, d) ON p.user_id = s.u
    LEFT JOIN unnest(held_users, held_amounts) AS h(u, a) ON h.u = s.u
    WHERE p.guild_id = guild AND p.balance + s.d < 0;
    IF short IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'PPSHO', MESSAGE = 'Not enough chips.', DETAIL = short;
    END IF;
    IF day_cap IS NOT NULL THEN
        -- The cut of the daily cap was reckoned on this day's winnings: still so?
        SELECT COALESCE(s.house_cap, default_cap) INTO cap
        FROM (SELECT 1) AS one LEFT JOIN guild_settings s ON s.guild_id = guild;
        IF cap IS DISTINCT FROM day_cap OR EXISTS (
            SELECT 1 FROM unnest(won_users, won_amounts) AS w(u, a)
            WHERE w.a IS DISTINCT FROM (
                SELECT COALESCE(sum(n.amount), 0) FROM house_nets n
                WHERE n.guild_id = guild AND n.user_id = w.u AND n.created >= day_start
            )
        ) THEN
            RAISE EXCEPTION USING ERRCODE = 'PPHOU', MESSAGE = 'The house day changed.';
        END IF;
        INSERT INTO house_nets (game_id, guild_id, user_id, amount, created)
        SELECT for_game, guild, n.u, n.a, settled_at FROM unnest(net_users, net_amounts) AS n(u, a)
        WHERE n.a <> 0;
    END IF;
    DELETE FROM escrow WHERE game_id = for_game;
    UPDATE players p SET balance = p.balance + s.d
    FROM unnest(players_in, deltas) AS s(u, d)
    WHERE p.guild_id = guild AND p.user_id = s.u AND s.d <> 0;
    INSERT INTO ledger (guild_id, account, user_id, game_id, kind, amount, reason, created)
    SELECT guild, e.account, e.u, for_game, e.kind, e.amount, e.reason, settled_at
    FROM unnest(entry_accounts, entry_users, entry_amounts, entry_kinds, entry_reasons)
        WITH ORDINALITY AS e(account, u, amount, kind, reason, n)
    ORDER BY e.n;
    UPDATE games SET status = 'settled', finished = settled_at, result = record WHERE id = for_game;
    SELECT q.previous, q.ids INTO previous, ids
    FROM pp_queue(guild, channel, for_game, events, settled_at) q;
END
$$;
