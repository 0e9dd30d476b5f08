"""Fixed seeded holdings for the solver's benchmarks: a given number of jokers in each deal."""

from __future__ import annotations

import random

from engine.cards import JOKER_CODE
from engine.variants import Variant


def deals(
    variant: Variant, size: int, count: int, *, seed: int, max_jokers: int
) -> list[list[int]]:
    """``count`` holdings of ``size`` card codes; deal i holds i mod (max_jokers + 1) jokers.

    Jokers are set rather than drawn so that the hard cases (several jokers) are measured as
    often as the easy ones.
    """
    rng = random.Random(f"{variant.name}:{size}:{seed}")
    real = [r * 4 + s for _ in range(variant.decks) for r in range(2, 15) for s in range(4)]
    out = []
    for index in range(count):
        jokers = index % (max_jokers + 1)
        out.append([JOKER_CODE] * jokers + rng.sample(real, size - jokers))
    return out
