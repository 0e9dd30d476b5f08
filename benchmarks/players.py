"""The players of the load benchmarks and what they wait for: the bot's publisher (its pictures
and its requests to Discord) with the players who answer it, the tables they play, the loop's
watch, and the figures a player sees beside issue 25's targets.

``benchmarks/bench_load.py`` (one process on SQLite) and ``benchmarks/bench_cluster.py`` (each
store, one process or two) measure the same way with this module: a figure of one is a figure of
the other.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogs.common import batch_picture, picture
from cogs.pictures import hand_picture, phase_subtitle, setting_picture, showdown_picture
from engine.errors import GameError
from storage import Storage
from tables.config import make_config
from tables.events import (
    ArrangingOpened,
    CardsDealt,
    CardsDrawn,
    DeclarationsOpened,
    Event,
    ShowdownSettled,
)
from tables.games import GAMES
from tables.manager import TableManager

GUILD = 1
DEADLINE_S = 30


class Load:
    """The bot's publisher (its pictures and requests) and the players who answer it."""

    def __init__(
        self,
        manager: TableManager,
        rng: random.Random,
        latency: float,
        silent: float,
        burst: float = 0.0,
    ) -> None:
        self.manager = manager
        self.rng = rng
        self.latency = latency
        #: The share of players who set nothing and leave it to the deadline.
        self.silent = silent
        #: The share of players who click 0.01-0.2 s after their DM comes (the others think
        #: 0.5-3 s).
        self.burst = burst
        self.waits: dict[str, list[float]] = defaultdict(list)
        #: From a phase's opening (its action's commit) to each player's DM sent, picture and all.
        self.to_dm: list[float] = []
        #: Players asked to set hands who try (not silent), and those whose own setting the table
        #: accepted before the deadline.
        self.tried = 0
        self.own = 0
        self.started_at: dict[int, float] = {}
        #: Per game: when the submit that settled it was called, when its showdown was posted
        #: (a game the deadline settled has no last hands and is left out).
        self.hands_in: dict[int, float] = {}
        self.posted: dict[int, float] = {}
        self.to_deal: list[float] = []
        self.finished: asyncio.Queue[int] = asyncio.Queue()
        #: The players whose DM channel is open (``create_dm``: one request, once per process).
        self.dm_open: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    async def request(self) -> None:
        """One request to Discord."""
        await asyncio.sleep(self.latency)

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        held: dict[int, Any] = {}
        for event in events:
            if isinstance(event, CardsDealt):
                held[event.user] = event.cards
            elif isinstance(event, CardsDrawn):
                held[event.user] = event.held
            elif isinstance(event, DeclarationsOpened | ArrangingOpened):
                subtitle = phase_subtitle(GAMES[event.game].title, event)

                # The phase opened when its action committed: its deadline less the phase's time.
                opened = event.deadline - DEADLINE_S if event.deadline is not None else time.time()

                async def dm(
                    user: int,
                    phase: Event = event,
                    cards: Any = held,
                    subtitle: str = subtitle,
                    opened: float = opened,
                ) -> None:
                    if user in cards:
                        await batch_picture(hand_picture, cards[user], subtitle=subtitle)
                    if user not in self.dm_open:
                        self.dm_open.add(user)
                        await self.request()
                    await self.request()
                    self.to_dm.append(time.time() - opened)
                    self.answer(channel_id, user, phase)

                # The bot sends a phase's DMs side by side, as this does.
                await asyncio.gather(*(dm(user) for user in event.players))
                if channel_id in self.started_at:
                    self.to_deal.append(time.perf_counter() - self.started_at.pop(channel_id))
                held = {}
            elif isinstance(event, ShowdownSettled):
                names = {seat.user: f"Player {seat.user}" for seat in event.seats}
                await picture(showdown_picture, event, names)
                await self.request()
                self.posted[event.game_id] = time.perf_counter()
                self.finished.put_nowait(channel_id)

    def answer(self, channel: int, user: int, event: Event) -> None:
        if isinstance(event, ArrangingOpened):
            if self.rng.random() < self.silent:
                return
            self.tried += 1
        task = asyncio.get_running_loop().create_task(self.play(channel, user, event))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def play(self, channel: int, user: int, event: Event) -> None:
        if self.rng.random() < self.burst:
            await asyncio.sleep(self.rng.uniform(0.01, 0.2))
        else:
            await asyncio.sleep(self.rng.uniform(0.5, 3.0))
        try:
            if isinstance(event, DeclarationsOpened):
                await self.timed("declare", self.manager.declare(GUILD, channel, user, True))
            else:
                # Suggest pressed, to the answer shown (the first answer while the best is
                # being made, as the bot's Suggest does), its preview and its request.
                asked = time.perf_counter()
                suggestion, best = await self.manager.suggest_now(GUILD, channel, user)
                spec = GAMES[event.game] if isinstance(event, ArrangingOpened) else None
                await self.show(spec, suggestion.setting)
                self.waits["suggest"].append(time.perf_counter() - asked)
                coming = None
                if not best:
                    coming = asyncio.ensure_future(self.manager.suggest(GUILD, channel, user))
                await asyncio.sleep(self.rng.uniform(0.2, 1.0))  # reads it, presses Take it
                setting = suggestion.setting
                if coming is not None:
                    if coming.done() and not coming.exception():
                        setting = coming.result().setting  # the best came meanwhile
                        self.waits["best"].append(time.perf_counter() - asked)
                    else:
                        coming.cancel()  # takes the first answer
                started = time.perf_counter()
                submit = self.manager.submit(GUILD, channel, user, setting)
                events = await self.timed("submit", submit)
                if isinstance(event, ArrangingOpened):
                    self.own += 1
                for settled in events:
                    if isinstance(settled, ShowdownSettled):
                        self.hands_in[settled.game_id] = started  # the last hands
        except GameError:
            pass  # the deadline came first, or the chips fell short

    async def show(self, spec: Any, setting: Any) -> None:
        """A suggestion as the bot shows it: its preview picture, in a thread, and a request."""
        if spec is not None:
            await picture(setting_picture, spec, setting.hands, title="Suggested hands")
        await self.request()

    async def timed(self, kind: str, action: Any) -> Any:
        started = time.perf_counter()
        result = await action
        self.waits[kind].append(time.perf_counter() - started)
        return result


