"""Computer players of the Pyramid games: three levels of play and one rule for declaring.

- **casual** sets its strongest hand first ("top first"): the strongest hand that fits the top
  slot, then the strongest that fits below it, and so on; the baseline a newcomer meets.
- **steady** weighs a dozen ways to set its cards: each of the dozen strongest hands that fit
  the top slot, with the rest set top first below it; it plays the best of them by the field
  model (the first of them is top first, so by that measure it never sets worse than casual).
- **strong** is the solver: the best setting under the field model (an automatic when it pays).

Every level declares the same way, by the rule in ``engine.declaring``. A computer sees only its
own cards.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from enum import Enum
from typing import Final

from engine.arrangement import Arrangement, is_legal_keys
from engine.cards import AnyCard, card_from_code
from engine.errors import GameError, HandError
from engine.evaluate import Evaluator, evaluate, evaluator
from engine.solver.big_hands import big_hands
from engine.solver.model import FieldModel, load_model
from engine.solver.search import minus
from engine.solver.solve import solve
from engine.text import tr
from engine.variants import Automatic, Variant

#: Top hands the steady level tries, strongest first, each with the rest set top first below it.
STEADY_TOPS = 12
#: The share of the budget after which the steady level tries no further top hand.
STEADY_SHARE = 0.6

Codes = tuple[int, ...]
Key = tuple[int, ...]


class Level(Enum):
    """How well a computer plays."""

    CASUAL = "casual"
    STEADY = "steady"
    STRONG = "strong"

    @property
    def blurb(self) -> str:
        """The level in a few words, for a menu."""
        return _BLURBS[self]


_BLURBS: Final = {
    Level.CASUAL: "strongest hand first, quick",
    Level.STEADY: "weighs a dozen ways, beatable",
    Level.STRONG: "the solver",
}


def level_named(name: str) -> Level:
    """The level of this name; ``GameError`` naming the levels otherwise."""
    try:
        return Level(name.strip().lower())
    except ValueError:
        known = ", ".join(level.value for level in Level)
        raise GameError(
            tr("A computer plays {known}, not {name}.", known=known, name=repr(name[:20]))
        ) from None


def _arrangement(hands: Sequence[Sequence[int]]) -> Arrangement:
    return Arrangement(tuple(tuple(card_from_code(c) for c in hand) for hand in hands))


def _key(found: tuple[Key, Codes]) -> Key:
    return found[0]  # hands of one key are alike: the first found stands for them


def _fitting(
    variant: Variant, keyer: Evaluator, left: Codes, position: int, cap: Key | None
) -> list[tuple[Key, Codes]]:
    """Every hand of the cards left that fits this slot below ``cap``, with its key, leaving
    enough cards for the slots below it."""
    slots = variant.slots
    room = len(left) - sum(min(s.allowed_sizes) for s in slots[:position])
    found: list[tuple[Key, Codes]] = []
    for rule in slots[position].sizes:
        if rule.size > room:
            continue
        if rule.size > 5:
            pool = [combo for combo, _ in big_hands(keyer, left, rule.size)]
        else:
            pool = list(dict.fromkeys(itertools.combinations(left, rule.size)))
        for combo in pool:
            try:
                key = keyer.key(combo)
            except HandError:
                continue
            if key[0] >= rule.min_ladder and (cap is None or key < cap):
                found.append((key, combo))
    return found


def _top_first_below(
    variant: Variant, keyer: Evaluator, left: Codes, top: tuple[Key, Codes]
) -> Arrangement | None:
    """Below a chosen top hand, the strongest hand that fits each slot in turn (None if the
    greed paints itself into a corner)."""
    cap, hand = top
    hands = [hand]
    keys = [cap]
    left = minus(left, hand)
    for position in range(len(variant.slots) - 2, -1, -1):
        found = _fitting(variant, keyer, left, position, cap)
        if not found:
            return None
        cap, hand = max(found, key=_key)
        hands.append(hand)
        keys.append(cap)
        left = minus(left, hand)
    arrangement = _arrangement(hands[::-1])
    return arrangement if is_legal_keys(variant, arrangement.sizes, keys[::-1]) else None


def _strongest_tops(variant: Variant, keyer: Evaluator, held: Codes) -> list[tuple[Key, Codes]]:
    """The hands that fit the top slot, strongest first, one per key."""
    tops: dict[Key, Codes] = {}
    for key, hand in _fitting(variant, keyer, held, len(variant.slots) - 1, None):
        tops.setdefault(key, hand)
    return sorted(tops.items(), key=_key, reverse=True)


def top_first(variant: Variant, held: Sequence[int]) -> Arrangement | None:
    """The strongest hand that fits the top slot, then the strongest that fits below it, ...

    None on the rare holding where this greed paints itself into a corner.
    """
    keyer = evaluator(variant.hand_rules)
    left = tuple(sorted(held))
    tops = _fitting(variant, keyer, left, len(variant.slots) - 1, None)
    return _top_first_below(variant, keyer, left, max(tops, key=_key)) if tops else None


def random_legal(variant: Variant, held: Sequence[int], rng: random.Random) -> Arrangement | None:
    """A random split into the slots' smallest sizes, drawn again until it is legal."""
    keyer = evaluator(variant.hand_rules)
    sizes = [min(slot.allowed_sizes) for slot in variant.slots]
    cards = list(held)
    for _ in range(200):
        rng.shuffle(cards)
        hands, start = [], 0
        for size in sizes:
            hands.append(tuple(cards[start : start + size]))
            start += size
        # Each run of equal sizes sorted weakest first: order is what a player fixes first.
        for size in set(sizes):
            slots = [i for i, s in enumerate(sizes) if s == size]
            ordered = sorted((hands[i] for i in slots), key=keyer.key)
            for i, hand in zip(slots, ordered, strict=True):
                hands[i] = hand
        if is_legal_keys(variant, sizes, [keyer.key(hand) for hand in hands]):
            return _arrangement(hands)
    return None


