"""One process under load: how long a player's click waits, with the pictures drawn as the bot
draws them and Discord's latency on every request.

Run: .venv/bin/python -m benchmarks.bench_load [--tables 10 50 100] [--games 1] [--seed 1]
     [--latency-ms 60] [--before] [--game showdown ...] [--silent 0.05] [--readers 0 2]
     [--kept 0 1]

Tables of every game (or of the ``--game`` named), full seats, play through
``tables.TableManager`` on a SQLite file with the solver in worker processes (as in the bot),
after the warm-up the bot does while it starts (``tables.hands.warm_up`` in the workers and here,
``cogs.pictures.warm_up_pictures`` here). The publisher does what the bot's does for each event:
it draws each DM's hand picture and the showdown picture (``cogs.pictures``, in a thread) and
waits ``--latency-ms`` for each request Discord would get, one more for a player's first DM (the
bot opens each DM channel once per process). Players think 0.5-3 s, then declare, or ask for a
suggestion and submit it; some (``--silent``, 5%) stay silent and the deadline (30 s) plays for
them.

Printed per size: games per second, each click's wait (declare, submit: from the call to its
answer) at p50/p95/max, the time from the last hands to the showdown posted, and from Start to
every deal's DM sent; and where the CPU went while the tables played: this process (the loop,
the database's thread, the pictures' threads) and the workers, each in cores (1.0: one core all
the time), the whole machine's busy cores (other users' work included), the loop's p99 stall
(how late a 10 ms sleep wakes); and how long a use of the SQLite writing connection (a
transaction, or a read when there are no readers) waited for it, p50/p95, with the uses and
the statements it ran per click (on the loop's thread), and the share of the time it was held.

``--readers 0 2`` runs each size with the reads on the one SQLite connection (as before) and
then on two read-only connections beside it (the store's default); ``--kept 0 1`` with no
worker kept from suggestions (as before) and then with one (the default). Each combination runs
in turn.

``--before`` runs the same code the way it ran before the load issue: publishing inside the
table's lock and one first-come-first-served queue for the workers (the old publisher's extra
requests are not counted, so "before" is if anything flattered).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from cogs.common import PictureWorkers, batch_picture, draw_pictures_in, picture
from cogs.pictures import (
    hand_picture,
    phase_subtitle,
    setting_picture,
    showdown_picture,
    warm_up_pictures,
)
from engine.errors import GameError
from storage import Storage
from storage.sqlite import READERS, open_sqlite
from tables.config import make_config
from tables.events import (
    ArrangingOpened,
    CardsDealt,
    CardsDrawn,
    DeclarationsOpened,
    Event,
    GameStarted,
    ShowdownSettled,
)
from tables.games import GAMES
from tables.hands import warm_up
from tables.manager import TableManager
from tables.runtime import KEPT_WORKERS, Priority, ProcessOffload

T = TypeVar("T")
GUILD = 1
DEADLINE_S = 30


class Flat:
    """The workers as they were before: one first-come-first-served queue for every job."""

    def __init__(self, offload: ProcessOffload) -> None:
        self.offload = offload

    async def __call__(
        self, work: Callable[..., T], /, *args: Any, priority: Priority = Priority.SUGGEST
    ) -> T:
        return await self.offload(work, *args, priority=Priority.SUGGEST)


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


def _cpu_seconds(pids: Iterable[int]) -> float:
    """The CPU time (user and system) the processes have used, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        # Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def _machine_busy() -> tuple[float, float]:
    """The machine's busy and total CPU time so far, every core (from /proc/stat)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    ticks = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


async def _watch_loop(stalls: list[float]) -> None:
    """How late the loop wakes a 10 ms sleep, for as long as the tables play."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(0.01)
        stalls.append(loop.time() - asked - 0.01)


