"""Leaderboards per server: balance, net winnings over a period, games won, history, statistics."""

from __future__ import annotations

from engine.settlement import HOUSE, Transfer
from storage import Storage
from storage.leaderboards import Period
from storage.rows import GameStatus, PlayerStats, Standing
from tests.storage.helpers import ADMIN, CHANNEL, GUILD, OTHER_GUILD, FakeClock

ALICE, BOB, CAROL = 11, 12, 13
START = 1_000


async def settle(store: Storage, game_id: int, transfers: list[Transfer]) -> None:
    """Settle a game and count it, as the statistics subscriber does with its showdown (the
    nets the ledger moved, on the day it settled)."""
    settlement = await store.chips.settle(game_id, transfers)
    game = await store.games.get(game_id)
    assert game is not None and game.finished is not None
    await store.statistics.count(
        guild_id=game.guild_id,
        game_id=game_id,
        game=game.game,
        settled=game.finished,
        nets=settlement.nets,
    )


async def play(
    store: Storage, game: str, payer: int, payee: int, amount: int, guild: int = GUILD
) -> int:
    """One settled game in which ``payer`` pays ``payee``."""
    created = await store.games.create(guild_id=guild, channel_id=CHANNEL, game=game)
    await store.chips.escrow(created.id, {payer: 10, payee: 10}, "ante")
    await settle(store, created.id, [Transfer(payer, payee, amount, "points")])
    return created.id


async def test_the_balance_board_ranks_ties_together(store: Storage) -> None:
    await store.players.grant(GUILD, BOB, 50, admin_id=ADMIN)
    await store.players.get_or_create(GUILD, ALICE)
    await store.players.get_or_create(GUILD, CAROL)
    await store.players.grant(OTHER_GUILD, CAROL, 999, admin_id=ADMIN)
    assert await store.leaderboards.by_balance(GUILD) == [
        Standing(1, BOB, START + 50),
        Standing(2, ALICE, START),
        Standing(2, CAROL, START),
    ]


async def test_net_winnings_count_only_the_period(store: Storage, clock: FakeClock) -> None:
    await play(store, "showdown", BOB, ALICE, 40)  # Monday 2 March 2026
    clock.advance(days=1)
    await play(store, "showdown", ALICE, BOB, 15)
    assert await store.leaderboards.by_net(GUILD, period=Period.DAY) == [
        Standing(1, BOB, 15),
        Standing(2, ALICE, -15),
    ]
    assert await store.leaderboards.by_net(GUILD, period=Period.WEEK) == [
        Standing(1, ALICE, 25),
        Standing(2, BOB, -25),
    ]
    clock.advance(days=6)  # the next Monday: a new week
    assert await store.leaderboards.by_net(GUILD, period=Period.WEEK) == []
    assert await store.leaderboards.by_net(GUILD, period=Period.ALL) == [
        Standing(1, ALICE, 25),
        Standing(2, BOB, -25),
    ]


async def test_open_and_refunded_games_do_not_count_as_winnings(store: Storage) -> None:
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    await store.chips.escrow(game.id, {ALICE: 100}, "ante")
    assert await store.leaderboards.by_net(GUILD) == []
    await store.chips.refund(game.id)
    assert await store.leaderboards.by_net(GUILD) == []


async def test_games_won_per_variant(store: Storage) -> None:
    await play(store, "showdown", BOB, ALICE, 5)
    await play(store, "showdown", BOB, ALICE, 5)
    await play(store, "standard", ALICE, BOB, 5)
    await play(store, "standard", ALICE, BOB, 5, guild=OTHER_GUILD)
    assert await store.leaderboards.by_wins(GUILD) == [Standing(1, ALICE, 2), Standing(2, BOB, 1)]
    assert await store.leaderboards.by_wins(GUILD, game="standard") == [Standing(1, BOB, 1)]
    assert await store.leaderboards.by_net(GUILD, game="showdown") == [
        Standing(1, ALICE, 10),
        Standing(2, BOB, -10),
    ]


async def test_a_players_history_and_statistics(store: Storage) -> None:
    first = await play(store, "showdown", BOB, ALICE, 30)
    second = await play(store, "showdown", ALICE, BOB, 10)
    even = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="casino")
    await store.chips.escrow(even.id, {ALICE: 10}, "ante")
    await settle(store, even.id, [])
    house = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="casino")
    await store.chips.escrow(house.id, {ALICE: 10}, "ante")
    await settle(store, house.id, [Transfer(HOUSE, ALICE, 20, "+2 points")])
    cancelled = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="casino")
    await store.chips.escrow(cancelled.id, {ALICE: 10}, "ante")
    await store.chips.refund(cancelled.id)

    history = await store.leaderboards.history(GUILD, ALICE)
    assert [(h.game_id, h.status, h.net) for h in history] == [
        (cancelled.id, GameStatus.REFUNDED, 0),
        (house.id, GameStatus.SETTLED, 20),
        (even.id, GameStatus.SETTLED, 0),
        (second, GameStatus.SETTLED, -10),
        (first, GameStatus.SETTLED, 30),
    ]
    assert await store.leaderboards.statistics(GUILD, ALICE) == PlayerStats(
        played=4, won=2, lost=1, pushed=1, net=40, best=30, worst=-10
    )
    assert await store.leaderboards.statistics(GUILD, ALICE, game="casino") == PlayerStats(
        played=2, won=1, lost=0, pushed=1, net=20, best=20, worst=0
    )
    assert await store.leaderboards.statistics(OTHER_GUILD, ALICE) == PlayerStats(
        0, 0, 0, 0, 0, 0, 0
    )
