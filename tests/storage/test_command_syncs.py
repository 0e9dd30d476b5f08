"""The last sync of the slash commands, per application and scope, on both stores."""

from __future__ import annotations

from storage import Storage
from storage.commands import CommandSync
from tests.storage.helpers import FakeClock

APP = 555
OTHER_APP = 556


async def test_a_sync_is_recorded_per_application_and_scope_and_replaced_by_the_next(
    store: Storage, clock: FakeClock
) -> None:
    syncs = store.commands
    assert await syncs.last(APP, "global") is None

    first = clock.now
    await syncs.record(APP, "global", "aaa", 14)
    clock.advance(hours=1)
    second = clock.now
    await syncs.record(APP, "1001", "bbb", 14)

    assert await syncs.last(APP, "global") == CommandSync("aaa", 14, first)
    assert await syncs.last(APP, "1001") == CommandSync("bbb", 14, second)
    assert await syncs.last(OTHER_APP, "global") is None

    clock.advance(hours=1)
    await syncs.record(APP, "global", "ccc", 15)
    assert await syncs.last(APP, "global") == CommandSync("ccc", 15, clock.now)
    assert await syncs.last(APP, "1001") == CommandSync("bbb", 14, second)
