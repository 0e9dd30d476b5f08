"""Games (create, seats, result, open list) and table snapshots for resume."""

from __future__ import annotations

import pytest

from storage import Storage
from storage.errors import GameStateError, SeatTakenError, ShortOfChipsError, StaleSnapshotError
from storage.rows import Cover, GameStatus
from tests.storage.helpers import CHANNEL, GUILD, OTHER_GUILD, FakeClock


async def test_a_new_game_is_open_with_its_seats(store: Storage) -> None:
    game = await store.games.create(
        guild_id=GUILD, channel_id=CHANNEL, game="casino", seats=[{"user": 11}]
    )
    assert (game.status, game.finished, game.seats, game.result) == (
        GameStatus.OPEN,
        None,
        [{"user": 11}],
        None,
    )
    await store.games.save_seats(game.id, [{"user": 11}, {"user": 12}])
    await store.games.save_result(game.id, {"arrangements": {"11": "As | Ks Kd Kc"}})
    saved = await store.games.get(game.id)
    assert saved is not None
    assert saved.seats == [{"user": 11}, {"user": 12}]
    assert saved.result == {"arrangements": {"11": "As | Ks Kd Kc"}}


async def test_only_open_games_are_listed_for_resume(store: Storage) -> None:
    ids = [
        (await store.games.create(guild_id=g, channel_id=CHANNEL, game="showdown")).id
        for g in (GUILD, GUILD, OTHER_GUILD)
    ]
    await store.chips.refund(ids[0])
    assert [game.id for game in await store.games.list_open()] == ids[1:]
    assert [game.id for game in await store.games.list_open(GUILD)] == [ids[1]]


async def test_a_finished_game_keeps_its_seats_and_result(store: Storage) -> None:
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    await store.chips.refund(game.id)
    with pytest.raises(GameStateError, match="is not open"):
        await store.games.save_result(game.id, {})
    with pytest.raises(GameStateError, match="no game 999"):
        await store.chips.refund(999)


async def test_a_snapshot_is_saved_loaded_and_deleted_per_channel(
    store: Storage, clock: FakeClock
) -> None:
    assert await store.snapshots.load(GUILD, CHANNEL) is None
    first = await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={"phase": "lobby"})
    clock.advance(seconds=5)
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    second = await store.snapshots.save(
        guild_id=GUILD, channel_id=CHANNEL, game_id=game.id, state={"phase": "deal"}
    )
    assert (first.version, second.version) == (1, 2)
    assert await store.snapshots.load(GUILD, CHANNEL) == second
    await store.snapshots.save(guild_id=OTHER_GUILD, channel_id=CHANNEL, state={"phase": "x"})
    assert [s.guild_id for s in await store.snapshots.load_all()] == [GUILD, OTHER_GUILD]
    assert await store.snapshots.delete(GUILD, CHANNEL)
    assert not await store.snapshots.delete(GUILD, CHANNEL)
    assert await store.snapshots.load(GUILD, CHANNEL) is None


async def test_a_snapshot_never_overwrites_a_newer_one(store: Storage) -> None:
    await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={"n": 1})
    await store.snapshots.save(
        guild_id=GUILD, channel_id=CHANNEL, state={"n": 2}, expected_version=1
    )
    with pytest.raises(StaleSnapshotError, match="version 2, not 1"):
        await store.snapshots.save(
            guild_id=GUILD, channel_id=CHANNEL, state={"n": 3}, expected_version=1
        )
    snapshot = await store.snapshots.load(GUILD, CHANNEL)
    assert snapshot is not None and snapshot.state == {"n": 2}


async def test_a_save_whose_player_cannot_cover_the_stake_keeps_nothing(store: Storage) -> None:
    # A declaration to play on: the save itself checks the player's balance (on PostgreSQL in
    # its one statement), and a player short of it leaves the table as it was.
    await store.players.get_or_create(GUILD, 11)
    await store.players.take(GUILD, 11, 995, admin_id=1)
    await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={"n": 1})
    with pytest.raises(ShortOfChipsError) as refused:
        await store.snapshots.save(
            guild_id=GUILD,
            channel_id=CHANNEL,
            state={"n": 2},
            expected_version=1,
            events=[{"type": "TableClosed", "reason": "x"}],
            cover=Cover(GUILD, 11, 10),
        )
    assert refused.value.needs == {11: (5, 10)}
    snapshot = await store.snapshots.load(GUILD, CHANNEL)
    assert snapshot is not None and snapshot.state == {"n": 1}
    assert await store.outbox.pending(GUILD, CHANNEL) == []
    saved = await store.snapshots.save(
        guild_id=GUILD,
        channel_id=CHANNEL,
        state={"n": 2},
        expected_version=1,
        cover=Cover(GUILD, 11, 5),
    )
    assert saved.version == 2


async def test_settling_keeps_the_result_saved_before_it(store: Storage) -> None:
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    await store.games.save_result(game.id, {"matrix": [[0, 1], [-1, 0]]})
    await store.chips.settle(game.id, [], result={"pot_winners": ["11"]})
    saved = await store.games.get(game.id)
    assert saved is not None and saved.result is not None
    assert saved.result["matrix"] == [[0, 1], [-1, 0]]
    assert saved.result["pot_winners"] == ["11"]
    assert (saved.result["transfers"], saved.result["house"]) == ([], 0)