def arrangement_ev(
    variant: Variant, arrangement: Arrangement, model: FieldModel | None = None
) -> float:
    """What an arrangement is worth per opponent under the field model."""
    model = model or load_model(variant)
    rules = variant.hand_rules
    return sum(
        model.value(position, evaluate(hand, rules).key)
        for position, hand in enumerate(arrangement.hands)
    )


def steady(variant: Variant, held: Sequence[int], *, budget_s: float) -> Arrangement:
    """Each of the dozen strongest hands that fit the top slot, the rest set top first below
    it: the best of these settings by the field model.

    The top hands are tried strongest first, the first always and the others while most of the
    budget is left (on a free machine, all twelve of a 25-card holding take well under it).
    """
    deadline = time.perf_counter() + STEADY_SHARE * budget_s
    model = load_model(variant)
    keyer = evaluator(variant.hand_rules)
    left = tuple(sorted(held))
    found: list[Arrangement] = []
    for tried, top in enumerate(_strongest_tops(variant, keyer, left)[:STEADY_TOPS]):
        if tried and time.perf_counter() > deadline:
            break
        arrangement = _top_first_below(variant, keyer, left, top)
        if arrangement is not None:
            found.append(arrangement)
    if not found:
        return solve(
            variant, [card_from_code(c) for c in held], budget_s=min(budget_s, 0.2)
        ).arrangement
    return max(found, key=lambda arrangement: arrangement_ev(variant, arrangement, model))


def computer_setting(
    variant: Variant, level: Level, held: Sequence[AnyCard], *, budget_s: float
) -> tuple[Arrangement, Automatic | None]:
    """How a computer of this level sets its cards (within the solver's budget)."""
    codes = [card.code for card in held]
    if level is Level.STRONG:
        solution = solve(variant, held, budget_s=budget_s)
        return solution.arrangement, solution.automatic
    if level is Level.STEADY:
        return steady(variant, codes, budget_s=budget_s), None
    arrangement = top_first(variant, codes)
    if arrangement is None:  # cornered: the quick legal setting the solver keeps ready
        arrangement = solve(variant, held, budget_s=min(budget_s, 0.2)).arrangement
    return arrangement, None


def expected_chips(variant: Variant, ev: float, *, opponents: int, ante: int) -> float:
    """Chips that points per opponent (as the field model and the solver count them, the game's
    multiplier applied) come to at a table of ``opponents``."""
    if variant.casino is not None:
        return ev * ante  # against the dealer a point is worth an ante
    return ev * opponents * variant.chips_per_point
