"""Test doubles for the table layer: a publisher that keeps events, a clock, a manual scheduler."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.arrangement import Arrangement, is_legal_keys
from engine.cards import AnyCard, card_from_code
from engine.errors import GameError
from engine.evaluate import evaluator
from storage import Storage
from storage.audit import audit
from storage.database import Clock, Database
from storage.rows import GameStatus
from storage.stores import open_database
from tables.events import CardsDealt, CardsDrawn, Event, SeatResult, ShowdownSettled
from tables.games import GameSpec
from tables.hands import Setting, read_setting, suggest_setting
from tables.manager import NO_TABLE, TableManager
from tables.phase import Phase
from tables.runtime import DeliveryError, Priority
from tables.subscribers import Subscriber
from tables.table import Table

GUILD = 1001
OTHER_GUILD = 2002
CHANNEL = 3003
OTHER_CHANNEL = 3004
HOST = 11
PLAYERS = (11, 12, 13, 14, 15, 16)
STRANGER = 99

#: The subscribers a world runs over a store it opens.
Features = Callable[[Storage], Sequence[Subscriber]]


class FakePublisher:
    """Keeps every published event, per channel, in order; refuses some as Discord does while
    it fails."""

    def __init__(self) -> None:
        self.events: list[tuple[int, int, Event]] = []
        #: The kinds of event refused (`DeliveryError`), and how many more times (None: always).
        self.refused_kinds: tuple[type[Event], ...] = ()
        self.refusals: int | None = 0
        #: How many publications were refused.
        self.refused = 0

    def refuse(self, *kinds: type[Event], times: int | None) -> None:
        """Refuse the events of these kinds ``times`` more times, as Discord answering 503."""
        self.refused_kinds, self.refusals = kinds, times

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        for index, event in enumerate(events):
            if isinstance(event, self.refused_kinds) and self.refusals != 0:
                if self.refusals is not None:
                    self.refusals -= 1
                self.refused += 1
                raise DeliveryError("503 Service Unavailable", shown=index, upto=index + 1)
            self.events.append((guild_id, channel_id, event))

    def of(self, kind: type[Event], channel_id: int | None = None) -> list[Event]:
        """The published events of one kind (in one channel)."""
        return [
            e
            for _, c, e in self.events
            if isinstance(e, kind) and (channel_id is None or c == channel_id)
        ]

    def held(self, user: int) -> tuple[AnyCard, ...]:
        """What the player holds, from the private events they were sent last."""
        cards: tuple[AnyCard, ...] = ()
        for _, _, event in self.events:
            if isinstance(event, CardsDealt) and event.user == user:
                cards = event.cards
            elif isinstance(event, CardsDrawn) and event.user == user:
                cards = event.held
        return cards


class FakeClock:
    """Wall-clock seconds that move only when the test says."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class ManualTimer:
    """A scheduled deadline the test fires by hand."""

    when: float
    callback: Callable[[], Awaitable[None]]
    cancelled: bool = False

    def cancel(self) -> bool:
        was = not self.cancelled
        self.cancelled = True
        return was


@dataclass
class ManualScheduler:
    """Deadlines fire only when ``run_due`` is awaited (virtual time for the table layer)."""

    clock: FakeClock
    timers: list[ManualTimer] = field(default_factory=list)

    def schedule(self, delay: float, callback: Callable[[], Awaitable[None]]) -> ManualTimer:
        timer = ManualTimer(self.clock() + delay, callback)
        self.timers.append(timer)
        return timer

    @property
    def pending(self) -> list[ManualTimer]:
        return [t for t in self.timers if not t.cancelled]

    async def run_due(self) -> int:
        """Fire every live timer whose time has come; how many fired."""
        fired = 0
        for timer in list(self.timers):
            if not timer.cancelled and timer.when <= self.clock():
                timer.cancelled = True
                await timer.callback()
                fired += 1
        return fired

    async def pass_deadline(self) -> None:
        """Move the clock past the next deadline and fire it."""
        live = self.pending
        if live:
            self.clock.now = max(self.clock.now, min(t.when for t in live))
        await self.run_due()


@functools.lru_cache(maxsize=4096)
def _cached(spec: GameSpec, codes: tuple[int, ...]) -> Setting:
    held = tuple(card_from_code(code) for code in codes)
    # A short budget: the tests need a legal setting, not the best one.
    return suggest_setting(spec, held, budget_s=0.02).setting


