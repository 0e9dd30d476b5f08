-- A table's save that also moves the chips its action moved, in its one statement (issue 25).
--
-- The declaration that reveals in one round trip (issue 25): the stakes of those who play on,
-- which used to be escrowed under the table's lock taken first (two round trips of their own),
-- are taken by the save's own statement, which claims the lock for its commit and checks the
-- table's version as every deferred save does. pp_escrow takes them as 0013 does (all or none,
-- PPSHO naming every player short, PPNEW a player never seen, PPOPN a game over); a stake taken
-- already under the reason (an escrow the slower way, then a crash before the save) refuses
-- with PPSTA, so that the caller escrows the slower way and reports what was taken now. Then
-- pp_save_table saves the table. A refusal keeps nothing.
CREATE OR REPLACE FUNCTION pp_save_escrowed(
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
    for_game BIGINT,
    stake_reason TEXT,
    users BIGINT[],
    amounts BIGINT[],
    release BIGINT,
    OUT new_version BIGINT,
    OUT previous BIGINT,
    OUT ids BIGINT[],
    OUT passed TEXT[]
) LANGUAGE plpgsql AS $$
DECLARE
    taken BIGINT[];
BEGIN
    -- The lock first: the stakes move under it, the version checked by the save below.
    PERFORM pp_hold_to_commit(release);
    SELECT e.taken_users INTO taken FROM pp_escrow(for_game, stake_reason, users, amounts, saved_at) e;
    IF COALESCE(cardinality(taken), 0) <> COALESCE(cardinality(users), 0) THEN
        RAISE EXCEPTION USING ERRCODE = 'PPSTA',
            MESSAGE = 'A stake of the reveal was taken already.';
    END IF;
    SELECT s.new_version, s.previous, s.ids, s.passed INTO new_version, previous, ids, passed
    FROM pp_save_table(
        guild, channel, game, saved_state, saved_at, expected, seated, due_at, events, passing,
        NULL
    ) s;
END
$$;

-- The setting of hands that settles the game in two round trips, not four: the game read at once
-- (`ChipRepository.holdings`, no lock), then the settlement worked out from that reading and
-- the table's save in one statement, which claims the table's lock for its commit as above:
-- pp_settle (which checks under the game's lock that the game, its escrow, the balances and the
-- house's day are as read, and queues the showdown), then pp_save_table. The balances read
-- (``read_users``, ``read_balances``) must be what the players held when pp_settle locked their
-- rows (each is then its reading plus its change): the cut of a loss beyond what a player has
-- at the table was reckoned on them, so a balance that moved since the reading (a grant, a
-- prize) refuses, and the reading may be made before the last hands come. A game settled
-- already refuses with PPSTA, as every refusal of pp_settle refuses the whole: the caller
-- settles the slower way, under the table's lock.
CREATE OR REPLACE FUNCTION pp_save_settled(
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
    showdown TEXT[],
    read_users BIGINT[],
    read_balances BIGINT[],
    release BIGINT,
    OUT new_version BIGINT,
    OUT previous BIGINT,
    OUT ids BIGINT[],
    OUT passed TEXT[],
    OUT settled_previous BIGINT,
    OUT settled_ids BIGINT[]
) LANGUAGE plpgsql AS $$
DECLARE
    repeated BOOLEAN;
BEGIN
    PERFORM pp_hold_to_commit(release);
    SELECT s.repeated, s.previous, s.ids INTO repeated, settled_previous, settled_ids
    FROM pp_settle(
        for_game, expected_result, held_users, held_amounts, players_in, deltas, entry_accounts,
        entry_users, entry_amounts, entry_kinds, entry_reasons, record, settled_at, day_cap,
        default_cap, day_start, won_users, won_amounts, net_users, net_amounts, showdown
    ) s;
    IF repeated THEN
        RAISE EXCEPTION USING ERRCODE = 'PPSTA', MESSAGE = 'The game was settled already.';
    END IF;
    IF EXISTS (
        SELECT 1 FROM unnest(read_users, read_balances) AS r(u, b)
        LEFT JOIN players p ON p.guild_id = guild AND p.user_id = r.u
        LEFT JOIN unnest(players_in, deltas) AS s(u, d) ON s.u = r.u
        WHERE p.balance IS DISTINCT FROM r.b + COALESCE(s.d, 0)
    ) THEN
        RAISE EXCEPTION USING ERRCODE = 'PPSTA',
            MESSAGE = 'A balance changed since the game was read.';
    END IF;
    SELECT s.new_version, s.previous, s.ids, s.passed INTO new_version, previous, ids, passed
    FROM pp_save_table(
        guild, channel, game, saved_state, saved_at, expected, seated, due_at, events, passing,
        NULL
    ) s;
END
$$;
