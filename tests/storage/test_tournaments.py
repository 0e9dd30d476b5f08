"""Tournaments on both stores: buy-ins into the pool, unregistering and cancelling give them
back, the prizes empty the pool, and the ledger's audit stays clean throughout."""

from __future__ import annotations

import pytest

from storage import Storage
from storage.audit import audit
from storage.errors import ShortOfChipsError, StaleSnapshotError, StorageError
from storage.rows import GameStatus, TournamentStatus
from storage.tournaments import RegistrationError, chip_scope

GUILD, CHANNEL, HOST = 1001, 2002, 7


async def _open(store: Storage, *, buy_in: int = 100, max_players: int = 4) -> int:
    tournament = await store.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        game="showdown",
        buy_in=buy_in,
        max_players=max_players,
        starts=None,
        level_hands=5,
    )
    assert tournament.status is TournamentStatus.REGISTERING
    return tournament.id


async def _balance(store: Storage, user: int) -> int:
    return await store.players.balance(GUILD, user)


async def _clean(store: Storage) -> None:
    report = await audit(store.database, GUILD)
    assert report.is_consistent, report.problems


async def test_a_buy_in_goes_into_the_pool_and_unregistering_gives_it_back(store: Storage) -> None:
    tid = await _open(store)
    await store.players.get_or_create(GUILD, 11)
    await store.tournaments.register(tid, 11)
    assert await _balance(store, 11) == 900
    pool = (await store.tournaments.get(tid)).pool_game_id  # type: ignore[union-attr]
    assert await store.chips.escrowed(pool) == {11: 100}
    assert await store.tournaments.unregister(tid, 11) == 100
    assert await _balance(store, 11) == 1_000
    assert await store.tournaments.entries(tid) == []
    # Registering again takes a buy-in of its own (the first was refunded).
    await store.tournaments.register(tid, 11)
    assert await _balance(store, 11) == 900
    assert [e.user_id for e in await store.tournaments.entries(tid)] == [11]
    await _clean(store)


async def test_registering_twice_is_refused_and_takes_nothing(store: Storage) -> None:
    tid = await _open(store)
    await store.tournaments.register(tid, 11)
    with pytest.raises(
        RegistrationError, match=f"^You are already registered for tournament {tid}.$"
    ):
        await store.tournaments.register(tid, 11)
    assert await _balance(store, 11) == 900
    await _clean(store)


async def test_a_full_tournament_refuses_the_next_player(store: Storage) -> None:
    tid = await _open(store, max_players=2)
    await store.tournaments.register(tid, 11)
    await store.tournaments.register(tid, 12)
    with pytest.raises(RegistrationError, match=f"^Tournament {tid} is full \\(2 players\\).$"):
        await store.tournaments.register(tid, 13)
    assert await _balance(store, 13) == 1_000
    assert await store.tournaments.add_computers(tid, 3) == []


async def test_a_player_short_of_the_buy_in_is_refused_and_not_registered(store: Storage) -> None:
    tid = await _open(store, buy_in=1_500)
    with pytest.raises(ShortOfChipsError):
        await store.tournaments.register(tid, 11)
    assert await store.tournaments.entries(tid) == []
    assert await _balance(store, 11) == 1_000
    await _clean(store)


async def test_after_the_start_nobody_registers_or_unregisters(store: Storage) -> None:
    tid = await _open(store)
    await store.tournaments.register(tid, 11)
    await store.tournaments.register(tid, 12)
    await store.tournaments.start(tid, {"draw": [11, 12]}, stack=1000)
    with pytest.raises(
        RegistrationError, match=f"^Registration for tournament {tid} is closed: it has started.$"
    ):
        await store.tournaments.register(tid, 13)
    with pytest.raises(
        RegistrationError, match=f"^Tournament {tid} has started: nobody can unregister now.$"
    ):
        await store.tournaments.unregister(tid, 11)
    assert await _balance(store, 11) == 900


