"""Branch and bound over legal arrangements: exact maximum of Σ v_p under a field model.

Slots are filled strongest first. A slot's candidates are every distinct sub-multiset of the
cards left (several decks: identical cards give one candidate, never a set of cards) of each
allowed size that is a hand fitting the slot; 6-10-card candidates come only from one rank or one
suit plus jokers, since nothing else is a hand of that size. Candidates are never merged by key:
kickers leave different cards behind, so only identical card multisets are merged.

The bound of the slots still to fill respects the cards left: for each such slot q, weakest
last, the strongest hand the cards left can make there (a scan of the slot's hands, strongest
first, for the first that is still held), capped by the bound of the slot above, gives
bound_q(that hand), the most v_q can be for any hand at most so strong. Every weaker slot lies
below the one above it, and a hand made of the cards left is at most the strongest of them, so
the sum bounds every completion. A size is tried only if the cards left can still fill the
weaker slots and reach the variant's minimum of cards used.

The material bounds how many slots can reach a strength (trips, a 3-card flush, four, five, six
of a kind) from the disjoint groups of cards left; every joker joins one group, so the jokers
are shared out between rank groups and the suits' straight flushes, never counted in each, and
a suit adds as many straight flushes as the most disjoint runs its cards and jokers make.

Before a hand becomes a node, the slots under it are bounded from the ranks it would leave
alone: first the next slot's strongest rank part whose ranks are all left (suits unchecked, so
at least the strongest that truly fits), every slot under it there and at its own cap at this
node; then, if that is not enough, every slot capped in turn (``rank_chain``: at most the cap
above and what the material of those ranks allows). A hand whose value and bound cannot beat the
best found is never tried. A slot's hands are one flat list of items, each the hands of one rank
part and the same ranks: they share those tests, and are passed over at one test when one of
their ranks is gone.

With a time budget, a greedy setting (``greedy.py``) is the best known before the candidates
are made: the search must beat it, and the deadline holds from the start, while candidates are
made as well as during the search, so an answer never waits for the search's first one. The
budget is CPU time of the calling thread (``cpu_clock``), so a busy machine does not cut a proof
short.
"""

from __future__ import annotations

import itertools
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from engine.arrangement import needs_met
from engine.cards import JOKER_CODE
from engine.errors import HandError
from engine.evaluate import (
    FULL_HOUSE,
    QUADS,
    STRAIGHT,
    THREE_CARD_FLUSH,
    TRIPS,
    TWO_PAIR,
    evaluator,
    of_a_kind_ladder,
)
from engine.lookups import encode
from engine.memo import Memo
from engine.solver.big_hands import big_hands
from engine.solver.five_card import (
    RANK_FIELD,
    TWO_PAIR_UP,
    Codes,
    Entry,
    Part,
    Rank,
    five_card_hands,
)
from engine.solver.greedy import greedy_setting
from engine.solver.jokers import joker_key
from engine.solver.model import FieldModel, Key
from engine.variants import OrderRule, Variant

#: Per slot, its candidates grouped by rank part, ascending: the rank parts, their values v_p,
#: the running maximum of the values, each group's hands.
Groups = tuple[list[Rank], list[float], list[float], list[list[Entry]]]

#: A budget's clock: seconds that only grow.
Clock = Callable[[], float]


def cpu_clock() -> float:
    """The clock a budget is counted on: in a process's main thread (the bot's solver workers),
    its CPU time, so that a busy machine stretches a search's wall time but never cuts its proof
    short; in any other thread (solves in threads beside one another, as the tests run them), the
    wall clock, since threads of one process take turns for its interpreter's lock and CPU time
    would stretch every budget by their number (five computers deciding at once took five times
    as long)."""
    if threading.current_thread() is threading.main_thread():
        return time.thread_time()
    return time.perf_counter()


#: Bounds at or below the best found by this much cannot beat it (float sums of the same terms).
_EPSILON = 1e-9
#: The bound of slots that cannot be filled, and of slots not bounded here.
_NONE = float("-inf")
_UNKNOWN = float("inf")


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


def _top_of(ladder: int) -> Rank:
    """Above every rank part of this ladder place and below every one of the next."""
    return encode((ladder + 1,)) - 1


#: Rank parts just above every 3-card hand below trips, and below 3-card flushes.
_BELOW_TRIPS: Rank = _top_of(TRIPS - 1)
_BELOW_FLUSH: Rank = _top_of(THREE_CARD_FLUSH - 1)
_STRAIGHT: Rank = encode((STRAIGHT,))
#: Above every high card and pair, below every two pair (no hand's rank part).
_BELOW_TWO_PAIR: Rank = TWO_PAIR_UP - 1
#: From how many cards the 5-card hands below two pair are made only when the search needs them.
WEAK_LATER_FROM = 20
#: Nodes that make those hands from their own cards left before the holding's are made once.
_WEAK_NODES = 4
#: Above every rank part.
_TOP: Rank = encode((99,))
#: ``fit_ranks``'s answer when it cannot tell (no rank part is negative).
_NOT_KNOWN: Rank = -1
#: Proofs kept per (cards left, sizes above), each under another cap.
_PROOFS_KEPT = 4
#: The guard bit above every rank's count in cards counted per rank (``RANK_FIELD``).
_RANK_GUARDS = sum(16 << 5 * rank for rank in range(15))
#: Scans of one slot (and jokers left) through its groups before its flat lists are made.
_SCAN_AFTER = 32
#: The most pairs of hands ``two_apart`` tries before it answers "maybe".
_PAIRS_TRIED = 400
#: Rank parts above every hand below four, five and six of a kind.
_BELOW_QUADS: Rank = _top_of(QUADS - 1)
_BELOW_KINDS: tuple[Rank, ...] = (
    _BELOW_QUADS,
    _top_of(of_a_kind_ladder(5) - 1),
    _top_of(of_a_kind_ladder(6) - 1),
)


#: Where each rank's count is in cards counted per rank (``RANK_FIELD``), 2 to ace.
_RANK_PLACES: tuple[int, ...] = tuple(5 * rank for rank in range(2, 15))
#: Per card code, where it goes in packed cards: the jokers first, then suit by suit.
_SUIT_FIRST: tuple[int, ...] = tuple(
    -1 if code == JOKER_CODE else (code & 3) << 6 | code for code in range(64)
)


def _groups(counts: Sequence[int], size: int, jokers: int) -> int:
    """The most disjoint groups of ``size`` cards of one rank (or suit), jokers wild.

    Whole groups first, then jokers complete the largest remainders, which need the fewest.
    """
    whole = 0
    rest = []
    for n in counts:
        if n:
            whole += n // size
            if n % size:
                rest.append(n % size)
    rest.sort(reverse=True)
    for n in rest:
        if jokers < size - n:
            break
        jokers -= size - n
        whole += 1
    return whole + jokers // size


#: Straight-flush groups per number of jokers given to them, three bits each (``_joint_runs``).
Runs = int