async def test_a_snapshot_keeps_its_seats_and_refuses_a_player_seated_elsewhere(
    store: Storage,
) -> None:
    await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={}, players=[1, 2])
    await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={}, players=[2, 1])
    assert await store.snapshots.seat_of(GUILD, 1) == CHANNEL
    await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={}, players=[2, 3])
    assert await store.snapshots.seat_of(GUILD, 1) is None
    assert await store.snapshots.seat_of(GUILD, 3) == CHANNEL
    with pytest.raises(SeatTakenError):
        await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL + 1, state={}, players=[3])
    assert await store.snapshots.load(GUILD, CHANNEL + 1) is None


async def test_queued_events_are_read_in_order_and_forgotten_once_shown(store: Storage) -> None:
    events = [{"n": n} for n in range(1_200)]  # forgotten by one statement, however many
    await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={}, events=events[:2])
    await store.outbox.queue(guild_id=GUILD, channel_id=CHANNEL, game_id=None, events=events[2:])
    await store.outbox.queue(guild_id=OTHER_GUILD, channel_id=CHANNEL, game_id=None, events=[{}])
    pending = await store.outbox.pending(GUILD, CHANNEL)
    assert [row.event for row in pending] == events
    await store.outbox.advance("publisher", GUILD, CHANNEL, pending[-2].id)
    assert await store.outbox.forget(GUILD, CHANNEL, ["publisher"]) == len(events) - 1
    assert [row.event for row in await store.outbox.pending(GUILD, CHANNEL)] == [events[-1]]
    assert len(await store.outbox.pending(OTHER_GUILD, CHANNEL)) == 1


async def test_a_row_is_forgotten_only_once_every_subscriber_is_past_it(store: Storage) -> None:
    await store.outbox.queue(
        guild_id=GUILD, channel_id=CHANNEL, game_id=None, events=[{"n": n} for n in range(4)]
    )
    ids = [row.id for row in await store.outbox.pending(GUILD, CHANNEL)]
    both = ["publisher", "statistics"]
    await store.outbox.advance("publisher", GUILD, CHANNEL, ids[3])
    # A subscriber with no position yet is before every row.
    assert await store.outbox.forget(GUILD, CHANNEL, both) == 0
    await store.outbox.advance("statistics", GUILD, CHANNEL, ids[1])
    assert await store.outbox.forget(GUILD, CHANNEL, both) == 2
    pending = await store.outbox.pending(GUILD, CHANNEL, subscriber="statistics")
    assert [row.event for row in pending] == [{"n": 2}, {"n": 3}]
    assert await store.outbox.pending(GUILD, CHANNEL, subscriber="publisher") == []
    # A position never goes back (a second process that took the same rows changes nothing).
    await store.outbox.advance("publisher", GUILD, CHANNEL, ids[0])
    assert await store.outbox.positions(GUILD, CHANNEL) == {
        "publisher": ids[3],
        "statistics": ids[1],
    }


async def test_a_new_row_comes_after_every_position_once_the_outbox_is_empty(
    store: Storage,
) -> None:
    # SQLite gives the largest id again once its row is gone, unless the table says not to.
    await store.outbox.queue(guild_id=GUILD, channel_id=CHANNEL, game_id=None, events=[{}, {}])
    [*_, last] = await store.outbox.pending(GUILD, CHANNEL)
    await store.outbox.advance("publisher", GUILD, CHANNEL, last.id)
    await store.outbox.forget(GUILD, CHANNEL, ["publisher"])
    await store.outbox.queue(guild_id=GUILD, channel_id=CHANNEL, game_id=None, events=[{"new": 1}])
    pending = await store.outbox.pending(GUILD, CHANNEL, subscriber="publisher")
    assert [row.event for row in pending] == [{"new": 1}]


async def test_a_players_latest_finished_game_is_found_behind_any_number_of_others(
    store: Storage,
) -> None:
    # /review with no number: the player's own latest game, however busy the server was since.
    from engine.settlement import Transfer

    async def settled(payer: int, payee: int, guild: int = GUILD) -> int:
        game = await store.games.create(guild_id=guild, channel_id=CHANNEL, game="showdown")
        await store.chips.escrow(game.id, {payer: 10, payee: 10}, "ante")
        await store.chips.settle(game.id, [Transfer(payer, payee, 5, "points")])
        return game.id

    assert await store.games.latest_played(GUILD, 11) is None
    first = await settled(11, 12)
    mine = await settled(12, 11)
    for _ in range(60):  # other players' games, newer than the player's
        await settled(13, 14)
    await settled(11, 12, guild=OTHER_GUILD)  # another server's game is not this server's
    refunded = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    await store.chips.escrow(refunded.id, {11: 10}, "ante")
    await store.chips.refund(refunded.id)  # a refunded game has no result to review
    found = await store.games.latest_played(GUILD, 11)
    assert found is not None and found.id == mine != first
    assert found.status is GameStatus.SETTLED
    assert await store.games.latest_played(GUILD, 15) is None