def cpu_seconds(pids: Iterable[int]) -> float:
    """The CPU time (user and system) the processes have used, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        # Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


async def watch_loop(stalls: list[float]) -> None:
    """How late the loop wakes a 10 ms sleep, for as long as the tables play."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(0.01)
        stalls.append(loop.time() - asked - 0.01)


#: A table's channel, game and players.
PlannedTable = tuple[int, str, tuple[int, ...]]


def table_plan(
    tables: int, games: Sequence[str] = tuple(GAMES), *, seats: random.Random | None = None
) -> list[PlannedTable]:
    """Every table's channel, game and players: the games in turn, every seat taken, or with
    ``seats`` 2 to 6 players a table (within what its game seats), drawn from it."""
    names = sorted(games)
    plan = []
    for index in range(tables):
        spec = GAMES[names[index % len(names)]]
        count = spec.max_players
        if seats is not None:
            count = seats.randint(max(2, spec.min_players), max(2, min(6, spec.max_players)))
        users = tuple(10_000 + 10 * index + seat for seat in range(count))
        plan.append((index + 1, spec.name, users))
    return plan


def loaded_manager(
    storage: Storage,
    players: random.Random,
    latency: float,
    silent: float,
    burst: float = 0.0,
    **options: Any,
) -> Load:
    """A table manager (``options`` are its own) whose publisher is a `Load` playing over it."""
    holder: list[Load] = []

    class Relay:
        async def publish(self, g: int, c: int, events: Sequence[Event]) -> None:
            await holder[0].publish(g, c, events)

    manager = TableManager(storage, Relay(), **options)
    holder.append(Load(manager, players, latency, silent, burst))
    return holder[0]


async def open_tables(
    manager: TableManager, plan: Sequence[tuple[int, str, tuple[int, ...]]]
) -> None:
    """Open the planned tables, each with its players seated, and show what that posted."""
    for channel, game, users in plan:
        config = make_config(game, declaration_seconds=DEADLINE_S, arrangement_seconds=DEADLINE_S)
        await manager.create(GUILD, channel, users[0], config)
        for user in users[1:]:
            await manager.join(GUILD, channel, user)
    await manager.outbox.flush()


