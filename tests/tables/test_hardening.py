"""Defects found by trying to break the tables, each pinned by the test that found it."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from engine.errors import GameError
from storage.cluster import DeadlineRepository
from storage.games import SnapshotRepository
from storage.rows import GameStatus
from tables.config import make_config
from tables.events import PlayerLeft, ShowdownSettled, TableAbandoned, TableClosed
from tables.outbox import GIVE_UP_S
from tables.phase import Phase
from tables.runtime import RETRY_MAX_S
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    HOST,
    OTHER_CHANNEL,
    PLAYERS,
    STRANGER,
    ManualTimer,
    World,
    refused_with,
)

THIRD_CHANNEL = 3005


async def seated_at(world: World, user: int) -> list[int]:
    """The channels of this server whose table seats the player."""
    return [
        table.channel_id
        for table in await world.manager.tables()
        if table.guild_id == GUILD and table.is_seated(user)
    ]


async def test_racing_joins_in_two_channels_seat_the_player_once(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.create(GUILD, OTHER_CHANNEL, STRANGER, make_config("casino"))
    user = PLAYERS[1]
    results = await asyncio.gather(
        world.manager.join(GUILD, CHANNEL, user),
        world.manager.join(GUILD, OTHER_CHANNEL, user),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(refused) == 1, results
    assert "one table per server" in str(refused[0])
    assert len(await seated_at(world, user)) == 1


async def test_creating_a_table_while_joining_another_seats_the_player_once(
    world: World,
) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    user = PLAYERS[1]
    results = await asyncio.gather(
        world.manager.create(GUILD, OTHER_CHANNEL, user, make_config("casino")),
        world.manager.join(GUILD, CHANNEL, user),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameError) for r in results) == 1, results
    assert len(await seated_at(world, user)) == 1


async def test_the_seat_rule_survives_a_restart_and_three_racing_tables(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.create(GUILD, OTHER_CHANNEL, STRANGER, make_config("casino"))
    await world.restart()
    user = PLAYERS[2]
    results = await asyncio.gather(
        world.manager.join(GUILD, CHANNEL, user),
        world.manager.create(GUILD, THIRD_CHANNEL, user, make_config("paigow")),
        world.manager.join(GUILD, OTHER_CHANNEL, user),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameError) for r in results) == 2, results
    assert len(await seated_at(world, user)) == 1


# ----- a failed save or deadline never wedges a table; a settled showdown is always published --


class SaveFails(Exception):
    """The database refused the snapshot (a full disk, a lock held too long)."""


def fail_saves(monkeypatch: pytest.MonkeyPatch, times: int, *, after_settlement: bool) -> None:
    """Make the next ``times`` snapshot saves fail (only those of a finished game, if asked)."""
    save = SnapshotRepository.save
    left = [times]

    async def failing(self: SnapshotRepository, **kwargs: Any) -> Any:
        finished = kwargs["state"]["games_played"] > 0
        if left[0] > 0 and (finished or not after_settlement):
            left[0] -= 1
            raise SaveFails("disk I/O error")
        return await save(self, **kwargs)

    monkeypatch.setattr(SnapshotRepository, "save", failing)


async def deal_two(world: World, game: str = "no-surrender") -> tuple[int, ...]:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config(game))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    return PLAYERS[:2]


def showdowns(world: World) -> list[ShowdownSettled]:
    return [e for e in world.publisher.of(ShowdownSettled) if isinstance(e, ShowdownSettled)]


async def test_a_failed_save_after_a_deadline_settlement_is_retried(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await deal_two(world)
    fail_saves(monkeypatch, 1, after_settlement=True)
    await world.scheduler.pass_deadline()  # the table sets both hands, settles, then the save fails
    assert await world.status(1) is GameStatus.SETTLED
    assert world.scheduler.pending, "nothing will ever retry the table"
    world.clock.advance(600)
    await world.scheduler.run_due()
    assert len(showdowns(world)) == 1
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY and table.players == players
    await world.check_ledger()


async def test_a_deadline_whose_work_fails_is_retried(world: World) -> None:
    await deal_two(world)
    arranger = world.manager.arranger
    calls = [0]

    def flaky(spec: Any, held: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("a worker process died")
        return arranger(spec, held)

    world.manager.arranger = flaky
    await world.scheduler.pass_deadline()
    assert not showdowns(world)
    assert world.scheduler.pending, "nothing will ever retry the table"
    world.clock.advance(600)
    await world.scheduler.run_due()
    assert len(showdowns(world)) == 1
    await world.check_ledger()


async def test_the_host_can_always_clear_a_table_whose_save_failed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await deal_two(world)
    fail_saves(monkeypatch, 100, after_settlement=True)
    await world.scheduler.pass_deadline()
    after = {u: await world.storage.players.balance(GUILD, u) for u in players}
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    assert await world.manager.table(GUILD, CHANNEL) is None
    # The settled game keeps its result: cancelling returns nothing twice.
    assert {u: await world.storage.players.balance(GUILD, u) for u in players} == after
    assert len(showdowns(world)) == 1
    await world.check_ledger()


async def test_a_showdown_settled_just_before_a_crash_is_published_after_the_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deal_two(world)
    fail_saves(monkeypatch, 1, after_settlement=True)
    world.publisher.events.clear()
    await world.scheduler.pass_deadline()
    assert await world.status(1) is GameStatus.SETTLED
    await world.restart()
    await world.manager.publish_pending()
    [showdown] = showdowns(world)
    assert showdown.game_id == 1
    # Published once: a second restart finds nothing left to publish.
    await world.restart()
    await world.manager.publish_pending()
    assert len(showdowns(world)) == 1


# ----- a channel or server that goes away frees its players; idle lobbies close ---------------


async def test_a_deleted_channel_refunds_its_game_and_frees_its_players(world: World) -> None:
    players = await deal_two(world, "showdown")
    assert sum((await world.storage.chips.escrowed(1)).values()) == 20
    await world.manager.abandon(GUILD, CHANNEL, "the channel #pyramid was deleted")
    assert await world.manager.table(GUILD, CHANNEL) is None
    assert await world.status(1) is GameStatus.REFUNDED
    for user in players:
        assert await world.storage.players.balance(GUILD, user) == 1_000
    [gone] = world.publisher.of(TableAbandoned)
    assert isinstance(gone, TableAbandoned)
    assert gone.players == players and gone.refunds == {u: 10 for u in players}
    assert "deleted" in gone.reason
    # Free to sit elsewhere at once, and after a restart nothing comes back.
    await world.manager.create(GUILD, OTHER_CHANNEL, players[1], make_config("casino"))
    await world.restart()
    assert await world.manager.table(GUILD, CHANNEL) is None
    await world.check_ledger()


async def test_a_server_that_goes_away_closes_every_table_on_it(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.create(GUILD, OTHER_CHANNEL, STRANGER, make_config("casino"))
    await world.manager.abandon_guild(GUILD, "the bot was removed from the server")
    assert not await world.manager.tables()
    assert len(world.publisher.of(TableAbandoned)) == 2


async def test_an_idle_lobby_closes_after_its_expiry(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    world.clock.advance(20 * 60)
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])  # activity keeps it open
    world.clock.advance(20 * 60)
    await world.scheduler.run_due()
    assert await world.manager.table(GUILD, CHANNEL) is not None
    world.clock.advance(11 * 60)
    await world.scheduler.run_due()
    assert await world.manager.table(GUILD, CHANNEL) is None
    [closed] = world.publisher.of(TableClosed)
    assert isinstance(closed, TableClosed) and "30 minutes" in str(closed.reason)


async def test_an_idle_lobby_restored_after_a_restart_still_expires(world: World) -> None:
    await world.storage.settings.set(GUILD, lobby_minutes=10)
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
    world.clock.advance(9 * 60)
    await world.restart()
    await world.scheduler.run_due()
    assert await world.manager.table(GUILD, CHANNEL) is not None
    world.clock.advance(2 * 60)
    await world.restart()
    await world.scheduler.run_due()
    assert await world.manager.table(GUILD, CHANNEL) is None


async def test_a_lobby_after_a_game_expires_too(world: World) -> None:
    await deal_two(world)
    await world.scheduler.pass_deadline()
    assert len(showdowns(world)) == 1
    world.clock.advance(31 * 60)
    await world.scheduler.run_due()
    assert await world.manager.table(GUILD, CHANNEL) is None


# ----- no free rolls: a player must cover the game's stated risk before the deal -------------


async def test_a_broke_player_is_not_dealt_into_no_surrender(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("no-surrender"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.storage.players.take(GUILD, PLAYERS[1], 1_000, admin_id=STRANGER)
    with refused_with(f"Not enough chips: player {PLAYERS[1]} has 0 and needs 20."):
        await world.manager.start(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY
    await world.check_ledger()


async def test_no_surrender_holds_each_players_cover_and_returns_it_with_the_result(
    world: World,
) -> None:
    players = await deal_two(world)
    cover = {user: 20 for user in players}
    assert await world.storage.chips.escrowed(1) == cover
    await world.scheduler.pass_deadline()
    [showdown] = showdowns(world)
    for user in players:
        balance = await world.storage.players.balance(GUILD, user)
        assert balance == 1_000 + showdown.nets[user]
    assert await world.storage.chips.escrowed(1) == {}
    await world.check_ledger()


# ----- shutting down: the database is not closed under a running action ------------------------


async def test_closing_waits_for_the_action_under_way_and_refuses_new_ones(world: World) -> None:
    await deal_two(world)
    arranger = world.manager.arranger
    thinking = threading.Event()

    def slow(spec: Any, held: Any) -> Any:
        thinking.set()
        time.sleep(0.3)  # the solver, thinking in its worker
        return arranger(spec, held)

    world.manager.arranger = slow
    expiring = asyncio.create_task(world.scheduler.pass_deadline())
    # The deadline's action is under way once its solver thinks.
    assert await asyncio.to_thread(thinking.wait, 10)
    await world.manager.close()
    # close() returned only once the deadline's action had saved its result.
    assert expiring.done()
    assert len(showdowns(world)) == 1
    with refused_with("The bot is restarting; try again in a moment."):
        await world.manager.join(GUILD, CHANNEL, STRANGER)


# ----- a deadline is never dropped: a claim that fails or that a dead process holds ------------

DEAD_PROCESS = "a-host:4242:dead01"


async def test_a_deadline_claimed_by_a_process_that_died_fires_as_soon_as_the_bot_restarts(
    world: World,
) -> None:
    await deal_two(world)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.deadline is not None
    world.clock.now = table.deadline
    # The process claimed the deadline and died before it did the work (SIGKILL, a lost
    # machine): its claim holds the row for the whole lease.
    claim = await world.storage.deadlines.claim(
        GUILD, CHANNEL, by=DEAD_PROCESS, now=world.clock(), lease_s=60
    )
    assert claim is not None
    await world.restart()
    await world.scheduler.run_due()
    assert len(showdowns(world)) == 1, "the restarted bot left the table mid-game"
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY
    await world.check_ledger()


async def test_a_deadline_whose_claim_fails_is_tried_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deal_two(world)
    claim = DeadlineRepository.claim
    left = [1]

    async def failing(self: DeadlineRepository, *args: Any, **kwargs: Any) -> Any:
        if left[0] > 0:
            left[0] -= 1
            raise SaveFails("the database is away")
        return await claim(self, *args, **kwargs)

    monkeypatch.setattr(DeadlineRepository, "claim", failing)
    await world.scheduler.pass_deadline()
    assert not showdowns(world)
    assert world.scheduler.pending, "nothing will ever fire the deadline"
    [retry] = world.scheduler.pending
    assert retry.when - world.clock() <= RETRY_MAX_S
    world.clock.now = retry.when
    await world.scheduler.run_due()
    assert len(showdowns(world)) == 1
    await world.check_ledger()


async def test_a_deadline_another_process_holds_is_tried_again_when_its_claim_runs_out(
    world: World,
) -> None:
    await deal_two(world)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.deadline is not None
    world.clock.now = table.deadline
    await world.storage.deadlines.claim(
        GUILD, CHANNEL, by=DEAD_PROCESS, now=world.clock(), lease_s=60
    )
    await world.scheduler.run_due()  # this process's timer finds the deadline claimed
    assert not showdowns(world)
    assert world.scheduler.pending, "nothing will ever fire the deadline"
    world.clock.advance(60)
    await world.scheduler.run_due()
    assert len(showdowns(world)) == 1
    await world.check_ledger()


# ----- a result Discord refused is kept and shown once it recovers -----------------------------


async def queued(world: World) -> int:
    """How many of the table's events wait in the outbox."""
    return len(await world.storage.outbox.pending(GUILD, CHANNEL))


