"""Hand evaluation: any hand of 1, 2, 3, 5 or 6-10 cards, jokers included, on one ladder.

A hand's strength is one key, a tuple of small integers compared as a list (RULINGS §1.5):

    (ladder, rank, rank, ..., 0, suit, suit, ...)

``ladder`` is the category's place on the one ladder shared by every hand size; the ranks come
in key order (the of-a-kind rank, then kickers high to low; a run by its top card); the ``0``
separates ranks from suits so that a hand that runs out of kickers first is the weaker one; the
suits of the cards in key order come last (RULINGS §1.1). Equal keys tie.

The key up to its ``0`` is the hand's rank part, which ``Evaluator.rank`` gives as one integer
in the same order (``engine.lookups``); suits only matter when two rank parts are equal. The
ladder and the hand rules live in ``engine.hand_rules``, the general path in ``engine.readings``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from engine.cards import JOKER_CODE, AnyCard, Card, Rank, card_from_code
from engine.errors import HandError
from engine.hand_rules import (
    ACE,
    FLUSH,
    FULL_HOUSE,
    HAND_RULES,
    HIGH_CARD,
    PAI_GOW_RULES,
    PAIR,
    PYRAMID_RULES,
    QUADS,
    SEVENTEEN_CARD_RULES,
    SPADES,
    STRAIGHT,
    THREE_CARD_FLUSH,
    THREE_CARD_RULES,
    THREE_CARD_STRAIGHT,
    THREE_CARD_STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    Category,
    HandRules,
    JokerMode,
    WheelMode,
    category_of_ladder,
    of_a_kind_ladder,
    straight_flush_ladder,
)
from engine.lookups import (
    FIVE_BITS,
    FIVE_CARRY,
    PRIMES,
    SUIT_COUNTS,
    SUIT_MASKS,
    Lookups,
    decode,
    encode,
    load_lookups,
)
from engine.memo import Memo
from engine.readings import NUMBER_WORDS, key_of, resolve
from engine.text import Text, tr

__all__ = [
    "ACE",
    "FLUSH",
    "FULL_HOUSE",
    "HAND_RULES",
    "HIGH_CARD",
    "PAIR",
    "PAI_GOW_RULES",
    "PYRAMID_RULES",
    "QUADS",
    "SEVENTEEN_CARD_RULES",
    "SPADES",
    "STRAIGHT",
    "THREE_CARD_FLUSH",
    "THREE_CARD_RULES",
    "THREE_CARD_STRAIGHT",
    "THREE_CARD_STRAIGHT_FLUSH",
    "TRIPS",
    "TWO_PAIR",
    "Category",
    "Evaluator",
    "HandRules",
    "HandValue",
    "JokerMode",
    "WheelMode",
    "best_five",
    "category_of_ladder",
    "compare",
    "compare_values",
    "describe",
    "evaluate",
    "evaluator",
    "hand_key",
    "of_a_kind_ladder",
    "straight_flush_ladder",
]

Key = tuple[int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """How strong a hand is: compare values (or their keys) to find the winner."""

    cards: tuple[AnyCard, ...]
    category: Category
    key: tuple[int, ...]
    resolved: tuple[Card, ...] = field(repr=False)
    jokers: tuple[Card, ...]
    name: str

    @property
    def size(self) -> int:
        """How many cards the hand holds."""
        return len(self.cards)

    @property
    def ladder(self) -> int:
        """The category's place on the one ladder (RULINGS §1.5)."""
        return self.key[0]

    @property
    def rank_key(self) -> tuple[int, ...]:
        """The key without suits, for games in which equal ranks tie (Pai Gow, three-card)."""
        return self.key[: self.key.index(0, 1) + 1]

    @property
    def label(self) -> str:
        """The name with what each joker became, as in ``Pair of aces (W→A♠)``."""
        if not self.jokers:
            return self.name
        became = ", ".join(f"W→{card.pretty}" for card in self.jokers)
        return f"{self.name} ({became})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key


#: Joker and big-hand keys (and picks) remembered per evaluator: the last this many at least,
#: twice as many at most (``engine.memo``: the least lately used are forgotten first).
_CACHE_LIMIT: Final = 1 << 16

