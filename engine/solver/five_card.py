"""The 5-card candidates of a holding: every distinct hand, grouped by its rank part integer.

In a big holding most 5-card hands are high cards and pairs (three quarters of the 20,000-37,000
distinct ones in 25 cards), and the search seldom reaches them in a slot that takes 5 cards:
they can be made apart, from two pair up first and the rest only when the search needs them.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from enum import Enum

from engine.cards import JOKER_CODE
from engine.hand_rules import TWO_PAIR
from engine.lookups import PRIMES, SUIT_MASKS, encode

Codes = tuple[int, ...]
#: A rank part (category and ranks, no suits) as the evaluator's integer (``Evaluator.rank``):
#: it orders as the tuple does, and compares and hashes faster on the search's paths.
Rank = int
#: One candidate: (cards, rank part, packed cards, size, jokers among the cards, the cards
#: counted per rank as ``RANK_FIELD`` counts them).
Entry = tuple[Codes, Rank, int, int, int, int]

#: Cards counted per rank: five bits for each rank (the jokers' in the place of rank 0), with a
#: guard bit above the count (at most 12 cards of a rank in three decks) as in packed cards.
RANK_FIELD: tuple[int, ...] = tuple(1 << 5 * (code >> 2) for code in range(64))
#: The lowest rank part of two pair: every 5-card hand below it is a high card or a pair.
TWO_PAIR_UP: Rank = encode((TWO_PAIR,))
#: From how many cards the nested loops beat itertools' combinations (measured: 9 cards 0.100
#: against 0.069 ms, 17 cards 2.8 against 3.5 ms).
NESTED_FROM = 13


class Part(Enum):
    """Which 5-card hands to make: all, from two pair up, or only the high cards and pairs."""

    ALL = "all"
    TWO_PAIR_UP = "two pair up"
    BELOW_TWO_PAIR = "below two pair"


#: The primes of the symbols (the joker and the ranks) a fifth card can have.
_FIFTH_PRIMES = tuple(sorted({p for p in PRIMES if p}))
#: Per plain lookup (by id, kept alive beside it): per prime product of four cards, the primes
#: of the fifth cards that make two pair or better with them when the five share no suit.
_STRONG_FIFTHS: dict[int, tuple[dict[int, int], dict[int, frozenset[int]]]] = {}


def _strong_fifths(plain: dict[int, int]) -> dict[int, frozenset[int]]:
    """The memory of fifth cards per four cards for this plain lookup (filled when first met)."""
    found = _STRONG_FIFTHS.get(id(plain))
    if found is None or found[0] is not plain:
        found = _STRONG_FIFTHS[id(plain)] = (plain, {})
    return found[1]


def five_card_hands(
    held: Codes,
    by_code: Sequence[int],
    plain: dict[int, int],
    flush: dict[int, int],
    part: Part = Part.ALL,
) -> dict[Rank, list[Entry]]:
    """Every distinct 5-card hand of ``held`` (sorted) in ``part``, grouped by rank part.

    Nested loops over the distinct cards, each taken at most as often as it is held, so no
    hand comes twice (several decks) and every sum and product along the way is shared by the
    hands under it: the prime product and suit mask for the evaluator's lookups, the packed
    cards, the cards counted per rank and the jokers. From two pair up, four cards are followed
    only by the fifths that can make two pair or better with them (a suited fifth always makes a
    flush or better), so most of the high cards and pairs are never looked up.
    """
    if len(held) < NESTED_FROM:
        return _few_five_card_hands(held, by_code, plain, flush, part)
    distinct = sorted(set(held))
    copies = [held.count(code) for code in distinct]
    rows = [
        (code, PRIMES[code], SUIT_MASKS[code], by_code[code], RANK_FIELD[code], int(not code))
        for code in distinct
    ]
    n = len(rows)
    pool: defaultdict[Rank, list[Entry]] = defaultdict(list)
    strong = part is Part.TWO_PAIR_UP
    weak = part is Part.BELOW_TWO_PAIR
    fifths = _strong_fifths(plain)
    for i in range(n):
        a, pa, ma, ba, ra, ja = rows[i]
        for j in range(i if copies[i] > 1 else i + 1, n):
            b, pb, mb, bb, rb, jb = rows[j]
            free_b = copies[i] - 2 if j == i else copies[j] - 1  # copies of card j not taken
            p2, m2, b2, r2, j2 = pa * pb, ma & mb, ba + bb, ra + rb, ja + jb
            for k in range(j if free_b else j + 1, n):
                c, pc, mc, bc, rc, jc = rows[k]
                free_c = free_b - 1 if k == j else copies[k] - 1
                p3, m3, b3, r3, j3 = p2 * pc, m2 & mc, b2 + bc, r2 + rc, j2 + jc
                for m in range(k if free_c else k + 1, n):
                    d, pd, md, bd, rd, jd = rows[m]
                    free_d = free_c - 1 if m == k else copies[m] - 1
                    p4, m4, b4, r4, j4 = p3 * pd, m3 & md, b3 + bd, r3 + rd, j3 + jd
                    last = rows[m if free_d else m + 1 :]
                    if strong:
                        makes = fifths.get(p4)
                        if makes is None:
                            makes = fifths[p4] = frozenset(
                                p for p in _FIFTH_PRIMES if plain[p4 * p] >= TWO_PAIR_UP
                            )
                        if not (m4 or makes):
                            continue  # four ranks that no fifth card lifts past a pair
                        for e, pe, me, be, re, je in last:
                            if m4 & me:
                                rp = flush[p4 * pe]
                            elif pe in makes:
                                rp = plain[p4 * pe]
                            else:
                                continue
                            pool[rp].append(((a, b, c, d, e), rp, b4 + be, 5, j4 + je, r4 + re))
                    elif weak:
                        for e, pe, me, be, re, je in last:
                            if not m4 & me:
                                rp = plain[p4 * pe]
                                if rp < TWO_PAIR_UP:
                                    pool[rp].append(
                                        ((a, b, c, d, e), rp, b4 + be, 5, j4 + je, r4 + re)
                                    )
                    else:
                        for e, pe, me, be, re, je in last:
                            rp = (flush if m4 & me else plain)[p4 * pe]
                            pool[rp].append(((a, b, c, d, e), rp, b4 + be, 5, j4 + je, r4 + re))
    return pool


def _few_five_card_hands(
    held: Codes,
    by_code: Sequence[int],
    plain: dict[int, int],
    flush: dict[int, int],
    part: Part,
) -> dict[Rank, list[Entry]]:
    """``five_card_hands`` of a small holding, from its distinct sorted combinations."""
    pool: defaultdict[Rank, list[Entry]] = defaultdict(list)
    primes, masks, counted = PRIMES, SUIT_MASKS, RANK_FIELD
    every, strong = part is Part.ALL, part is Part.TWO_PAIR_UP
    # Identical cards (several decks) make identical sorted combinations: one each.
    for hand in dict.fromkeys(itertools.combinations(held, 5)):
        a, b, c, d, e = hand
        suited = masks[a] & masks[b] & masks[c] & masks[d] & masks[e]
        rp = (flush if suited else plain)[primes[a] * primes[b] * primes[c] * primes[d] * primes[e]]
        if not every and (rp >= TWO_PAIR_UP) != strong:
            continue
        pool[rp].append(
            (
                hand,
                rp,
                by_code[a] + by_code[b] + by_code[c] + by_code[d] + by_code[e],
                5,
                0 if a else hand.count(JOKER_CODE),
                counted[a] + counted[b] + counted[c] + counted[d] + counted[e],
            )
        )
    return pool