def _run_count(runs: Runs, jokers: int) -> int:
    """The straight-flush groups ``runs`` counts with this many jokers."""
    return (runs >> 3 * jokers) & 7


@cache
def _joint_runs(per_suit: tuple[tuple[int, ...], ...]) -> Runs:
    """Straight-flush groups per number of jokers, the jokers shared among the suits.

    ``per_suit``: for each suit, its groups with 0, 1, ... jokers. A joker fills one gap of one
    suit's run, so the suits' counts add up only over one split of the jokers.
    """
    best = list(per_suit[0])
    for groups in per_suit[1:]:
        best = [max(best[b - k] + groups[k] for k in range(b + 1)) for b in range(len(best))]
    return sum(min(n, 7) << 3 * b for b, n in enumerate(best))


@cache
def _rank_material(
    ranks: tuple[int, ...], jokers: int, runs: Runs, big_tail: int
) -> tuple[int, int, int, int]:
    """Slots at most at trips (tail slots), four, five and six of a kind or above, from the
    sorted rank counts and the straight-flush groups (``Runs``), each joker in one group."""
    out = []
    for size in (3, 4, 5, 6):
        most = 0
        for used in range(jokers + 1):
            flushes = _run_count(runs, jokers - used)
            # Only tail slots of 5 or more cards can hold a straight flush.
            count = _groups(ranks, size, used) + (min(flushes, big_tail) if size == 3 else flushes)
            most = max(most, count)
        out.append(most)
    return out[0], out[1], out[2], out[3]


@cache
def _material(
    ranks: tuple[int, ...], suits: tuple[int, ...], jokers: int, runs: Runs, big_tail: int
) -> tuple[int, int, int, int, int]:
    """``_Search.material`` from the sorted rank and suit counts (few shapes: remembered)."""
    trips, fours, fives, sixes = _rank_material(ranks, jokers, runs, big_tail)
    # Each joker joins one group: the best split between rank and suit triples and runs.
    suited = max(
        _groups(ranks, 3, used)
        + _groups(suits, 3, suit)
        + min(_run_count(runs, jokers - used - suit), big_tail)
        for used in range(jokers + 1)
        for suit in range(jokers - used + 1)
    )
    return trips, suited, fours, fives, sixes


#: A group's hands split by their ranks, remembered per group (by its list, kept beside it:
#: slots that take the same hands share their groups' lists).
Splits = dict[int, tuple[list[Entry], list[list[Entry]]]]


class _Items:
    """A slot's groups (ascending rank parts, their values v_p, the running maximum of the
    values, their hands), each split into items when the search first reaches it: the hands of
    the group's rank part and the same ranks, which share the tests before a node. Per item its
    cards counted per rank (jokers too), its size and its hands; ``spans[g]``: group g's items.
    """

    __slots__ = (
        "hands",
        "members",
        "needs",
        "rps",
        "running",
        "sizes",
        "spans",
        "splits",
        "values",
    )

    def __init__(self, groups: Groups, splits: Splits) -> None:
        self.rps, self.values, self.running, self.members = groups
        self.splits = splits
        self.spans: list[tuple[int, int] | None] = [None] * len(self.rps)
        self.needs: list[int] = []
        self.sizes: list[int] = []
        self.hands: list[list[Entry]] = []

    def split(self, group: int) -> tuple[int, int]:
        """Group ``group``'s items, made now: where they start and stop."""
        members = self.members[group]
        begin = len(self.needs)
        if len(members) == 1:
            first = members[0]
            self.needs.append(first[5])
            self.sizes.append(first[3])
            self.hands.append(members)
            found_span = self.spans[group] = (begin, begin + 1)
            return found_span
        known = self.splits.get(id(members))
        if known is not None and known[0] is members:
            parts = known[1]
        else:
            need = members[0][5]
            if all(entry[5] == need for entry in members):
                parts = [members]  # a rank part without jokers has one set of ranks
            else:
                by_need: dict[int, list[Entry]] = {}
                for entry in members:
                    found = by_need.get(entry[5])
                    if found is None:
                        by_need[entry[5]] = [entry]
                    else:
                        found.append(entry)
                # Fewest jokers first: they leave the most to the slots below, so the best
                # found early is higher and prunes more.
                parts = sorted(by_need.values(), key=lambda entries: entries[0][5] & 31)
            self.splits[id(members)] = (members, parts)
        for entries in parts:
            self.needs.append(entries[0][5])
            self.sizes.append(entries[0][3])
            self.hands.append(entries)
        found_span = self.spans[group] = (begin, len(self.needs))
        return found_span


#: The ranks of each 5-card straight, the wheel (ace low) first.
_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(14 if rank == 1 else rank for rank in range(low, low + 5)) for low in range(1, 11)
)


#: ``_disjoint_runs`` remembered across solves, the least lately used forgotten first: a suit's
#: cards per rank and jokers take many shapes.
_RUNS_MEMO: Memo[tuple[tuple[int, ...], int, int], int] = Memo(1 << 16)


def _disjoint_runs(counts: tuple[int, ...], jokers: int, first: int = 0) -> int:
    """The most disjoint 5-card straight flushes one suit's cards make (``counts``: its cards
    per rank, two to ace), jokers filling gaps, each run from the ``first`` on or above.

    Every straight flush, of any length, holds a 5-card one, so this bounds how many hands
    of one suit can be straight flushes at once.
    """
    seen = (counts, jokers, first)
    found = _RUNS_MEMO.young.get(seen)
    if found is None:
        found = _RUNS_MEMO.recall(seen)
        if found is None:
            found = _RUNS_MEMO.put(seen, _most_runs(counts, jokers, first))
    return found


def _most_runs(counts: tuple[int, ...], jokers: int, first: int) -> int:
    """``_disjoint_runs``, worked out: each run in turn, in the order of their ranks."""
    fit = (sum(counts) + jokers) // 5  # no more runs than fives of cards
    most = 0
    for at in range(first, len(_STRAIGHTS)):
        if most == fit:
            break
        ranks = _STRAIGHTS[at]
        gaps = sum(1 for rank in ranks if not counts[rank - 2])
        if gaps <= jokers:
            rest = list(counts)
            for rank in ranks:
                if rest[rank - 2]:
                    rest[rank - 2] -= 1
            most = max(most, 1 + _disjoint_runs(tuple(rest), jokers - gaps, at))
    return most


class _OutOfTime(Exception):
    """The deadline passed while the candidates were being made (a fallback is ready)."""


