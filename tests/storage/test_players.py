"""Players: starting chips on first sight, the daily bonus, admin grants and takes, settings."""

from __future__ import annotations

import pytest

from storage import Storage
from storage.audit import audit
from storage.errors import DailyBonusTakenError, StorageError
from storage.settings import DEFAULT_DAILY_BONUS, DEFAULT_STARTING_CHIPS
from tests.storage.helpers import ADMIN, GUILD, OTHER_GUILD, FakeClock


async def test_a_new_player_gets_the_starting_chips_as_a_ledger_row(store: Storage) -> None:
    player = await store.players.get_or_create(GUILD, 7)
    assert player.balance == DEFAULT_STARTING_CHIPS
    [entry] = await store.players.ledger(GUILD, 7)
    assert (entry.kind, entry.amount, entry.reason) == (
        "starting",
        DEFAULT_STARTING_CHIPS,
        "starting chips",
    )
    assert (await store.players.get_or_create(GUILD, 7)).balance == DEFAULT_STARTING_CHIPS
    assert len(await store.players.ledger(GUILD, 7)) == 1


async def test_starting_chips_follow_the_server_setting(store: Storage) -> None:
    await store.settings.set(GUILD, starting_chips=250)
    assert await store.players.balance(GUILD, 7) == 250
    assert await store.players.balance(OTHER_GUILD, 7) == DEFAULT_STARTING_CHIPS


async def test_balances_are_read_at_once_and_a_new_player_gets_the_starting_chips(
    store: Storage,
) -> None:
    await store.players.grant(GUILD, 7, 5, admin_id=ADMIN)
    balances = await store.players.balances(GUILD, [8, 7, 7])
    assert balances == {7: DEFAULT_STARTING_CHIPS + 5, 8: DEFAULT_STARTING_CHIPS}
    assert len(await store.players.ledger(GUILD, 8)) == 1  # the starting chips, once
    assert await store.players.balances(GUILD, []) == {}
    report = await audit(store.database)
    assert report.is_consistent, report.problems


async def test_the_daily_bonus_is_paid_once_per_utc_day(store: Storage, clock: FakeClock) -> None:
    player = await store.players.claim_daily(GUILD, 7)
    assert player.balance == DEFAULT_STARTING_CHIPS + DEFAULT_DAILY_BONUS
    clock.advance(hours=11, minutes=30)  # 23:30 the same day
    with pytest.raises(DailyBonusTakenError, match=r"already taken today's daily bonus.*30 min"):
        await store.players.claim_daily(GUILD, 7)
    clock.advance(minutes=31)  # 00:01 the next day
    player = await store.players.claim_daily(GUILD, 7)
    assert player.balance == DEFAULT_STARTING_CHIPS + 2 * DEFAULT_DAILY_BONUS
    assert (await audit(store.database)).is_consistent


async def test_the_daily_bonus_is_counted_per_server(store: Storage) -> None:
    await store.players.claim_daily(GUILD, 7)
    await store.players.claim_daily(OTHER_GUILD, 7)
    with pytest.raises(DailyBonusTakenError):
        await store.players.claim_daily(GUILD, 7)


async def test_an_admin_grant_is_a_ledger_row_naming_the_admin(store: Storage) -> None:
    player = await store.players.grant(GUILD, 7, 500, admin_id=ADMIN, note="tournament prize")
    assert player.balance == DEFAULT_STARTING_CHIPS + 500
    entry = (await store.players.ledger(GUILD, 7))[0]
    assert (entry.kind, entry.amount) == ("grant", 500)
    assert entry.reason == f"grant by admin {ADMIN}: tournament prize"


async def test_an_admin_take_cannot_go_below_zero(store: Storage) -> None:
    await store.players.take(GUILD, 7, 400, admin_id=ADMIN)
    with pytest.raises(StorageError, match="has only 600 chips to take, not 601"):
        await store.players.take(GUILD, 7, 601, admin_id=ADMIN)
    assert await store.players.balance(GUILD, 7) == 600
    assert (await store.players.ledger(GUILD, 7))[0].reason == f"take by admin {ADMIN}"
    assert (await audit(store.database)).is_consistent


async def test_grants_and_takes_must_be_positive(store: Storage) -> None:
    with pytest.raises(StorageError, match="at least 1 chip"):
        await store.players.grant(GUILD, 7, 0, admin_id=ADMIN)
    with pytest.raises(StorageError, match="at least 1 chip"):
        await store.players.take(GUILD, 7, -5, admin_id=ADMIN)


async def test_players_of_two_servers_never_share_chips(store: Storage) -> None:
    await store.players.grant(GUILD, 7, 300, admin_id=ADMIN)
    assert await store.players.balance(OTHER_GUILD, 7) == DEFAULT_STARTING_CHIPS
    assert len(await store.players.ledger(OTHER_GUILD, 7)) == 1
    assert (await audit(store.database, GUILD)).minted == DEFAULT_STARTING_CHIPS + 300
    assert (await audit(store.database, OTHER_GUILD)).minted == DEFAULT_STARTING_CHIPS


async def test_settings_have_defaults_and_keep_what_is_not_changed(store: Storage) -> None:
    assert (await store.settings.get(GUILD)).lobby_minutes == 30
    await store.settings.set(GUILD, daily_bonus=50)
    changed = await store.settings.set(GUILD, lobby_minutes=45, table_defaults={"wheel": "x"})
    assert (changed.daily_bonus, changed.lobby_minutes) == (50, 45)
    assert changed.table_defaults == {"wheel": "x"}
    assert await store.settings.get(GUILD) == changed
    assert (await store.settings.get(OTHER_GUILD)).daily_bonus == DEFAULT_DAILY_BONUS
    with pytest.raises(StorageError, match="idle lobby closes after 1 to"):
        await store.settings.set(GUILD, lobby_minutes=0)
    with pytest.raises(StorageError, match="daily bonus must be 0 to"):
        await store.settings.set(GUILD, daily_bonus=-1)


async def test_the_servers_ledger_is_every_accounts_latest_rows_newest_first(
    store: Storage,
) -> None:
    await store.players.grant(GUILD, 7, 300, admin_id=ADMIN)
    await store.players.take(GUILD, 8, 50, admin_id=ADMIN, note="spam")
    await store.players.grant(OTHER_GUILD, 9, 5, admin_id=ADMIN)
    rows = await store.players.ledger(GUILD)
    assert [(r.user_id, r.kind, r.amount) for r in rows] == [
        (8, "take", -50),
        (8, "starting", DEFAULT_STARTING_CHIPS),
        (7, "grant", 300),
        (7, "starting", DEFAULT_STARTING_CHIPS),
    ]
    assert [r.id for r in await store.players.ledger(GUILD, limit=2)] == [r.id for r in rows[:2]]
