"""Seed 003's house way over arrays: a chunk of Pai Gow hands set at once, as the sheet sets one.

``engine.paigow_house_way`` sets one hand of seven cards by the "strong house way" sheet; this
module asks the same questions of a whole array of hands with numpy and gives what a round's
result needs of each setting: the high hand's rank part integer (what ``Evaluator.rank`` gives)
and the low hand's (``encode(low_key_codes(...))``). Each step names the function of
``engine.paigow_house_way`` it follows. ``tests/engine/test_simulate_paigow.py`` holds the two
to each other hand by hand, every shape and both roles; ``benchmarks/check_simulator.py rounds``
a million rounds.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.hand_rules import ACE, FLUSH, PAIR, STRAIGHT, straight_flush_ladder
from engine.paigow import PaiGowKeys
from engine.simulate_arrays import (
    FIVE_BITS,
    FIVE_CARRY,
    RANKS,
    SUIT_COUNTS_ARRAY,
    SUITED,
    SYMBOLS,
    Array,
    FiveCards,
    pack,
    sort_columns,
)

Flags = npt.NDArray[np.bool_]

KING: Final = 13
QUEEN: Final = 12
JACK: Final = 11
_STRAIGHT_FLUSH: Final = straight_flush_ladder(5)
_LADDER_SHIFT: Final = 24  # ``engine.lookups.encode``: six 4-bit rank digits below the ladder

#: Every two places of seven sorted cards (the low hand) and the five others, in order.
_SPLITS: Final = tuple(
    (a, b, tuple(k for k in range(7) if k not in (a, b)))
    for a, b in itertools.combinations(range(7), 2)
)
#: Each real card's rank as a bit (the ace also as bit 1, its place in the wheel); the joker 0.
_RANK_BITS: Final = np.array(
    [0 if code < 8 else 1 << (code >> 2) | (2 if code >> 2 == ACE else 0) for code in range(64)],
    dtype=np.int64,
)
#: Per 14 rank bits (bit 1 to 14, shifted down by one): the most of them in any five in a row.
_MOST_IN_A_RUN: Final = np.array(
    [max((bits & 0b11111 << low).bit_count() for low in range(10)) for bits in range(1 << 14)],
    dtype=np.int64,
)

#: Each card's rank as a 4-bit counter (the joker with the aces): their sum counts every rank.
_RANK_COUNTS: Final = np.array([1 << 4 * int(rank) for rank in RANKS], dtype=np.int64)
_NIBBLES: Final = 0x1111_1111_1111_1111
_Rule = Callable[[Array, Flags], Array]

# A low hand by its two places among the seven grouped cards, as ``8 * first + second``.
_KEEP: Final = 8 * 4 + 5  # the first two singles after four of a kind
_TWO_PAIRS: Final = 8 * 0 + 1  # two of the four up
_ACE_TOP: Final = 8 * 0 + 4  # one of the four with the best single up


def low_values(first: Array, second: Array) -> Array:
    """``encode(low_key_codes((first, second)))`` per row of two card codes."""
    a, b = RANKS[first], RANKS[second]
    high, low = np.maximum(a, b), np.minimum(a, b)
    return np.where(a == b, PAIR << _LADDER_SHIFT | a << 20, high << 20 | low << 16)


def _is_pair(top: Array) -> Flags:
    pair: Flags = (top >> _LADDER_SHIFT) == PAIR
    return pair


def _first(top: Array) -> Array:
    """The low hand's first rank (its pair's, or its higher card's)."""
    return (top >> 20) & 15


def _second(top: Array) -> Array:
    return (top >> 16) & 15


def _is_ace_high(top: Array) -> Flags:
    ace: Flags = _first(top) == ACE
    return ~_is_pair(top) & ace


def _is_ace_face(top: Array) -> Flags:
    return _is_ace_high(top) & (_second(top) >= JACK)