class _Search:
    """One solve: the holding, every candidate per position sorted by value, the best so far.

    Cards are packed as counts, four bits per distinct card code, so that "these cards are
    still left" is one subtraction: with a guard bit set in every field of what is left, no
    field borrows exactly when the candidate is a sub-multiset of it.
    """

    def __init__(
        self,
        variant: Variant,
        model: FieldModel,
        held: Codes,
        deadline: float,
        *,
        hard: bool = False,
        clock: Clock = cpu_clock,
    ) -> None:
        """Make every candidate; with a ``hard`` deadline (read on ``clock``), raise
        ``_OutOfTime`` once it passes."""
        self.variant = variant
        self.deadline = deadline
        self.clock = clock
        #: Whether the deadline holds before any answer: only when a fallback is ready.
        self.hard = hard
        self.timed_out = False

        def on_time() -> None:
            if hard and clock() > deadline:
                raise _OutOfTime

        self.nodes = 0
        keyer = evaluator(variant.hand_rules)
        distinct = sorted(set(held))
        # Packed suit by suit (the jokers first), so that one suit's cards are one run of
        # fields, read at once by ``material``.
        by_suit = sorted(distinct, key=_SUIT_FIRST.__getitem__)
        shift = {code: 4 * i for i, code in enumerate(by_suit)}
        self.guards = sum(8 << s for s in shift.values())
        self.total = len(held)
        self.held_packed = sum(1 << shift[code] for code in held)
        self.joker_shift = shift.get(JOKER_CODE, -1)
        #: Per suit: where its fields start, their mask, (its cards' ranks, where they are
        #: within the run) to read them, and (its cards left, jokers) -> (cards, straight-flush
        #: groups they may add) remembered.
        self.suit_runs: list[
            tuple[int, int, tuple[tuple[int, int], ...], dict[int, tuple[int, tuple[int, ...]]]]
        ] = []
        suited: list[list[int]] = [[], [], [], []]
        for code in by_suit:
            if code != JOKER_CODE:
                suited[code & 3].append(code)
        for codes in suited:
            low = shift[codes[0]] if codes else 0
            fields = tuple((code >> 2, shift[code] - low) for code in codes)
            self.suit_runs.append((low, (1 << 4 * len(codes)) - 1, fields, {}))
        #: Sorted counts per rank, per cards counted per rank.
        self.rank_shapes: dict[int, tuple[int, ...]] = {}
        count = len(variant.slots)
        self.min_below = [
            sum(min(s.allowed_sizes) for s in variant.slots[:p]) for p in range(count)
        ]
        self.max_below = [
            sum(max(s.allowed_sizes) for s in variant.slots[:p]) for p in range(count)
        ]
        bit = {code: 1 << s for code, s in shift.items()}
        #: A card's packed count of one, by code.
        by_code = [bit.get(code, 0) for code in range(max(distinct) + 1)]
        self.keyer = keyer
        #: Full keys (suits too) per packed cards, made when first needed: the field model
        #: reads rank parts only, and the order rule needs a full key only against a hand of
        #: the same rank part.
        self.full_keys: dict[int, Key] = {}
        self.held = held
        self.by_code = by_code
        #: Slots whose 5-card hands below two pair are left out of their groups: in a big
        #: holding, the slots that take any 5-card hand and otherwise only bigger ones (never
        #: below two pair), so those hands are the last a slot's candidates would come to.
        #: A node that comes to them is searched again over them once the others are done
        #: (``deferred``), if it can still beat the best found then (``weak_groups``).
        self.weak_slots: tuple[int, ...] = ()
        if len(held) >= WEAK_LATER_FROM:
            self.weak_slots = tuple(
                p
                for p, slot in enumerate(variant.slots)
                if any(r.size == 5 and r.min_ladder < TWO_PAIR for r in slot.sizes)
                and all(r.size >= 5 for r in slot.sizes)
            )
        #: Per size, the distinct hands grouped by rank part: identical card multisets have
        #: the same packed counts, so keying on them merges them.
        pools: dict[int, dict[Rank, list[Entry]]] = {}
        for size in {size for slot in variant.slots for size in slot.allowed_sizes}:
            on_time()
            pool: dict[Rank, list[Entry]] = {}
            pools[size] = pool
            if size > 5:
                for combo, key in big_hands(keyer, held, size):
                    rp = encode(key[: key.index(0, 1) + 1])
                    cards = sum(map(bit.__getitem__, combo))
                    self.full_keys[cards] = key
                    counted = sum(map(RANK_FIELD.__getitem__, combo))
                    pool.setdefault(rp, []).append(
                        (combo, rp, cards, size, combo.count(JOKER_CODE), counted)
                    )
                continue
            if size == 5:
                # Every 5-card hand, jokers included, is in the evaluator's lookups; in a big
                # holding the high cards and pairs wait until the search needs them.
                pools[5] = five_card_hands(
                    held,
                    by_code,
                    keyer.lookups.plain5,
                    keyer.lookups.flush5,
                    Part.TWO_PAIR_UP if self.weak_slots else Part.ALL,
                )
                continue
            # Identical cards (several decks) make identical sorted combinations: one each.
            distinct_hands = dict.fromkeys(itertools.combinations(held, size))
            if size == 3:
                rank = keyer.rank
                for combo in distinct_hands:
                    rp = rank(combo)
                    cards = sum(map(by_code.__getitem__, combo))
                    counted = sum(map(RANK_FIELD.__getitem__, combo))
                    jokers = 0 if combo[0] else combo.count(JOKER_CODE)
                    entry = (combo, rp, cards, 3, jokers, counted)
                    found = pool.get(rp)
                    if found is None:
                        pool[rp] = [entry]
                    else:
                        found.append(entry)
                continue
            for combo in distinct_hands:
                cards = sum(map(by_code.__getitem__, combo))
                try:
                    key = keyer.key(combo)
                except HandError:
                    continue
                self.full_keys[cards] = key
                rp = encode(key[: key.index(0, 1) + 1])
                counted = sum(map(RANK_FIELD.__getitem__, combo))
                entry = (combo, rp, cards, size, combo.count(JOKER_CODE), counted)
                pool.setdefault(rp, []).append(entry)
        on_time()
        #: Per position, the candidates grouped by rank part (one value v_p per group), groups
        #: ascending: rank parts, values, the running maximum of the values, members.
        self.groups: list[Groups] = []
        self.group_of: list[dict[Rank, list[Entry]]] = []
        #: Per position, bound_q(rank part) remembered.
        self.bounds: list[dict[Rank, float]] = [{} for _ in range(count)]
        #: Per position, below_sum(position, cap) remembered.
        self.below_sums: list[dict[Rank, float]] = [{} for _ in range(count + 1)]
        self.model = model
        for position in range(count):
            by_rank: dict[Rank, list[Entry]] = {}
            self.join(position, by_rank, pools)
            self.groups.append(self.grouped(position, by_rank))
            self.group_of.append(by_rank)
        #: Per (position, jokers left), one item per rank part and ranks, ascending: the rank
        #: part, the cards counted per rank, the packed cards of its hands. The scan for the
        #: strongest hand the cards left make there; made when used often enough (``fit``).
        #: Hands needing more jokers than are left never fit, so they are left out.
        self.scans: list[list[tuple[list[Rank], list[int], list[list[int]]] | None]] = [
            [None] * (held.count(JOKER_CODE) + 1) for _ in range(count)
        ]
        self.jokers_held = held.count(JOKER_CODE)
        #: Per position, its candidates as flat items (``items``).
        self.items: list[_Items | None] = [None] * count
        self.splits: Splits = {}
        #: Per position, the items of its scans for any number of jokers (``make_scan``).
        self.scan_items: list[tuple[list[Rank], list[int], list[list[int]]] | None] = [None] * count
        #: fit_ranks() per (position, cards counted per rank, cap).
        #: (Per position, keyed by the counts and the cap in one integer: ``ranks << 30 | cap``.)
        self.rank_fits: list[dict[int, Rank | None]] = [{} for _ in range(count)]
        self.shifts = tuple((code, shift[code]) for code in distinct)
        self.held_ranks = sum(map(RANK_FIELD.__getitem__, held))
        self.scan_calls: dict[tuple[int, int], int] = {}
        #: Hands per position.
        self.sizes_of = [sum(map(len, members)) for _, _, _, members in self.groups]
        #: Slots whose hands at trips or above need three of a rank (or a 5+ straight flush).
        self.tail = [
            all(r.size <= 3 or r.min_ladder >= FULL_HOUSE for r in slot.sizes)
            for slot in variant.slots
        ]
        #: Tail slots that may hold 5 or more cards (a straight flush).
        self.big_tail = sum(
            1
            for slot, tail in zip(variant.slots, self.tail, strict=True)
            if tail and max(slot.allowed_sizes) >= 5
        )
        #: material() per cards left.
        self.materials: dict[int, tuple[int, int, int, int, int]] = {}
        #: Per position, whether a slot under it may hold 5 cards or more: only then can one be
        #: a straight flush, which the chains under a hand there count.
        self.runs_under = [
            any(max(slot.allowed_sizes) >= 5 for slot in variant.slots[:p]) for p in range(count)
        ]
        #: chain_bound() per slot, keyed by the ranks, the cap and the straight flushes.
        self.chain_bounds: list[dict[int, float]] = [{} for _ in range(count)]
        self.strict = variant.order is OrderRule.STRICT
        self.best_ev = float("-inf")
        #: (cards left, the sizes above as ``size_code`` counts them) -> (cap, the most a
        #: completion can add there); the sizes above tell the position.
        self.proven: dict[tuple[int, int], list[tuple[Key | None, float]]] = {}
        #: The sizes chosen so far, four bits per slot.
        self.size_code = 0
        self.best: list[Entry] = []
        self.chosen: list[Entry] = []
        self.sizes = [0] * count
        #: Nodes whose hands below two pair are still to search: the arguments of
        #: ``search_below``, and the hands chosen and sizes above them.
        self.deferred: list[
            tuple[tuple[int, int, Key | None, Rank | None, int, float, int], list[Entry], list[int]]
        ] = []
        #: Nodes deferred so far: a subtree that deferred one proves nothing yet.
        self.deferrals = 0
        #: The holding's hands below two pair (made once ``_WEAK_NODES`` nodes needed them),
        #: and their groups per slot.
        self.weak_pool: dict[Rank, list[Entry]] | None = None
        self.weak_made: dict[int, _Items] = {}
        self.weak_makes = 0

    def join(
        self,
        position: int,
        by_rank: dict[Rank, list[Entry]],
        pools: dict[int, dict[Rank, list[Entry]]],
    ) -> None:
        """Add the hands of ``pools`` (per size) that fit this slot to its groups ``by_rank``."""
        for rule in self.variant.slots[position].sizes:
            lowest = encode((rule.min_ladder,))
            for rp, group in pools.get(rule.size, {}).items():
                if rp >= lowest:
                    found = by_rank.get(rp)
                    by_rank[rp] = group if found is None else found + group

    def grouped(
        self, position: int, by_rank: dict[Rank, list[Entry]], *, weak: bool = False
    ) -> Groups:
        """The slot's groups ascending: rank parts, values, their running maximum, members.

        In a slot whose hands below two pair are left out (``weak_slots``), the running maximum
        starts at the most any of them can be worth, so that it still bounds every group below;
        ``weak``: these are such hands, made apart.
        """
        rps = sorted(by_rank)
        values = self.model.values_of_ranks(position, rps)
        start = None
        if position in self.weak_slots and not weak:
            start = self.bound(position, _BELOW_TWO_PAIR)
        running = list(itertools.accumulate(values, max, initial=start))
        if start is not None:
            running = running[1:]
        return rps, values, running, [by_rank[rp] for rp in rps]

    def weak_items(self, position: int, left: int) -> _Items:
        """The slot's 5-card hands below two pair, as items: made from the cards ``left`` for
        the first few nodes that need them, then from the whole holding once for all."""
        lookups = self.keyer.lookups
        if self.weak_pool is None:
            self.weak_makes += 1
            if self.weak_makes <= _WEAK_NODES:
                cards = tuple(code for code, at in self.shifts for _ in range((left >> at) & 15))
                pool = five_card_hands(
                    cards, self.by_code, lookups.plain5, lookups.flush5, Part.BELOW_TWO_PAIR
                )
                by_rank: dict[Rank, list[Entry]] = {}
                self.join(position, by_rank, {5: pool})
                return _Items(self.grouped(position, by_rank, weak=True), {})
            self.weak_pool = five_card_hands(
                self.held, self.by_code, lookups.plain5, lookups.flush5, Part.BELOW_TWO_PAIR
            )
        found = self.weak_made.get(position)
        if found is None:
            by_rank = {}
            self.join(position, by_rank, {5: self.weak_pool})
            found = self.weak_made[position] = _Items(
                self.grouped(position, by_rank, weak=True), self.splits
            )
        return found

    def key_of(self, entry: Entry) -> Key:
        """The candidate's full key (suits too), remembered per card multiset."""
        found = self.full_keys.get(entry[2])
        if found is None:
            combo = entry[0]
            if combo[0] == JOKER_CODE and len(combo) > 1:
                found = joker_key(self.keyer, combo)
            else:
                found = self.keyer.key(combo)
            self.full_keys[entry[2]] = found
        return found

    def bound(self, position: int, cap: Rank) -> float:
        """bound_q(cap): the most v_q can be for a hand whose rank part is at most ``cap``."""
        memo = self.bounds[position]
        found = memo.get(cap)
        if found is None:
            found = memo[cap] = self.model.bound_at_rank(position, cap)
        return found

    def material(self, left: int, ranks: int) -> tuple[int, int, int, int, int]:
        """How many slots at most can reach each strength, from the disjoint groups left.

        Counts of tail slots at trips or above and at 3-card flush or above, then of any slots
        at four, five and six of a kind or above. A hand of a "tail" slot (3 cards, or 5-6
        cards that must be a full house or better) at trips or above holds three cards of one
        rank, jokers included, unless it is a 5-6 card straight flush; a 3-card hand at 3-card
        flush or above is that or three suited cards; any hand at four of a kind or above holds
        four (five, six) of a rank or is a straight flush. Greedy counts of disjoint groups
        bound how many slots can hold such hands. ``ranks``: the cards left counted per rank.
        """
        found = self.materials.get(left)
        if found is not None:
            return found
        jokers = ranks & 31  # the jokers' count, in the place of rank 0
        shape = self.rank_shapes.get(ranks)
        if shape is None:
            shape = self.rank_shapes[ranks] = tuple(
                sorted([(ranks >> at) & 31 for at in _RANK_PLACES])
            )
        suits = []
        per_suit = []
        for low, mask, fields, memo in self.suit_runs:
            found_suit = self.suit_groups(low, mask, fields, memo, left, jokers)
            suits.append(found_suit[0])
            per_suit.append(found_suit[1])
        suits.sort()
        runs = 0
        if any(groups[-1] for groups in per_suit):
            per_suit.sort()
            runs = _joint_runs(tuple(per_suit))
        found = self.materials[left] = _material(shape, tuple(suits), jokers, runs, self.big_tail)
        return found

    @staticmethod
    def suit_groups(
        low: int,
        mask: int,
        fields: tuple[tuple[int, int], ...],
        memo: dict[int, tuple[int, tuple[int, ...]]],
        left: int,
        jokers: int,
    ) -> tuple[int, tuple[int, ...]]:
        """One suit's cards left and its disjoint 5-card straight flushes with 0 to ``jokers``
        jokers (``_disjoint_runs``)."""
        held = (left >> low) & mask
        seen = held << 3 | jokers
        found = memo.get(seen)
        if found is None:
            counts = [0] * 13
            for rank, at in fields:
                counts[rank - 2] += (held >> at) & 15
            shape = tuple(counts)
            found = memo[seen] = (
                sum(counts),
                tuple(_disjoint_runs(shape, given) for given in range(jokers + 1)),
            )
        return found

    def runs_left(self, left: int, ranks: int) -> Runs:
        """The straight-flush groups of the cards left (``Runs``)."""
        jokers = ranks & 31
        per_suit = [
            self.suit_groups(low, mask, fields, memo, left, jokers)[1]
            for low, mask, fields, memo in self.suit_runs
        ]
        if not any(groups[-1] for groups in per_suit):
            return 0  # no suit holds a run, however the jokers go
        per_suit.sort()
        return _joint_runs(tuple(per_suit))

    def fit(
        self, position: int, left: int, ranks: int, cap: Rank | None, *, below: bool = False
    ) -> Rank | None:
        """The strongest rank part at most ``cap`` (below it) the cards left make here.

        ``ranks`` counts the cards left per rank (``RANK_FIELD``): a hand whose ranks are not
        all there is skipped with every other hand of the same ranks and rank part at once.
        """
        jokers = 0 if self.joker_shift < 0 else (left >> self.joker_shift) & 15
        scan = self.scans[position][jokers]
        if scan is None:
            rps, _, _, members = self.groups[position]
            calls = self.scan_calls[(position, jokers)] = (
                self.scan_calls.get((position, jokers), 0) + 1
            )
            if calls <= _SCAN_AFTER or calls * _SCAN_AFTER <= self.sizes_of[position]:
                # A few scans go through the groups: the strongest slots are scanned once or
                # twice per solve, and their flat lists would cost more than they save.
                guards = self.guards
                guarded = left | guards
                i = len(rps)
                if cap is not None:
                    i = bisect_left(rps, cap) if below else bisect_right(rps, cap)
                for k in range(i - 1, -1, -1):
                    for e in members[k]:
                        if e[4] <= jokers and (guarded - e[2]) & guards == guards:
                            return rps[k]
                return self.unmade(position, cap, below)
            scan = self.make_scan(position, jokers)
        rps, needs, packs = scan
        guards = self.guards
        guarded = left | guards
        rank_guards = _RANK_GUARDS
        held = ranks | rank_guards
        i = len(rps)
        if cap is not None:
            i = bisect_left(rps, cap) if below else bisect_right(rps, cap)
        for k in range(i - 1, -1, -1):
            if (held - needs[k]) & rank_guards == rank_guards:
                for pack in packs[k]:
                    if (guarded - pack) & guards == guards:
                        return rps[k]
        return self.unmade(position, cap, below)

    def make_scan(
        self, position: int, jokers: int
    ) -> tuple[list[Rank], list[int], list[list[int]]]:
        """The slot's flat scan list for so many jokers left (``scans``), made now: its items
        for every number of jokers are made once (from the groups split by ranks), and those
        needing more jokers than are left are dropped."""
        every = self.scan_items[position]
        if every is None:
            items = self.items_of(position)
            items_rps: list[Rank] = []
            needs: list[int] = []
            packs: list[list[int]] = []
            for group, rp in enumerate(items.rps):
                span = items.spans[group] or items.split(group)
                for k in range(*span):
                    items_rps.append(rp)
                    needs.append(items.needs[k])
                    packs.append([entry[2] for entry in items.hands[k]])
            every = self.scan_items[position] = (items_rps, needs, packs)
        rps, needs, packs = every
        if jokers >= self.jokers_held:
            scan = every
        else:
            kept = [k for k, need in enumerate(needs) if need & 31 <= jokers]
            scan = ([rps[k] for k in kept], [needs[k] for k in kept], [packs[k] for k in kept])
        self.scans[position][jokers] = scan
        return scan

    def items_of(self, position: int) -> _Items:
        """The slot's candidates as ``_Items``, made when first needed."""
        found = self.items[position]
        if found is None:
            found = self.items[position] = _Items(self.groups[position], self.splits)
        return found

    def unmade(self, position: int, cap: Rank | None, below: bool = False) -> Rank | None:
        """What a scan that found no hand answers: None, unless the slot's hands below two pair
        are not made yet; then the most one of them could be (a bound may only err upwards)."""
        if position not in self.weak_slots:
            return None
        if cap is None:
            return _BELOW_TWO_PAIR
        return min(cap - 1 if below else cap, _BELOW_TWO_PAIR)

    def fit_ranks(self, position: int, jokers: int, ranks: int, cap: Rank) -> Rank | None:
        """The strongest rank part at most ``cap`` whose ranks are all in ``ranks``.

        At least ``fit`` of any cards counted so (with so many jokers); ``_NOT_KNOWN`` when the
        slot's flat lists are not made yet.
        """
        seen = ranks << 30 | cap  # every rank part is below 2 ** 30
        memo = self.rank_fits[position]
        found = memo.get(seen, _NOT_KNOWN)
        if found != _NOT_KNOWN:
            return found
        scan = self.scans[position][jokers]
        if scan is None:
            calls = self.scan_calls[(position, jokers)] = (
                self.scan_calls.get((position, jokers), 0) + 1
            )
            if calls <= _SCAN_AFTER or calls * _SCAN_AFTER <= self.sizes_of[position]:
                return _NOT_KNOWN
            scan = self.make_scan(position, jokers)
        rps, needs, _ = scan
        rank_guards = _RANK_GUARDS
        held = ranks | rank_guards
        for k in range(bisect_right(rps, cap) - 1, -1, -1):
            if (held - needs[k]) & rank_guards == rank_guards:
                found = rps[k]
                break
        else:
            found = self.unmade(position, cap)
        memo[seen] = found
        return found

    def ranks_left(self, left: int) -> int:
        """The cards ``left`` counted per rank."""
        return sum(((left >> at) & 15) * RANK_FIELD[code] for code, at in self.shifts)

    def two_apart(self, rank: Rank, upper: int, lower: int, left: int) -> bool:
        """Whether the cards left hold a hand of this rank part for each of two slots, apart.

        Answers True without looking when there are many hands to pair (a bound may only err
        upwards).
        """
        guards = self.guards
        guarded = left | guards
        tops = [
            e[2] for e in self.group_of[upper].get(rank, ()) if (guarded - e[2]) & guards == guards
        ]
        lows = [
            e[2] for e in self.group_of[lower].get(rank, ()) if (guarded - e[2]) & guards == guards
        ]
        if len(tops) * len(lows) > _PAIRS_TRIED:
            return True
        return any((guarded - a - b) & guards == guards for a in tops for b in lows)

    def next_slot_bound(self, position: int, ranks: int, cap: Rank, caps: list[Rank]) -> float:
        """At least what slots ``position``..0 can add with these ranks left below ``cap``: the
        slot's strongest rank part whose ranks are all left (``fit_ranks``), every slot under it
        there and at its cap in ``caps`` (from at least these cards); -inf when the slot can
        hold nothing, inf when its scan is not made yet."""
        first = self.fit_ranks(position, ranks & 31, ranks, cap)
        if first is None:
            return _NONE
        if first == _NOT_KNOWN:
            return _UNKNOWN
        bounds = self.bounds
        most = bounds[position].get(first)
        total = self.bound(position, first) if most is None else most
        for q in range(position):
            under = caps[q] if first > caps[q] else first
            most = bounds[q].get(under)
            total += self.bound(q, under) if most is None else most
        return total

    def chain_bound(self, position: int, ranks: int, cap: Rank, runs: Runs) -> float:
        """Σ bound_q over ``rank_chain``'s caps (-inf when a slot can hold nothing): at least
        what slots ``position``..0 can add with these ranks left below ``cap``. Remembered per
        slot, ranks, cap and straight-flush groups."""
        seen = (ranks << 30 | cap) << 15 | runs
        memo = self.chain_bounds[position]
        found = memo.get(seen)
        if found is None:
            chain = self.rank_chain(position, ranks, cap, runs)
            if chain is None:
                found = _NONE
            else:
                found = 0.0
                for q, most in enumerate(chain):
                    found += self.bound(q, most)
            memo[seen] = found
        return found

    def rank_chain(self, position: int, ranks: int, cap: Rank, runs: Runs) -> list[Rank] | None:
        """Caps of slots ``position``..0 (weakest first) from the ranks left alone, or None when
        some slot can hold nothing.

        Each is the strongest rank part whose ranks are all left (``fit_ranks``), at most the
        cap of the slot above (``cap`` for the first) and what the material allows, as in
        ``card_bound``, the material counted from the ranks and ``runs``, straight-flush groups
        of at least as many cards. Any hand of a slot has its ranks among those left and lies
        below the hand above it, so it is at most the slot's cap here.
        """
        jokers = ranks & 31  # the jokers' count, in the place of rank 0
        shape = self.rank_shapes.get(ranks)
        if shape is None:
            shape = self.rank_shapes[ranks] = tuple(
                sorted([(ranks >> at) & 31 for at in _RANK_PLACES])
            )
        trips, fours, fives, sixes = _rank_material(shape, jokers, runs, self.big_tail)
        kinds = (fours, fives, sixes)
        tail = self.tail
        fit_ranks = self.fit_ranks
        caps: list[Rank] = []
        j = 0  # slots above that hold trips or better only as three of a rank (or a run)
        for i, q in enumerate(range(position, -1, -1)):
            lower = cap
            if lower > _BELOW_QUADS:
                for count, below in zip(kinds, _BELOW_KINDS, strict=True):
                    if i >= count and lower > below:
                        lower = below
            if tail[q] and j >= trips and lower > _BELOW_TRIPS:
                lower = _BELOW_TRIPS
            found = fit_ranks(q, jokers, ranks, lower)
            if found is None:
                return None
            cap = lower if found == _NOT_KNOWN else found
            if tail[q]:
                j += 1
            elif cap < _STRAIGHT:
                # A slot held below a straight holds trips or better only as three of a rank.
                if j >= trips and cap > _BELOW_TRIPS:
                    found = fit_ranks(q, jokers, ranks, _BELOW_TRIPS)
                    if found is None:
                        return None
                    cap = _BELOW_TRIPS if found == _NOT_KNOWN else found
                j += 1
            caps.append(cap)
        caps.reverse()
        return caps

    def below_sum(self, position: int, cap: Rank) -> float:
        """Σ_{q<position} bound_q(cap): every slot under ``position`` below one cap, remembered."""
        memo = self.below_sums[position]
        found = memo.get(cap)
        if found is None:
            found = memo[cap] = sum(self.bound(q, cap) for q in range(position))
        return found

    def card_bound(
        self,
        position: int,
        left: int,
        cap: Rank | None,
        need: float | None = None,
        ranks: int | None = None,
    ) -> tuple[list[Rank], list[float]] | None:
        """Caps and bounds of slots 0..position with the cards ``left``, weakest first.

        caps[q] is the strongest rank part slot q can hold (the cards left, the slots above and
        the material allowing); sums[q] = Σ_{r≤q} bound_r(caps[r]). None when some slot can
        make no hand at all from the cards left below its cap, or, given ``need``, as soon as
        the slots capped so far and every slot under them below the last cap add up to at most
        ``need``: the full sum could then only be smaller.
        """
        caps: list[Rank] = []
        #: bound_q(caps[q]) of each slot capped so far.
        values: list[float] = []
        tail = self.tail
        bounds = self.bounds
        below_sums = self.below_sums
        fit = self.fit
        if ranks is None:
            ranks = self.ranks_left(left)
        # For the scans inlined below (``fit``): this runs for nearly every node.
        scans = self.scans
        jokers = ranks & 31  # the jokers' count, in the place of rank 0
        guards = self.guards
        guarded = left | guards
        held = ranks | _RANK_GUARDS
        counts: tuple[int, int, int, int, int] | None = None  # counted when first needed
        j = k = 0
        done = 0.0  # Σ bound_r(caps[r]) over the slots capped so far
        for i, q in enumerate(range(position, -1, -1)):
            # Every slot from q down lies below the last cap.
            if need is not None and i:
                under = below_sums[q + 1].get(caps[-1])
                if under is None:
                    under = self.below_sum(q + 1, caps[-1])
                if done + under <= need:
                    return None
            # Below the first slot the material is known (or needed at once): the caps it
            # allows are applied before the scan. The first slot is scanned first, since the
            # search may stop there before the material is counted.
            early = counts is not None or (i > 0 and tail[q])
            if early:
                if counts is None:
                    counts = self.material(left, ranks)
                # ``material_cap``, inlined: this runs for nearly every slot of every node.
                lower = _TOP if cap is None else cap
                if lower > _BELOW_QUADS:
                    for count, below in zip(counts[2:], _BELOW_KINDS, strict=True):
                        if i >= count and lower > below:
                            lower = below
                if tail[q]:
                    if j >= counts[0] and lower > _BELOW_TRIPS:
                        lower = _BELOW_TRIPS
                    if k >= counts[1] and lower > _BELOW_FLUSH:
                        lower = _BELOW_FLUSH
                cap = lower
            scan = scans[q][jokers]
            if scan is None:
                cap = fit(q, left, ranks, cap)
            else:
                rps, needs, packs = scan
                for at in range(len(rps) if cap is None else bisect_right(rps, cap), 0, -1):
                    if (held - needs[at - 1]) & _RANK_GUARDS == _RANK_GUARDS:
                        for pack in packs[at - 1]:
                            if (guarded - pack) & guards == guards:
                                break
                        else:
                            continue
                        cap = rps[at - 1]
                        break
                else:
                    cap = self.unmade(q, cap)
            if cap is None:
                return None
            if not i and need is not None and self.bound(q, cap) + self.below_sum(q, cap) <= need:
                return None  # already so with every slot under it at its cap
            if not early and (cap > _BELOW_QUADS or tail[q]):
                counts = self.material(left, ranks)
                lower = self.material_cap(i, q, j, k, counts, cap)
                if lower != cap:
                    cap = fit(q, left, ranks, lower)
                    if cap is None:
                        return None
            if tail[q]:
                j += 1
                k += 1
            elif cap < _STRAIGHT:
                # A slot held below a straight holds trips or better only as three of a rank.
                if counts is None:
                    counts = self.material(left, ranks)
                if j >= counts[0] and cap > _BELOW_TRIPS:
                    cap = fit(q, left, ranks, _BELOW_TRIPS)
                    if cap is None:
                        return None
                j += 1
            # Two slots share a rank part only with two such hands apart in the cards left.
            if caps and cap == caps[-1] and not self.two_apart(cap, q + 1, q, left):
                cap = fit(q, left, ranks, cap, below=True)
                if cap is None:
                    return None
            caps.append(cap)
            value = bounds[q].get(cap)
            if value is None:
                value = self.bound(q, cap)
            values.append(value)
            done += value
        if need is not None and done <= need:
            return None
        caps.reverse()
        sums: list[float] = []
        total = 0.0
        for value in reversed(values):
            total += value
            sums.append(total)
        return caps, sums

    def material_cap(
        self,
        i: int,
        q: int,
        j: int,
        k: int,
        counts: tuple[int, int, int, int, int],
        cap: Rank | None,
    ) -> Rank:
        """The cap of slot ``q``, the ``i``-th from the top, as the material lowers it (``j``
        and ``k`` tail slots above it hold trips and 3-card flushes at most)."""
        lower = _TOP if cap is None else cap
        if lower > _BELOW_QUADS:
            # The slots holding four of a kind or more are the strongest ones: the i-th from
            # the top can only if i such hands are disjoint in the cards left.
            for count, below in zip(counts[2:], _BELOW_KINDS, strict=True):
                if i >= count and lower > below:
                    lower = below
        if self.tail[q]:
            # A tail slot holds trips or better only as three of a rank, and a 3-card flush
            # or better only as three of a rank or a suit.
            if j >= counts[0] and lower > _BELOW_TRIPS:
                lower = _BELOW_TRIPS
            if k >= counts[1] and lower > _BELOW_FLUSH:
                lower = _BELOW_FLUSH
        return lower

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

    def run(
        self,
        position: int,
        left: int,
        cap: Key | None,
        top: Rank | None,
        used: int,
        acc: float,
        ranks: int,
    ) -> None:
        """Search the slots from ``position`` down below the hand above (full key ``cap``,
        rank part ``top``), ``used`` cards played so far for ``acc`` points."""
        self.nodes += 1
        if position < 0:
            legal = used >= self.variant.min_used and needs_met(self.variant, self.sizes)
            if legal and acc > self.best_ev:
                self.best_ev = acc
                self.best = list(self.chosen)
            return
        # Without a fallback, the budget stops the search only once it holds an answer.
        if (self.hard or self.best) and self.nodes & 63 == 0 and self.clock() > self.deadline:
            self.timed_out = True
        if self.timed_out:
            return
        # The same cards left below the same hand (the slots above swapped cards between
        # them) have the same completions: what an earlier search of them proved still holds.
        # A lower cap only takes hands away, so what was proven under a cap at least this one
        # holds here too.
        seen = (left, self.size_code)
        proofs = self.proven.get(seen)
        if proofs is not None:
            for above, most in proofs:
                if (above is None or (cap is not None and cap <= above)) and (
                    acc + most <= self.best_ev + _EPSILON
                ):
                    return
        deferrals = self.deferrals
        self.search_below(position, left, cap, top, used, acc, ranks)
        if not self.timed_out and deferrals == self.deferrals:
            # Every completion here is now at most the best found, whether or not it is here.
            if proofs is None:
                self.proven[seen] = [(cap, self.best_ev - acc)]
            elif len(proofs) < _PROOFS_KEPT:
                proofs.append((cap, self.best_ev - acc))

    def search_below(
        self,
        position: int,
        left: int,
        cap: Key | None,
        top: Rank | None,
        used: int,
        acc: float,
        ranks: int,
        *,
        weak: bool = False,
    ) -> None:
        """Try every candidate of this slot that the bounds leave open, strongest groups first
        (``weak``: only its 5-card hands below two pair, left out of its groups)."""
        caps: list[Rank] = []
        tail = 0.0  # the bound of every weaker slot together, from the cards left
        if position:  # the weakest slot's own scan below is its bound
            found = self.card_bound(
                position,
                left,
                top,
                self.best_ev + _EPSILON - acc,
                ranks,
            )
            if found is None or acc + found[1][position] <= self.best_ev + _EPSILON:
                return
            caps = found[0]
            tail = found[1][position - 1]
        sizes = self.sizes_open(position, self.total - used, used)
        if not sizes:
            return
        guarded = left | self.guards
        guards = self.guards
        strict = self.strict
        bound = self.bound
        # The card bound's cap here is at most ``top`` and no stronger hand fits.
        start = top if not caps else caps[position]
        key_of = self.key_of
        above: Key = () if cap is None else cap  # compared only when ``top`` is its rank part
        if weak:
            if not self.may_need_weak(position, start, caps, sizes, acc):
                return
            start = _BELOW_TWO_PAIR if start is None else min(start, _BELOW_TWO_PAIR)
            items = self.weak_items(position, left)
        else:
            items = self.items_of(position)
        rps, values, running, spans = items.rps, items.values, items.running, items.spans
        # The items' lists grow as groups are split: these stay the same lists.
        needs, item_sizes, hands = items.needs, items.sizes, items.hands
        group = len(rps) - 1 if start is None else bisect_right(rps, start) - 1
        bounds = self.bounds
        held_ranks = ranks | _RANK_GUARDS
        # What a completion here must add to beat the best found (renewed after each child).
        limit = self.best_ev + _EPSILON - acc
        runs: Runs | None = None
        while group >= 0:
            if running[group] + tail <= limit:
                break  # no group from here down can do better: values only fall below
            value = values[group]
            if value + tail <= limit:
                group -= 1
                continue
            rp = rps[group]
            below: float | None = None  # the weaker slots' bound below this rank part
            span = spans[group] or items.split(group)
            for k in range(*span):
                need = needs[k]
                size = item_sizes[k]
                if (held_ranks - need) & _RANK_GUARDS != _RANK_GUARDS or size not in sizes:
                    continue  # every hand of these ranks has a card that is gone
                if below is None:
                    # The weaker slots lie below this rank part and their own caps.
                    below = 0.0
                    for q in range(position):
                        under = caps[q] if rp > caps[q] else rp
                        most = bounds[q].get(under)
                        below += bound(q, under) if most is None else most
                    if running[group] + below <= limit:
                        return  # ranks only fall from here, and with them every bound
                if value + below <= limit:
                    break
                most = _UNKNOWN
                if position:
                    # The slots under a hand here, capped from the ranks it leaves: first the
                    # next slot's strongest rank part with every slot under it there (and at
                    # its own cap here), then every slot capped in turn (``rank_chain``). Each
                    # holds for every hand here of the same ranks, before any is a node.
                    after = ranks - need
                    if value + self.next_slot_bound(position - 1, after, rp, caps) <= limit:
                        continue
                    if position > 1:  # under one slot, the next slot's test is nearly its chain
                        if runs is None:
                            runs = self.runs_left(left, ranks) if self.runs_under[position] else 0
                        most = self.chain_bound(position - 1, after, rp, runs)
                        if value + most <= limit:
                            continue
                # Only a hand of the cap's own rank part needs its full key against the cap.
                tie = rp == top
                for entry in hands[k]:
                    if (guarded - entry[2]) & guards != guards:
                        continue
                    if tie and (key_of(entry) >= above if strict else key_of(entry) > above):
                        continue
                    if runs:
                        # The straight flushes of the cards left here bound those of every
                        # hand's; a hand's own may be fewer (the same ranks in other suits).
                        own = self.runs_left(left - entry[2], after)
                        if own != runs:
                            fewer = self.chain_bound(position - 1, after, rp, own)
                            if value + fewer <= limit:
                                continue
                    self.chosen.append(entry)
                    self.sizes[position] = size
                    self.size_code += size << 4 * position
                    self.run(
                        position - 1,
                        left - entry[2],
                        key_of(entry),
                        entry[1],
                        used + size,
                        acc + value,
                        ranks - need if position else ranks,
                    )
                    self.chosen.pop()
                    self.sizes[position] = 0
                    self.size_code -= size << 4 * position
                    if self.timed_out:
                        return  # at once: the hands left here need not even be looked at
                    limit = self.best_ev + _EPSILON - acc
                    if value + below <= limit or value + most <= limit:
                        break
                if value + below <= limit:
                    break  # no hand of this rank part can beat the best found any more
            group -= 1
        else:
            if not weak and self.may_need_weak(position, start, caps, sizes, acc):
                # Every other group here was tried: the hands below two pair come after
                # the whole search, when its best may have left them nothing to beat.
                self.deferrals += 1
                self.deferred.append(
                    (
                        (position, left, cap, top, used, acc, ranks),
                        list(self.chosen),
                        list(self.sizes),
                    )
                )
        return

    def may_need_weak(
        self, position: int, start: Rank | None, caps: list[Rank], sizes: set[int], acc: float
    ) -> bool:
        """Whether a 5-card hand below two pair here (none is among the slot's groups), with
        the weaker slots below it, might beat the best found."""
        if position not in self.weak_slots or 5 not in sizes or self.timed_out:
            return False
        cap = _BELOW_TWO_PAIR if start is None else min(start, _BELOW_TWO_PAIR)
        most = acc + self.bound(position, cap)
        for q in range(position):
            most += self.bound(q, min(cap, caps[q]))
        return most > self.best_ev + _EPSILON

    def search_deferred(self) -> None:
        """Search the nodes deferred for their hands below two pair, under the best found."""
        while self.deferred and not self.timed_out:
            if (self.hard or self.best) and self.clock() > self.deadline:
                self.timed_out = True
                return
            node, self.chosen, self.sizes = self.deferred.pop()
            self.size_code = sum(size << 4 * p for p, size in enumerate(self.sizes))
            self.search_below(*node, weak=True)


