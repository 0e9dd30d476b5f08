"""An action's events are shown from memory once it committed, and never instead of what the
store holds (docs/architecture.md, "The outbox")."""

from __future__ import annotations

from tables.codec import encode_event
from tables.events import Event, TableClosed
from tables.outbox import Outbox, Rows
from tests.tables.helpers import CHANNEL, GUILD, World

KEY = (GUILD, CHANNEL)


def outbox_of(world: World) -> Outbox:
    """The publisher's lane alone, in the background, as the bot runs it."""
    storage = world.storage
    return Outbox(
        storage.outbox,
        world.publisher,
        background=True,
        lock=storage.database.lock,
        scheduler=world.scheduler,
        health=storage.database.health,
    )


def shown(world: World) -> list[Event]:
    return [event for _, _, event in world.publisher.events]


async def test_an_action_hands_its_events_over_and_they_are_shown_once(world: World) -> None:
    outbox = outbox_of(world)
    event = TableClosed("first")
    saved = await world.storage.snapshots.save(
        guild_id=GUILD, channel_id=CHANNEL, state={}, events=[encode_event(event)]
    )
    await outbox.after_commit(KEY, [Rows(saved.queued, ((event, encode_event(event)),))])
    await outbox.flush()
    assert shown(world) == [event]
    assert await world.storage.outbox.pending(*KEY, subscriber="publisher") == []


async def test_a_commit_without_memory_is_read_from_the_store_behind_rows_shown_already(
    world: World,
) -> None:
    # The first action's rows were shown by a turn that read the store before the action handed
    # them over; the second's (a settlement's, queued without memory) came after them. The turn
    # that finds the first's in memory, already shown, must still read the second's.
    outbox = outbox_of(world)
    first, second = TableClosed("first"), TableClosed("second")
    saved = await world.storage.snapshots.save(
        guild_id=GUILD, channel_id=CHANNEL, state={}, events=[encode_event(first)]
    )
    await outbox.drain(KEY)
    await world.storage.outbox.queue(
        guild_id=GUILD, channel_id=CHANNEL, game_id=None, events=[encode_event(second)]
    )
    await outbox.after_commit(KEY, [Rows(saved.queued, ((first, encode_event(first)),))])
    await outbox.after_commit(KEY)
    await outbox.flush()
    assert shown(world) == [first, second]
    assert await world.storage.outbox.pending(*KEY, subscriber="publisher") == []


async def test_what_was_handed_over_before_closing_is_still_shown_from_the_store(
    world: World,
) -> None:
    # Shutting down forgets what memory held while the drainers have yet to run: they read
    # the store instead, and show every row committed.
    outbox = outbox_of(world)
    event = TableClosed("last")
    saved = await world.storage.snapshots.save(
        guild_id=GUILD, channel_id=CHANNEL, state={}, events=[encode_event(event)]
    )
    await outbox.after_commit(KEY, [Rows(saved.queued, ((event, encode_event(event)),))])
    outbox.close()
    await outbox.flush()
    assert shown(world) == [event]
