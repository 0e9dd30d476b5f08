"""The simulator's rounds equal the bot's rules round by round, and how much faster (not for CI).

Run:
  .venv/bin/python -m benchmarks.check_simulator rounds --variant paigow --hands 1000000
  .venv/bin/python -m benchmarks.check_simulator rounds --variant three-card --hands 1000000
  .venv/bin/python -m benchmarks.check_simulator house-way --reference /tmp/before --hands 1000000

``rounds`` deals with the simulator's own dealing, then settles every round twice: through the
simulator's classes (``engine.simulate_house``) and in a plain Python loop, one round at a time,
through the functions the bot plays with (each side's house way, then the settlement); 0 rounds
that differ is the target. It times both on the same rounds, on the CPU clock of this process
(``time.process_time``) and on the wall clock: the simulator's time includes its dealing, the
loop's does not (it is given the dealt cards), so the speed-up is if anything understated.
``house-way`` sets random Pai Gow hands with this tree's house way and with the one in
``--reference`` (an export of an earlier commit, run in its own process) and compares them.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Final

import numpy as np
import numpy.typing as npt

from benchmarks.progress import progress
from engine.cards import Card, card_from_code
from engine.paigow import DECK_CODES, PaiGowVariant, Role, settle_codes
from engine.paigow_house_way import house_way_codes
from engine.simulate_house import (
    deal_pai_gow,
    deal_three_card,
    generator,
    pai_gow_results,
    three_card_results,
)
from engine.three_card import ThreeCardVariant, settle_round
from engine.three_card import house_way as three_card_house_way

CHUNK = 20_000
#: The tables checked: each game's default variant, as ``python -m engine simulate`` plays it.
PAI_GOW: Final = PaiGowVariant()
THREE_CARD: Final = ThreeCardVariant()

#: A chunk's dealt cards (one row a round) and the simulator's result of each round.
Simulated = tuple[npt.NDArray[np.int64], list[object]]


def _simulate_pai_gow(rng: np.random.Generator, size: int) -> Simulated:
    dealt = deal_pai_gow(rng, size)
    return dealt, pai_gow_results(PAI_GOW.wheel, dealt).tolist()


def _play_pai_gow(row: list[int]) -> object:
    """One round by the bot's functions: the player's and the banker's house way, the bet."""
    keys = PAI_GOW.keys
    player = house_way_codes(row[:7], Role.PLAYER, keys)
    banker = house_way_codes(row[7:], Role.BANKER, keys)
    return settle_codes(player, banker, keys)


def _simulate_three_card(rng: np.random.Generator, size: int) -> Simulated:
    dealt = deal_three_card(rng, size, THREE_CARD.decks)
    return dealt, three_card_results(THREE_CARD, dealt).tolist()


def _play_three_card(row: list[int]) -> object:
    """One round by the bot's functions: both house ways, then the three wagers."""
    cards = [card for card in map(card_from_code, row) if isinstance(card, Card)]
    player = three_card_house_way(cards[:3], THREE_CARD)
    dealer = three_card_house_way(cards[3:], THREE_CARD)
    result = settle_round(player, dealer, THREE_CARD)
    return [
        float(result.main.net),
        float(result.three_card_bonus.net),
        float(result.six_card_bonus.net),
    ]


@dataclass(frozen=True, slots=True)
class Game:
    """One game's two ways to a round's result: the simulator's chunk, and the bot's loop."""

    simulate: Callable[[np.random.Generator, int], Simulated]
    play: Callable[[list[int]], object]
    #: The bot's functions the loop calls once per round, for the printed figures.
    loop: str


GAMES: Final = {
    "paigow": Game(
        _simulate_pai_gow, _play_pai_gow, "house_way_codes (player, banker) + settle_codes"
    ),
    "three-card": Game(
        _simulate_three_card, _play_three_card, "house_way (player, dealer) + settle_round"
    ),
}