def _shuffled_legal(spec: GameSpec, codes: tuple[int, ...]) -> Setting | None:
    """A legal Pyramid setting found by shuffling: each size's hands sorted weakest first."""
    variant = spec.variant
    if variant is None:
        return None
    keyer = evaluator(variant.hand_rules)
    sizes = [min(slot.allowed_sizes) for slot in variant.slots]
    rng = random.Random(hash(codes))
    cards = list(codes)
    for _ in range(300):
        rng.shuffle(cards)
        hands, start = [], 0
        for size in sizes:
            hands.append(tuple(cards[start : start + size]))
            start += size
        for size in set(sizes):
            slots = [i for i, s in enumerate(sizes) if s == size]
            ordered = sorted((hands[i] for i in slots), key=keyer.key)
            for i, hand in zip(slots, ordered, strict=True):
                hands[i] = hand
        if is_legal_keys(variant, sizes, [keyer.key(hand) for hand in hands]):
            arrangement = Arrangement(tuple(tuple(card_from_code(c) for c in h) for h in hands))
            return Setting(arrangement.hands)
    return None


def quick_arranger(spec: GameSpec, held: Sequence[AnyCard]) -> Setting:
    """A legal setting, fast: shuffled until legal, else the solver with a short budget.

    The table layer's tests need legal hands quickly, not the best ones; the solver's own
    answers are tested in tests/engine.
    """
    codes = tuple(sorted(card.code for card in held))
    return _shuffled_legal(spec, codes) or _cached(spec, codes)


@dataclass
class World:
    """A manager over a real store (a SQLite file or a PostgreSQL database), with its fakes,
    that can be restarted."""

    path: str | Path
    database: Database
    storage: Storage
    publisher: FakePublisher
    clock: FakeClock
    scheduler: ManualScheduler
    manager: TableManager
    rng: random.Random

    #: The features listening beside the publisher, over each store opened (None: the bot's).
    features: Features | None = None
    #: The store's clock (None: the real one), for what is stamped by day.
    stamps: Clock | None = None

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        seed: int = 1,
        clock: FakeClock | None = None,
        features: Features | None = None,
        stamps: Clock | None = None,
    ) -> World:
        clock = clock or FakeClock()
        database = await _open(path, stamps)
        storage = Storage.over(database)
        publisher = FakePublisher()
        scheduler = ManualScheduler(clock)
        rng = random.Random(seed)
        manager = _manager(storage, publisher, clock, scheduler, rng, features)
        return cls(
            path,
            database,
            storage,
            publisher,
            clock,
            scheduler,
            manager,
            rng,
            features,
            stamps,
        )

    async def restart(self) -> None:
        """Drop the process (manager, timers, connection) and start a new one on the same store."""
        await self.manager.close()
        await self.database.close()
        self.database = await _open(self.path, self.stamps)
        self.storage = Storage.over(self.database)
        self.scheduler = ManualScheduler(self.clock)
        self.manager = _manager(
            self.storage, self.publisher, self.clock, self.scheduler, self.rng, self.features
        )
        await self.manager.resume()
        await self.manager.publish_pending()

    async def close(self) -> None:
        await self.manager.close()
        await self.database.close()

    async def check_ledger(self) -> None:
        """Balances equal the ledger; no chip appeared or vanished."""
        report = await audit(self.database)
        assert report.is_consistent, report.problems

    async def open_games(self) -> list[int]:
        return [game.id for game in await self.storage.games.list_open()]

    async def status(self, game_id: int) -> GameStatus:
        game = await self.storage.games.get(game_id)
        assert game is not None
        return game.status


async def _open(path: str | Path, stamps: Clock | None) -> Database:
    return await open_database(path) if stamps is None else await open_database(path, clock=stamps)


def _manager(
    storage: Storage,
    publisher: FakePublisher,
    clock: FakeClock,
    scheduler: ManualScheduler,
    rng: random.Random,
    features: Features | None,
) -> TableManager:
    return TableManager(
        storage,
        publisher,
        clock=clock,
        scheduler=scheduler,
        rng=rng,
        arranger=quick_arranger,
        # Shown before each action returns, so a test reads what it published at once.
        background_publishing=False,
        subscribers=None if features is None else features(storage),
    )


async def submit_text(
    manager: TableManager,
    guild: int,
    channel: int,
    user: int,
    text: str,
    automatic: str | None = None,
) -> tuple[Event, ...]:
    """Set a player's hands from the text they typed, as the bot does: read once against their
    cards, then submitted as a setting."""
    table = await manager.table(guild, channel)
    if table is None:
        raise GameError(NO_TABLE)
    setting = read_setting(table.spec, table.seat_of(user).held, text, automatic)
    return await manager.submit(guild, channel, user, setting)


