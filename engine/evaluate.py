"""Hand evaluation: any hand of 1, 2, 3, 5 or 6-10 cards, jokers included, on one ladder.

A hand's strength is one key, a tuple of small integers compared as a list (RULINGS §1.5):

    (ladder, rank, rank, ..., 0, suit, suit, ...)

``ladder`` is the category's place on the one ladder shared by every hand size; the ranks come
in key order (the of-a-kind rank, then kickers high to low; a run by its top card); the ``0``
separates ranks from suits so that a hand that runs out of kickers first is the weaker one; the
suits of the cards in key order come last (RULINGS §1.1). Equal keys tie.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Final, NamedTuple, NoReturn

from engine.cards import JOKER_CODE, AnyCard, Card, Rank, Suit, card_from_code
from engine.errors import HandError

ACE: Final = 14
SPADES: Final = int(Suit.SPADES)

# The ladder of RULINGS §1.5, one number per category and size.
HIGH_CARD: Final = 0
PAIR: Final = 1
THREE_CARD_STRAIGHT: Final = 2
THREE_CARD_FLUSH: Final = 3
THREE_CARD_STRAIGHT_FLUSH: Final = 4
TWO_PAIR: Final = 5
TRIPS: Final = 6
STRAIGHT: Final = 7
FLUSH: Final = 8
FULL_HOUSE: Final = 9
QUADS: Final = 10


def straight_flush_ladder(size: int) -> int:
    """Ladder place of an n-card straight flush (3, or 5 to 10 cards)."""
    return THREE_CARD_STRAIGHT_FLUSH if size == 3 else 2 * size + 1


def of_a_kind_ladder(count: int) -> int:
    """Ladder place of n of a kind (3 to 10 cards)."""
    if count == 3:
        return TRIPS
    if count == 4:
        return QUADS
    return 2 * count + 2


class Category(Enum):
    """Hand categories; the ladder place also depends on the size (a 7-card straight flush)."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    THREE_CARD_STRAIGHT = "three_card_straight"
    THREE_CARD_FLUSH = "three_card_flush"
    THREE_CARD_STRAIGHT_FLUSH = "three_card_straight_flush"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    FIVE_OF_A_KIND = "five_of_a_kind"
    SIX_OF_A_KIND = "six_of_a_kind"
    SEVEN_OF_A_KIND = "seven_of_a_kind"
    EIGHT_OF_A_KIND = "eight_of_a_kind"
    NINE_OF_A_KIND = "nine_of_a_kind"
    TEN_OF_A_KIND = "ten_of_a_kind"

    @property
    def of_a_kind(self) -> int:
        """How many cards of one rank the category is made of (0 if it is not n of a kind)."""
        return _KIND_COUNTS.get(self, 0)


_KIND_COUNTS: Final = {
    Category.THREE_OF_A_KIND: 3,
    Category.FOUR_OF_A_KIND: 4,
    Category.FIVE_OF_A_KIND: 5,
    Category.SIX_OF_A_KIND: 6,
    Category.SEVEN_OF_A_KIND: 7,
    Category.EIGHT_OF_A_KIND: 8,
    Category.NINE_OF_A_KIND: 9,
    Category.TEN_OF_A_KIND: 10,
}
_LOW_LADDER: Final = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.THREE_CARD_STRAIGHT,
    Category.THREE_CARD_FLUSH,
    Category.THREE_CARD_STRAIGHT_FLUSH,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
)
_KIND_BY_COUNT: Final = {count: category for category, count in _KIND_COUNTS.items()}


