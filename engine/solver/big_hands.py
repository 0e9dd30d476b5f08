"""The 6-10-card hands a holding makes: n of a kind or an n-card straight flush, and nothing else.

Trying every combination of the cards is hopeless (25 spades hold 3.3 million ten-card
combinations), so each kind of hand is built from what it is made of: n of a kind from one
rank's cards (every distinct multiset of them) and jokers, a straight flush from one suit's
distinct cards inside a run of n ranks (the ace high or low) and jokers. The evaluator still
keys, and so checks, every hand built.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from engine.cards import JOKER_CODE
from engine.errors import HandError
from engine.evaluate import ACE, Evaluator

Codes = tuple[int, ...]
Key = tuple[int, ...]


def _windows(size: int) -> list[frozenset[int]]:
    """Every run of ``size`` ranks, the ace counted high and low."""
    runs = [range(low, low + size) for low in range(1, ACE - size + 2)]
    return [frozenset(ACE if rank == 1 else rank for rank in run) for run in runs]


def _of_a_kind(cards: list[int], jokers: int, size: int) -> set[Codes]:
    """Every distinct hand of ``size`` from one rank's cards and up to ``jokers`` jokers."""
    hands: set[Codes] = set()
    for wild in range(min(jokers, size) + 1):
        for combo in itertools.combinations(cards, size - wild):
            hands.add((JOKER_CODE,) * wild + combo)
    return hands


def _straight_flushes(cards: list[int], jokers: int, size: int) -> set[Codes]:
    """Every hand of ``size`` from one suit's distinct cards in one run, jokers filling gaps."""
    distinct = sorted(set(cards))
    hands: set[Codes] = set()
    for window in _windows(size):
        inside = [code for code in distinct if code >> 2 in window]
        for wild in range(max(0, size - len(inside)), min(jokers, size) + 1):
            for combo in itertools.combinations(inside, size - wild):
                hands.add((JOKER_CODE,) * wild + combo)
    return hands


def big_hands(keyer: Evaluator, codes: Iterable[int], size: int) -> list[tuple[Codes, Key]]:
    """Every distinct 6-10-card hand in the cards: n of a kind or an n-card straight flush.

    Ranks from two up, then suits, each group's hands in sorted order, as the same hands would
    come out of the combinations of each group's cards.
    """
    held = sorted(codes)
    jokers = held.count(JOKER_CODE)
    real = [code for code in held if code != JOKER_CODE]
    groups = [
        _of_a_kind([c for c in real if c >> 2 == rank], jokers, size) for rank in range(2, 15)
    ]
    groups += [
        _straight_flushes([c for c in real if c & 3 == suit], jokers, size) for suit in range(4)
    ]
    found: dict[Codes, Key] = {}
    for hands in groups:
        for hand in sorted(hands):
            if hand in found:
                continue
            try:
                found[hand] = keyer.key(hand)
            except HandError:
                continue
    return list(found.items())