class PaiGowArrays:
    """The house way of one set of Pai Gow hand rules over arrays of seven-card hands."""

    def __init__(self, keys: PaiGowKeys) -> None:
        self.fives = FiveCards(keys.evaluator.lookups)

    def settings(self, sevens: Array, banker: Flags) -> tuple[Array, Array]:
        """Per row of seven card codes, the house way's (high hand, low hand) rank integers.

        ``banker[i]`` sets row ``i`` as the banker (``Role.BANKER``), else as a player. The
        work goes column by column (the first cards of every hand, then the second...): numpy
        is quickest on long rows of numbers.
        """
        rows = len(sevens)
        codes = np.ascontiguousarray(sevens.T)
        ranks = RANKS[codes]
        # _group: by rank (the joker with the aces), the biggest group first, then the higher
        # rank; inside a group the higher code first, so the joker comes last.
        counts = _RANK_COUNTS[codes].sum(axis=0)
        sizes = (counts >> (ranks << 2)) & 15
        grouped = np.array(sort_columns(list(sizes << 10 | ranks << 6 | codes)))
        cards, ranks, sizes = grouped & 63, (grouped >> 6) & 15, grouped >> 10
        first = sizes[0]
        second = np.select(
            [first == i for i in range(1, 5)], [sizes[i] for i in range(1, 5)], sizes[5]
        )
        present = counts | counts >> 1
        groups = np.bitwise_count((present | present >> 2) & _NIBBLES).astype(np.int64)

        low = np.full(rows, 8 * 1 + 2)  # pai_gow: the 2nd and 3rd highest cards up
        shapes: tuple[tuple[Flags, _Rule], ...] = (
            (first == 5, _five_aces),
            ((first == 4) & (groups == 2), _four_and_three),
            ((first == 4) & (groups == 3), _four_with_pair),
            ((first == 4) & (groups == 4), _four_of_a_kind),
            ((first == 3) & (second == 3), _first_two),
            ((first == 3) & (second == 2), _full_house),
            ((first == 3) & (second == 1), _three_of_a_kind),
            ((first == 2) & (groups == 4), _first_two),
            ((first == 2) & (groups == 5), _two_pairs),
            ((first == 2) & (groups == 6), _two_best_singles),
        )
        for where, rule in shapes:
            at = np.flatnonzero(where)
            low[at] = rule(ranks[:, at], banker[at])

        # straight_flush_options applies to the shapes the sheet has not settled before it.
        open_ = (first < 3) | ((first == 3) & (second < 3))
        open_ &= ~((first == 2) & (groups == 4))  # three pairs: "always play as three pair"
        at = np.flatnonzero(open_ & _could_run_or_flush(codes))
        top, back, found = self._best_run(sort_columns(list(codes[:, at])))
        full = (first[at] == 3) & (second[at] == 2)
        # full_house(split=bool(options)): a run found, even one not played, splits the house.
        low[at[found & full]] = 8 * 3 + 4
        plays = found & _plays_run(ranks[:, at], first[at], second[at], groups[at], top)

        up_first, up_second = low >> 3, low & 7
        flat, places = cards.ravel(), np.arange(rows)
        high_cards = []
        for j in range(5):
            # The j-th card kept behind: skip the places of the two cards up.
            skip = (j >= up_first).astype(np.int64) + (j + 1 >= up_second)
            high_cards.append(
                np.where(skip == 0, cards[j], np.where(skip == 1, cards[j + 1], cards[j + 2]))
            )
        high_values = self.fives.rank(high_cards)
        low_values_ = low_values(flat[up_first * rows + places], flat[up_second * rows + places])
        played = at[plays]
        high_values[played] = back[plays]
        low_values_[played] = top[plays]
        return high_values, low_values_

    def _best_run(self, cards: list[Array]) -> tuple[Array, Array, Flags]:
        """best_straight_or_flush of straight_flush_options: (low hand, high hand, found).

        ``cards`` are seven columns sorted high to low, so any five are in the lookups' order.
        """
        symbols = [SYMBOLS[column] for column in cards]
        counts = [SUIT_COUNTS_ARRAY[column] for column in cards]
        total = sum(counts[1:], counts[0])
        values = self.fives.values
        best_straight = np.full(len(cards[0]), -1)
        best_flush = np.full(len(cards[0]), -1)
        for a, b, rest in _SPLITS:
            packed = pack(*(symbols[k] for k in rest))
            shares = ((total - counts[a] - counts[b] + FIVE_CARRY) & FIVE_BITS) != 0
            value = values[packed | np.where(shares, SUITED, 0)]
            ladder = value >> _LADDER_SHIFT
            # An option's (top, back) as one integer: max() of the sheet's (o.top, o.back).
            option = low_values(cards[a], cards[b]) << 32 | value
            np.maximum(best_straight, np.where(ladder == STRAIGHT, option, -1), out=best_straight)
            is_flush = (ladder == FLUSH) | (ladder == _STRAIGHT_FLUSH)
            np.maximum(best_flush, np.where(is_flush, option, -1), out=best_flush)
        straight_top, flush_top = best_straight >> 32, best_flush >> 32
        # _same_top: "adjacent or essentially the same" tops.
        same = ~_is_pair(straight_top) & ~_is_pair(flush_top)
        same &= (_first(straight_top) == _first(flush_top)) | (
            (_first(straight_top) <= QUEEN) & (_first(flush_top) <= QUEEN)
        )
        has_straight, has_flush = best_straight >= 0, best_flush >= 0
        takes_flush = has_flush & (~has_straight | same | (flush_top >= straight_top))
        run = np.where(takes_flush, best_flush, best_straight)
        return run >> 32, run & 0xFFFFFFFF, has_straight | has_flush