#: Full-key entries of joker-free hands by their ranks (high to low): the key's rank part and
#: the order in which the sorted cards' suits enter the key.
_KeyEntries = dict[tuple[int, ...], tuple[Key, tuple[int, ...]]]


def _key_entry(ranks: tuple[int, ...], rules: HandRules, *, flush: bool) -> tuple[Key, Perm]:
    """Key prefix and suit order of joker-free cards of these ranks (high to low)."""
    size = len(ranks)
    suits = [SPADES] * size if flush else [(SPADES - i) % 4 for i in range(size)]
    codes = [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
    result = resolve(codes, rules)
    position: dict[int, int] = {}
    for index, code in enumerate(result.ordered):
        position.setdefault(code >> 2, index)
    perm = tuple(sorted(range(size), key=lambda i: (position[ranks[i]], i)))
    return (result.ladder, *result.ranks, 0), perm


Perm = tuple[int, ...]
#: Which five of joker-free cards with given ranks (no five of one suit) ``best_five`` takes:
#: their places among the cards sorted high to low, in key order, the key's rank part and the
#: name. No objects but integers and a string, so the collector stops tracking the many picks.
_Pick = tuple[tuple[int, ...], Key, str]
RankFunction = Callable[[Sequence[int]], int]


#: Each real card's suit counter (``SUIT_COUNTS``) with a 4-bit counter of its rank above it:
#: one sum says whether five may share a suit, and its bits from 16 up name the multiset of
#: ranks, as long as no counter overflows into the next: up to ``_MAX_COUNTED`` cards (a suit's
#: counter also takes ``FIVE_CARRY``'s 3).
_RANKS_AND_SUITS: Final = tuple(
    SUIT_COUNTS[code] | 1 << 16 + 4 * (code >> 2) if code >= 8 else 0 for code in range(60)
)
_MAX_COUNTED: Final = 12
#: The category of each ladder place, by place (up to ten of a kind).
_CATEGORIES: Final = tuple(category_of_ladder(ladder) for ladder in range(of_a_kind_ladder(10) + 1))


@cache
def _fives(size: int) -> tuple[tuple[int, ...], ...]:
    """Every five of ``size`` places, in the order ``itertools.combinations`` gives them."""
    return tuple(itertools.combinations(range(size), 5))


def _rank_function(lookups: Lookups, slow: RankFunction) -> RankFunction:
    """A hand's rank part integer: 3 and 5 cards by prime product (jokers too), else ``slow``."""
    primes, masks = PRIMES, SUIT_MASKS
    plain5, flush5, plain3, flush3 = (
        lookups.plain5,
        lookups.flush5,
        lookups.plain3,
        lookups.flush3,
    )

    def rank(codes: Sequence[int]) -> int:
        if len(codes) == 5:
            a, b, c, d, e = codes
            lookup = flush5 if masks[a] & masks[b] & masks[c] & masks[d] & masks[e] else plain5
            return lookup[primes[a] * primes[b] * primes[c] * primes[d] * primes[e]]
        if len(codes) == 3:
            a, b, c = codes
            lookup = flush3 if masks[a] & masks[b] & masks[c] else plain3
            return lookup[primes[a] * primes[b] * primes[c]]
        return slow(codes)

    return rank


def _best_rank_function(lookups: Lookups, rank: RankFunction, memo: dict[int, int]) -> RankFunction:
    """The rank of the strongest 5-card hand in 5 or more cards (7: Pai Gow, hold'em).

    ``memo`` keeps the best rank by prime product for cards in which no suit reaches five
    (jokers counted in each suit).
    """
    primes, counts = PRIMES, SUIT_COUNTS
    plain5 = lookups.plain5

    def best_rank(codes: Sequence[int]) -> int:
        if len(codes) == 7:
            a, b, c, d, e, f, g = codes
            product = primes[a] * primes[b] * primes[c] * primes[d] * primes[e] * primes[f]
            product *= primes[g]
            total = counts[a] + counts[b] + counts[c] + counts[d] + counts[e] + counts[f]
            total += counts[g]
        elif len(codes) < 5:
            raise HandError(
                tr("A best five-card hand needs at least 5 cards, not {count}.", count=len(codes))
            )
        else:
            product = math.prod(primes[code] for code in codes)
            total = sum(counts[code] for code in codes)
        if (total + FIVE_CARRY) & FIVE_BITS or len(codes) > _MAX_COUNTED:
            # Some five may share a suit (or so many cards that a suit's counter would overflow
            # into the next and hide it): every five is looked up with its own suits.
            return max(map(rank, itertools.combinations(codes, 5)))
        found = memo.get(product)
        if found is None:
            # No five shares a suit, so only the ranks matter: remembered per product.
            found = memo[product] = max(
                plain5[math.prod(five)]
                for five in itertools.combinations([primes[code] for code in codes], 5)
            )
        return found

    return best_rank


class Evaluator:
    """Evaluates hands under one set of hand rules, with lookups for 3- and 5-card hands.

    Two speeds: ``rank`` (and ``best_rank``) give a hand's rank part as one integer from the
    lookups, suits left out; ``key`` gives the full key with suits. Two hands compare by rank
    first and by their suits only on a tie (``compare``), which is what the full keys say.
    """

    def __init__(self, rules: HandRules) -> None:
        self.rules = rules
        #: The prime-product lookups of 3- and 5-card hands (``engine.lookups``).
        self.lookups = load_lookups(rules)
        self._plain5: _KeyEntries = {}
        self._flush5: _KeyEntries = {}
        self._plain3: _KeyEntries = {}
        self._flush3: _KeyEntries = {}
        self._cache: Memo[tuple[int, ...], tuple[int, ...] | str | Text] = Memo(_CACHE_LIMIT)
        self._parts: dict[int, Key] = {}
        self._best: dict[int, int] = {}
        self._picks: Memo[int, _Pick] = Memo(_CACHE_LIMIT)
        #: The name of each 5-card rank part without jokers met: its ranks alone decide it.
        self._names: dict[Key, str] = {}
        #: The rank part integer of a hand given as card codes (1-10 cards, jokers included).
        self.rank: RankFunction = _rank_function(self.lookups, self._slow_rank)
        #: The rank part integer of the strongest 5-card hand in 5 or more cards.
        self.best_rank: RankFunction = _best_rank_function(self.lookups, self.rank, self._best)

    def key(self, codes: Sequence[int]) -> tuple[int, ...]:
        """The strength key of a hand given as card codes (suits included)."""
        n = len(codes)
        if n == 5:
            a, b, c, d, e = sorted(codes, reverse=True)
            if e:  # jokers have code 0 and sort last
                entries = self._plain5 if (a ^ b | a ^ c | a ^ d | a ^ e) & 3 else self._flush5
                try:
                    prefix, p = entries[(a >> 2, b >> 2, c >> 2, d >> 2, e >> 2)]
                except KeyError:
                    prefix, p = self._key_entry(entries, (a, b, c, d, e))
                s = (a, b, c, d, e)
                # Concatenation beats unpacking on this hot path.
                return prefix + (s[p[0]] & 3, s[p[1]] & 3, s[p[2]] & 3, s[p[3]] & 3, s[p[4]] & 3)  # noqa: RUF005
        elif n == 3:
            a, b, c = sorted(codes, reverse=True)
            if c:
                entries = self._plain3 if (a ^ b | a ^ c) & 3 else self._flush3
                try:
                    prefix, p = entries[(a >> 2, b >> 2, c >> 2)]
                except KeyError:
                    prefix, p = self._key_entry(entries, (a, b, c))
                t = (a, b, c)
                return prefix + (t[p[0]] & 3, t[p[1]] & 3, t[p[2]] & 3)  # noqa: RUF005
        return self._slow_key(codes)

    def _key_entry(self, entries: _KeyEntries, codes: tuple[int, ...]) -> tuple[Key, Perm]:
        """Make (once per ranks and flush) the entry of joker-free cards sorted high to low."""
        ranks = tuple(code >> 2 for code in codes)
        flush = len({code & 3 for code in codes}) == 1
        found = entries[ranks] = _key_entry(ranks, self.rules, flush=flush)
        return found

    def part_of(self, rank: int) -> Key:
        """The rank part ``(ladder, ranks..., 0)`` of a rank integer (remembered)."""
        found = self._parts.get(rank)
        if found is None:
            found = self._parts[rank] = decode(rank)
        return found

    def rank_part(self, codes: Sequence[int]) -> Key:
        """The key's rank part (category and ranks, no suits) of a hand given as card codes."""
        return self.part_of(self.rank(codes))

    def compare(self, a: Sequence[int], b: Sequence[int]) -> int:
        """1 if hand ``a`` is stronger, -1 if ``b`` is, 0 for a tie; suits only on equal ranks."""
        ra, rb = self.rank(a), self.rank(b)
        if ra != rb:
            return 1 if ra > rb else -1
        if not self.rules.suits_break_ties:
            return 0
        ka, kb = self.key(a), self.key(b)
        return (ka > kb) - (ka < kb)

    def _slow_rank(self, codes: Sequence[int]) -> int:
        key = self._slow_key(codes)
        return encode(key[: key.index(0, 1) + 1])

    def _slow_key(self, codes: Sequence[int]) -> tuple[int, ...]:
        """Keys of joker and 6-10-card hands, remembered: a solver meets the same ones often."""
        sorted_codes = tuple(sorted(codes))
        found = self._cache.young.get(sorted_codes) or self._cache.recall(sorted_codes)
        if found is None:
            try:
                found = key_of(resolve(sorted_codes, self.rules))
            except HandError as error:
                found = error.text
            self._cache.put(sorted_codes, found)
        if not isinstance(found, tuple):
            # A fresh error each time: a reused one keeps growing its traceback.
            raise HandError(found)
        return found

    def clear_cache(self) -> None:
        """Forget remembered keys and best ranks (benchmarks measure the cold path with it)."""
        self._cache.clear()
        self._best.clear()
        self._picks.clear()

    def resolve(
        self, codes: Sequence[int]
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Key, concrete cards in key order, and what each joker became, as codes."""
        result = resolve(codes, self.rules)
        return key_of(result), result.ordered, result.substitutes

    def evaluate(self, cards: Iterable[AnyCard]) -> HandValue:
        """Evaluate a hand; raises ``HandError`` if the cards are not a hand."""
        held = tuple(cards)
        result = resolve([card.code for card in held], self.rules)
        category = category_of_ladder(result.ladder)
        resolved = tuple(_real(code) for code in result.ordered)
        return HandValue(
            cards=held,
            category=category,
            key=key_of(result),
            resolved=resolved,
            jokers=tuple(_real(code) for code in result.substitutes),
            name=describe(category, len(held), result.ranks, resolved),
        )

    def best_five(self, cards: Iterable[AnyCard]) -> HandValue:
        """The strongest 5-card hand among 5 to 7 (or more) cards; of equal ones, the first.

        "First" in the order ``itertools.combinations`` gives the fives of the cards as they
        came: it decides what is shown when a joker or a second deck's card makes the same hand
        as another card (a joker standing for the ace of spades held beside it).
        """
        held = tuple(cards)
        codes = [card.code for card in held]
        if len(codes) < 5:
            raise HandError(
                tr("A best five-card hand needs at least 5 cards, not {count}.", count=len(codes))
            )
        if JOKER_CODE in codes:
            return self.evaluate([held[i] for i in self._strongest_five(codes)])
        total = sum(map(_RANKS_AND_SUITS.__getitem__, codes))
        if (total + FIVE_CARRY) & FIVE_BITS or len(codes) > _MAX_COUNTED:
            # Five may share a suit: the fives are looked up one by one.
            return self._five_value(held, codes, self._strongest_five(codes))
        # No five shares a suit, so the ranks alone decide which ranks the best five takes, and
        # the pick, remembered per multiset of ranks, names them by their places among the
        # cards sorted high to low (of equal cards the first given first), in key order.
        order = sorted(range(len(codes)), key=codes.__getitem__, reverse=True)
        pick = self._picks.young.get(total >> 16) or self._picks.recall(total >> 16)
        if pick is None:
            pick = self._pick(order, codes, total >> 16)
        places, prefix, name = pick
        chosen = [order[place] for place in places]
        ordered = [codes[i] for i in chosen]
        chosen.sort()
        return HandValue(
            tuple([held[i] for i in chosen]),
            _CATEGORIES[prefix[0]],
            prefix + tuple([code & 3 for code in ordered]),
            tuple([_REAL_CARDS[code] for code in ordered]),
            (),
            name,
        )

    def _strongest_five(self, codes: Sequence[int]) -> tuple[int, ...]:
        """Where the first strongest five (by full key) is, in the order combinations go."""
        primes, masks = PRIMES, SUIT_MASKS
        plain5, flush5 = self.lookups.plain5, self.lookups.flush5
        # Each five's rank as ``rank`` reads it, inline: a call per five would cost twice this.
        ranks = [
            (flush5 if masks[a] & masks[b] & masks[c] & masks[d] & masks[e] else plain5)[
                primes[a] * primes[b] * primes[c] * primes[d] * primes[e]
            ]
            for a, b, c, d, e in itertools.combinations(codes, 5)
        ]
        top = max(ranks)
        first = ranks.index(top)
        places = itertools.islice(itertools.combinations(range(len(codes)), 5), first, None)
        if ranks.count(top) == 1:
            return next(places)
        # Keys order as their ranks, then suits: only the fives of the top rank need a key.
        best: tuple[int, ...] = ()
        best_key: Key = ()
        for five, found in zip(places, ranks[first:], strict=True):
            if found == top:
                key = self.key([codes[i] for i in five])
                if key > best_key:
                    best, best_key = five, key
        return best

    def _pick(self, order: list[int], codes: list[int], ranks_held: int) -> _Pick:
        """The pick of joker-free cards no five of which share a suit."""
        primes, plain5 = [PRIMES[codes[i]] for i in order], self.lookups.plain5
        ranks = [plain5[a * b * c * d * e] for a, b, c, d, e in itertools.combinations(primes, 5)]
        # The first best five of the cards sorted high to low takes the first places of each
        # rank, the highest suits: the strongest key of that rank, as ``_strongest_five`` says.
        best = _fives(len(order))[ranks.index(max(ranks))]
        prefix, perm = self._five_entry([codes[order[place]] for place in best])
        pick = (tuple([best[i] for i in perm]), prefix, self._names[prefix])
        self._picks.put(ranks_held, pick)
        return pick

    def _five_entry(self, codes: Sequence[int]) -> tuple[Key, Perm]:
        """Rank part and key order of five joker-free cards sorted high to low (both kept)."""
        a, b, c, d, e = codes
        entries = self._plain5 if (a ^ b | a ^ c | a ^ d | a ^ e) & 3 else self._flush5
        found = entries.get((a >> 2, b >> 2, c >> 2, d >> 2, e >> 2))
        prefix, perm = found or self._key_entry(entries, (a, b, c, d, e))
        if prefix not in self._names:
            resolved = tuple(_REAL_CARDS[codes[i]] for i in perm)
            category = _CATEGORIES[prefix[0]]
            self._names[prefix] = describe(category, 5, prefix[1:-1], resolved)
        return prefix, perm

    def _five_value(
        self, held: tuple[AnyCard, ...], codes: Sequence[int], five: Sequence[int]
    ) -> HandValue:
        """The value of five of the cards (their places, rising), none a joker, from the lookups."""
        ordered = sorted((codes[i] for i in five), reverse=True)
        prefix, perm = self._five_entry(ordered)
        return HandValue(
            tuple(held[i] for i in five),
            _CATEGORIES[prefix[0]],
            prefix + tuple(ordered[i] & 3 for i in perm),
            tuple(_REAL_CARDS[ordered[i]] for i in perm),
            (),
            self._names[prefix],
        )


def _real(code: int) -> Card:
    card = card_from_code(code)
    assert isinstance(card, Card)
    return card


#: The real cards by code, as a hand value's resolved cards hold them.
_REAL_CARDS: Final = {code: _real(code) for code in range(8, 60)}


def describe(
    category: Category,
    size: int,
    ranks: tuple[int, ...],
    resolved: tuple[Card, ...],
) -> str:
    """A readable name, as in "Full house, kings over fours"."""
    top = Rank(min(ranks[0], ACE))
    kickers = " ".join(Rank(r).letter for r in ranks[1:])
    with_kickers = f" ({kickers})" if kickers else ""
    if category is Category.HIGH_CARD:
        rest = " ".join(Rank(r).letter for r in ranks[1:])
        return f"{top.word.capitalize()} high" + (f", then {rest}" if rest else "")
    if category is Category.PAIR:
        return f"Pair of {top.plural}" + with_kickers
    if category is Category.TWO_PAIR:
        low = Rank(ranks[1])
        kicker = f" ({Rank(ranks[2]).letter})" if len(ranks) > 2 else ""
        return f"Two pair, {top.plural} and {low.plural}{kicker}"
    if category is Category.FULL_HOUSE:
        return f"Full house, {top.plural} over {Rank(ranks[1]).plural}"
    if category.of_a_kind:
        word = NUMBER_WORDS[category.of_a_kind].capitalize()
        return f"{word} of a kind, {top.plural}" + with_kickers
    if category in (Category.FLUSH, Category.THREE_CARD_FLUSH):
        prefix = "Three-card flush" if size == 3 else "Flush"
        cards = " ".join(card.rank.letter for card in resolved)
        return f"{prefix}, {top.word} high ({cards})"
    ace_high = ranks[0] == ACE + 1
    is_wheel = not ace_high and any(card.rank == Rank.ACE for card in resolved)
    run_top = Rank.ACE if ace_high else max(c.rank for c in resolved if c.rank != Rank.ACE)
    # RULINGS §1.3: an A-low run ranks above the king-high run, so its ace is its top card (its
    # suit is compared first): "Wheel, ace to five", never "five high". Pai Gow's California
    # wheel (the lowest run) keeps the name: it holds the same cards, and suits never count there.
    high = f"wheel, ace to {run_top.word}" if is_wheel else f"{run_top.word} high"
    if category is Category.STRAIGHT:
        return "Wheel, ace to five" if is_wheel else f"Straight, {high}"
    if category is Category.THREE_CARD_STRAIGHT:
        return f"Three-card straight, {high}"
    if category is Category.THREE_CARD_STRAIGHT_FLUSH:
        return f"Three-card straight flush, {high}"
    if size == 5 and run_top == Rank.ACE:
        return "Royal flush"
    prefix = "Straight flush" if size == 5 else f"{size}-card straight flush"
    return f"{prefix}, {high}"


@cache
def evaluator(rules: HandRules = PYRAMID_RULES) -> Evaluator:
    """The shared evaluator of a set of hand rules (its lookups are read once)."""
    return Evaluator(rules)


def evaluate(cards: Iterable[AnyCard], rules: HandRules = PYRAMID_RULES) -> HandValue:
    """Evaluate a hand under the given hand rules (Pyramid rules by default)."""
    return evaluator(rules).evaluate(cards)


def hand_key(codes: Sequence[int], rules: HandRules = PYRAMID_RULES) -> tuple[int, ...]:
    """The strength key of a hand given as card codes."""
    return evaluator(rules).key(codes)


def compare_values(a: HandValue, b: HandValue, rules: HandRules = PYRAMID_RULES) -> int:
    """1 if ``a`` is stronger, -1 if ``b`` is, 0 for a tie (suits only where the rules say)."""
    ka, kb = (a.key, b.key) if rules.suits_break_ties else (a.rank_key, b.rank_key)
    return (ka > kb) - (ka < kb)


def compare(a: Iterable[AnyCard], b: Iterable[AnyCard], rules: HandRules = PYRAMID_RULES) -> int:
    """1 if hand ``a`` is stronger, -1 if ``b`` is, 0 for a tie."""
    return compare_values(evaluate(a, rules), evaluate(b, rules), rules)


def best_five(cards: Iterable[AnyCard], rules: HandRules = PYRAMID_RULES) -> HandValue:
    """The strongest 5-card hand that can be made from 5 or more cards."""
    return evaluator(rules).best_five(cards)
