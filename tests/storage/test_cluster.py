"""Deadlines any process may fire, claimed by exactly one; processes announcing themselves."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import Storage
from storage.errors import StaleSnapshotError
from storage.stores import open_database
from tests.storage.helpers import CHANNEL, GUILD, FakeClock

NOW = 1_000_000.0


async def save(store: Storage, channel: int, *, due: float | None, version: int = 0) -> int:
    snapshot = await store.snapshots.save(
        guild_id=GUILD,
        channel_id=channel,
        state={"channel": channel},
        expected_version=version,
        deadline=due,
    )
    return snapshot.version


async def test_a_snapshot_sets_and_clears_its_tables_deadline(store: Storage) -> None:
    version = await save(store, CHANNEL, due=NOW + 30)
    assert await store.deadlines.due(GUILD, CHANNEL) == NOW + 30
    version = await save(store, CHANNEL, due=None, version=version)
    assert await store.deadlines.due(GUILD, CHANNEL) is None
    await save(store, CHANNEL, due=NOW + 60, version=version)
    await store.snapshots.delete(GUILD, CHANNEL)
    assert await store.deadlines.pending() == 0  # the deadline goes with its table


async def test_a_failed_save_leaves_the_deadline_as_it_was(store: Storage) -> None:
    await save(store, CHANNEL, due=NOW + 30)
    with pytest.raises(StaleSnapshotError):
        await save(store, CHANNEL, due=NOW + 90, version=7)
    assert await store.deadlines.due(GUILD, CHANNEL) == NOW + 30


async def test_only_a_due_deadline_can_be_claimed_and_only_once(store: Storage) -> None:
    await save(store, CHANNEL, due=NOW + 30)
    assert await store.deadlines.claim(GUILD, CHANNEL, by="a", now=NOW, lease_s=10) is None
    claim = await store.deadlines.claim(GUILD, CHANNEL, by="a", now=NOW + 30, lease_s=10)
    assert claim is not None and (claim.channel_id, claim.due, claim.version) == (
        CHANNEL,
        NOW + 30,
        1,
    )
    assert await store.deadlines.claim(GUILD, CHANNEL, by="b", now=NOW + 31, lease_s=10) is None
    # A claim whose firing never moved the table (it failed, or its process died) runs out.
    again = await store.deadlines.claim(GUILD, CHANNEL, by="b", now=NOW + 41, lease_s=10)
    assert again is not None


async def test_saving_the_table_again_releases_its_claim(store: Storage) -> None:
    version = await save(store, CHANNEL, due=NOW)
    assert await store.deadlines.claim(GUILD, CHANNEL, by="a", now=NOW, lease_s=60)
    await save(store, CHANNEL, due=NOW + 5, version=version)
    assert await store.deadlines.claim(GUILD, CHANNEL, by="b", now=NOW + 5, lease_s=60)


async def test_a_process_starting_up_takes_over_a_claim_its_dead_predecessor_left(
    store: Storage,
) -> None:
    await save(store, CHANNEL, due=NOW + 30)
    assert await store.deadlines.held_until(GUILD, CHANNEL, now=NOW + 30) is None
    assert await store.deadlines.claim(GUILD, CHANNEL, by="dead", now=NOW + 30, lease_s=60)
    assert await store.deadlines.held_until(GUILD, CHANNEL, now=NOW + 31) == NOW + 90
    assert await store.deadlines.claim(GUILD, CHANNEL, by="b", now=NOW + 31, lease_s=60) is None
    taken = await store.deadlines.claim(
        GUILD, CHANNEL, by="b", now=NOW + 31, lease_s=60, take_over=True
    )
    assert taken is not None and taken.channel_id == CHANNEL
    # Taken over only once due: a deadline ahead is nobody's yet.
    await save(store, CHANNEL + 1, due=NOW + 100)
    assert not await store.deadlines.claim(
        GUILD, CHANNEL + 1, by="b", now=NOW + 31, lease_s=60, take_over=True
    )
    assert await store.deadlines.held_until(GUILD, CHANNEL, now=NOW + 90) == NOW + 91


async def test_due_deadlines_are_claimed_oldest_first_once_overdue(store: Storage) -> None:
    for offset in (3, 1, 2, 50):
        await save(store, CHANNEL + offset, due=NOW + offset)
    claims = await store.deadlines.claim_due(by="a", now=NOW + 12, lease_s=30, overdue_s=10)
    assert [c.channel_id - CHANNEL for c in claims] == [1, 2]
    claims = await store.deadlines.claim_due(by="b", now=NOW + 13, lease_s=30, overdue_s=10)
    assert [c.channel_id - CHANNEL for c in claims] == [3]


async def test_processes_racing_for_due_deadlines_never_claim_one_twice(
    database_target: str | Path, clock: FakeClock
) -> None:
    stores = [Storage.over(await open_database(database_target, clock=clock)) for _ in range(3)]
    try:
        for channel in range(60):
            await save(stores[0], CHANNEL + channel, due=NOW + channel)
        claimed: list[int] = []
        while True:
            rounds = await asyncio.gather(
                *(
                    s.deadlines.claim_due(by=str(i), now=NOW + 100, lease_s=60, limit=7)
                    for i, s in enumerate(stores)
                )
            )
            found = [claim.channel_id for claims in rounds for claim in claims]
            if not found:
                break
            claimed.extend(found)
        assert sorted(claimed) == [CHANNEL + channel for channel in range(60)]
    finally:
        for store in stores:
            await store.database.close()


async def test_a_process_announces_itself_and_is_forgotten_once_silent(
    store: Storage, clock: FakeClock
) -> None:
    await store.processes.announce("host-1:10", host="host-1", pid=10, shards=(0, 1))
    clock.advance(seconds=20)
    await store.processes.announce("host-2:20", host="host-2", pid=20, shards=(2,))
    alive = await store.processes.alive(within_s=30)
    assert [(p.id, p.shards) for p in alive] == [("host-1:10", (0, 1)), ("host-2:20", (2,))]
    clock.advance(seconds=15)
    assert [p.id for p in await store.processes.alive(within_s=30)] == ["host-2:20"]
    assert await store.processes.forget(silent_s=30) == 1
    await store.processes.leave("host-2:20")
    assert await store.processes.alive(within_s=3600) == []
