"""The daily challenge's prizes on each store: none unless a server sets one, the day's best
paid once (a ledger grant beside the row that marks it paid, even with two processes paying at
once), a tie split evenly with the odd chips to the earliest, and numbers out of range refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import Storage
from storage.audit import audit
from storage.database import Database
from storage.errors import StorageError
from storage.prizes import MAX_PRIZE, PrizeDue, Winner, split_prize
from storage.stores import open_database
from tests.storage.helpers import CHANNEL, GUILD, OTHER_GUILD, FakeClock

DAY, NEXT = "2026-03-02", "2026-03-03"
ANN, BOB, CY, DEE = 11, 12, 13, 14
REASON = "daily challenge prize: Showdown Version of 2026-03-02"


async def _submit(
    store: Storage, clock: FakeClock, user: int, score: int, *, guild: int = GUILD
) -> None:
    """A submission scoring ``score`` against par, a minute after the one before."""
    clock.advance(minutes=1)
    await store.challenges.submit(
        day=clock.now.date().isoformat(),
        game="showdown",
        title="Showdown Version",
        user_id=user,
        guild_id=guild,
        channel_id=CHANNEL,
        setting="{}",
        points=score + 10,
        par=10,
        event=lambda streak: {"type": "ChallengePlayed", "fields": {"streak": streak}},
    )


async def _pay_all(store: Storage, today: str) -> dict[PrizeDue, list[Winner] | None]:
    return {
        due: await store.prizes.pay(due, reason=REASON) for due in await store.prizes.due(today)
    }


async def test_no_prize_unless_a_server_sets_one(store: Storage, clock: FakeClock) -> None:
    await _submit(store, clock, ANN, 5)
    assert await store.prizes.get(GUILD) is None
    assert await store.prizes.due(NEXT) == []
    paid = await store.prizes.pay(PrizeDue(GUILD, DAY, "showdown"), reason=REASON)
    assert paid is None
    assert await store.players.get(GUILD, ANN) is None  # no chips, not even starting ones
    assert await store.prizes.winners(GUILD, DAY, "showdown") == []


async def test_the_days_best_is_paid_once_as_a_logged_grant(
    store: Storage, clock: FakeClock
) -> None:
    await store.players.get_or_create(GUILD, BOB)
    await store.prizes.set(GUILD, 100, DAY)
    await _submit(store, clock, ANN, 3)
    await _submit(store, clock, BOB, 7)
    await _submit(store, clock, CY, 9, guild=OTHER_GUILD)  # another server's board
    assert await store.prizes.due(DAY) == []  # the day is not over
    due = PrizeDue(GUILD, DAY, "showdown")
    assert await store.prizes.due(NEXT) == [due]
    assert await store.prizes.pay(due, reason=REASON) == [Winner(BOB, 100)]
    assert await store.prizes.pay(due, reason=REASON) is None
    assert await store.prizes.due(NEXT) == []
    assert await store.players.balance(GUILD, BOB) == 1_100
    assert await store.prizes.winners(GUILD, DAY, "showdown") == [Winner(BOB, 100)]
    (latest, *_) = await store.players.ledger(GUILD, BOB)
    assert (latest.kind, latest.amount, latest.reason, latest.game_id) == (
        "grant",
        100,
        REASON,
        None,
    )
    assert await store.players.get(OTHER_GUILD, CY) is None
    report = await audit(store.database)
    assert report.is_consistent, report.problems
    assert report.minted == 1_100  # Bob's starting chips and the prize


async def test_two_processes_paying_at_once_pay_once(
    store: Storage, clock: FakeClock, database_target: str | Path
) -> None:
    await store.prizes.set(GUILD, 50, DAY)
    await _submit(store, clock, ANN, 4)
    second: Database = await open_database(database_target, clock=clock)
    try:
        other = Storage.over(second)
        (due,) = await store.prizes.due(NEXT)
        both = await asyncio.gather(
            store.prizes.pay(due, reason=REASON), other.prizes.pay(due, reason=REASON)
        )
    finally:
        await second.close()
    assert sorted(both, key=str) == sorted([[Winner(ANN, 50)], None], key=str)
    assert await store.players.balance(GUILD, ANN) == 1_050
    assert (await audit(store.database)).is_consistent


async def test_a_tie_splits_the_prize_and_the_odd_chips_go_to_the_earliest(
    store: Storage, clock: FakeClock
) -> None:
    await store.prizes.set(GUILD, 100, DAY)
    await _submit(store, clock, DEE, -2)
    await _submit(store, clock, CY, 6)
    await _submit(store, clock, ANN, 6)
    await _submit(store, clock, BOB, 6)
    paid = await _pay_all(store, NEXT)
    expected = [Winner(CY, 34), Winner(ANN, 33), Winner(BOB, 33)]
    assert paid == {PrizeDue(GUILD, DAY, "showdown"): expected}
    assert await store.prizes.winners(GUILD, DAY, "showdown") == expected
    assert await store.players.get(GUILD, DEE) is None
    assert (await audit(store.database, GUILD)).is_consistent


def test_a_prize_smaller_than_the_tie_pays_the_earliest_a_chip_each() -> None:
    assert split_prize(2, [3, 1, 2]) == [Winner(3, 1), Winner(1, 1)]
    assert split_prize(7, [5]) == [Winner(5, 7)]


async def test_a_prize_is_paid_from_the_day_it_is_set_and_off_stops_it(
    store: Storage, clock: FakeClock
) -> None:
    await _submit(store, clock, ANN, 1)  # the 2nd, before any prize
    clock.advance(days=1)
    prize = await store.prizes.set(GUILD, 10, NEXT)
    assert prize is not None and (prize.chips, prize.since) == (10, NEXT)
    await _submit(store, clock, BOB, 1)  # the 3rd
    changed = await store.prizes.set(GUILD, 20, "2026-03-04")
    assert changed is not None and (changed.chips, changed.since) == (20, NEXT)
    assert [due.day for due in await store.prizes.due("2026-03-04")] == [NEXT]
    assert await store.prizes.set(GUILD, 0, "2026-03-04") is None
    assert await store.prizes.due("2026-03-04") == []
    assert await store.prizes.get(GUILD) is None


@pytest.mark.parametrize("chips", [-1, MAX_PRIZE + 1])
async def test_a_prize_out_of_range_is_refused_and_changes_nothing(
    store: Storage, chips: int
) -> None:
    await store.prizes.set(GUILD, 25, DAY)
    with pytest.raises(StorageError) as why:
        await store.prizes.set(GUILD, chips, DAY)
    assert str(why.value) == f"A challenge prize is 0 (none) to 1,000,000 chips, not {chips:,}."
    prize = await store.prizes.get(GUILD)
    assert prize is not None and prize.chips == 25