class Stopwatch:
    """CPU seconds of this process and wall seconds spent inside its ``with`` blocks."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.wall = 0.0
        self._started = (0.0, 0.0)

    def __enter__(self) -> Stopwatch:
        self._started = (time.process_time(), time.perf_counter())
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.cpu += time.process_time() - self._started[0]
        self.wall += time.perf_counter() - self._started[1]


def rounds(game: str, hands: int, seed: int) -> int:
    """Deal ``hands`` rounds, settle each both ways, print the figures; how many differ."""
    checked = GAMES[game]
    simulator, loop = Stopwatch(), Stopwatch()
    differ = 0
    for index in progress(range(0, hands, CHUNK), total=-(-hands // CHUNK), what=game):
        size = min(CHUNK, hands - index)
        with simulator:
            dealt, fast = checked.simulate(generator(seed, index), size)
        rows = dealt.tolist()
        with loop:
            slow = [checked.play(row) for row in rows]
        differ += sum(a != b for a, b in zip(slow, fast, strict=True))
    print(f"{game}: {hands:,} rounds, {differ} differ from the bot's rules")
    for name, watch in (("simulator (deal + classes)", simulator), (checked.loop, loop)):
        rate = hands / max(watch.cpu, 1e-9)
        print(f"  {name}: {watch.cpu:.1f} s CPU ({rate:,.0f} rounds a CPU second),", end=" ")
        print(f"{watch.wall:.1f} s wall")
    cpu = loop.cpu / max(simulator.cpu, 1e-9)
    wall = loop.wall / max(simulator.wall, 1e-9)
    print(
        f"  speed-up of the simulator: {cpu:.1f}x on the CPU clock ({wall:.1f}x on the wall clock)"
    )
    return differ


_REFERENCE = """
import sys
sys.path.insert(0, sys.argv[1])
from engine.paigow import PaiGowVariant, Role
from engine.paigow_house_way import house_way_codes
keys = PaiGowVariant().keys
with open(sys.argv[2]) as hands, open(sys.argv[3], "w") as out:
    for line in hands:
        codes = [int(c) for c in line.split()]
        settings = [house_way_codes(codes, role, keys) for role in (Role.PLAYER, Role.BANKER)]
        out.write(repr(settings) + "\\n")
"""


def house_way(reference: Path, hands: int, seed: int) -> int:
    """Set ``hands`` random Pai Gow hands here and in ``reference``; count the differences."""
    rng = random.Random(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        dealt = Path(folder) / "hands.txt"
        theirs = Path(folder) / "theirs.txt"
        deals = [rng.sample(DECK_CODES, 7) for _ in range(hands)]
        dealt.write_text("".join(" ".join(map(str, codes)) + "\n" for codes in deals))
        child = subprocess.Popen(
            [sys.executable, "-c", _REFERENCE, str(reference), str(dealt), str(theirs)]
        )
        keys = PaiGowVariant().keys
        ours = [
            repr([house_way_codes(codes, role, keys) for role in (Role.PLAYER, Role.BANKER)])
            for codes in progress(deals, total=hands, what="house way")
        ]
        if child.wait() != 0:
            raise SystemExit("the reference failed")
        mismatches = sum(
            a != b.rstrip("\n") for a, b in zip(ours, theirs.read_text().splitlines(), strict=True)
        )
    elapsed = time.perf_counter() - started
    print(
        f"house way: {hands:,} random hands, both roles, {mismatches} differ from {reference}"
        f" ({elapsed:.0f} s)"
    )
    return mismatches


def main() -> int:
    """Run one check; its exit status is 1 if anything differed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("check", choices=("rounds", "house-way"))
    parser.add_argument("--variant", choices=tuple(GAMES), default="paigow")
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", type=Path, help="house-way: an earlier tree to compare")
    args = parser.parse_args()
    if args.check == "rounds":
        differ = rounds(args.variant, args.hands, args.seed)
    else:
        if args.reference is None:
            parser.error("house-way needs --reference")
        differ = house_way(args.reference, args.hands, args.seed)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
