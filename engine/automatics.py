"""Automatics of the 17-card game: find every one a holding allows, lay it out, check and score it.

Seed 001 "Automatic Win Conditions" names four: three full houses, a dragon (one card of each of
the 13 ranks), three straights and three flushes. Jokers are wild in them as everywhere. The three
"three ..." automatics are three 5-card hands (front, middle and back), so they use 15 cards; a
dragon uses 13. Both fit the 13-17 cards a 17-card arrangement may use (RULINGS §4).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Final

from engine.arrangement import Arrangement, slot_text, verify_arrangement
from engine.cards import JOKER, AnyCard, Card, Rank, Suit
from engine.errors import GameError
from engine.evaluate import HandValue, evaluate
from engine.text import Text, tr
from engine.variants import Automatic, AutomaticRules, Variant, variant_title

_RANKS: Final = tuple(range(14, 1, -1))  # ace first
# Every 5-card run, strongest first; the wheel is second-highest (RULINGS §1.3).
_WINDOWS: Final = (
    (14, 13, 12, 11, 10),
    (14, 5, 4, 3, 2),
    *((t, t - 1, t - 2, t - 3, t - 4) for t in range(13, 5, -1)),
)


def _split(cards: Sequence[AnyCard]) -> tuple[list[Card], int]:
    real = [card for card in cards if isinstance(card, Card)]
    return real, len(cards) - len(real)


def _deficit(demand: Counter[int], have: Counter[int]) -> int:
    return sum(max(0, need - have[key]) for key, need in demand.items())


#: How many trips and pairs one rank may give the three full houses (t + p ≤ 3), none aside.
_GROUPS: Final = tuple((t, p) for t in range(4) for p in range(4 - t) if t or p)


def _full_house_plan(have: Counter[int], jokers: int) -> list[tuple[int, int]] | None:
    """Three (trips rank, pair rank) pairs the cards can make, or None.

    A rank may serve at most three of the full houses (t + p ≤ 3), and then the trips can always
    be matched to pairs of other ranks (Hall's condition); so a search over how many trips and
    pairs each rank gives, counting the jokers spent, is exact.
    """
    # Ranks not held are all alike: two of them can carry all six groups the jokers pay for.
    absent = [rank for rank in _RANKS if not have[rank]][:2]
    # best[(trips, pairs)] = (jokers spent, plan) over the ranks seen so far.
    best: dict[tuple[int, int], tuple[int, tuple[tuple[int, int, int], ...]]] = {(0, 0): (0, ())}
    for rank in [rank for rank in _RANKS if have[rank]] + absent:
        grown = dict(best)
        for (t0, p0), (spent, plan) in best.items():
            for t, p in _GROUPS:
                cost = spent + max(0, 3 * t + 2 * p - have[rank])
                if t0 + t > 3 or p0 + p > 3 or cost > jokers:
                    continue
                state = (t0 + t, p0 + p)
                if state not in grown or cost < grown[state][0]:
                    grown[state] = (cost, (*plan, (rank, t, p)))
        best = grown
        if (3, 3) in best:
            break
    if (3, 3) not in best:
        return None
    plan = best[(3, 3)][1]
    trips = [rank for rank, t, _ in plan for _ in range(t)]
    pairs = [rank for rank, _, p in plan for _ in range(p)]
    for order in itertools.permutations(pairs):
        if all(a != b for a, b in zip(trips, order, strict=True)):
            return list(zip(trips, order, strict=True))
    return None  # pragma: no cover - excluded by the t + p ≤ 3 bound


def _straights_plan(counts: list[int], jokers: int) -> list[tuple[int, ...]] | None:
    """Three runs (strongest first) the rank counts and jokers can make, or None.

    Tries every three runs with repetition, taking each run's ranks from ``counts`` in place
    (a rank below zero is a joker spent) and putting them back on the way out.
    """
    chosen: list[tuple[int, ...]] = []

    def place(start: int, spare: int) -> bool:
        if len(chosen) == 3:
            return True
        for index in range(start, len(_WINDOWS)):
            window = _WINDOWS[index]
            cost = 0
            for rank in window:
                counts[rank] -= 1
                cost += counts[rank] < 0
            if cost <= spare:
                chosen.append(window)
                if place(index, spare - cost):
                    return True
                chosen.pop()
            for rank in window:
                counts[rank] += 1
        return False

    return chosen if place(0, jokers) else None


def _take(pool: list[Card], count: int, *, rank: int = 0, suit: int = -1) -> list[AnyCard]:
    """Take ``count`` cards of the rank (or suit) from the pool, highest first; jokers fill in."""
    fitting = [c for c in pool if c.rank == rank or c.suit == suit]
    taken = sorted(fitting, key=lambda c: c.code, reverse=True)[:count]
    for card in taken:
        pool.remove(card)
    return [*taken, *[JOKER] * (count - len(taken))]


def _three_hands(held: Sequence[AnyCard], automatic: Automatic) -> list[list[AnyCard]] | None:
    """Three 5-card hands making a "three ..." automatic, or None.

    Each search is over what the three hands need (suits, runs, ranks); the jokers cover what is
    missing, so the cards can be taken hand by hand once a plan fits.
    """
    real, jokers = _split(held)
    pool = list(real)
    if automatic is Automatic.THREE_FLUSHES:
        suits_held = Counter(int(card.suit) for card in real)
        for suits in itertools.combinations_with_replacement(range(4), 3):
            need = Counter({s: 5 * n for s, n in Counter(suits).items()})
            if _deficit(need, suits_held) <= jokers:
                return [_take(pool, 5, suit=s) for s in suits]
        return None
    ranks_held = Counter(int(card.rank) for card in real)
    if automatic is Automatic.THREE_STRAIGHTS:
        windows = _straights_plan([ranks_held[rank] for rank in range(15)], jokers)
        if windows is None:
            return None
        return [[_take(pool, 1, rank=r)[0] for r in window] for window in windows]
    plan = _full_house_plan(ranks_held, jokers)
    if plan is None:
        return None
    return [_take(pool, 3, rank=a) + _take(pool, 2, rank=b) for a, b in plan]


def _dragon(held: Sequence[AnyCard]) -> list[AnyCard] | None:
    """One card of each rank, ace first (a spare joker plays the ace of spades), or None."""
    real, jokers = _split(held)
    best = {card.rank: card for card in sorted(real, key=lambda c: c.code)}
    missing = [rank for rank in _RANKS if rank not in best]
    if len(missing) > jokers:
        return None
    cards: list[AnyCard] = [best.get(Rank(rank), JOKER) for rank in _RANKS]
    if jokers > len(missing) and cards[0] != Card(Rank.ACE, Suit.SPADES):
        cards[0] = JOKER  # "a joker ace is a spade" (RULINGS §4)
    return cards


def has_automatic(held: Sequence[AnyCard], automatic: Automatic) -> bool:
    """Whether the cards can make the automatic."""
    if automatic is Automatic.DRAGON:
        return _dragon(held) is not None
    return _three_hands(held, automatic) is not None


def detect_automatics(variant: Variant, held: Sequence[AnyCard]) -> tuple[Automatic, ...]:
    """Every automatic the holding allows, highest first (none in a game without automatics)."""
    rules = variant.automatics
    if rules is None:
        return ()
    return tuple(automatic for automatic in rules.precedence if has_automatic(held, automatic))


def _sorted_hands(variant: Variant, hands: Sequence[Sequence[AnyCard]]) -> Arrangement:
    keyed = sorted(hands, key=lambda hand: evaluate(hand, variant.hand_rules).key)
    return Arrangement(tuple(tuple(hand) for hand in keyed))


def layout_automatic(
    variant: Variant, held: Sequence[AnyCard], automatic: Automatic
) -> Arrangement:
    """A legal arrangement that shows the automatic; raises ``GameError`` if the cards cannot."""
    if variant.automatics is None or automatic not in variant.automatics.precedence:
        raise GameError(_no_such(variant, automatic))
    if automatic is Automatic.DRAGON:
        dragon = _dragon(held)
        if dragon is None:
            raise GameError(tr("A dragon needs one card of each rank, ace to two."))
        # Front 4-3-2 below two 5-card runs; the stronger run goes to the back (RULINGS §4: ≥).
        high, low = _sorted_hands(variant, [dragon[:5], dragon[5:10]]).hands[::-1]
        return Arrangement((tuple(dragon[10:]), low, high))
    hands = _three_hands(held, automatic)
    if hands is None:
        raise GameError(
            tr("Your cards do not make {automatic}.", automatic=AUTOMATIC_NAMES[automatic])
        )
    return _sorted_hands(variant, hands)


def _is_flush(hand: Sequence[AnyCard]) -> bool:
    real, _ = _split(hand)
    return len(hand) == 5 and len({card.suit for card in real}) <= 1


def _is_straight(hand: Sequence[AnyCard]) -> bool:
    real, _ = _split(hand)
    ranks = {card.rank for card in real}
    return len(hand) == 5 and len(ranks) == len(real) and any(ranks <= set(w) for w in _WINDOWS)


def _is_full_house(hand: Sequence[AnyCard]) -> bool:
    real, _ = _split(hand)
    counts = Counter(card.rank for card in real)
    return len(hand) == 5 and len(counts) <= 2 and all(n <= 3 for n in counts.values())


_HAND_TESTS: Final = {
    Automatic.THREE_FULL_HOUSES: (_is_full_house, tr("a full house")),
    Automatic.THREE_STRAIGHTS: (_is_straight, tr("a straight")),
    Automatic.THREE_FLUSHES: (_is_flush, tr("a flush")),
}

#: Each automatic's name inside a sentence (``Automatic.title`` in the reader's language).
AUTOMATIC_NAMES: Final = {
    Automatic.THREE_FULL_HOUSES: tr("three full houses"),
    Automatic.DRAGON: tr("dragon"),
    Automatic.THREE_STRAIGHTS: tr("three straights"),
    Automatic.THREE_FLUSHES: tr("three flushes"),
}


def automatic_name(name: str) -> Text | str:
    """An automatic by its value (``Automatic``'s, as settings and results keep it) inside a
    sentence, in no language yet; a name no automatic has as it is."""
    try:
        return AUTOMATIC_NAMES[Automatic(name)]
    except ValueError:
        return name.replace("_", " ")


def _no_such(variant: Variant, automatic: Automatic) -> Text:
    return tr(
        "{game} has no automatic called {automatic}.",
        game=variant_title(variant),
        automatic=AUTOMATIC_NAMES[automatic],
    )


def verify_automatic(
    variant: Variant, held: Sequence[AnyCard] | None, arrangement: Arrangement, automatic: Automatic
) -> tuple[HandValue, ...]:
    """The hands' values if the arrangement is legal and shows the automatic; else ``GameError``."""
    if variant.automatics is None or automatic not in variant.automatics.precedence:
        raise GameError(_no_such(variant, automatic))
    values = verify_arrangement(variant, held, arrangement)
    if automatic is Automatic.DRAGON:
        if _dragon(arrangement.used) is None:
            raise GameError(tr("A dragon needs one card of each rank, ace to two, in your hands."))
        return values
    test, word = _HAND_TESTS[automatic]
    for slot, hand in zip(variant.slots, arrangement.hands, strict=True):
        if not test(hand):
            raise GameError(
                tr(
                    "For {automatic}, {slot} must be {hand} of 5 cards.",
                    automatic=AUTOMATIC_NAMES[automatic],
                    slot=slot_text(slot),
                    hand=word,
                )
            )
    return values


def dragon_suit(cards: Sequence[AnyCard]) -> Suit:
    """The suit of a dragon's ace, which breaks a tie between dragons (a joker ace is a spade)."""
    dragon = _dragon(cards)
    if dragon is None:
        raise GameError(tr("A dragon needs one card of each rank, ace to two."))
    ace = dragon[0]
    return ace.suit if isinstance(ace, Card) else Suit.SPADES


def automatic_points(
    rules: AutomaticRules,
    mine: Automatic | None,
    my_hands: tuple[HandValue, ...],
    theirs: Automatic | None,
    their_hands: tuple[HandValue, ...],
) -> int:
    """What the first player wins (negative: loses) by automatics (RULINGS §4), before any x2."""
    if mine is None and theirs is None:
        return 0
    if theirs is None:
        return rules.against_regular
    if mine is None:
        return -rules.against_regular
    if mine is not theirs:
        higher = rules.precedence.index(mine) < rules.precedence.index(theirs)
        return rules.against_lower if higher else -rules.against_lower
    if mine is Automatic.DRAGON:
        a = dragon_suit([card for value in my_hands for card in value.cards])
        b = dragon_suit([card for value in their_hands for card in value.cards])
        return (a > b) * rules.dragon_tiebreak - (a < b) * rules.dragon_tiebreak
    won = sum(x.key > y.key for x, y in zip(my_hands, their_hands, strict=True))
    lost = sum(x.key < y.key for x, y in zip(my_hands, their_hands, strict=True))
    if won == lost:
        return 0
    points = rules.sweep if max(won, lost) == len(my_hands) else rules.majority
    return points if won > lost else -points