async def suggested(world: World, table: Table, user: int) -> Setting:
    """The table's suggestion for the player (what Suggest shows, and Take it sets)."""
    return (await world.manager.suggest(table.guild_id, table.channel_id, user)).setting


async def play_against_computers(
    world: World,
    person: int = HOST,
    *,
    plays_on: bool = True,
    sets: Callable[[World, Table, int], Awaitable[Setting]] = suggested,
) -> ShowdownSettled:
    """Play the table of ``CHANNEL`` to its showdown: the person declares (``plays_on``) and
    sets hands (``sets``: the suggestion) when the table waits for them, and the computers' turns,
    which run in the background, are waited for otherwise. The game's showdown."""
    shown = len(world.publisher.of(ShowdownSettled))
    for _ in range(200):
        table = await world.manager.table(GUILD, CHANNEL)
        if table is None or not table.in_game:
            break
        if person not in table.waiting_for():
            await world.manager.turns.wait()
        elif table.phase is Phase.DECLARING:
            await world.manager.declare(GUILD, CHANNEL, person, plays_on)
        else:
            setting = await sets(world, table, person)
            await world.manager.submit(GUILD, CHANNEL, person, setting)
    # A computer's turn that settled the game may still be showing its events.
    await world.manager.activity.idle()
    showdowns = world.publisher.of(ShowdownSettled)
    assert len(showdowns) > shown, "the game never reached its showdown"
    last = showdowns[-1]
    assert isinstance(last, ShowdownSettled)
    return last


@contextlib.contextmanager
def refused_with(sentence: str) -> Iterator[None]:
    """The block is refused with a ``GameError`` saying exactly ``sentence`` (players and
    channels named plainly)."""
    with pytest.raises(GameError) as refusal:
        yield
    assert str(refusal.value) == sentence


class GatedOffload:
    """The computers' worker pool, held shut until the test opens it: what was asked, and when."""

    def __init__(self, inner: Any, only: tuple[str, ...] | None = None) -> None:
        self.inner = inner
        self.only = only
        self.gate = asyncio.Event()
        self.asked: list[tuple[str, Priority]] = []
        self.urgencies: list[float] = []
        self._arrived: asyncio.Queue[None] = asyncio.Queue()

    async def __call__(
        self, work: Any, /, *args: Any, priority: Priority = Priority.SUGGEST, urgency: float = 0.0
    ) -> Any:
        if not self.holds(work):
            return await self.inner(work, *args, priority=priority, urgency=urgency)
        self.asked.append((work.__name__, priority))
        self.urgencies.append(urgency)
        self._arrived.put_nowait(None)
        await self.held()
        return await self.inner(work, *args, priority=priority, urgency=urgency)

    def holds(self, work: Any) -> bool:
        """Whether the gate holds this work (``only``: the works it holds, by name)."""
        return self.only is None or work.__name__ in self.only

    async def held(self) -> None:
        """Wait until the test opens the gate."""
        await self.gate.wait()

    async def until_asked(self, count: int) -> None:
        """Wait until ``count`` more jobs have come to the pool."""
        async with asyncio.timeout(10):  # a job that never comes fails, not hangs, the test
            for _ in range(count):
                await self._arrived.get()


class QuickComputers:
    """The computers' decisions at once (play on; any legal setting): the tournament is under
    test here, not how computers think (tests/tables/test_computers.py)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, work: Any, /, *args: Any, **options: Any) -> Any:
        if work.__name__ == "computer_declares":
            return True
        if work.__name__ == "computer_sets":
            spec, _, held = args
            return quick_arranger(spec, held)
        return await self.inner(work, *args, **options)


def settled(
    game_id: int,
    nets: dict[int, int],
    *,
    game: str = "standard",
    practice: bool = False,
    scope: int | None = None,
) -> ShowdownSettled:
    """A settled game's showdown with these nets and nothing else (no hands): what the
    features that count results (ratings, statistics, achievements' tallies) are handed."""
    return ShowdownSettled(
        game_id=game_id,
        game=game,
        seats=tuple(SeatResult(user, None, (), (), None, net) for user, net in nets.items()),
        matrix=(),
        matrix_players=(),
        nets=nets,
        house=0,
        pot=0,
        pot_winners=(),
        practice=practice,
        scope=scope,
    )
