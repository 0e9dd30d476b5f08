"""Simulator speed, before and after: hands per CPU second of one worker, in turns, in one run.

Run: .venv/bin/python -m benchmarks.bench_simulate --before 8716aee [--hands 400000] [--rounds 3]

``--before`` is a commit (exported with ``git archive`` into a temporary folder) or a folder
holding an earlier tree. Each round runs the earlier simulator and this one, one after the
other, each in a fresh process with one worker and the same seed, on each house game; a process
first plays 2,000 hands of another seed (lookups and tables loaded), then times the run in CPU
seconds of its own. The new simulator learns its classes of hands as it meets them, so a
longer run is faster per hand: the figure is for the run length given.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("paigow", "three-card")

_TIMED = """
import sys, time
sys.path.insert(0, sys.argv[1])
from engine.simulate import simulate
variant, hands = sys.argv[2], int(sys.argv[3])
simulate(variant, hands=2_000, seed=99, workers=1)
started = time.process_time()
result = simulate(variant, hands=hands, seed=1, workers=1)
print(time.process_time() - started, result.wagers[0].ev)
"""


def export(commit: str, folder: Path) -> Path:
    """The tree of ``commit`` written into ``folder``."""
    archive = folder / "before.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", commit], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "tree", filter="data")
    return folder / "tree"


def timed(tree: Path, variant: str, hands: int) -> tuple[float, float]:
    """(hands per CPU second, the first wager's EV) of one run in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _TIMED, str(tree), variant, str(hands)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, ev = (float(x) for x in done.stdout.split())
    return hands / seconds, ev


def python_dealing(hands: int) -> dict[str, float]:
    """Hands per CPU second that Python's own ``random.sample`` deals, with nothing else done.

    The most a one-hand-at-a-time simulator in pure Python could reach: what numpy earns.
    """
    rng = random.Random(1)
    deck = list(range(53))
    shoe = list(range(52 * 6))
    rates = {}
    for variant, cards, count in (("paigow", deck, 14), ("three-card", shoe, 6)):
        started = time.process_time()
        for _ in range(hands):
            rng.sample(cards, count)
        rates[variant] = hands / (time.process_time() - started)
    return rates


def main() -> None:
    """Run the rounds and print each side's median rate and the median ratio per game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", required=True, help="a commit or a folder with its tree")
    parser.add_argument("--hands", type=int, default=400_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        before = Path(args.before)
        if not before.is_dir():
            before = export(args.before, Path(folder))
        print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(
            f"before: {args.before}; {args.hands:,} hands a run, one worker, {args.rounds} rounds"
        )
        dealing = python_dealing(args.hands // 4)
        for variant in GAMES:
            rates: dict[str, list[float]] = {"before": [], "after": []}
            evs: dict[str, float] = {}
            for _ in range(args.rounds):
                for side, tree in (("before", before), ("after", ROOT)):
                    rate, evs[side] = timed(tree, variant, args.hands)
                    rates[side].append(rate)
            ratio = statistics.median(
                a / b for a, b in zip(rates["after"], rates["before"], strict=True)
            )
            print(
                f"{variant:<11} before {statistics.median(rates['before']):>9,.0f} hands/CPU-s"
                f"  after {statistics.median(rates['after']):>9,.0f} hands/CPU-s"
                f"  ratio {ratio:5.1f}x   (first wager EV before {evs['before']:+.3%},"
                f" after {evs['after']:+.3%}: other deals, same rules)"
            )
            ceiling = dealing[variant] / statistics.median(rates["before"])
            print(
                f"{'':<11} dealing alone with Python's random.sample: {dealing[variant]:>9,.0f}"
                f" hands/CPU-s, {ceiling:.1f}x before: the ceiling of a pure-Python loop"
            )
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
