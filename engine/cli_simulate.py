"""``python -m engine simulate``: measure a house game's edge, with a progress bar on a terminal."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from engine.cli_input import at_least_one, game_argument
from engine.errors import GameError
from engine.evaluate import WheelMode
from engine.simulate import GAMES, SimulationOptions, SimulationResult, simulate

_WHEELS = {"nevada": WheelMode.SECOND, "california": WheelMode.LOW}


def result_json(result: SimulationResult) -> dict[str, Any]:
    """A simulation result as the JSON object of ``simulate --json``."""
    return {
        "variant": result.variant,
        "hands": result.hands,
        "seed": result.seed,
        "description": result.description,
        "wagers": [
            {
                "wager": stats.wager,
                "ev": stats.ev,
                "se": stats.se,
                "win": stats.win,
                "push": stats.push,
                "loss": stats.loss,
                "nets": {f"{net:g}": count for net, count in stats.nets},
            }
            for stats in result.wagers
        ],
    }


def format_result(result: SimulationResult) -> str:
    """A simulation result as a small table for people."""
    lines = [
        f"{result.variant}: {result.hands:,} hands, seed {result.seed}",
        result.description,
        "",
        f"{'wager':<18}{'player EV':>11}{'± SE':>9}{'win':>9}{'push':>9}{'loss':>9}",
    ]
    for s in result.wagers:
        lines.append(
            f"{s.wager:<18}{s.ev:>+11.3%}{s.se:>9.3%}{s.win:>9.3%}{s.push:>9.3%}{s.loss:>9.3%}"
        )
    return "\n".join(lines) + "\n"


class _ProgressBar:
    """A one-line bar redrawn on standard error, at most a few times a second."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.started = time.monotonic()
        self.drawn = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and now - self.drawn < 0.2:
            return
        self.drawn = now
        filled = 30 * done // self.total
        elapsed = now - self.started
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {done:,}/{self.total:,} hands {elapsed:.0f}s"
        )
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def add_simulate_command(parser: argparse.ArgumentParser) -> None:
    """Fill the parser of the ``simulate`` subcommand."""
    parser.add_argument(
        "--variant", type=game_argument, choices=sorted(GAMES), required=True, metavar="GAME"
    )
    parser.add_argument("--hands", type=at_least_one, required=True, help="rounds to play")
    parser.add_argument("--seed", type=int, required=True, help="the same seed replays the run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--decks", type=int, help="three-card game: decks in the shoe (6-8)")
    parser.add_argument(
        "--ties-to-dealer", action="store_true", help="three-card game: ties go to the dealer"
    )
    parser.add_argument(
        "--wheel", choices=sorted(_WHEELS), default="nevada", help="paigow: where A-2-3-4-5 ranks"
    )
    parser.add_argument("--workers", type=at_least_one, help="processes (default: one per core)")

    def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
        options = SimulationOptions(
            decks=args.decks, ties_to_dealer=args.ties_to_dealer, wheel=_WHEELS[args.wheel]
        )
        progress = _ProgressBar(args.hands, sys.stderr) if sys.stderr.isatty() else None
        try:
            result = simulate(
                args.variant,
                hands=args.hands,
                seed=args.seed,
                options=options,
                workers=args.workers,
                progress=progress,
            )
        except GameError as error:
            sys.stderr.write(f"{error}\n")
            return 2
        if args.json:
            stdout.write(json.dumps(result_json(result)) + "\n")
        else:
            stdout.write(format_result(result))
        return 0

    parser.set_defaults(run=run)