def _could_run_or_flush(codes: Array) -> Flags:
    """paigow_house_way._could_run_or_flush of each column of seven card codes."""
    jokers = (codes == 0).sum(axis=0)
    suits = SUIT_COUNTS_ARRAY[codes].sum(axis=0)  # the joker counts in every suit
    flush: Flags = ((suits + FIVE_CARRY) & FIVE_BITS) != 0
    bits = np.bitwise_or.reduce(_RANK_BITS[codes], axis=0)
    run: Flags = _MOST_IN_A_RUN[bits >> 1] >= 5 - jokers
    return flush | run


def _plays_run(ranks: Array, first: Array, second: Array, groups: Array, top: Array) -> Flags:
    """paigow_house_way._plays_run: whether the run beats the hand's other reading."""
    pair, ace_high = _is_pair(top), _is_ace_high(top)
    plays = np.ones(len(top), dtype=bool)
    # _prefers_split_full_house: the pair part (the second group) up unless the run gives a
    # pair top, and aces up unless that pair is aces.
    full = (first == 3) & (second == 2)
    plays[full] = (pair & ((ranks[3] != ACE) | (_first(top) == ACE)))[full]
    # "Straight or flush with three of a kind: ... with pair or ace up."
    trips = (first == 3) & (second == 1)
    plays[trips] = (pair | ace_high)[trips]
    # _prefers_two_pairs_to_run
    two = (first == 2) & (groups == 5)
    high, low, best_single = ranks[0], ranks[2], ranks[4]
    prefers = ~pair & (
        ((high == ACE) & (low >= 8)) | (~ace_high & ((high >= JACK) | (best_single == ACE)))
    )
    plays[two] = ~prefers[two]
    # _prefers_pair_to_run: the pair's top is the two best singles (never a pair).
    one = (first == 2) & (groups == 6)
    pair_rank, s1, s2 = ranks[0], ranks[2], ranks[3]
    face = (pair_rank >= JACK) & (pair_rank <= KING)
    good_top = (face & (s1 == ACE) & (s2 >= JACK)) | (
        (pair_rank == ACE) & ((s1 > KING) | ((s1 == KING) & (s2 >= QUEEN)))
    )
    prefers = ~pair & ~_is_ace_face(top) & (_first(top) <= QUEEN) & good_top
    plays[one] = ~prefers[one]
    return plays


def _first_two(ranks: Array, banker: Flags) -> Array:
    """two_three_of_a_kinds and three_pairs: two cards of the first group up."""
    return np.full(ranks.shape[1], 8 * 0 + 1)


def _two_best_singles(ranks: Array, banker: Flags) -> Array:
    """one_pair: "next two strongest cards up"."""
    return np.full(ranks.shape[1], 8 * 2 + 3)