class TimedLock(asyncio.Lock):
    """The store's lock on its writing connection, timed: how long each use waited for it, how
    long the uses held it in all."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float] = []
        self.held = 0.0
        self._taken = 0.0

    async def acquire(self) -> Literal[True]:
        asked = time.perf_counter()
        taken = await super().acquire()
        self._taken = time.perf_counter()
        self.waits.append(self._taken - asked)
        return taken

    def release(self) -> None:
        self.held += time.perf_counter() - self._taken
        super().release()


def _count_calls(connection: Any) -> list[int]:
    """Count the statements the writing connection runs (on the loop's thread)."""
    calls = [0]

    def counted(statement: str) -> None:
        calls[0] += 1

    connection.set_trace_callback(counted)
    return calls


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


def _ms(values: list[float], share: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000:.0f}"


async def run(
    tables: int,
    games: int,
    seed: int,
    latency: float,
    before: bool,
    kinds: Sequence[str],
    silent: float,
    *,
    readers: int,
    kept: int,
    burst: float = 0.0,
    mixed_seats: bool = False,
    prepare: bool = True,
    picture_workers: int = 0,
) -> tuple[str, str]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        database = await open_sqlite(Path(folder) / "load.sqlite3", readers=readers)
        # The bench's own look inside the store: every use of the writing connection takes it.
        writer = database._lock = TimedLock()
        calls = _count_calls(database.connection)
        storage = Storage.over(database)
        workers = ProcessOffload(kept=kept)
        await workers.start(warm_up)
        warm_up()
        warm_up_pictures()
        drawing = None
        if picture_workers:
            drawing = PictureWorkers(picture_workers, warm_up_pictures)
            await drawing.start()
            draw_pictures_in(drawing)
        load = loaded_manager(
            storage,
            rng,
            latency,
            silent,
            burst,
            rng=random.Random(seed),
            offload=Flat(workers) if before else workers,
            background_publishing=not before,
            prepare_suggestions=prepare and not before,
        )
        manager = load.manager
        plan = table_plan(tables, kinds, seats=random.Random(seed) if mixed_seats else None)
        hosts = {channel: users[0] for channel, _, users in plan}
        await open_tables(manager, plan)
        worker_pids = list(workers.pool._processes)
        if drawing is not None:
            worker_pids += list(drawing.pool._processes)
        stalls: list[float] = []
        watcher = asyncio.get_running_loop().create_task(_watch_loop(stalls))
        writer.waits.clear()
        writer.held, calls[0] = 0.0, 0
        cpu_began, workers_began = time.process_time(), _cpu_seconds(worker_pids)
        machine_began = _machine_busy()
        began = time.perf_counter()
        played = 0
        for _ in range(games):

            async def deal(channel: int) -> None:
                load.started_at[channel] = time.perf_counter()
                events = await manager.start(GUILD, channel, hosts[channel])
                assert any(isinstance(e, GameStarted) for e in events)

            await asyncio.gather(*(deal(channel) for channel in hosts))
            for _ in hosts:
                await load.finished.get()
                played += 1
        elapsed = time.perf_counter() - began
        clicks = max(1, len(load.waits["declare"]) + len(load.waits["submit"]))
        uses, per_click, held = len(writer.waits) / clicks, calls[0] / clicks, writer.held / elapsed
        own_cpu = time.process_time() - cpu_began
        workers_cpu = _cpu_seconds(worker_pids) - workers_began
        own = own_cpu / elapsed
        worked = workers_cpu / elapsed
        machine_ended = _machine_busy()
        cores = machine_ended[1] - machine_began[1]
        busy = (machine_ended[0] - machine_began[0]) / cores * (os.cpu_count() or 1)
        watcher.cancel()
        for task in list(load.tasks):
            task.cancel()  # the players still thinking over a deadline's game
        await manager.close()
        workers.close()
        if drawing is not None:
            draw_pictures_in(None)
            drawing.close()
        await database.close()
    to_showdown = [
        load.posted[game] - hands for game, hands in load.hands_in.items() if game in load.posted
    ]
    load_avg = os.getloadavg()[0]
    players = _players_line(load, tables, stalls, (own_cpu + workers_cpu) / max(played, 1))
    return players, (
        f"{'before' if before else 'after ':<6} {tables:>6} {played / elapsed:>7.2f} "
        f"{_ms(load.waits['declare'], 0.5):>6} {_ms(load.waits['declare'], 0.95):>6} "
        f"{_ms(load.waits['declare'], 1.0):>6} {_ms(load.waits['submit'], 0.5):>6} "
        f"{_ms(load.waits['submit'], 0.95):>6} {_ms(load.waits['submit'], 1.0):>6} "
        f"{_ms(to_showdown, 0.5):>6} {_ms(to_showdown, 0.95):>6} "
        f"{_ms(load.to_deal, 0.5):>6} {_ms(load.to_deal, 0.95):>6} {load_avg:>5.1f} "
        f"{own:>5.2f} {worked:>5.2f} {busy:>5.2f} {_ms(stalls, 0.99):>6} "
        f"{_ms(writer.waits, 0.5):>5} {_ms(writer.waits, 0.95):>5} {uses:>4.1f} "
        f"{per_click:>5.1f} {held:>5.2f}"
    )


#: Issue 25's targets at 50 busy tables: (what, the figure's column, the target, at most?).
TARGETS = (
    ("DM picture after the phase opens, p95", "dm95", 1500.0, True),
    ("Suggest pressed to answer shown, p95", "sug95", 1000.0, True),
    ("players who tried and set their own hands", "own", 99.0, False),
    ("loop stall, p99", "lag99", 50.0, True),
)


def _players_line(load: Load, tables: int, stalls: list[float], cpu_per_game: float) -> str:
    """What the players waited for, each figure beside its target (the targets are for 50
    tables; other sizes show how far they hold)."""
    own = 100.0 * load.own / load.tried if load.tried else 100.0
    figures = {
        "dm95": _ms(load.to_dm, 0.95),
        "sug95": _ms(load.waits["suggest"], 0.95),
        "own": f"{own:.1f}",
        "lag99": _ms(stalls, 0.99),
    }
    met = []
    for _, column, target, at_most in TARGETS:
        value = float(figures[column]) if figures[column] != "-" else float("nan")
        ok = value <= target if at_most else value >= target
        met.append(
            f"{column} {figures[column]} ({'<=' if at_most else '>='}{target:g}: "
            f"{'met' if ok else 'NOT met'})"
        )
    return (
        f"  players at {tables} tables: DM after opening p50/p95/max "
        f"{_ms(load.to_dm, 0.5)}/{_ms(load.to_dm, 0.95)}/{_ms(load.to_dm, 1.0)} ms; "
        f"Suggest p50/p95/max {_ms(load.waits['suggest'], 0.5)}/"
        f"{_ms(load.waits['suggest'], 0.95)}/{_ms(load.waits['suggest'], 1.0)} ms "
        f"(the best replaced a first answer {len(load.waits['best'])} times before Take it, "
        f"p95 {_ms(load.waits['best'], 0.95)} ms); "
        f"own hands {load.own}/{load.tried} ({own:.1f}%); "
        f"loop stall p99/max {_ms(stalls, 0.99)}/{_ms(stalls, 1.0)} ms; "
        f"CPU {cpu_per_game:.2f} s a game\n  targets: " + "; ".join(met)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency-ms", type=float, default=60.0)
    parser.add_argument("--before", action="store_true", help="also run the code as it was")
    parser.add_argument("--game", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    parser.add_argument(
        "--silent", type=float, default=0.05, help="share of players the deadline plays for"
    )
    parser.add_argument(
        "--burst",
        type=float,
        default=0.5,
        help="share of players who click 0.01-0.2 s after their DM (the others 0.5-3 s)",
    )
    parser.add_argument(
        "--prepare",
        type=int,
        nargs="+",
        default=[1],
        help="1: suggestions made as each phase opens (the bot's way), 0: only when asked;"
        " each run in turn",
    )
    parser.add_argument(
        "--picture-workers",
        type=int,
        nargs="+",
        default=[0],
        help="processes that draw the pictures (0, the bot's default: threads of this"
        " process); each run in turn",
    )
    parser.add_argument(
        "--full-seats",
        action="store_true",
        help="every seat taken (the runs before issue 25); else 2-6 players a table",
    )
    parser.add_argument(
        "--readers",
        type=int,
        nargs="+",
        default=[READERS],
        help="SQLite connections for reads, each run in turn (0: the writer reads too)",
    )
    parser.add_argument(
        "--kept",
        type=int,
        nargs="+",
        default=[KEPT_WORKERS],
        help="workers kept from suggestions, each run in turn (0: suggestions may take all)",
    )
    args = parser.parse_args()
    print(
        f"{'code':<6} {'tables':>6} {'games/s':>7} "
        f"{'decl50':>6} {'decl95':>6} {'declmx':>6} {'sub50':>6} {'sub95':>6} {'submx':>6} "
        f"{'show50':>6} {'show95':>6} {'deal50':>6} {'deal95':>6} {'load':>5} "
        f"{'cpu':>5} {'wrk':>5} {'mach':>5} {'lag99':>6} {'dbw50':>5} {'dbw95':>5} {'uses':>4} "
        f"{'calls':>5} {'held':>5} "
        f"{'read':>4} {'kept':>4} {'prep':>4} {'pics':>4}   (ms; CPU in cores)"
    )
    for tables in args.tables:
        modes = (True, False) if args.before else (False,)
        runs = itertools.product(modes, args.readers, args.kept, args.prepare, args.picture_workers)
        for before, readers, kept, prepare, drawers in runs:
            players, line = asyncio.run(
                run(
                    tables,
                    args.games,
                    args.seed,
                    args.latency_ms / 1000,
                    before,
                    args.game,
                    args.silent,
                    readers=readers,
                    kept=kept,
                    burst=args.burst,
                    mixed_seats=not args.full_seats,
                    prepare=bool(prepare),
                    picture_workers=drawers,
                )
            )
            print(f"{line} {readers:>4} {kept:>4} {prepare:>4} {drawers:>4}", flush=True)
            print(players, flush=True)
    print(f"statistics: {statistics.__name__} of clicks; latency per request {args.latency_ms} ms")


if __name__ == "__main__":
    main()
