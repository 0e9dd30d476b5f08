"""CPU time and size of the pictures, now and (optionally) at an earlier commit, in one run.

Run: .venv/bin/python -m benchmarks.bench_render [--renders 20] [--games 10] [--before COMMIT]

Each code is measured in its own worker process (this file, run with that code's folder first on
its path); ``--before`` exports the commit with ``git archive`` into a temporary folder and
measures it beside the working tree, the two workers taking turns render by render so that both
see the same load. Times are CPU time of the worker (``time.process_time``), not wall time: the
machine is shared, and a busy neighbour stretches the wall clock far more than the CPU time
(which still grows a little under load: say the load average with the figures).

The pictures are the bot's own (``cogs.pictures``, ``render``): the docs' sample game
(``cogs.samples``, a seeded six-player Showdown Version table, every holding set by the solver
searching to the end, not timed), six-player three-card and Pai Gow tables played the same way,
the first player's 25 cards as the DM draws them, and a ten-line leaderboard. "first" is the
first render of each picture in a fresh process that has loaded the evaluator's tables (as the
bot does before it goes online), in that order: the Showdown's first also draws every card it
shows and anything else drawn once per process. "now+wu" is a third worker whose first renders
follow the bot's picture warm-up (``cogs.pictures.warm_up_pictures``), as in the bot. p50 and
max are over ``--renders`` renders after the first, each a repeat of the same picture. "new
game" draws the showdown of another seeded Showdown game each time (``--games`` of them, played
before timing), as the bot draws a game's showdown once: the cards are drawn already, its
players' hands and labels are not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
SEED = 7
SHOWDOWN = "six-player Showdown"
NEW_GAME = "six-player Showdown, new game"
PICTURES = (
    SHOWDOWN,
    "six-player three-card",
    "six-player Pai Gow",
    "25-card hand (DM)",
    "leaderboard, 10 lines",
)


def _ms(draw: Callable[[], bytes]) -> tuple[float, int]:
    started = time.process_time()
    data = draw()
    return (time.process_time() - started) * 1000, len(data)


def _pictures(games: int) -> tuple[dict[str, Callable[[], bytes]], list[Callable[[], bytes]]]:
    """Each picture's drawing, and one showdown drawing per extra game (code of the worker's
    folder: only names that both the old and the new code have)."""
    from cogs.pictures import hand_picture, showdown_picture
    from cogs.samples import play_sample
    from render import leaderboard_png
    from tables.hands import warm_up

    warm_up()  # the evaluator's tables, as the bot loads them before it goes online
    showdown = play_sample(seed=SEED)
    three = play_sample("three-card", players=6, seed=SEED)
    paigow = play_sample("paigow", players=6, seed=1)  # seed 1: a joker plays as the bug
    held = showdown.held[min(showdown.held)]
    lines = [(rank, f"Player {rank}", 12_000 // rank - 1_500) for rank in range(1, 11)]
    draws: dict[str, Callable[[], bytes]] = {
        SHOWDOWN: lambda: showdown_picture(showdown.showdown, showdown.names),
        PICTURES[1]: lambda: showdown_picture(three.showdown, three.names),
        PICTURES[2]: lambda: showdown_picture(paigow.showdown, paigow.names),
        PICTURES[3]: lambda: hand_picture(held, subtitle="Showdown Version · declaration 2"),
        PICTURES[4]: lambda: leaderboard_png("Net winnings, week, Showdown Version", lines),
    }
    others = [play_sample(seed=SEED + 1 + index) for index in range(games)]
    return draws, [_drawing(showdown_picture, game) for game in others]


def _drawing(showdown_picture: Callable[..., bytes], game: Any) -> Callable[[], bytes]:
    return lambda: showdown_picture(game.showdown, game.names)


def _draw_every_card() -> None:
    """Every card, joker, played joker and back drawn once at the showdown's size, as in a bot
    that has shown a few games: a new game's showdown then draws no card for the first time."""
    from engine.cards import JOKER, Card, Rank, Suit
    from render import PlayedJoker, ShowdownRow, showdown_png

    cards = [Card(rank, suit) for rank in Rank for suit in Suit]
    faces = [*cards, JOKER, *(PlayedJoker(card) for card in cards)]
    hands = [tuple(faces[start : start + 5]) for start in range(0, len(faces), 5)]
    rows = [
        ShowdownRow(
            f"Seat {start}",
            tuple(hands[start : start + 6]),
            ("",) * len(hands[start : start + 6]),
            (),
            0,
        )
        for start in range(0, len(hands), 6)
    ]
    showdown_png(rows, title="Every card")