def _five_aces(ranks: Array, banker: Flags) -> Array:
    """five_aces: the kings up when the other two are kings, else a pair of aces."""
    kings = ranks[5] == KING  # five aces and two cards: a pair of kings, or two singles
    return np.where(kings & (ranks[5] == ranks[6]), 8 * 5 + 6, 8 * 0 + 1)


def _four_and_three(ranks: Array, banker: Flags) -> Array:
    """four_and_three_of_a_kind: the pair from the three when adjacent or higher."""
    four, three = ranks[0], ranks[4]
    return np.where((np.abs(four - three) == 1) | (three > four), 8 * 4 + 5, 8 * 0 + 1)


def _four_with_pair(ranks: Array, banker: Flags) -> Array:
    """four_of_a_kind_with_pair: the pair up, except aces or kings with 3's or 2's."""
    split = (ranks[0] >= KING) & (ranks[4] <= 3)
    return np.where(split, 8 * 0 + 1, 8 * 4 + 5)


def _four_of_a_kind(ranks: Array, banker: Flags) -> Array:
    """four_of_a_kind with three singles: keep, split into two pairs, or an ace top."""
    rank, s1, s2 = ranks[0], ranks[4], ranks[5]
    kings = np.where((s2 == QUEEN) | (s2 == JACK), _KEEP, _ACE_TOP)
    queens = np.where(s2 >= 8, _KEEP, _ACE_TOP)
    return np.select(
        [
            rank == ACE,
            rank == KING,
            rank == QUEEN,
            (rank == JACK) | (rank == 10),
            (rank == 9) | (rank == 8),
            (rank == 7) | (rank == 6),
        ],
        [
            np.where(banker, _ACE_TOP, _TWO_PAIRS),
            np.where(s1 != ACE, _TWO_PAIRS, kings),
            np.where(s1 != ACE, _TWO_PAIRS, queens),
            np.where(s1 == ACE, _KEEP, _TWO_PAIRS),
            np.where((s1 == ACE) | ((s1 == KING) & (s2 >= JACK)), _KEEP, _TWO_PAIRS),
            np.where((s1 >= KING) | ((s1 == QUEEN) & (s2 == JACK)), _KEEP, _TWO_PAIRS),
        ],
        _KEEP,
    )


#: keeps_full_house: the second single needed beside an ace for a pair of 5's or less.
_KEEPS_WITH: Final = np.array([99, 99, JACK, QUEEN, QUEEN, KING, *[99] * 10], dtype=np.int64)


def _full_house(ranks: Array, banker: Flags) -> Array:
    """full_house: the pair up unless a small pair with an ace-face keeps it behind."""
    two_singles = ranks[5] != ranks[6]  # three, pair, and two singles (not a pair)
    keeps = two_singles & (ranks[5] == ACE) & (ranks[6] >= _KEEPS_WITH[ranks[3]])
    return np.where(keeps, 8 * 5 + 6, 8 * 3 + 4)


def _three_of_a_kind(ranks: Array, banker: Flags) -> Array:
    """three_of_a_kind: aces, and kings without an ace or queen top, split 2-and-1."""
    rank, top = ranks[0], ranks[3]
    split = (rank == ACE) | ((rank == KING) & (top != ACE) & (top != QUEEN))
    return np.where(split, 8 * 0 + 3, 8 * 3 + 4)


def _two_pairs(ranks: Array, banker: Flags) -> Array:
    """two_pairs: the lower pair up when two_pairs_split says so, else the two best singles."""
    high, low, s1, s2 = ranks[0], ranks[2], ranks[4], ranks[5]
    face_top = (s1 == ACE) & (s2 >= JACK)
    split = np.select(
        [
            (high == ACE) | ((high == KING) & (low >= 7)),
            face_top,
            high <= 6,
            ((high == KING) & (low >= 3))
            | ((high == QUEEN) & (low >= 5))
            | (((high == JACK) | (high == 10)) & ((low == 8) | (low == 9))),
        ],
        [True, (low >= JACK) & (s2 != KING), False, True],
        s1 != ACE,
    )
    return np.where(split, 8 * 2 + 3, 8 * 4 + 5)
