"""Keys of 3- and 5-card hands with wild jokers, read through the evaluator's joker-free keys.

The evaluator resolves a joker hand on its general path (20-40 µs, remembered only up to its
cache limit); a solver meets thousands of new ones per deal. Every reading the evaluator weighs
puts each joker on a definite card: the largest rank group's rank as a spade (of a kind), the
suit's ace (flush), or the missing ranks of a run as spades or in the suit (straight, straight
flush). This module builds those concrete hands and keeps the strongest key the joker-free fast
path gives them. Each is a hand the jokers may become, so none beats the evaluator's best, and
the evaluator's own choice is among them, so the maximum is its key (tests/engine/test_solver.py
compares the two on every 3-card joker hand and on random 5-card ones).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from engine.cards import JOKER_CODE
from engine.evaluate import ACE, SPADES, Evaluator, HandRules, JokerMode
from engine.memo import Memo

Key = tuple[int, ...]


@cache
def _windows(size: int) -> tuple[tuple[frozenset[int], tuple[int, ...]], ...]:
    """Every run of ``size`` ranks (the A-low one too), as a set and as a tuple."""
    runs = [tuple(range(top, top - size, -1)) for top in range(ACE, size, -1)]
    runs.append((ACE, *range(size, 1, -1)))
    return tuple((frozenset(run), run) for run in runs)


#: Keys remembered per (rules, sorted cards), the last this many at least (``engine.memo``: the
#: least lately used are forgotten first): small holdings (the Casino Version's 9 cards) meet
#: the same joker hands deal after deal.
_MEMO_LIMIT = 1 << 17
_MEMO: Memo[tuple[HandRules, tuple[int, ...]], Key] = Memo(_MEMO_LIMIT)


def joker_key(keyer: Evaluator, codes: Sequence[int]) -> Key:
    """The key of a 3- or 5-card hand holding at least one joker (code 0), wild jokers.

    ``codes`` sorted ascending (the jokers first), as the solver's combinations come.
    """
    memo = (keyer.rules, tuple(codes))
    found = _MEMO.young.get(memo) or _MEMO.recall(memo)
    if found is None:
        found = _MEMO.put(memo, _joker_key(keyer, codes))
    return found


#: Rank parts per rules and (jokers, the real cards' one suit or -1, the real cards' ranks).
_PARTS: dict[HandRules, Memo[tuple[int, int, tuple[int, ...]], Key]] = {}


def joker_rank_parts(keyer: Evaluator) -> Callable[[tuple[int, ...]], Key]:
    """The rank part (category and ranks) of ``joker_key`` for 3- and 5-card joker hands.

    Every concrete hand ``_joker_key`` weighs puts the jokers on cards chosen from the real
    cards' ranks and, only when the real cards share one suit, from that suit; and the
    joker-free keys give a hand's rank part from its ranks and whether it is a flush. So the
    rank part depends on the jokers, the real ranks and the real cards' one suit (if any)
    alone, and is remembered on those: a holding's thousands of joker hands share a few
    hundred of them (tests/engine/test_solver.py compares it with the evaluator's key).
    """
    memo = _PARTS.setdefault(keyer.rules, Memo(_MEMO_LIMIT))
    wild = keyer.rules.joker is JokerMode.WILD

    def part(codes: tuple[int, ...]) -> Key:
        """``codes`` sorted ascending, the jokers first."""
        if not wild or len(codes) not in (3, 5):
            key = joker_key(keyer, codes)
            return key[: key.index(0, 1) + 1]
        jokers = codes.count(JOKER_CODE)
        suit = codes[-1] & 3 if jokers < len(codes) else -2
        ranks = []
        for code in codes[jokers:]:
            ranks.append(code >> 2)
            if code & 3 != suit:
                suit = -1
        shape = (jokers, suit, tuple(ranks))
        found = memo.young.get(shape) or memo.recall(shape)
        if found is None:
            key = _joker_key(keyer, codes)
            found = memo.put(shape, key[: key.index(0, 1) + 1])
        return found

    return part


def _joker_key(keyer: Evaluator, codes: Sequence[int]) -> Key:
    size = len(codes)
    if keyer.rules.joker is not JokerMode.WILD or size not in (3, 5):
        return keyer.key(codes)
    real = [code for code in codes if code]
    jokers = size - len(real)
    counts: dict[int, int] = {}
    for code in real:
        counts[code >> 2] = counts.get(code >> 2, 0) + 1
    rank = max(counts.items(), key=lambda item: (item[1], item[0]))[0] if counts else ACE
    best = keyer.key([*real, *([rank * 4 + SPADES] * jokers)])
    if size == 3 and not keyer.rules.three_card_runs:
        return best
    suits = {code & 3 for code in real}
    suit = next(iter(suits)) if len(suits) == 1 else SPADES
    if len(suits) <= 1:
        key = keyer.key([*real, *([ACE * 4 + suit] * jokers)])
        best = key if key > best else best
    if len(counts) == len(real):
        held = counts.keys()
        for window, run in _windows(size):
            if held <= window:
                missing = [r for r in run if r not in counts]
                key = keyer.key([*real, *(r * 4 + SPADES for r in missing)])
                best = key if key > best else best
                if len(suits) == 1 and suit != SPADES:
                    key = keyer.key([*real, *(r * 4 + suit for r in missing)])
                    best = key if key > best else best
    return best
