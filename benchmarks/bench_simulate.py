"""Simulator speed against its targets: hands per CPU second, each beside its reference, one run.

Run: .venv/bin/python -m benchmarks.bench_simulate [--hands 400000] [--rounds 3] [--before REV]

Each figure is the CPU time of a fresh process (``time.process_time``: user + system of that
process alone, so other jobs on the machine slow it less than the wall clock), the median of
``--rounds`` rounds; the rounds take the runs in turns. Every process first plays 2,000 hands of
another seed (lookups and tables loaded), then times its run on seed 1:

- the simulator: ``simulate(game, hands=N, seed=1, workers=1)``, its dealing included;
- a plain loop of today's rule functions over the same N rounds (dealt by the simulator's own
  dealing, which is not timed): Pai Gow's ``house_way_codes`` for the player and the banker and
  ``settle_codes``; the three-card game's ``house_way`` for the player and the dealer and
  ``settle_round`` (all three wagers);
- a numpy loop of the three-card main bet alone: the same chunks dealt the same way (timed), the
  house way and the main bet written directly on arrays (``main_bet_nets``), no classes.

Targets (issue 25): the simulator at least 10 times the plain loop on both games at 400,000
hands, and at least half the numpy loop of the main bet. The numpy loop's main bet must also
come out equal to the simulator's, round by round: that is checked and printed too.
``--before`` adds the simulator of an earlier commit (``git archive``) or folder, for the ratio.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("paigow", "three-card")
#: What each run measures; each is a script run in a fresh process (see ``_SCRIPTS``).
RUNS = ("simulator", "plain loop", "numpy main bet")
TARGETS = {"plain loop": 10.0, "numpy main bet": 0.5}

_SIMULATOR = """
import sys, time
sys.path.insert(0, sys.argv[1])
from engine.simulate import simulate
game, hands = sys.argv[2], int(sys.argv[3])
started = time.process_time()
simulate(game, hands=2_000, seed=99, workers=1)
setup = time.process_time() - started
started = time.process_time()
result = simulate(game, hands=hands, seed=1, workers=1)
print(time.process_time() - started, result.wagers[0].ev, setup)
"""

_PLAIN_LOOP = """
import sys, time
sys.path.insert(0, sys.argv[1])
from engine.cards import Card, card_from_code
from engine.paigow import PaiGowVariant, Role, settle_codes
from engine.paigow_house_way import house_way_codes
from engine.simulate import CHUNK_HANDS
from engine.simulate_house import deal_pai_gow, deal_three_card, generator
from engine.three_card import ThreeCardVariant, house_way, settle_round
game, hands = sys.argv[2], int(sys.argv[3])
keys, variant = PaiGowVariant().keys, ThreeCardVariant()

won = float(1 - PaiGowVariant().commission)

def pai_gow(row):
    player = house_way_codes(row[:7], Role.PLAYER, keys)
    banker = house_way_codes(row[7:], Role.BANKER, keys)
    result = settle_codes(player, banker, keys)
    return won if result > 0 else float(result)

def three_card(row):
    cards = [card_from_code(code) for code in row]
    result = settle_round(house_way(cards[:3], variant), house_way(cards[3:], variant), variant)
    return float(result.main.net)

def deal(seed, index, size):
    rng = generator(seed, index)
    if game == "paigow":
        return deal_pai_gow(rng, size).tolist()
    return deal_three_card(rng, size, variant.decks).tolist()

play = pai_gow if game == "paigow" else three_card
for row in deal(99, 0, 2_000):
    play(row)
seconds, total = 0.0, 0
for index, start in enumerate(range(0, hands, CHUNK_HANDS)):
    rows = deal(1, index, min(CHUNK_HANDS, hands - start))
    started = time.process_time()
    total += sum(play(row) for row in rows)
    seconds += time.process_time() - started
print(seconds, total / hands)
"""

_NUMPY_MAIN_BET = """
import sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[4])
from benchmarks.bench_simulate import main_bet_nets
from engine.simulate import CHUNK_HANDS
from engine.simulate_house import deal_three_card, generator
hands = int(sys.argv[3])
main_bet_nets(deal_three_card(generator(99, 0), 2_000, 6))
started = time.process_time()
total = 0
for index, start in enumerate(range(0, hands, CHUNK_HANDS)):
    size = min(CHUNK_HANDS, hands - start)
    total += int(main_bet_nets(deal_three_card(generator(1, index), size, 6)).sum())
