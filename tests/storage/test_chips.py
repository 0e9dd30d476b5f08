"""Escrow, settlement and refund: single transactions, idempotent, and never a chip lost."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import storage.chips
from engine.settlement import HOUSE, POT, Transfer, settle_showdown
from engine.variants import SHOWDOWN
from storage import Storage
from storage.audit import audit
from storage.errors import GameStateError, ShortOfChipsError, StorageError
from storage.rows import GameStatus
from storage.stores import open_database
from tests.storage.helpers import ADMIN, CHANNEL, GUILD, OTHER_GUILD, FakeClock

ALICE, BOB, CAROL = 11, 12, 13
START = 1_000


async def new_game(store: Storage, guild: int = GUILD, channel: int = CHANNEL) -> int:
    game = await store.games.create(guild_id=guild, channel_id=channel, game="showdown")
    return game.id


async def balances(store: Storage, *users: int, guild: int = GUILD) -> list[int]:
    return [await store.players.balance(guild, user) for user in users]


async def assert_consistent(store: Storage) -> None:
    report = await audit(store.database)
    assert report.problems == ()


async def ledger_size(store: Storage) -> int:
    row = await store.database.fetchone("SELECT COUNT(*) FROM ledger")
    assert row is not None
    return int(row[0])


async def fail_writing_the_ledger(store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make writing the ledger rows inside storage.chips raise, mid-transaction: after the
    balances (and the escrow) have changed. On PostgreSQL the server's functions (one
    statement for an escrow or a settlement) meet a trigger that refuses the rows."""

    async def unplugged(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk unplugged")

    monkeypatch.setattr(storage.chips, "post_all", unplugged)
    if store.database.functions:
        await store.database.execute(
            "CREATE FUNCTION unplugged() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'disk unplugged'; END $$;"
            " CREATE TRIGGER unplugged BEFORE INSERT ON ledger"
            " FOR EACH STATEMENT EXECUTE FUNCTION unplugged()"
        )


async def test_escrow_moves_each_stake_from_the_balance_into_the_game(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante")
    await store.chips.escrow(game, {ALICE: 10}, "stake 1")
    assert await store.chips.escrowed(game) == {ALICE: 20, BOB: 10}
    assert await balances(store, ALICE, BOB) == [START - 20, START - 10]
    await assert_consistent(store)


async def test_escrow_is_refused_whole_naming_who_is_short(store: Storage) -> None:
    game = await new_game(store)
    await store.players.take(GUILD, BOB, START - 5, admin_id=ADMIN)
    await store.players.take(GUILD, CAROL, START, admin_id=ADMIN)
    with pytest.raises(ShortOfChipsError) as caught:
        await store.chips.escrow(game, {ALICE: 10, BOB: 10, CAROL: 10}, "ante")
    assert str(caught.value) == (
        f"Not enough chips: player {BOB} has 5 and needs 10; player {CAROL} has 0 and needs 10."
    )
    assert caught.value.shortfalls == {BOB: 5, CAROL: 10}
    assert await store.chips.escrowed(game) == {}
    assert await balances(store, ALICE, BOB, CAROL) == [START, 5, 0]


async def test_an_escrow_that_fails_midway_changes_nothing(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_game(store)
    await balances(store, ALICE, BOB, CAROL)
    rows = await ledger_size(store)
    await fail_writing_the_ledger(store, monkeypatch)  # the balances debited, the rows fail
    with pytest.raises(Exception, match="disk unplugged"):
        await store.chips.escrow(game, {ALICE: 10, BOB: 10, CAROL: 10}, "ante")
    assert await balances(store, ALICE, BOB, CAROL) == [START] * 3
    assert await store.chips.escrowed(game) == {}
    assert await ledger_size(store) == rows
    await assert_consistent(store)


async def test_a_settlement_that_fails_midway_changes_nothing(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante")
    rows = await ledger_size(store)
    transfers = [
        Transfer(ALICE, POT, 10, "ante"),
        Transfer(BOB, POT, 10, "ante"),
        Transfer(POT, BOB, 20, "pot"),
    ]
    # As a table settles: from the game as read just before (PostgreSQL: one statement).
    expected = await store.chips.holdings(game, GUILD, [ALICE, BOB])
    await fail_writing_the_ledger(store, monkeypatch)  # the escrow released, the rows fail
    with pytest.raises(Exception, match="disk unplugged"):
        await store.chips.settle(game, transfers, expected=expected)
    assert await balances(store, ALICE, BOB) == [START - 10] * 2
    assert await store.chips.escrowed(game) == {ALICE: 10, BOB: 10}
    assert (await store.games.get(game)).status is GameStatus.OPEN  # type: ignore[union-attr]
    assert await ledger_size(store) == rows
    await assert_consistent(store)


async def test_the_engines_showdown_settlement_pays_the_pot_from_escrow(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 30, BOB: 30, CAROL: 30}, "ante and stakes")
    names = [ALICE, BOB, CAROL]
    matrix = [[0, 3, 2], [-3, 0, 1], [-2, -1, 0]]
    antes = [Transfer(name, POT, 30, "ante and stakes") for name in names]
    transfers = [*antes, *settle_showdown(SHOWDOWN, names, matrix, pot=90)]
    settled = await store.chips.settle(game, transfers, result={"matrix": matrix})
    assert settled.nets == {ALICE: 5 + 60, BOB: -2 - 30, CAROL: -3 - 30}
    assert settled.house == 0
    assert await balances(store, ALICE, BOB, CAROL) == [START + 65, START - 32, START - 33]
    record = (await store.games.get(game)).result  # type: ignore[union-attr]
    assert record is not None and record["matrix"] == matrix
    assert record["nets"] == {str(ALICE): 65, str(BOB): -32, str(CAROL): -33}
    await assert_consistent(store)


async def test_settling_twice_does_nothing_the_second_time(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante")
    transfers = [Transfer(BOB, ALICE, 10, "points")]
    first = await store.chips.settle(game, transfers)
    rows = await ledger_size(store)
    second = await store.chips.settle(game, transfers)
    assert second.repeated and not first.repeated
    assert second.nets == first.nets == {ALICE: 10, BOB: -10}
    assert await ledger_size(store) == rows
    assert await balances(store, ALICE, BOB) == [START + 10, START - 10]


async def test_a_double_click_settles_once(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante")
    transfers = [Transfer(BOB, ALICE, 10, "points")]
    results = await asyncio.gather(*(store.chips.settle(game, transfers) for _ in range(2)))
    assert sorted(result.repeated for result in results) == [False, True]
    assert await balances(store, ALICE, BOB) == [START + 10, START - 10]
    await assert_consistent(store)


async def test_the_house_wins_and_losses_are_ledger_rows(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 20, BOB: 20}, "ante")
    transfers = [
        Transfer(HOUSE, ALICE, 30, "+3 points against the dealer"),
        Transfer(BOB, HOUSE, 20, "fold: ante and match"),
    ]
    settled = await store.chips.settle(game, transfers)
    assert settled.house == -10
    report = await audit(store.database)
    assert report.is_consistent
    assert report.house == -10
    assert report.balances == 2 * START + 10  # the house paid out 10 more than it took


async def test_a_loss_beyond_the_escrow_comes_from_the_balance(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante")
    await store.chips.settle(game, [Transfer(BOB, ALICE, 50, "points")])
    assert await balances(store, ALICE, BOB) == [START + 50, START - 50]
    await assert_consistent(store)


async def test_a_loss_no_balance_covers_refuses_the_whole_settlement(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante")
    await store.players.take(GUILD, BOB, START - 10, admin_id=ADMIN)
    with pytest.raises(ShortOfChipsError, match=f"player {BOB} has 10 and needs 50"):
        await store.chips.settle(game, [Transfer(BOB, ALICE, 50, "points")])
    assert await store.chips.escrowed(game) == {ALICE: 10, BOB: 10}
    assert (await store.games.get(game)).status is GameStatus.OPEN  # type: ignore[union-attr]


async def test_a_settlement_must_empty_the_pot(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10}, "ante")
    with pytest.raises(StorageError, match="pot must be emptied"):
        await store.chips.settle(game, [Transfer(ALICE, POT, 10, "ante")])
    with pytest.raises(StorageError, match="'alice' is not a player"):
        await store.chips.settle(game, [Transfer("alice", HOUSE, 10, "ante")])


async def test_a_refund_returns_every_escrowed_chip_once(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10, BOB: 25}, "ante")
    assert await store.chips.refund(game) == {ALICE: 10, BOB: 25}
    assert await store.chips.refund(game) == {}
    assert await balances(store, ALICE, BOB) == [START, START]
    assert (await store.games.get(game)).status is GameStatus.REFUNDED  # type: ignore[union-attr]
    with pytest.raises(GameStateError, match="cancelled and refunded"):
        await store.chips.settle(game, [])
    with pytest.raises(GameStateError, match="takes no more chips"):
        await store.chips.escrow(game, {ALICE: 1}, "late buy-in")
    await assert_consistent(store)


async def test_a_settled_game_cannot_be_refunded(store: Storage) -> None:
    game = await new_game(store)
    await store.chips.escrow(game, {ALICE: 10}, "ante")
    await store.chips.settle(game, [])
    with pytest.raises(GameStateError, match="already settled"):
        await store.chips.refund(game)
    assert await balances(store, ALICE) == [START]


async def test_escrowed_chips_cannot_be_spent_elsewhere_mid_game(store: Storage) -> None:
    """The casino-bot exploit: stake everything, then spend the same chips at another table."""
    first, second = await new_game(store), await new_game(store, channel=CHANNEL + 1)
    await store.chips.escrow(first, {ALICE: START, BOB: 10}, "all in")
    with pytest.raises(ShortOfChipsError, match=f"player {ALICE} has 0 and needs 10"):
        await store.chips.escrow(second, {ALICE: 10}, "ante")
    with pytest.raises(StorageError, match="has only 0 chips to take"):
        await store.players.take(GUILD, ALICE, 1, admin_id=ADMIN)
    # A balance change mid-game (a grant) is spendable; the escrow stays untouched.
    await store.players.grant(GUILD, ALICE, 10, admin_id=ADMIN)
    await store.chips.escrow(second, {ALICE: 10}, "ante")
    assert await store.chips.escrowed(first) == {ALICE: START, BOB: 10}
    await store.chips.settle(first, [Transfer(ALICE, BOB, START, "points")])
    assert await balances(store, ALICE, BOB) == [0, 2 * START]
    await assert_consistent(store)


async def test_two_games_settle_for_one_player_at_once_on_one_connection(store: Storage) -> None:
    games = [await new_game(store, channel=CHANNEL + i) for i in range(2)]
    for game in games:
        await store.chips.escrow(game, {ALICE: 100, BOB: 100}, "ante")
    await asyncio.gather(
        store.chips.settle(games[0], [Transfer(ALICE, BOB, 100, "points")]),
        store.chips.settle(games[1], [Transfer(ALICE, BOB, 100, "points")]),
    )
    assert await balances(store, ALICE, BOB) == [START - 200, START + 200]
    await assert_consistent(store)


async def test_two_games_settle_for_one_player_at_once_on_two_connections(
    database_target: str | Path, clock: FakeClock
) -> None:
    # Two connections: on PostgreSQL, what two processes of the bot would be.
    one = Storage.over(await open_database(database_target, clock=clock))
    two = Storage.over(await open_database(database_target, clock=clock))
    try:
        games = [await new_game(one, channel=CHANNEL + i) for i in range(4)]
        await asyncio.gather(
            *(
                repo.chips.escrow(game, {ALICE: 200, BOB: 200}, "ante")
                for repo, game in zip((one, two, one, two), games, strict=True)
            )
        )
        # Alice loses more than her escrow in each game: each loss also reads her balance.
        await asyncio.gather(
            *(
                repo.chips.settle(game, [Transfer(ALICE, BOB, 250, "points")])
                for repo, game in zip((two, one, two, one), games, strict=True)
            )
        )
        assert await balances(one, ALICE, BOB) == [0, 2 * START]
        await assert_consistent(two)
    finally:
        await one.database.close()
        await two.database.close()


async def test_a_game_only_moves_chips_of_its_own_server(store: Storage) -> None:
    game = await new_game(store, guild=OTHER_GUILD)
    await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante")
    await store.chips.settle(game, [Transfer(BOB, ALICE, 10, "points")])
    assert await balances(store, ALICE, BOB, guild=OTHER_GUILD) == [START + 10, START - 10]
    assert await balances(store, ALICE, BOB) == [START, START]
    assert (await audit(store.database, GUILD)).balances == 2 * START
    await assert_consistent(store)


async def test_the_same_stake_is_never_taken_twice(store: Storage) -> None:
    """A double click, or a table resumed after a crash, repeats an escrow under one reason."""
    game = await new_game(store)
    assert await store.chips.escrow(game, {ALICE: 10}, "ante") == {ALICE: 10}
    assert await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante") == {BOB: 10}
    assert await store.chips.escrow(game, {ALICE: 10, BOB: 10}, "ante") == {}
    assert await store.chips.escrow(game, {ALICE: 10}, "stake 1") == {ALICE: 10}
    assert await store.chips.escrowed(game) == {ALICE: 20, BOB: 10}
    await assert_consistent(store)
