"""Learn a variant's field by self-play: ``python -m engine.solver.train --variant V --seed S ...``.

Round 0 is the bootstrap field (random hands sorted into slots). Each later round deals seeded
holdings, sets them with the solver under the current field, records the key of every hand at
every position, and refits the field from those keys (Hankin's near-optimal Chinese poker
method). The last field is written to ``engine/solver/data/<variant>.json``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from engine.cards import JOKER_CODE
from engine.solver.model import FieldModel, Key, bootstrap_model, data_path, save_model, thin
from engine.solver.search import search
from engine.variants import Variant, variant_named

#: Keys kept per position in a data file: quantiles of the self-play sample.
KEPT = 1000


def shoe_codes(variant: Variant) -> list[int]:
    """Every card code of the variant's shoe (several decks: repeated codes)."""
    real = [r * 4 + s for _ in range(variant.decks) for r in range(2, 15) for s in range(4)]
    return [JOKER_CODE] * variant.jokers + real


def self_play_round(
    variant: Variant, model: FieldModel, rng: random.Random, deals: int, budget_s: float
) -> list[list[Key]]:
    """Set ``deals`` seeded holdings with the solver; every position's keys."""
    shoe = shoe_codes(variant)
    samples: list[list[Key]] = [[] for _ in variant.slots]
    for _ in range(deals):
        found = search(variant, model, rng.sample(shoe, variant.max_held), budget_s=budget_s)
        if found is None:
            continue
        for position, key in enumerate(found.keys):
            samples[position].append(key)
    return samples


def train(variant: Variant, *, seed: int, rounds: int, deals: int, budget_s: float) -> FieldModel:
    """Bootstrap, then ``rounds`` rounds of self-play and refit."""
    rng = random.Random(seed)
    model = bootstrap_model(variant, rng)
    for round_number in range(1, rounds + 1):
        started = time.perf_counter()
        samples = self_play_round(variant, model, rng, deals, budget_s)
        model = FieldModel(variant, [thin(sample, KEPT) for sample in samples])
        elapsed = time.perf_counter() - started
        sys.stderr.write(f"round {round_number}: {deals} deals in {elapsed:.1f} s\n")
    return model


def main(argv: Sequence[str] | None = None) -> int:
    """Train one variant's field and write its data file."""
    parser = argparse.ArgumentParser(prog="python -m engine.solver.train", description=__doc__)
    parser.add_argument("--variant", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--budget-ms", type=float, default=300.0, help="search limit per deal")
    args = parser.parse_args(argv)
    variant = variant_named(args.variant)
    started = time.perf_counter()
    model = train(
        variant,
        seed=args.seed,
        rounds=args.rounds,
        deals=args.deals,
        budget_s=args.budget_ms / 1000,
    )
    meta: dict[str, int | str] = {
        "variant": variant.name,
        "seed": args.seed,
        "rounds": args.rounds,
        "deals": args.deals,
    }
    save_model(model, data_path(variant), meta)
    sys.stderr.write(f"wrote {data_path(variant)} in {time.perf_counter() - started:.1f} s\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
