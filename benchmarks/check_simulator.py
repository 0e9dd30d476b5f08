"""The simulator's rounds equal the bot's own rules, round by round (too long for CI).

Run:
  .venv/bin/python -m benchmarks.check_simulator rounds --variant paigow --hands 1000000
  .venv/bin/python -m benchmarks.check_simulator rounds --variant three-card --hands 1000000
  .venv/bin/python -m benchmarks.check_simulator house-way --reference /tmp/before --hands 1000000

``rounds`` deals with the simulator's own dealing, then settles every round twice: through the
simulator's classes (``engine.simulate_house``) and one round at a time through the functions
the bot plays with (the house ways, ``settle_codes``, ``settle_round``); 0 mismatches is the
target. ``house-way`` sets random Pai Gow hands with this tree's house way and with the one in
``--reference`` (an export of an earlier commit, run in its own process) and compares them.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.progress import progress
from engine.cards import Card, card_from_code
from engine.evaluate import WheelMode
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


def rounds(variant: str, hands: int, seed: int) -> None:
    """Deal ``hands`` rounds, settle each both ways and count the rounds that differ."""
    mismatches = 0
    started = time.perf_counter()
    pai_gow = PaiGowVariant()
    keys = pai_gow.keys
    variant = ThreeCardVariant()
    for index in progress(range(0, hands, CHUNK), total=-(-hands // CHUNK), what=variant):
        rng = generator(seed, index)
        size = min(CHUNK, hands - index)
        if variant == "paigow":
            dealt = deal_pai_gow(rng, size)
            fast = pai_gow_results(WheelMode.SECOND, dealt).tolist()
            for row, result in zip(dealt.tolist(), fast, strict=True):
                player = house_way_codes(row[:7], Role.PLAYER, keys)
                banker = house_way_codes(row[7:], Role.BANKER, keys)
                mismatches += settle_codes(player, banker, keys) != result
        else:
            dealt = deal_three_card(rng, size, variant.decks)
            fast_rows = three_card_results(variant, dealt).tolist()
            for row, nets in zip(dealt.tolist(), fast_rows, strict=True):
                cards = [card for card in map(card_from_code, row) if isinstance(card, Card)]
                player = three_card_house_way(cards[:3], variant)
                dealer = three_card_house_way(cards[3:], variant)
                result = settle_round(player, dealer, variant)
                expected = [
                    float(result.main.net),
                    float(result.three_card_bonus.net),
                    float(result.six_card_bonus.net),
                ]
                mismatches += expected != nets
    elapsed = time.perf_counter() - started
    print(f"{variant}: {hands:,} rounds, {mismatches} differ from the bot's rules, {elapsed:.0f} s")


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


def house_way(reference: Path, hands: int, seed: int) -> None:
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


def main() -> None:
    """Run one check."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("check", choices=("rounds", "house-way"))
    parser.add_argument("--variant", choices=("paigow", "three-card"), default="paigow")
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", type=Path, help="house-way: an earlier tree to compare")
    args = parser.parse_args()
    if args.check == "rounds":
        rounds(args.variant, args.hands, args.seed)
    else:
        if args.reference is None:
            parser.error("house-way needs --reference")
        house_way(args.reference, args.hands, args.seed)


if __name__ == "__main__":
    main()
