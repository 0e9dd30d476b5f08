"""A quick legal setting, made before the search starts: what a timed solve falls back on.

Every slot takes its smallest size (never a power hand) and, strongest slot first, the strongest
hand of the cards left that still stands below the slot above. A 5-card hand comes from what
such hands are made of (n of a kind, runs, flushes, full houses, pairs, each with the lowest
cards left as kickers), never from every combination of 25 cards; 3- and 1-card hands from every
combination of the cards left. When a slot finds no hand below the one above, that slot above
tries its next hand, up to a fixed number of hands in all; the cards no slot took are discarded.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from engine.arrangement import fits_slot, is_ordered
from engine.cards import JOKER_CODE
from engine.errors import HandError
from engine.evaluate import ACE, Evaluator, evaluator
from engine.variants import Variant

Codes = tuple[int, ...]
Key = tuple[int, ...]

#: Hands tried in all before giving up (a few dozen are enough on every holding tried).
_TRIES: Final = 400
#: Every run of five ranks as rank sets, the ace high and low.
_RUNS: Final = tuple(
    frozenset(ACE if rank == 1 else rank for rank in range(low, low + 5))
    for low in range(1, ACE - 3)
)


def _minus(cards: Sequence[int], taken: Sequence[int]) -> list[int]:
    left = list(cards)
    for code in taken:
        left.remove(code)
    return left


def _five_card_hands(left: Sequence[int]) -> set[Codes]:
    """5-card hands of the cards left (sorted), from each kind of hand's own cards."""
    jokers = left.count(JOKER_CODE)
    real = [code for code in left if code != JOKER_CODE]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for code in reversed(real):  # strongest first
        by_rank.setdefault(code >> 2, []).append(code)
        by_suit.setdefault(code & 3, []).append(code)
    hands: set[Codes] = set()

    def add(core: Sequence[int], wild: int) -> None:
        """The core, ``wild`` jokers and the lowest other cards as kickers."""
        need = 5 - len(core) - wild
        if need < 0 or wild > jokers:
            return
        rest = _minus(real, core)
        ranks = {code >> 2 for code in core}
        kickers = [code for code in rest if code >> 2 not in ranks][:need]
        if len(kickers) < need:
            kickers = rest[:need]
        if len(kickers) == need:
            hands.add(tuple(sorted([*core, *kickers, *[JOKER_CODE] * wild])))

    for rank, cards in by_rank.items():
        for count in (5, 4, 3, 2):
            used = cards[:count]
            add(used, count - len(used))
        for other, pair in by_rank.items():
            if other != rank:
                trips = cards[:3]
                add([*trips, *pair[:2]], 3 - len(trips) + 2 - len(pair[:2]))
                if other < rank and len(cards) >= 2 and len(pair) >= 2:
                    add([*cards[:2], *pair[:2]], 0)
    for cards in by_suit.values():
        add(cards[:5], max(0, 5 - len(cards)))
        if len(cards) > 5:
            add([cards[0], *cards[-4:]], 0)
    for run in _RUNS:
        for suit in (*by_suit, None):
            held: dict[int, int] = {}
            for code in real:  # the lowest suit of each rank, unless the run is suited
                if code >> 2 in run and (suit is None or code & 3 == suit):
                    held.setdefault(code >> 2, code)
            add(list(held.values()), 5 - len(held))
    for code in set(real):
        add([code], 0)
    return hands


def _candidates(keyer: Evaluator, left: Sequence[int], size: int) -> list[tuple[Key, Codes]]:
    """Hands of ``size`` cards from the cards left, strongest first."""
    if size == 5:
        hands: set[Codes] | dict[Codes, None] = _five_card_hands(left)
    else:
        hands = dict.fromkeys(itertools.combinations(left, size))
    keyed = []
    for hand in hands:
        try:
            keyed.append((keyer.key(hand), hand))
        except HandError:
            continue
    keyed.sort(reverse=True)
    return keyed


def greedy_setting(variant: Variant, held: Sequence[int]) -> tuple[tuple[Codes, ...], Codes] | None:
    """A legal setting of ``held`` (codes): the hands weakest slot first, and the discards.

    None when no setting was found within the hands it may try (the search then has none yet).
    """
    keyer = evaluator(variant.hand_rules)
    sizes = [min(slot.allowed_sizes) for slot in variant.slots]
    if sum(sizes) > len(held):
        return None
    chosen: list[Codes] = []
    tried = 0

    def place(position: int, left: list[int], cap: Key | None) -> bool:
        nonlocal tried
        if position < 0:
            return True
        size = sizes[position]
        for key, hand in _candidates(keyer, left, size):
            if cap is not None and not is_ordered(variant, key, cap):
                continue
            if not fits_slot(variant, position, size, key):
                continue
            tried += 1
            if tried > _TRIES:
                return False
            chosen.append(hand)
            if place(position - 1, _minus(left, hand), key):
                return True
            chosen.pop()
        return False

    if not place(len(sizes) - 1, sorted(held), None):
        return None
    hands = tuple(reversed(chosen))
    return hands, tuple(_minus(sorted(held), [code for hand in hands for code in hand]))