async def test_a_tournament_needs_two_entrants_to_start(store: Storage) -> None:
    tid = await _open(store)
    await store.tournaments.register(tid, 11)
    with pytest.raises(RegistrationError, match="needs at least 2 players"):
        await store.tournaments.start(tid, {}, stack=1000)


async def test_cancelling_refunds_every_buy_in_once(store: Storage) -> None:
    tid = await _open(store)
    for user in (11, 12, 13):
        await store.tournaments.register(tid, user)
    await store.tournaments.add_computers(tid, 1)
    assert await store.tournaments.cancel(tid) == {11: 100, 12: 100, 13: 100}
    for user in (11, 12, 13):
        assert await _balance(store, user) == 1_000
    with pytest.raises(RegistrationError, match="is cancelled already"):
        await store.tournaments.cancel(tid)
    tournament = await store.tournaments.get(tid)
    assert tournament is not None and tournament.status is TournamentStatus.CANCELLED
    pool = await store.games.get(tournament.pool_game_id)
    assert pool is not None and pool.status is GameStatus.REFUNDED
    await _clean(store)


async def test_a_restart_does_not_refund_a_pool_still_registering(store: Storage) -> None:
    tid = await _open(store)
    await store.tournaments.register(tid, 11)
    pool = (await store.tournaments.get(tid)).pool_game_id  # type: ignore[union-attr]
    assert pool not in [game.id for game in await store.games.list_open()]
    other = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    assert other.id in [game.id for game in await store.games.list_open()]


async def test_the_prizes_empty_the_pool_with_the_house_paying_for_its_computers(
    store: Storage,
) -> None:
    tid = await _open(store, max_players=4)
    await store.tournaments.register(tid, 11)
    await store.tournaments.register(tid, 12)
    assert await store.tournaments.add_computers(tid, 5) == [-1, -2]
    await store.tournaments.start(tid, {}, stack=1000)
    scope = chip_scope(tid)
    # Every entrant, computers too, holds a stack in the tournament's scope, not the server's.
    assert await store.players.balances(scope, [11, 12, -1, -2]) == {
        11: 1000,
        12: 1000,
        -1: 1000,
        -2: 1000,
    }
    assert await _balance(store, 11) == 900
    stacks = await audit(store.database, scope)
    assert stacks.is_consistent, stacks.problems
    version = await store.tournaments.save(tid, {"hands": 1}, 1)
    with pytest.raises(StaleSnapshotError):
        await store.tournaments.save(tid, {"hands": 1}, 1)
    places = {-1: 1, 11: 2, 12: 3, -2: 4}
    with pytest.raises(StorageError, match=r"^The prizes must sum to the buy-ins\.$"):
        await store.tournaments.finish(tid, places=places, prizes={-1: 300}, state={})
    await store.tournaments.finish(tid, places=places, prizes={-1: 200, 11: 200}, state={})
    assert version == 2
    assert await _balance(store, 11) == 1_100
    assert await _balance(store, 12) == 900
    report = await audit(store.database, GUILD)
    assert report.is_consistent, report.problems
    assert report.house == 0, "the house paid 200 for two computers and won 200"
    # The stacks went back out of the scope: nothing is left there, and its audit balances.
    assert await store.players.balances(scope, [11, 12, -1, -2]) == dict.fromkeys(
        [11, 12, -1, -2], 0
    )
    stacks = await audit(store.database, scope)
    assert stacks.is_consistent, stacks.problems
    # A repeat pays nothing twice.
    await store.tournaments.finish(tid, places=places, prizes={-1: 200, 11: 200}, state={})
    assert await _balance(store, 11) == 1_100
    assert await store.tournaments.places_of(GUILD, 11) == [(tid, 2, 200, 4)]
    assert await store.tournaments.places_of(GUILD, 11, limit=0) == []
    board = await store.tournaments.leaderboard(GUILD)
    assert [(w.user_id, w.played, w.won, w.prizes) for w in board] == [
        (11, 1, 0, 200),
        (12, 1, 0, 0),
    ]
    await _clean(store)
