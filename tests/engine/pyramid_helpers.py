"""Helpers for the Pyramid variant tests: random holdings, random legal arrangements, tables.

Also a reference for legality written straight from RULINGS §2-§4, independent of the variant
data, with jokers resolved by brute force (every substitution tried, the best kept).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

from engine.arrangement import Arrangement, is_legal_keys
from engine.cards import JOKER, AnyCard, Card, Rank, Suit, parse_cards, standard_deck
from engine.errors import HandError
from engine.evaluate import FULL_HOUSE, STRAIGHT, HandRules, hand_key
from engine.variants import Variant

DECK_CODES = tuple(card.code for card in standard_deck())


def cards(text: str) -> tuple[AnyCard, ...]:
    """Cards from their written form."""
    return parse_cards(text)


def shoe_cards(
    variant: Variant, ranks: Sequence[int] | None = None, jokers: int | None = None
) -> list[AnyCard]:
    """The variant's shoe, or only the cards of some ranks (power hands become likely)."""
    pool: list[AnyCard] = [
        card
        for _ in range(variant.decks)
        for card in standard_deck()
        if ranks is None or card.rank in ranks
    ]
    return pool + [JOKER] * min(variant.jokers, variant.jokers if jokers is None else jokers)


def random_holding(
    rng: random.Random,
    variant: Variant,
    size: int,
    *,
    narrow: bool = False,
    jokers: int | None = None,
) -> tuple[AnyCard, ...]:
    """``size`` cards from the variant's shoe (at most ``jokers`` jokers in it); ``narrow``
    keeps few ranks or few suits in the shoe, so power hands and automatics come often."""
    if not narrow:
        return tuple(rng.sample(shoe_cards(variant, jokers=jokers), size))
    count = rng.randint(3, 6)
    ranks = rng.sample(range(2, 15), count)
    pool = shoe_cards(variant, ranks, jokers)
    if rng.random() < 0.3:  # few suits too: flushes and straight flushes
        suits = set(rng.sample(range(4), 2))
        pool = [c for c in shoe_cards(variant, jokers=jokers) if c.is_joker or c.suit in suits]
    return tuple(rng.sample(pool, min(size, len(pool))))


def _key(hand: Sequence[AnyCard], rules: HandRules) -> tuple[int, ...] | None:
    try:
        return hand_key([card.code for card in hand], rules)
    except HandError:
        return None


def _random_sizes(rng: random.Random, variant: Variant, held: int) -> list[int] | None:
    sizes = []
    for slot in variant.slots:
        allowed = slot.allowed_sizes
        sizes.append(rng.choice(allowed) if rng.random() < 0.3 else allowed[0])
    if not variant.min_used <= sum(sizes) <= min(variant.max_used, held):
        return None
    return sizes


def _strong_hand(rng: random.Random, pool: list[AnyCard], size: int) -> list[AnyCard]:
    """The cards for a power hand: the most common rank (with jokers), else a full house."""
    by_rank: dict[int, list[AnyCard]] = {}
    for card in pool:
        if isinstance(card, Card):
            by_rank.setdefault(card.rank, []).append(card)
    jokers = [card for card in pool if card.is_joker]
    groups = sorted(by_rank.values(), key=len, reverse=True)
    hand: list[AnyCard] = []
    if groups and len(groups[0]) + len(jokers) >= min(size, 4):
        hand = groups[0][:size]
        hand += jokers[: size - len(hand)]
    elif len(groups) >= 2 and size == 5:
        hand = groups[0][:3] + groups[1][:2]
        hand += jokers[: size - len(hand)]
    if len(hand) < size:
        rest = list(pool)
        for card in hand:
            rest.remove(card)
        hand += rng.sample(rest, min(size - len(hand), len(rest)))
    for card in hand:
        pool.remove(card)
    return hand


def _sort_by_size(hands: list[list[AnyCard]], keys: list[tuple[int, ...] | None]) -> None:
    """Hands of one size are interchangeable: put them in rising order, in place."""
    sizes = [len(hand) for hand in hands]
    for size in set(sizes):
        places = [i for i, n in enumerate(sizes) if n == size]
        ordered = sorted(places, key=lambda i: keys[i] or ())
        moved = [(hands[i], keys[i]) for i in ordered]
        for place, (hand, key) in zip(places, moved, strict=True):
            hands[place], keys[place] = hand, key


def _repair(
    hands: list[list[AnyCard]], keys: list[tuple[int, ...] | None], rules: HandRules
) -> None:
    """Where a short hand beats the longer hand after it, move its cards into the longer one."""
    for position in range(1, len(hands)):
        low, high = hands[position - 1], hands[position]
        if len(low) < len(high) and (keys[position - 1] or ()) >= (keys[position] or ()):
            n = len(low)
            hands[position - 1], hands[position] = high[:n], low + high[n:]
            keys[position - 1] = _key(hands[position - 1], rules)
            keys[position] = _key(hands[position], rules)


