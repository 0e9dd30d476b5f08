"""The simulator's arrays: the evaluator's 5-card lookups by packed ranks, and classes met once.

Two ways the simulator reads a whole chunk of hands at once. ``FiveCards`` is the evaluator's
own prime-product lookups (``engine.lookups``) laid out as one numpy array indexed by the
hand's symbols packed four bits each (highest first, the joker last): one gather per hand, no
sort of the lookups' keys. ``Classes`` keeps a row of results per class of hands in a dense
array: a class met for the first time is played once by the bot's own rules, on the first hand
of it, and every other hand of the class reads that row. Hands are worked on column by column
(every hand's first card, then every hand's second...), sorted by sorting networks of whole
columns: numpy is quickest on long rows of numbers, slow on many short ones.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.cards import JOKER_CODE
from engine.hand_rules import ACE
from engine.lookups import PRIMES, SUIT_COUNTS, Lookups

Array = npt.NDArray[np.int64]

#: Each card code's suit as a 4-bit counter (the joker counts in every suit), as an array.
SUIT_COUNTS_ARRAY: Final = np.array(SUIT_COUNTS, dtype=np.int64)
#: A sum of ``SUIT_COUNTS`` holds a suit with five cards or more exactly when
#: ``(total + FIVE_CARRY) & FIVE_BITS`` is not 0 (``engine.lookups``).
FIVE_CARRY: Final = 0x3333
FIVE_BITS: Final = 0x8888
#: Each card code's symbol in the lookups: the joker 1, a card its rank (2 to 14).
SYMBOLS: Final = np.array(
    [1 if code == JOKER_CODE else code >> 2 for code in range(64)], dtype=np.int64
)
#: Each card code's rank as the low hand and the house ways group it: the joker is an ace.
RANKS: Final = np.array(
    [ACE if code == JOKER_CODE else code >> 2 for code in range(64)], dtype=np.int64
)
#: The flag bit of a packed hand whose five cards share a suit (jokers in every suit).
SUITED: Final = 1 << 20


class FiveCards:
    """The rank part integer of every 5-card hand, by packed symbols and the suited flag.

    ``pack`` of five symbols sorted high to low (the joker, 1, last) is their 4-bit digits;
    ``values[pack | SUITED * shares_a_suit]`` is what ``Evaluator.rank`` gives those cards.
    """

    def __init__(self, lookups: Lookups) -> None:
        self.values = np.zeros(2 * SUITED, dtype=np.int64)
        for symbols in itertools.combinations_with_replacement(range(14, 0, -1), 5):
            # The symbols' card codes (any suit): the joker is code 0, a rank its code rank * 4.
            product = math.prod(PRIMES[0 if s == 1 else s * 4] for s in symbols)
            packed = functools.reduce(lambda high, low: high << 4 | low, symbols)
            self.values[packed] = lookups.plain5[product]
            self.values[packed | SUITED] = lookups.flush5[product]

    def rank(self, cards: list[Array]) -> Array:
        """The evaluator's rank part integer of five columns of card codes, in any order."""
        symbols = sort_columns([SYMBOLS[column] for column in cards])
        ranks: Array = self.values[pack(*symbols) | suited(cards)]
        return ranks

    def best(self, cards: list[Array]) -> Array:
        """The rank of the strongest five of six columns of card codes, sorted high to low."""
        symbols = [SYMBOLS[column] for column in cards]
        counts = [SUIT_COUNTS_ARRAY[column] for column in cards]
        total = sum(counts[1:], counts[0])
        best = np.zeros(len(cards[0]), dtype=np.int64)
        for left_out in range(6):
            rest = [symbols[k] for k in range(6) if k != left_out]
            shares = ((total - counts[left_out] + FIVE_CARRY) & FIVE_BITS) != 0
            np.maximum(best, self.values[pack(*rest) | np.where(shares, SUITED, 0)], out=best)
        return best


def suited(cards: list[Array]) -> Array:
    """``SUITED`` where five columns of card codes share a suit (jokers in every suit), else 0."""
    counts = [SUIT_COUNTS_ARRAY[column] for column in cards]
    total = sum(counts[1:], counts[0])
    return np.where(((total + FIVE_CARRY) & FIVE_BITS) != 0, SUITED, 0)


#: Sorting networks (pairs of places, each put in order): 0-1 checked in the tests.
NETWORKS: Final = {
    5: ((0, 3), (1, 4), (0, 2), (1, 3), (0, 1), (2, 4), (1, 2), (3, 4), (2, 3)),
    6: (
        (0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5),
        (1, 2), (3, 4),
    ),
    7: (
        (0, 6), (2, 3), (4, 5), (0, 2), (1, 4), (3, 6), (0, 1), (2, 5),
        (3, 4), (1, 2), (4, 6), (2, 3), (4, 5), (1, 2), (3, 4), (5, 6),
    ),
}  # fmt: skip


def sort_columns(columns: list[Array]) -> list[Array]:
    """The columns sorted place by place, highest first: row ``i`` of the result, high to low.

    A sorting network of whole columns: a few elementwise minima and maxima, far cheaper than
    numpy's sort of many short rows.
    """
    columns = list(columns)
    for i, j in NETWORKS[len(columns)]:
        high, low = np.maximum(columns[i], columns[j]), np.minimum(columns[i], columns[j])
        columns[i], columns[j] = high, low
    return columns


def pack(a: Array, b: Array, c: Array, d: Array, e: Array) -> Array:
    """Five columns of symbols, highest first, as one integer of 4-bit digits per row."""
    return (((a << 4 | b) << 4 | c) << 4 | d) << 4 | e


class Classes:
    """A row of results per class key (0 to ``size`` - 1), each played once by ``play``.

    ``play`` gets the card codes of the first hand of a class not met before, as a list, and
    returns the class's row; rows are kept in one dense array, so a chunk reads all its hands'
    rows with one gather.
    """

    def __init__(self, size: int, width: int, play: Callable[[list[int]], tuple[int, ...]]):
        self.rows: Array = np.zeros((size, width), dtype=np.int64)
        self.known = np.zeros(size, dtype=bool)
        self.play = play

    def __len__(self) -> int:
        return int(self.known.sum())

    def results(self, keys: Array, cards: Array) -> Array:
        """Each hand's row; ``cards[i]`` is what ``play`` gets if hand ``i`` is a new class."""
        new = ~self.known[keys]
        if new.any():
            at = np.flatnonzero(new)
            classes, first = np.unique(keys[at], return_index=True)
            for key, i in zip(classes.tolist(), at[first].tolist(), strict=True):
                self.rows[key] = self.play(cards[i].tolist())
                self.known[key] = True
        return self.rows[keys]
