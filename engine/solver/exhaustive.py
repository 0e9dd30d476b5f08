"""The reference the search is tested against: every legal arrangement, no bound, no shortcut.

Slots are filled strongest first over every distinct sub-multiset of the cards left; only the
rules prune (sizes, power hands, the order rule, cards used). The weakest slot takes the best of
all its legal hands from what is left, which is the same maximum as trying each in turn.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from engine.arrangement import fits_slot, is_ordered, needs_met
from engine.errors import HandError
from engine.evaluate import evaluator
from engine.solver.model import FieldModel, Key
from engine.solver.search import big_hands, minus
from engine.variants import Variant


def best_ev(variant: Variant, model: FieldModel, held: Sequence[int]) -> float | None:
    """The greatest Σ v_p over every legal arrangement of ``held`` (codes), or None."""
    keyer = evaluator(variant.hand_rules)
    codes = tuple(sorted(held))
    keys: dict[tuple[int, ...], Key | None] = {}
    big = {
        size: dict(big_hands(keyer, codes, size))
        for slot in variant.slots
        for size in slot.allowed_sizes
        if size > 5
    }
    sizes = [0] * len(variant.slots)

    def key_of(combo: tuple[int, ...]) -> Key | None:
        if combo not in keys:
            try:
                keys[combo] = keyer.key(combo)
            except HandError:
                keys[combo] = None
        return keys[combo]

    def hands(
        position: int, left: tuple[int, ...], cap: Key | None
    ) -> list[tuple[tuple[int, ...], Key]]:
        out = []
        for size in variant.slots[position].allowed_sizes:
            if size > 5:
                have = Counter(left)
                combos = [c for c in big[size] if not Counter(c) - have]
            else:
                combos = list(dict.fromkeys(itertools.combinations(left, size)))
            for combo in combos:
                key = key_of(combo)
                if key is None or not fits_slot(variant, position, size, key):
                    continue
                if cap is not None and not is_ordered(variant, key, cap):
                    continue
                out.append((combo, key))
        return out

    def walk(position: int, left: tuple[int, ...], cap: Key | None, acc: float) -> float | None:
        best: float | None = None
        for combo, key in hands(position, left, cap):
            sizes[position] = len(combo)
            used = len(codes) - len(left) + len(combo)
            if position == 0:
                if variant.min_used <= used <= variant.max_used and needs_met(variant, sizes):
                    total = acc + model.value(0, key)
                    best = total if best is None or total > best else best
                continue
            if used > variant.max_used:
                continue
            found = walk(position - 1, minus(left, combo), key, acc + model.value(position, key))
            if found is not None and (best is None or found > best):
                best = found
        sizes[position] = 0
        return best

    return walk(len(variant.slots) - 1, codes, None, 0.0)