def fallback(variant: Variant, model: FieldModel, held: Codes) -> Found | None:
    """The greedy setting of ``held`` as a ``Found`` (not proven best), or None if it has none."""
    setting = greedy_setting(variant, held)
    if setting is None:
        return None
    hands, discards = setting
    keyer = evaluator(variant.hand_rules)
    keys = tuple(keyer.key(hand) for hand in hands)
    # Summed strongest slot first, as the search adds its values, so equal settings tie exactly.
    ev = 0.0
    for position in range(len(hands) - 1, -1, -1):
        ev += model.value(position, keys[position])
    return Found(hands, keys, discards, ev, exact=False, nodes=0)


def search(
    variant: Variant,
    model: FieldModel,
    held: Sequence[int],
    *,
    budget_s: float | None = None,
    clock: Clock = cpu_clock,
) -> Found | None:
    """The legal arrangement of ``held`` (codes) with the greatest Σ v_p, or None if none is.

    With a budget (seconds on ``clock``: CPU time of the calling thread unless one is
    injected), a greedy setting is made first and the search must beat it: when the budget
    runs out, while the candidates are made or during the search, the best known returns
    (``exact`` False). Only if the greedy setting finds none does the search run on to its
    first answer.
    """
    codes = tuple(sorted(held))
    deadline = float("inf") if budget_s is None else clock() + budget_s
    known = None if budget_s is None else fallback(variant, model, codes)
    try:
        state = _Search(variant, model, codes, deadline, hard=known is not None, clock=clock)
    except _OutOfTime:
        return known
    if known is not None:
        state.best_ev = known.ev
    top = len(variant.slots) - 1
    state.run(top, state.held_packed, None, None, 0, 0.0, state.held_ranks)
    state.search_deferred()
    if not state.best:
        if known is None:
            return None
        # Nothing beat the fallback: proven best unless the budget stopped the search.
        return replace(known, exact=not state.timed_out, nodes=state.nodes)
    hands = tuple(entry[0] for entry in reversed(state.best))
    keys = tuple(state.key_of(entry) for entry in reversed(state.best))
    left = codes
    for hand in hands:
        left = minus(left, hand)
    return Found(hands, keys, left, state.best_ev, not state.timed_out, state.nodes)
