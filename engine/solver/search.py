"""Branch and bound over legal arrangements: exact maximum of Σ v_p under a field model.

Slots are filled strongest first. A slot's candidates are every distinct sub-multiset of the
cards left (several decks: identical cards give one candidate, never a set of cards) of each
allowed size that is a hand fitting the slot; 6-10-card candidates come only from one rank or one
suit plus jokers, since nothing else is a hand of that size. The bound for the slots still to
fill is Σ_q bound_q(cap), each capped by the key just placed (every weaker slot lies below it
under the order rule), and a size is tried only if the cards left can still fill the weaker slots
and reach the variant's minimum of cards used. Candidates are never merged by key: kickers leave
different cards behind, so only identical card multisets are merged.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.arrangement import needs_met
from engine.cards import JOKER_CODE
from engine.errors import HandError
from engine.evaluate import Evaluator, evaluator
from engine.solver.model import FieldModel, Key
from engine.variants import OrderRule, Variant

Codes = tuple[int, ...]
#: Bounds at or below the best found by this much cannot beat it (float sums of the same terms).
_EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Found:
    """The best arrangement found: hands (codes) weakest slot first, the discards and the EV."""

    hands: tuple[Codes, ...]
    keys: tuple[Key, ...]
    discards: Codes
    ev: float
    #: False when a time budget ran out before the search proved the optimum.
    exact: bool
    nodes: int


def minus(cards: Codes, taken: Codes) -> Codes:
    """The sorted multiset ``cards`` without the sorted sub-multiset ``taken``."""
    left: list[int] = []
    j = 0
    for code in cards:
        if j < len(taken) and taken[j] == code:
            j += 1
        else:
            left.append(code)
    return tuple(left)


def big_hands(keyer: Evaluator, codes: Codes, size: int) -> list[tuple[Codes, Key]]:
    """Every distinct 6-10-card hand in the cards: n of a kind or an n-card straight flush."""
    jokers = [c for c in codes if c == JOKER_CODE]
    real = [c for c in codes if c != JOKER_CODE]
    groups = [[c for c in real if c >> 2 == rank] for rank in range(2, 15)]
    groups += [[c for c in real if c & 3 == suit] for suit in range(4)]
    found: dict[Codes, Key] = {}
    for group in groups:
        pool = sorted(jokers + group)
        if len(pool) < size:
            continue
        for combo in itertools.combinations(pool, size):
            if combo in found:
                continue
            try:
                found[combo] = keyer.key(combo)
            except HandError:
                continue
    return list(found.items())


#: One candidate: (bound, value, cards, key, packed cards, size).
_Entry = tuple[float, float, Codes, Key, int, int]


class _Search:
    """One solve: the holding, every candidate per position sorted by bound, the best so far.

    Cards are packed as counts, four bits per distinct card code, so that "these cards are
    still left" is one subtraction: with a guard bit set in every field of what is left, no
    field borrows exactly when the candidate is a sub-multiset of it.
    """

    def __init__(self, variant: Variant, model: FieldModel, held: Codes, deadline: float) -> None:
        self.variant = variant
        self.deadline = deadline
        self.timed_out = False
        self.nodes = 0
        keyer = evaluator(variant.hand_rules)
        distinct = sorted(set(held))
        shift = {code: 4 * i for i, code in enumerate(distinct)}
        self.guards = sum(8 << s for s in shift.values())
        self.total = len(held)
        self.held_packed = sum(1 << shift[code] for code in held)
        count = len(variant.slots)
        self.min_below = [
            sum(min(s.allowed_sizes) for s in variant.slots[:p]) for p in range(count)
        ]
        self.max_below = [
            sum(max(s.allowed_sizes) for s in variant.slots[:p]) for p in range(count)
        ]
        hands: dict[int, list[tuple[Codes, Key]]] = {}
        for size in {size for slot in variant.slots for size in slot.allowed_sizes}:
            if size > 5:
                hands[size] = big_hands(keyer, held, size)
                continue
            pool = []
            for combo in dict.fromkeys(itertools.combinations(held, size)):
                try:
                    pool.append((combo, keyer.key(combo)))
                except HandError:
                    continue
            hands[size] = pool
        bit = {code: 1 << s for code, s in shift.items()}
        packed = {
            size: [(combo, key, sum(map(bit.__getitem__, combo))) for combo, key in pool]
            for size, pool in hands.items()
        }
        self.entries: list[list[_Entry]] = []
        scores = model.scores
        for position, slot in enumerate(variant.slots):
            entries: list[_Entry] = []
            for rule in slot.sizes:
                size, floor = rule.size, rule.min_ladder
                for combo, key, cards in packed[rule.size]:
                    if key[0] >= floor:
                        bound, value = scores(key)[position]
                        entries.append((bound, value, combo, key, cards, size))
            entries.sort(key=lambda entry: entry[0], reverse=True)
            self.entries.append(entries)
        self.strict = variant.order is OrderRule.STRICT
        self.best_ev = float("-inf")
        self.best: list[_Entry] = []
        self.chosen: list[_Entry] = []
        self.sizes = [0] * count

    def sizes_open(self, position: int, left: int, used: int) -> set[int]:
        """The sizes this slot may take with ``left`` cards left and ``used`` already played."""
        variant = self.variant
        out = set()
        for rule in variant.slots[position].sizes:
            size = rule.size
            if left - size < self.min_below[position]:
                continue  # the weaker slots could not be filled
            if used + size + min(self.max_below[position], left - size) < variant.min_used:
                continue  # too few cards would be used
            if used + size + self.min_below[position] > variant.max_used:
                continue
            need = rule.needs_slot
            if need is not None and need > position and self.sizes[need] < rule.needs_size:
                continue
            out.add(size)
        return out

    def run(self, position: int, left: int, cap: Key | None, used: int, acc: float) -> None:
        self.nodes += 1
        if position < 0:
            legal = used >= self.variant.min_used and needs_met(self.variant, self.sizes)
            if legal and acc > self.best_ev:
                self.best_ev = acc
                self.best = list(self.chosen)
            return
        # The budget stops the search only once it holds an answer: a legal setting always returns.
        if self.best and self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            self.timed_out = True
        sizes = self.sizes_open(position, self.total - used, used)
        if not sizes:
            return
        guarded = left | self.guards
        guards = self.guards
        strict = self.strict
        for entry in self.entries[position]:
            if self.timed_out or acc + entry[0] <= self.best_ev + _EPSILON:
                break
            if entry[5] not in sizes or (guarded - entry[4]) & guards != guards:
                continue
            if cap is not None and (entry[3] >= cap if strict else entry[3] > cap):
                continue
            self.chosen.append(entry)
            self.sizes[position] = entry[5]
            self.run(position - 1, left - entry[4], entry[3], used + entry[5], acc + entry[1])
            self.chosen.pop()
            self.sizes[position] = 0


def search(
    variant: Variant, model: FieldModel, held: Sequence[int], *, budget_s: float | None = None
) -> Found | None:
    """The legal arrangement of ``held`` (codes) with the greatest Σ v_p, or None if none is."""
    codes = tuple(sorted(held))
    deadline = float("inf") if budget_s is None else time.perf_counter() + budget_s
    state = _Search(variant, model, codes, deadline)
    top = len(variant.slots) - 1
    state.run(top, state.held_packed, None, 0, 0.0)
    if not state.best:
        return None
    hands = tuple(entry[2] for entry in reversed(state.best))
    keys = tuple(entry[3] for entry in reversed(state.best))
    left = codes
    for hand in hands:
        left = minus(left, hand)
    return Found(hands, keys, left, state.best_ev, not state.timed_out, state.nodes)
