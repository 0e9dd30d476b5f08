-- A declaration to play on in one round trip (issue 25): its player's balance, which used to be
-- read before the save (a round trip of its own), is checked by the save's own statement.
-- pp_save_table saves the table as 0013 does (the version expected, the seats, the deadline, the
-- events, the lock claimed or let go with the commit); then, if the player (``cover_user`` in
-- the ledger scope ``cover_scope``) holds fewer than ``cover_chips``, PPSHO (DETAIL: user,
-- chips held and needed) undoes it all. A player with no row yet passes: the reveal's escrow
-- gives them their starting chips and checks the stake again, as it checks every stake.
CREATE OR REPLACE FUNCTION pp_save_covered(
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
    cover_scope BIGINT,
    cover_user BIGINT,
    cover_chips BIGINT,
    release BIGINT,
    OUT new_version BIGINT,
    OUT previous BIGINT,
    OUT ids BIGINT[],
    OUT passed TEXT[]
) LANGUAGE plpgsql AS $$
DECLARE
    held BIGINT;
BEGIN
    SELECT s.new_version, s.previous, s.ids, s.passed INTO new_version, previous, ids, passed
    FROM pp_save_table(
        guild, channel, game, saved_state, saved_at, expected, seated, due_at, events, passing,
        release
    ) s;
    SELECT p.balance INTO held FROM players p
    WHERE p.guild_id = cover_scope AND p.user_id = cover_user;
    IF held < cover_chips THEN
        RAISE EXCEPTION USING ERRCODE = 'PPSHO', MESSAGE = 'Not enough chips.',
            DETAIL = format('%s %s %s', cover_user, held, cover_chips);
    END IF;
END
$$;