def random_arrangement(
    rng: random.Random, variant: Variant, held: Sequence[AnyCard], *, attempts: int = 80
) -> Arrangement | None:
    """A random legal arrangement of the held cards (power hands included now and then)."""
    rules = variant.hand_rules
    for _ in range(attempts):
        sizes = _random_sizes(rng, variant, len(held))
        if sizes is None:
            continue
        pool = list(held)
        rng.shuffle(pool)
        hands: list[list[AnyCard]] = [[] for _ in sizes]
        first = 0
        if sizes[0] == 1:
            # The lowest real card as Hand 1 stays below any 3-card hand (RULINGS §1.5, kickers).
            lowest = min(pool, key=lambda c: 99 if c.is_joker else c.code)
            pool.remove(lowest)
            hands[0], first = [lowest], 1
        for position in range(len(sizes) - 1, first - 1, -1):
            slot_rule = variant.slots[position].size_rule(sizes[position])
            assert slot_rule is not None
            if slot_rule.min_ladder or rng.random() < 0.15:
                hands[position] = _strong_hand(rng, pool, sizes[position])
            else:
                hands[position] = pool[: sizes[position]]
                del pool[: sizes[position]]
        keys = [_key(hand, rules) for hand in hands]
        if any(key is None for key in keys):
            continue
        for _ in range(3):
            _sort_by_size(hands, keys)
            _repair(hands, keys, rules)
        _sort_by_size(hands, keys)
        if is_legal_keys(variant, [len(hand) for hand in hands], keys):
            return Arrangement(tuple(tuple(hand) for hand in hands))
    return None


# --- The reference: RULINGS §2-§4 read directly, jokers by brute force. ---

SHOWDOWN_SIZES = ({1}, {3}, {3, 5}, {3, 5, 6}, {5, 6, 7}, {5, 6, 7, 8, 9, 10})
CASINO_SIZES = ({1}, {3}, {5})
SEVENTEEN_SIZES = ({3, 5}, {5, 6, 7}, {5, 6, 7, 8})


def reference_key(hand: Sequence[AnyCard], rules: HandRules) -> tuple[int, ...] | None:
    """The best key over every substitution of the jokers, or None if none is a hand."""
    real = tuple(card.code for card in hand if not card.is_joker)
    jokers = len(hand) - len(real)
    if not jokers:
        return _key(hand, rules)
    if len(hand) >= 6:
        pools: list[tuple[int, ...]] = [tuple(r * 4 + s for s in Suit) for r in Rank]
        pools += [tuple(r * 4 + s for r in Rank) for s in Suit]
        candidates = itertools.chain.from_iterable(
            itertools.combinations_with_replacement(pool, jokers) for pool in pools
        )
    else:
        candidates = itertools.combinations_with_replacement(DECK_CODES, jokers)
    best: tuple[int, ...] | None = None
    for extra in candidates:
        try:
            key = hand_key(real + extra, rules)
        except HandError:
            continue
        if best is None or key > best:
            best = key
    return best


def reference_legal(
    variant: Variant, held: Sequence[AnyCard], hands: Sequence[Sequence[AnyCard]]
) -> bool:
    """Whether RULINGS allows these hands from these cards (the variant gives only its name)."""
    used = [card for hand in hands for card in hand]
    if Counter(card.code for card in used) - Counter(card.code for card in held):
        return False
    sizes = [len(hand) for hand in hands]
    name = variant.name
    allowed = {"showdown": SHOWDOWN_SIZES, "casino": CASINO_SIZES}.get(name, SEVENTEEN_SIZES)
    if len(hands) != len(allowed) or any(n not in ok for n, ok in zip(sizes, allowed, strict=True)):
        return False
    total = sum(sizes)
    if name == "showdown" and total < 20:
        return False
    if name == "casino" and total != 9:
        return False
    if name in ("standard", "no_surrender") and not 13 <= total <= 17:
        return False
    keys = [reference_key(hand, variant.hand_rules) for hand in hands]
    if any(key is None for key in keys):
        return False  # 6 or more cards that are neither n of a kind nor a straight flush
    if name == "showdown":
        if sizes[3] == 5 and keys[3][0] < FULL_HOUSE:  # type: ignore[index]
            return False
        if sizes[2] == 5 and (keys[2][0] < FULL_HOUSE or sizes[3] < 5):  # type: ignore[index]
            return False
    if name in ("standard", "no_surrender") and sizes[0] == 5 and keys[0][0] < STRAIGHT:  # type: ignore[index]
        return False
    strict = name in ("showdown", "casino")
    for low, high in itertools.pairwise(keys):
        assert low is not None and high is not None
        if high < low or (strict and high == low):
            return False
    return True