def ms(values: list[float], share: float) -> str:
    """The ``share`` quantile of ``values`` (seconds) in whole milliseconds; "-" for none."""
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000:.0f}"


#: Issue 25's targets at 50 busy tables: (what, the figure's column, the target, at most?).
TARGETS = (
    ("DM picture after the phase opens, p95", "dm95", 1500.0, True),
    ("Suggest pressed to answer shown, p95", "sug95", 1000.0, True),
    ("players who tried and set their own hands", "own", 99.0, False),
    ("loop stall, p99", "lag99", 50.0, True),
)


@dataclass(slots=True)
class PlayerFigures:
    """What the players of one run waited for, in seconds (from one process, or several
    merged): the lists of waits, and the counts behind the share of own hands."""

    #: A phase's opening to each player's DM sent.
    to_dm: list[float] = field(default_factory=list)
    #: Suggest pressed to its answer shown.
    suggest: list[float] = field(default_factory=list)
    #: Suggest pressed to the best answer, where it came before Take it.
    best: list[float] = field(default_factory=list)
    #: Players asked to set hands who tried, and those whose own setting was accepted.
    tried: int = 0
    own: int = 0
    #: How late the loop woke each 10 ms sleep.
    stalls: list[float] = field(default_factory=list)
    #: CPU seconds (the table processes and their workers) and games played.
    cpu: float = 0.0
    games: int = 0

    @classmethod
    def of(cls, load: Load, stalls: list[float], cpu: float, games: int) -> PlayerFigures:
        """The figures of one process's `Load`, its loop's stalls and its CPU."""
        return cls(
            to_dm=list(load.to_dm),
            suggest=list(load.waits["suggest"]),
            best=list(load.waits["best"]),
            tried=load.tried,
            own=load.own,
            stalls=list(stalls),
            cpu=cpu,
            games=games,
        )

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def merged(cls, parts: Iterable[dict[str, Any]]) -> PlayerFigures:
        """Several processes' figures (`to_json`) as one run's."""
        whole = cls()
        for part in parts:
            for name in ("to_dm", "suggest", "best", "stalls"):
                getattr(whole, name).extend(part[name])
            whole.tried += part["tried"]
            whole.own += part["own"]
            whole.cpu += part["cpu"]
            whole.games += part["games"]
        return whole


def players_line(tables: int, figures: PlayerFigures) -> str:
    """What the players waited for, each figure beside its target (the targets are for 50
    tables; other sizes show how far they hold)."""
    f = figures
    own = 100.0 * f.own / f.tried if f.tried else 100.0
    shown = {
        "dm95": ms(f.to_dm, 0.95),
        "sug95": ms(f.suggest, 0.95),
        "own": f"{own:.1f}",
        "lag99": ms(f.stalls, 0.99),
    }
    met = []
    for _, column, target, at_most in TARGETS:
        value = float(shown[column]) if shown[column] != "-" else float("nan")
        ok = value <= target if at_most else value >= target
        met.append(
            f"{column} {shown[column]} ({'<=' if at_most else '>='}{target:g}: "
            f"{'met' if ok else 'NOT met'})"
        )
    cpu_per_game = f.cpu / max(f.games, 1)
    return (
        f"  players at {tables} tables: DM after opening p50/p95/max "
        f"{ms(f.to_dm, 0.5)}/{ms(f.to_dm, 0.95)}/{ms(f.to_dm, 1.0)} ms; "
        f"Suggest p50/p95/max {ms(f.suggest, 0.5)}/{ms(f.suggest, 0.95)}/{ms(f.suggest, 1.0)} ms "
        f"(the best replaced a first answer {len(f.best)} times before Take it, "
        f"p95 {ms(f.best, 0.95)} ms); "
        f"own hands {f.own}/{f.tried} ({own:.1f}%); "
        f"loop stall p99/max {ms(f.stalls, 0.99)}/{ms(f.stalls, 1.0)} ms; "
        f"CPU {cpu_per_game:.2f} s a game; load {os.getloadavg()[0]:.1f}"
        "\n  targets: " + "; ".join(met)
    )
