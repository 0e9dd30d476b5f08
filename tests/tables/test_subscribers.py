"""Features listen: each subscriber takes the tables' typed events after commit, in commit order,
from the one outbox, at its own position; one that fails is retried and holds back no other."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

import tables.outbox
from storage import Storage
from storage.rows import GameStatus, PlayerStats
from tables.config import make_config
from tables.events import Event, PlayerJoined, PlayerLeft, ShowdownSettled
from tables.features import listening_features
from tables.runtime import RETRY_FIRST_S
from tables.statistics import PlayerStatistics
from tables.subscribers import Delivery, Subscriber
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, FakePublisher, World

WANTED = (PlayerJoined, PlayerLeft, ShowdownSettled)


class Recorder:
    """Keeps what it is handed, and checks that a showdown's settlement had committed."""

    events = WANTED

    def __init__(self, name: str) -> None:
        self.name = name
        #: The world's storage (set once the world is open).
        self.storage: Storage | None = None
        self.heard: list[tuple[Event, Delivery]] = []

    async def handle(self, event: Event, delivery: Delivery) -> None:
        if isinstance(event, ShowdownSettled):
            assert self.storage is not None
            game = await self.storage.games.get(event.game_id)
            assert game is not None and game.status is GameStatus.SETTLED
        self.heard.append((event, delivery))


class Failing(Recorder):
    """Fails on a showdown the first ``times`` times it is handed one."""

    def __init__(self, name: str, times: int) -> None:
        super().__init__(name)
        self.times = times

    async def handle(self, event: Event, delivery: Delivery) -> None:
        if isinstance(event, ShowdownSettled) and self.times:
            self.times -= 1
            raise RuntimeError("the ratings service is down")
        await super().handle(event, delivery)


async def open_world(path: str | Path, *subscribers: Recorder) -> World:
    """A world whose subscribers are these beside the bot's own."""

    def features(storage: Storage) -> list[Subscriber]:
        for subscriber in subscribers:
            subscriber.storage = storage
        return [*listening_features(storage), *subscribers]

    return await World.open(path, features=features)