def next_timer(world: World) -> ManualTimer:
    """The timer due first (a retry of the outbox comes before the lobby's expiry)."""
    return min(world.scheduler.pending, key=lambda timer: timer.when)


async def test_a_showdown_discord_refused_is_kept_and_shown_once_discord_recovers(
    world: World,
) -> None:
    await deal_two(world)
    world.publisher.refuse(ShowdownSettled, times=2)
    await world.scheduler.pass_deadline()
    assert await world.status(1) is GameStatus.SETTLED
    assert not showdowns(world)
    kinds = [row.event["type"] for row in await world.storage.outbox.pending(GUILD, CHANNEL)]
    assert kinds[:1] == ["ShowdownSettled"], "the showdown Discord refused was forgotten"
    # The achievements it earned are announced after it, so they wait behind it.
    assert set(kinds[1:]) <= {"AchievementEarned"}
    for _ in range(2):
        retry = next_timer(world)
        assert retry.when - world.clock() <= RETRY_MAX_S
        world.clock.now = retry.when
        await world.scheduler.run_due()
    assert world.publisher.refused == 2
    assert len(showdowns(world)) == 1
    assert await queued(world) == 0
    assert len(world.scheduler.pending) == 1, "a retry is left beside the lobby's expiry"


async def test_a_showdown_discord_refused_is_shown_after_the_bot_restarts(world: World) -> None:
    await deal_two(world)
    world.publisher.refuse(ShowdownSettled, times=None)
    await world.scheduler.pass_deadline()
    assert not showdowns(world)
    world.publisher.refuse(times=0)  # Discord is back when the bot starts again
    await world.restart()
    assert len(showdowns(world)) == 1
    assert await queued(world) == 0


async def test_a_message_discord_keeps_refusing_holds_its_channel_back_a_day_then_is_dropped(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await deal_two(world)
    world.publisher.refuse(ShowdownSettled, times=None)
    await world.scheduler.pass_deadline()
    # The table plays on; its later events wait behind the showdown, in order.
    await world.manager.leave(GUILD, CHANNEL, PLAYERS[1])
    assert not world.publisher.of(PlayerLeft)
    started, delays = world.clock(), []
    while not world.publisher.of(PlayerLeft):
        retry = next_timer(world)
        delays.append(retry.when - world.clock())
        world.clock.now = retry.when
        await world.scheduler.run_due()
        assert world.clock() - started <= GIVE_UP_S + RETRY_MAX_S, "the channel is held for good"
    assert max(delays) == RETRY_MAX_S and min(delays) > 0
    assert not showdowns(world)
    assert await queued(world) == 0
    # Every failed try says so, and dropping the showdown says so louder.
    warned = [r for r in caplog.records if r.levelname == "WARNING" and "channel 3003" in r.message]
    assert len(warned) >= len(delays)
    [dropped] = [r for r in caplog.records if r.levelname == "ERROR"]
    assert "Dropped" in dropped.message and "channel 3003" in dropped.message