def worker(games: int, *, warm: bool) -> None:
    """Answer the parent on stdout: the first renders (after the bot's warm-up if ``warm``),
    then one render of each picture for every line read from stdin."""
    draws, others = _pictures(games)
    if warm:
        from cogs.pictures import warm_up_pictures

        warm_up_pictures()
    first = {name: _ms(draw) for name, draw in draws.items()}
    _draw_every_card()
    print(json.dumps({"first": first}), flush=True)
    for turn, _ in enumerate(sys.stdin):
        times = {name: _ms(draw) for name, draw in draws.items()}
        if turn < len(others):
            times[NEW_GAME] = _ms(others[turn])
        print(json.dumps(times), flush=True)


class _Worker:
    """A worker process measuring the code in ``folder``."""

    def __init__(self, label: str, folder: Path, games: int, *, warm: bool = False) -> None:
        self.label = label
        env = {**os.environ, "PYTHONPATH": str(folder)}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--games", str(games)] + ["--warm"] * warm,
            cwd=folder,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.first: dict[str, list[float]] = {}
        self.times: dict[str, list[float]] = {}
        self.size: dict[str, int] = {}

    def _read(self) -> dict[str, Any]:
        stdout: IO[str] | None = self.process.stdout
        assert stdout is not None
        line = stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} worker stopped (exit {self.process.wait()})")
        result: dict[str, Any] = json.loads(line)
        return result

    def start(self) -> None:
        self.first = self._read()["first"]

    def turn(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()
        for name, (ms, size) in self._read().items():
            self.times.setdefault(name, []).append(ms)
            self.size[name] = size

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _export(commit: str, folder: Path) -> str:
    """The commit's files in ``folder``; returns its short hash."""
    short = subprocess.run(
        ["git", "rev-parse", "--short", commit],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return short


def _row(name: str, worker: _Worker) -> str:
    times = worker.times.get(name)
    first = worker.first.get(name)
    first_ms = f"{first[0]:7.1f}" if first else f"{'-':>7}"
    if not times:
        return f"{name:<32} {worker.label:<8} {first_ms} {'-':>7} {'-':>7} {first[1]:>10,}"
    return (
        f"{name:<32} {worker.label:<8} {first_ms} {statistics.median(times):7.1f} "
        f"{max(times):7.1f} {worker.size[name]:>10,}"
    )


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    """Print each picture's CPU time and size, for the working tree and ``--before``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=20)
    parser.add_argument("--games", type=int, default=10, help="other Showdown games drawn once")
    parser.add_argument("--before", help="a commit to measure beside the working tree")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.games, warm=args.warm)
        return
    with tempfile.TemporaryDirectory(prefix="render-before-") as temporary:
        trees = [("now", ROOT)]
        if args.before:
            trees.insert(0, (_export(args.before, Path(temporary)), Path(temporary)))
        print(f"load average at the start: {_load()}")
        started = time.perf_counter()
        workers = [_Worker(label, folder, args.games) for label, folder in trees]
        # The bot's first pictures come after its warm-up: only their first renders are new.
        warmed = _Worker("now+wu", ROOT, 0, warm=True)
        for each in [*workers, warmed]:
            each.start()
        warmed.close()
        for turn in range(args.renders):
            # Each in turn, the order swapped every time, so both see the same minutes.
            for each in workers if turn % 2 == 0 else workers[::-1]:
                each.turn()
        for each in workers:
            each.close()
        print(f"load average at the end:   {_load()}  ({time.perf_counter() - started:.0f} s)")
    print(f"CPU ms per render (process time); p50 and max over {args.renders} renders")
    print(f"{'picture':<32} {'code':<8} {'first':>7} {'p50':>7} {'max':>7} {'PNG bytes':>10}")
    for name in (*PICTURES, NEW_GAME):
        for each in [*workers, warmed]:
            if name in each.times or name in each.first:
                print(_row(name, each))
        if len(workers) == 2 and all(name in each.times for each in workers):
            before, now = (statistics.median(each.times[name]) for each in workers)
            print(f"{'':<32} {'ratio':<8} {'':>7} {before / now:6.2f}x")


if __name__ == "__main__":
    main()