async def play_a_game(world: World) -> None:
    """A lobby with a leave and two joins, then a game the deadlines play to its showdown."""
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.leave(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.join(GUILD, CHANNEL, PLAYERS[2])
    await world.manager.start(GUILD, CHANNEL, HOST)
    while (table := await world.manager.table(GUILD, CHANNEL)) is not None and table.in_game:
        await world.scheduler.pass_deadline()


def shown(publisher: FakePublisher) -> list[Event]:
    return [event for _, _, event in publisher.events if isinstance(event, WANTED)]


async def queued(world: World) -> int:
    return len(await world.storage.outbox.pending(GUILD, CHANNEL))


async def test_a_subscriber_hears_what_it_wants_after_commit_in_commit_order(
    database_target: str | Path,
) -> None:
    recorder = Recorder("recorder")
    world = await open_world(database_target, recorder)
    try:
        await play_a_game(world)
        heard = [event for event, _ in recorder.heard]
        assert heard == shown(world.publisher)
        assert [type(e) for e in heard] == [PlayerJoined, PlayerLeft, PlayerJoined, ShowdownSettled]
        positions = [delivery.position for _, delivery in recorder.heard]
        assert positions == sorted(set(positions))
        [(showdown, delivery)] = recorder.heard[-1:]
        assert isinstance(showdown, ShowdownSettled) and delivery.game_id == showdown.game_id
        assert await queued(world) == 0
    finally:
        await world.close()


async def test_a_failing_subscriber_is_retried_and_holds_back_neither_the_publisher_nor_another(
    database_target: str | Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="tables.subscribers")
    failing, recorder = Failing("failing", times=2), Recorder("recorder")
    world = await open_world(database_target, failing, recorder)
    try:
        await play_a_game(world)
        # The publisher and the other subscriber took the showdown; the failing one did not.
        assert len(world.publisher.of(ShowdownSettled)) == 1
        assert [type(e) for e, _ in recorder.heard][-1] is ShowdownSettled
        assert ShowdownSettled not in [type(e) for e, _ in failing.heard]
        positions = await world.storage.outbox.positions(GUILD, CHANNEL)
        assert positions["failing"] < positions["recorder"] == positions["publisher"]
        # Its rows stay until it is past them too.
        assert await queued(world) > 0
        assert [t for t in world.scheduler.pending if t.when == world.clock() + RETRY_FIRST_S]
        for _ in range(2):
            world.clock.now = min(t.when for t in world.scheduler.pending)
            await world.scheduler.run_due()
        assert [type(e) for e, _ in failing.heard] == [type(e) for e, _ in recorder.heard]
        assert await queued(world) == 0
        assert len(world.publisher.of(ShowdownSettled)) == 1  # nobody else heard it again
        # Two failures, one error in the log (and one line when it recovered).
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert [r.getMessage().split(";")[0] for r in errors] == [
            f"failing failed on an event of channel {CHANNEL}"
        ]
        assert any(
            r.getMessage() == "failing handles the tables' events again." for r in caplog.records
        )
    finally:
        await world.close()


async def test_a_subscriber_that_fails_after_writing_keeps_nothing_and_counts_once_later(
    database_target: str | Path,
) -> None:
    crashes = [1]

    class CrashingStatistics(PlayerStatistics):
        async def handle(self, event: Event, delivery: Delivery) -> None:
            await super().handle(event, delivery)
            if crashes:
                crashes.pop()
                raise RuntimeError("the process died here")

    world = await World.open(
        database_target, features=lambda storage: [CrashingStatistics(storage.statistics)]
    )
    try:
        await play_a_game(world)
        # The statistics it wrote went with its position: nothing counted yet.
        nothing = PlayerStats(0, 0, 0, 0, 0, 0, 0)
        assert await world.storage.leaderboards.statistics(GUILD, HOST) == nothing
        world.clock.now = min(t.when for t in world.scheduler.pending)
        await world.scheduler.run_due()
        stats = await world.storage.leaderboards.statistics(GUILD, HOST)
        assert stats.played == 1 and await queued(world) == 0
    finally:
        await world.close()


async def test_a_showdown_taken_twice_is_counted_once(database_target: str | Path) -> None:
    world = await World.open(database_target)
    try:
        world.publisher.refuse(ShowdownSettled, times=None)  # its row stays queued
        await play_a_game(world)
        counted = await world.storage.leaderboards.statistics(GUILD, HOST)
        assert counted.played == 1
        # Another process took the same rows (this one's lock was lost), or the statistics'
        # position went back: the showdown comes again.
        await world.database.execute("DELETE FROM outbox_positions WHERE subscriber = 'statistics'")
        world.publisher.refuse(times=0)
        await world.restart()
        assert len(world.publisher.of(ShowdownSettled)) == 1
        assert await world.storage.leaderboards.statistics(GUILD, HOST) == counted
        assert await queued(world) == 0
    finally:
        await world.close()


class GatedRecorder(Recorder):
    """Waits for the test's word before it takes anything."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.gate = asyncio.Event()

    async def handle(self, event: Event, delivery: Delivery) -> None:
        await self.gate.wait()
        await super().handle(event, delivery)


class SignallingPublisher(FakePublisher):
    """Says when it has shown a join."""

    def __init__(self) -> None:
        super().__init__()
        self.joined = asyncio.Event()

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        await super().publish(guild_id, channel_id, events)
        if any(isinstance(event, PlayerJoined) for event in events):
            self.joined.set()


async def test_a_slow_subscriber_does_not_hold_the_publisher_back(
    database_target: str | Path,
) -> None:
    slow = GatedRecorder("slow")
    world = await open_world(database_target, slow)
    publisher = SignallingPublisher()
    world.manager.publisher = world.manager.outbox.publisher = publisher
    world.manager.outbox.background = True
    try:
        await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
        await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
        await asyncio.wait_for(publisher.joined.wait(), 30)  # a limit, not a timing
        assert slow.heard == [] and await queued(world) > 0
        slow.gate.set()
        await world.manager.outbox.flush()
        assert [e for e, _ in slow.heard] == shown(publisher)
        assert await queued(world) == 0
    finally:
        slow.gate.set()
        await world.close()


class Crowd:
    """The gated subscribers inside ``handle`` now, and the most there were at once."""

    def __init__(self, full: int) -> None:
        self.inside = 0
        self.most = 0
        self.gate = asyncio.Event()
        #: Set once ``full`` of them are inside at once.
        self.full_at = full
        self.full = asyncio.Event()


class Crowding(Recorder):
    """Waits inside ``handle`` for the test's word, counted in its crowd."""

    def __init__(self, name: str, crowd: Crowd) -> None:
        super().__init__(name)
        self.crowd = crowd

    async def handle(self, event: Event, delivery: Delivery) -> None:
        crowd = self.crowd
        crowd.inside += 1
        crowd.most = max(crowd.most, crowd.inside)
        if crowd.inside == crowd.full_at:
            crowd.full.set()
        try:
            await crowd.gate.wait()
            await super().handle(event, delivery)
        finally:
            crowd.inside -= 1


async def test_the_features_take_turns_and_the_publisher_never_waits_for_them(
    database_target: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a burst of showdowns the features' transactions queue among themselves rather
    # than beside the players' clicks; what the players see goes out meanwhile.
    monkeypatch.setattr(tables.outbox, "FEATURE_TURNS", 2)
    crowd = Crowd(full=2)
    crowding = [Crowding(f"crowding-{n}", crowd) for n in range(4)]
    world = await open_world(database_target, *crowding)
    publisher = SignallingPublisher()
    world.manager.publisher = world.manager.outbox.publisher = publisher
    world.manager.outbox.background = True
    try:
        await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
        await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
        # Limits, not timings: two features are inside, and the join is shown meanwhile.
        await asyncio.wait_for(crowd.full.wait(), 30)
        await asyncio.wait_for(publisher.joined.wait(), 30)
        crowd.gate.set()
        await world.manager.outbox.flush()
        assert crowd.most == 2
        for each in crowding:
            assert [e for e, _ in each.heard] == shown(publisher)
        assert await queued(world) == 0
    finally:
        crowd.gate.set()
        await world.close()


class DiesOnce:
    """A feature whose process dies once right after it wrote what a showdown moved, before its
    position could commit (a kill between a settlement and its subscribers' commits)."""

    def __init__(self, inner: Subscriber, died: set[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.events = inner.events
        #: The features that died already (the next process's run on).
        self.died = died

    async def handle(self, event: Event, delivery: Delivery) -> Sequence[Event] | None:
        answer = await self.inner.handle(event, delivery)
        if isinstance(event, ShowdownSettled) and self.name not in self.died:
            self.died.add(self.name)
            raise RuntimeError("the process died here")
        return answer


async def test_a_kill_before_the_features_commit_neither_loses_nor_doubles_what_they_keep(
    database_target: str | Path,
) -> None:
    """Every feature the bot runs (statistics, ratings, achievements) dies once mid-showdown;
    the next process takes the showdown and counts it once, and a showdown taken again (a lost
    lock, a position gone back) changes nothing."""
    died: set[str] = set()
    world = await World.open(
        database_target,
        features=lambda storage: [DiesOnce(f, died) for f in listening_features(storage)],
    )
    people = (HOST, PLAYERS[2])

    async def kept() -> tuple[object, ...]:
        storage = world.storage
        return tuple(
            [
                (
                    await storage.leaderboards.statistics(GUILD, user),
                    await storage.ratings.player(GUILD, user),
                    sorted(
                        row.achievement for row in await storage.achievements.earned(GUILD, user)
                    ),
                )
                for user in people
            ]
        )

    try:
        before = await kept()
        await play_a_game(world)
        # Each feature wrote and died: nothing of the showdown is kept yet.
        assert await kept() == before
        # The next process (the retry's timer, or a restart) takes the showdown once.
        await world.restart()
        after = await kept()
        for (stats, ratings, earned), user in zip(after, people, strict=True):
            assert stats.played == 1, user
            [rating] = ratings
            assert rating.games == 1, user
            assert "first-game" in earned, user
        announced = [
            e for _, _, e in world.publisher.events if type(e).__name__ == "AchievementEarned"
        ]
        # The showdown comes again to every feature: nothing moves twice.
        await world.database.execute("DELETE FROM outbox_positions")
        await world.restart()
        assert await kept() == after
        again = [e for _, _, e in world.publisher.events if type(e).__name__ == "AchievementEarned"]
        assert len(again) == len(announced) > 0
    finally:
        await world.close()