print(time.process_time() - started, total / hands)
"""

_SCRIPTS = {"simulator": _SIMULATOR, "plain loop": _PLAIN_LOOP, "numpy main bet": _NUMPY_MAIN_BET}


def main_bet_nets(dealt: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The main bet's net per round, written directly on arrays: 6 decks, ties push (seed 002).

    The reference the simulator is measured against: the house way of RULINGS §5 and the main
    bet's outcome list on numpy arrays, with nothing kept between chunks.
    """
    ranks = dealt >> 2
    lows, highs, trips_flags, fouls = [], [], [], []
    for side in (ranks[:, :3], ranks[:, 3:]):
        a, b, c = side[:, 0], side[:, 1], side[:, 2]
        top, bottom = np.maximum(np.maximum(a, b), c), np.minimum(np.minimum(a, b), c)
        middle = a + b + c - top - bottom
        trips = top == bottom
        pair = ((top == middle) | (middle == bottom)) & ~trips
        pair_rank = middle  # the middle card belongs to any pair of three cards
        single = np.where(top == middle, bottom, top)
        # "Always split pair of jacks or higher if the kicker is ... less than 4 units".
        split = pair & (pair_rank >= 11) & (single < pair_rank - 4)
        kept = pair & ~split
        # The high hand as one integer: a pair (256 + rank * 16) beats any two singles.
        low = np.where(trips, top, np.where(kept, single, np.where(split, pair_rank, middle)))
        high = np.where(
            trips | kept,
            256 + pair_rank * 16,
            np.where(split, pair_rank * 16 + single, top * 16 + bottom),
        )
        lows.append(low)
        highs.append(high)
        trips_flags.append(trips)
        fouls.append(~(trips | kept) & (low > high // 16))
    low_won = np.sign(lows[0] - lows[1])
    high_won = np.sign(highs[0] - highs[1])
    nets = np.sign(low_won + high_won)  # win both or one and push; lose likewise; else push
    nets = np.where(fouls[0], -1, nets)
    return np.where(trips_flags[0], 3, nets)


def export(commit: str, folder: Path) -> Path:
    """The tree of ``commit`` written into ``folder``."""
    archive = folder / "before.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", commit], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "tree", filter="data")
    return folder / "tree"


def timed(script: str, tree: Path, game: str, hands: int) -> tuple[float, float, float]:
    """(hands per CPU second, the main wager's mean net, setup CPU seconds) of one run.

    The setup is the first 2,000 hands with the tables built, where the script times it.
    """
    done = subprocess.run(
        [sys.executable, "-c", script, str(tree), game, str(hands), str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, mean, *setup = (float(x) for x in done.stdout.split())
    return hands / seconds, mean, setup[0] if setup else math.nan


def load() -> str:
    """The load average over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    """Run the rounds and print each figure beside its reference and target."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=400_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="an earlier commit or a folder with its tree")
    args = parser.parse_args()
    print(f"load average at the start: {load()} ({os.cpu_count()} cores)")
    print(
        f"{args.hands:,} hands a run, one worker, median of {args.rounds} rounds;"
        " clock: CPU time of each process (time.process_time)"
    )
    with tempfile.TemporaryDirectory() as folder:
        before = None
        if args.before:
            before = Path(args.before)
            if not before.is_dir():
                before = export(args.before, Path(folder))
        for game in GAMES:
            runs = [run for run in RUNS if game == "three-card" or run != "numpy main bet"]
            rates: dict[str, list[float]] = {run: [] for run in runs}
            means: dict[str, float] = {}
            setups: list[float] = []
            if before:
                rates["before"] = []
            for _ in range(args.rounds):
                for run in runs:
                    rate, means[run], setup = timed(_SCRIPTS[run], ROOT, game, args.hands)
                    rates[run].append(rate)
                    if run == "simulator":
                        setups.append(setup)
                if before:
                    rate, means["before"], _ = timed(_SIMULATOR, before, game, args.hands)
                    rates["before"].append(rate)
            _report(game, rates, means)
            print(
                f"  setup of the simulator (tables built, first 2,000 hands, not in the rate):"
                f" {statistics.median(setups) * 1000:.0f} ms CPU"
            )
    print(f"load average at the end: {load()}")


def _report(game: str, rates: dict[str, list[float]], means: dict[str, float]) -> None:
    simulator = rates["simulator"]
    print(f"{game}: simulator {statistics.median(simulator):>11,.0f} hands/CPU-s")
    for run, found in rates.items():
        if run == "simulator":
            continue
        ratio = statistics.median(a / b for a, b in zip(simulator, found, strict=True))
        target = TARGETS.get(run)
        verdict = ""
        if target is not None:
            verdict = f"  target >= {target:g}x: {'met' if ratio >= target else 'NOT MET'}"
        print(
            f"  {run:<15} {statistics.median(found):>11,.0f} hands/CPU-s"
            f"  simulator / {run}: {ratio:5.2f}x{verdict}"
        )
    mean = means["simulator"]
    agree = {
        run: math.isclose(found, mean, rel_tol=1e-9, abs_tol=1e-12)
        for run, found in means.items()
        if run != "simulator"
    }
    said = ", ".join(f"{run} {'equal' if same else 'DIFFERS'}" for run, same in agree.items())
    print(f"  main wager's mean net on seed 1: simulator {mean:+.5%} ({said})")


if __name__ == "__main__":
    main()