def category_of_ladder(ladder: int) -> Category:
    """The category a ladder place belongs to."""
    if ladder < len(_LOW_LADDER):
        return _LOW_LADDER[ladder]
    if ladder % 2:
        return Category.STRAIGHT_FLUSH
    return _KIND_BY_COUNT[(ladder - 2) // 2]


class JokerMode(Enum):
    """How jokers play: fully wild (Pyramid games) or as the bug (Pai Gow)."""

    WILD = "wild"
    BUG = "bug"


class WheelMode(Enum):
    """Where the A-low run ranks: second-highest (RULINGS §1.3, Nevada) or lowest (California)."""

    SECOND = "second"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class HandRules:
    """The parts of a variant that decide how strong a hand is."""

    three_card_runs: bool = True
    joker: JokerMode = JokerMode.WILD
    wheel: WheelMode = WheelMode.SECOND
    suits_break_ties: bool = True


#: Showdown and Casino Version: 3-card straights and flushes exist, jokers fully wild.
PYRAMID_RULES: Final = HandRules()
#: The 17-card game (seed 001): a 3-card front is high card, pair or trips only.
SEVENTEEN_CARD_RULES: Final = HandRules(three_card_runs=False)
#: Pai Gow poker (seed 003): the joker is the bug.
PAI_GOW_RULES: Final = HandRules(three_card_runs=False, joker=JokerMode.BUG, suits_break_ties=False)
#: The three-card table game (seed 002): equal ranks push.
THREE_CARD_RULES: Final = HandRules(three_card_runs=False, suits_break_ties=False)

#: Hand rules by the variant names of the engine's command line.
HAND_RULES: Final[dict[str, HandRules]] = {
    "showdown": PYRAMID_RULES,
    "casino": PYRAMID_RULES,
    "standard": SEVENTEEN_CARD_RULES,
    "no-surrender": SEVENTEEN_CARD_RULES,
    "three-card": THREE_CARD_RULES,
    "paigow": PAI_GOW_RULES,
}


class _Result(NamedTuple):
    ladder: int
    ranks: tuple[int, ...]
    ordered: tuple[int, ...]
    substitutes: tuple[int, ...]


_NUMBER_WORDS: Final = {
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
}
_PATTERN_LADDER: Final = {
    (1,): HIGH_CARD,
    (2,): PAIR,
    (1, 1): HIGH_CARD,
    (3,): TRIPS,
    (2, 1): PAIR,
    (1, 1, 1): HIGH_CARD,
    (5,): of_a_kind_ladder(5),
    (4, 1): QUADS,
    (3, 2): FULL_HOUSE,
    (3, 1, 1): TRIPS,
    (2, 2, 1): TWO_PAIR,
    (2, 1, 1, 1): PAIR,
    (1, 1, 1, 1, 1): HIGH_CARD,
}


def _exact_pattern(real: Sequence[int]) -> _Result | None:
    """The rank-pattern reading of joker-free cards (sorted high to low), if it is a hand."""
    by_rank: dict[int, list[int]] = {}
    for code in real:
        by_rank.setdefault(code >> 2, []).append(code)
    shape = sorted(((len(codes), rank) for rank, codes in by_rank.items()), reverse=True)
    groups = tuple(count for count, _ in shape)
    if len(groups) == 1 and groups[0] >= 3:
        ladder = of_a_kind_ladder(groups[0])
    elif groups in _PATTERN_LADDER:
        ladder = _PATTERN_LADDER[groups]
    else:
        return None
    ordered = tuple(code for _, rank in shape for code in by_rank[rank])
    return _Result(ladder, tuple(rank for _, rank in shape), ordered, ())


def _pattern_reading(real: Sequence[int], jokers: int, *, bug: bool) -> _Result | None:
    """Best pair/trips/full house/n-of-a-kind reading.

    A wild joker joins the largest group of equal ranks (the highest on a tie): that always
    gives the strongest of these readings. The bug is an ace here (seed 003).
    """
    if not jokers:
        return _exact_pattern(real)
    if bug:
        rank = ACE
    else:
        counts: dict[int, int] = {}
        for code in real:
            counts[code >> 2] = counts.get(code >> 2, 0) + 1
        rank = max(counts.items(), key=lambda item: (item[1], item[0]))[0] if counts else ACE
    substitutes = (rank * 4 + SPADES,) * jokers
    found = _exact_pattern(sorted((*real, *substitutes), reverse=True))
    return None if found is None else found._replace(substitutes=substitutes)


@cache
def _run_windows(size: int, wheel: WheelMode) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every run of ``size`` ranks as (value, ranks top first), strongest first (RULINGS §1.3)."""
    ace_high = (ACE + 1, tuple(range(ACE, ACE - size, -1)))
    plain = [(top, tuple(range(top, top - size, -1))) for top in range(ACE - 1, size, -1)]
    if wheel is WheelMode.SECOND:
        return (ace_high, (ACE, (ACE, *range(size, 1, -1))), *plain)
    return (ace_high, *plain, (size, (*range(size, 1, -1), ACE)))


@cache
def _window_ranks(size: int, wheel: WheelMode) -> dict[int, tuple[int, ...]]:
    return dict(_run_windows(size, wheel))


def _run(
    real: Sequence[int], jokers: int, size: int, *, suited: bool, wheel: WheelMode
) -> _Result | None:
    """Best run (straight or straight flush) of ``size`` cards; jokers fill the gaps."""
    suits = {code & 3 for code in real}
    if suited and len(suits) > 1:
        return None
    ranks = [code >> 2 for code in real]
    if len(set(ranks)) != len(ranks):
        return None
    joker_suit = next(iter(suits)) if suited and suits else SPADES
    held = {code >> 2: code for code in real}
    value = _best_run_value(held, size, wheel)
    if value is None:
        return None
    window = _window_ranks(size, wheel)[value]
    ordered = tuple(held.get(rank, rank * 4 + joker_suit) for rank in window)
    substitutes = tuple(rank * 4 + joker_suit for rank in window if rank not in held)
    if suited:
        ladder = straight_flush_ladder(size)
    else:
        ladder = THREE_CARD_STRAIGHT if size == 3 else STRAIGHT
    return _Result(ladder, (value,), ordered, substitutes)


def _best_run_value(held: Iterable[int], size: int, wheel: WheelMode) -> int | None:
    """Value of the strongest run of ``size`` ranks holding every held rank (distinct ranks)."""
    ranks = sorted(held)
    if not ranks or ranks[0] > ACE - size:
        return ACE + 1  # the ace-high run
    ace_low_fits = all(rank == ACE or rank <= size for rank in ranks)
    if wheel is WheelMode.SECOND and ace_low_fits:
        return ACE
    if ranks[-1] < ACE:
        top = max(min(ACE - 1, ranks[0] + size - 1), size + 1)
        if ranks[-1] <= top:
            return top
    if wheel is WheelMode.LOW and ace_low_fits:
        return size
    return None


def _flush(real: Sequence[int], jokers: int, size: int, *, bug: bool) -> _Result | None:
    """Best flush; a wild joker is an ace of the suit, the bug the best rank not yet held."""
    suits = {code & 3 for code in real}
    if len(suits) > 1:
        return None
    suit = next(iter(suits)) if suits else SPADES
    if bug:
        held = {code >> 2 for code in real}
        fill = [r for r in range(ACE, 1, -1) if r not in held][:jokers]
    else:
        fill = [ACE] * jokers
    substitutes = tuple(rank * 4 + suit for rank in fill)
    ordered = tuple(sorted((*real, *substitutes), reverse=True))
    ladder = THREE_CARD_FLUSH if size == 3 else FLUSH
    return _Result(ladder, tuple(code >> 2 for code in ordered), ordered, substitutes)


def _resolve(codes: Sequence[int], rules: HandRules) -> _Result:
    """The strongest reading of a hand, with what each joker became (the general path)."""
    size = len(codes)
    if size not in (1, 2, 3, 5, 6, 7, 8, 9, 10):
        raise HandError(f"A hand has 1, 2, 3, 5 or 6 to 10 cards, not {size}.")
    real = sorted((c for c in codes if c != JOKER_CODE), reverse=True)
    jokers = size - len(real)
    bug = rules.joker is JokerMode.BUG
    if size > 5 and len({c >> 2 for c in real}) > 1 and len({c & 3 for c in real}) > 1:
        _not_a_hand(size)  # neither one rank nor one suit, whatever the jokers become
    found = [_pattern_reading(real, jokers, bug=bug)]
    if size >= 5 or (size == 3 and rules.three_card_runs):
        found.append(_run(real, jokers, size, suited=True, wheel=rules.wheel))
        if size <= 5:
            found.append(_flush(real, jokers, size, bug=bug))
            found.append(_run(real, jokers, size, suited=False, wheel=rules.wheel))
    readings = [result for result in found if result is not None]
    if not readings:
        _not_a_hand(size)
    return max(readings, key=_key_of)


def _not_a_hand(size: int) -> NoReturn:
    word = _NUMBER_WORDS[size]
    raise HandError(f"A {size}-card hand must be {word} of a kind or a {size}-card straight flush.")


def _key_of(result: _Result) -> tuple[int, ...]:
    return (result.ladder, *result.ranks, 0, *(code & 3 for code in result.ordered))


#: Joker and big-hand keys remembered per evaluator before the memory is cleared and refilled.
_CACHE_LIMIT: Final = 1 << 16

_Table = dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]


def _build_table(size: int, rules: HandRules, *, flush: bool) -> _Table:
    """Key prefix and suit order for every rank multiset of a joker-free hand."""
    table: _Table = {}
    for ranks in itertools.combinations_with_replacement(range(ACE, 1, -1), size):
        suits = [SPADES] * size if flush else [(SPADES - i) % 4 for i in range(size)]
        codes = [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
        result = _resolve(codes, rules)
        position: dict[int, int] = {}
        for index, code in enumerate(result.ordered):
            position.setdefault(code >> 2, index)
        perm = tuple(sorted(range(size), key=lambda i: (position[ranks[i]], i)))
        table[ranks] = ((result.ladder, *result.ranks, 0), perm)
    return table


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


class Evaluator:
    """Evaluates hands under one set of hand rules, with lookup tables for joker-free hands."""

    def __init__(self, rules: HandRules) -> None:
        self.rules = rules
        self._plain5 = _build_table(5, rules, flush=False)
        self._flush5 = _build_table(5, rules, flush=True)
        self._plain3 = _build_table(3, rules, flush=False)
        self._flush3 = _build_table(3, rules, flush=True)
        self._cache: dict[tuple[int, ...], tuple[int, ...] | str] = {}

    def key(self, codes: Sequence[int]) -> tuple[int, ...]:
        """The strength key of a hand given as card codes (the fast path of the solver)."""
        n = len(codes)
        if n == 5:
            a, b, c, d, e = sorted(codes, reverse=True)
            if e:  # jokers have code 0 and sort last
                table = self._plain5 if (a ^ b | a ^ c | a ^ d | a ^ e) & 3 else self._flush5
                prefix, p = table[(a >> 2, b >> 2, c >> 2, d >> 2, e >> 2)]
                s = (a, b, c, d, e)
                # Concatenation beats unpacking on this hot path.
                return prefix + (s[p[0]] & 3, s[p[1]] & 3, s[p[2]] & 3, s[p[3]] & 3, s[p[4]] & 3)  # noqa: RUF005
        elif n == 3:
            a, b, c = sorted(codes, reverse=True)
            if c:
                table = self._plain3 if (a ^ b | a ^ c) & 3 else self._flush3
                prefix, p = table[(a >> 2, b >> 2, c >> 2)]
                t = (a, b, c)
                return prefix + (t[p[0]] & 3, t[p[1]] & 3, t[p[2]] & 3)  # noqa: RUF005
        return self._slow_key(codes)

    def rank_tables(self, size: int) -> tuple[_Table, _Table]:
        """The joker-free tables of 3 or 5 cards, without and with a flush.

        Keyed by the ranks in descending order; each entry starts with the key's rank part
        (category, ranks and the 0 before the suits), which is all a rank-only reader needs.
        """
        if size == 5:
            return self._plain5, self._flush5
        if size == 3:
            return self._plain3, self._flush3
        raise ValueError(f"no table for {size}-card hands")

    def _slow_key(self, codes: Sequence[int]) -> tuple[int, ...]:
        """Keys of joker and 6-10-card hands, remembered: a solver meets the same ones often."""
        sorted_codes = tuple(sorted(codes))
        found = self._cache.get(sorted_codes)
        if found is None:
            try:
                found = _key_of(_resolve(sorted_codes, self.rules))
            except HandError as error:
                found = str(error)
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[sorted_codes] = found
        if isinstance(found, str):
            raise HandError(
                found
            )  # a fresh error each time: a reused one keeps growing its traceback
        return found

    def clear_cache(self) -> None:
        """Forget remembered keys (benchmarks measure the cold path with it)."""
        self._cache.clear()

    def resolve(
        self, codes: Sequence[int]
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Key, concrete cards in key order, and what each joker became, as codes."""
        result = _resolve(codes, self.rules)
        return _key_of(result), result.ordered, result.substitutes

    def evaluate(self, cards: Iterable[AnyCard]) -> HandValue:
        """Evaluate a hand; raises ``HandError`` if the cards are not a hand."""
        held = tuple(cards)
        result = _resolve([card.code for card in held], self.rules)
        category = category_of_ladder(result.ladder)
        resolved = tuple(_real(code) for code in result.ordered)
        return HandValue(
            cards=held,
            category=category,
            key=_key_of(result),
            resolved=resolved,
            jokers=tuple(_real(code) for code in result.substitutes),
            name=describe(category, len(held), result.ranks, resolved),
        )

    def best_five(self, cards: Iterable[AnyCard]) -> HandValue:
        """The strongest 5-card hand among 5 to 7 (or more) cards."""
        held = tuple(cards)
        if len(held) < 5:
            raise HandError(f"A best five-card hand needs at least 5 cards, not {len(held)}.")
        best = max(
            itertools.combinations(held, 5), key=lambda combo: self.key([c.code for c in combo])
        )
        return self.evaluate(best)


def _real(code: int) -> Card:
    card = card_from_code(code)
    assert isinstance(card, Card)
    return card


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
        word = _NUMBER_WORDS[category.of_a_kind].capitalize()
        return f"{word} of a kind, {top.plural}" + with_kickers
    if category in (Category.FLUSH, Category.THREE_CARD_FLUSH):
        prefix = "Three-card flush" if size == 3 else "Flush"
        cards = " ".join(card.rank.letter for card in resolved)
        return f"{prefix}, {top.word} high ({cards})"
    ace_high = ranks[0] == ACE + 1
    is_wheel = not ace_high and any(card.rank == Rank.ACE for card in resolved)
    run_top = Rank.ACE if ace_high else max(c.rank for c in resolved if c.rank != Rank.ACE)
    high = f"{run_top.word} high" + (" (wheel)" if is_wheel else "")
    if category is Category.STRAIGHT:
        return f"Straight, {high}"
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
    """The shared evaluator of a set of hand rules (tables are built once)."""
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
