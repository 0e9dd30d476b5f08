"""Computer players of the Pyramid games: three levels of play and one rule for declaring.

- **casual** sets its strongest hand first ("top first"): the strongest hand that fits the top
  slot, then the strongest that fits below it, and so on; the baseline a newcomer meets.
- **steady** weighs a handful of ways to set its cards (top first and a dozen legal settings
  drawn at random, seeded by the cards) by the field model, and plays the best of them.
- **strong** is the solver: the best setting under the field model (an automatic when it pays).

Every level declares the same way: it plays on while its cards, set by the solver as they are
now, are worth more against the field than surrendering costs (``plays_on``). A computer sees
only its own cards.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Sequence
from enum import Enum
from typing import Final

from engine.arrangement import Arrangement, is_legal_keys
from engine.cards import JOKER_CODE, AnyCard, card_from_code, standard_deck
from engine.errors import GameError, HandError
from engine.evaluate import evaluate, evaluator
from engine.solver.big_hands import big_hands
from engine.solver.model import FieldModel, load_model
from engine.solver.search import minus
from engine.solver.solve import solve
from engine.variants import Automatic, Payee, Variant

#: Legal settings the steady level draws at random beside top first.
STEADY_DRAWS = 12
#: Completions of the cards to come that a computer weighs before it declares.
DECLARE_SAMPLES = 3


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
        raise GameError(f"A computer plays {known}, not {name[:20]!r}.") from None


def _arrangement(hands: Sequence[Sequence[int]]) -> Arrangement:
    return Arrangement(tuple(tuple(card_from_code(c) for c in hand) for hand in hands))


def top_first(variant: Variant, held: Sequence[int]) -> Arrangement | None:
    """The strongest hand that fits the top slot, then the strongest that fits below it, ...

    None on the rare holding where this greed paints itself into a corner.
    """
    keyer = evaluator(variant.hand_rules)
    left = tuple(sorted(held))
    cap: tuple[int, ...] | None = None
    hands: list[tuple[int, ...]] = []
    slots = variant.slots
    for position in range(len(slots) - 1, -1, -1):
        room = len(left) - sum(min(s.allowed_sizes) for s in slots[:position])
        best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
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
                if key[0] < rule.min_ladder or (cap is not None and key >= cap):
                    continue
                if best is None or key > best[1]:
                    best = (combo, key)
        if best is None:
            return None
        hands.append(best[0])
        cap = best[1]
        left = minus(left, best[0])
    arrangement = _arrangement(hands[::-1])
    keys = [keyer.key(hand) for hand in hands[::-1]]
    return arrangement if is_legal_keys(variant, arrangement.sizes, keys) else None


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


def steady(variant: Variant, held: Sequence[int]) -> Arrangement:
    """Top first and a dozen random legal settings, the best of them by the field model."""
    model = load_model(variant)
    rng = random.Random(hash(tuple(sorted(held))))
    candidates = [top_first(variant, held)]
    candidates += [random_legal(variant, held, rng) for _ in range(STEADY_DRAWS)]
    found = [arrangement for arrangement in candidates if arrangement is not None]
    if not found:
        return solve(variant, [card_from_code(c) for c in held], budget_s=0.2).arrangement
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
        return steady(variant, codes), None
    arrangement = top_first(variant, codes)
    if arrangement is None:  # cornered: the quick legal setting the solver keeps ready
        arrangement = solve(variant, held, budget_s=min(budget_s, 0.2)).arrangement
    return arrangement, None


def surrender_cost(variant: Variant, round_: int, opponents: int, ante: int) -> int:
    """Chips a surrender at this declaration costs, beyond what is already in the pot."""
    if variant.casino is not None:
        return variant.casino.fold_match * ante
    declaration = variant.declarations[round_]
    each = declaration.surrender_cost
    return each * opponents if declaration.paid_to is Payee.EACH_PLAYER else each


def plays_on(
    variant: Variant,
    round_: int,
    held: Sequence[AnyCard],
    *,
    opponents: int,
    ante: int,
    budget_s: float,
) -> bool:
    """The declaring rule of every computer: play on unless surrendering costs less than what
    its cards are expected to lose against the field once the draws are in.

    The expectation is a few completions of the cards still to come (drawn from what the shoe
    may still hold, seeded by the cards, so the same cards decide the same way), each set by the
    solver within a share of the budget.
    """
    expected = playing_on(variant, round_, held, budget_s=budget_s)
    return expected_chips(variant, expected, opponents=opponents, ante=ante) >= -surrender_cost(
        variant, round_, opponents, ante
    )


def playing_on(variant: Variant, round_: int, held: Sequence[AnyCard], *, budget_s: float) -> float:
    """What cards held at a declaration are expected to score per opponent once the draws are
    in: the solver's points over a few completions of them (seeded by the cards)."""
    return statistics.fmean(
        solve(variant, cards, budget_s=budget_s / DECLARE_SAMPLES).ev
        for cards in _completions(variant, round_, held)
    )


def expected_chips(variant: Variant, ev: float, *, opponents: int, ante: int) -> float:
    """Chips that points per opponent (as the field model and the solver count them, the game's
    multiplier applied) come to at a table of ``opponents``."""
    if variant.casino is not None:
        return ev * ante  # against the dealer a point is worth an ante
    return ev * opponents * variant.chips_per_point


def _completions(variant: Variant, round_: int, held: Sequence[AnyCard]) -> list[list[AnyCard]]:
    """``DECLARE_SAMPLES`` ways the draws of this and the later declarations may come."""
    to_come = sum(d.draw for d in variant.declarations[round_:])
    unseen = [card.code for card in standard_deck()] * variant.decks
    unseen += [JOKER_CODE] * variant.jokers
    for card in held:
        unseen.remove(card.code)
    rng = random.Random(hash(tuple(sorted(card.code for card in held))))
    return [
        [*held, *(card_from_code(code) for code in rng.sample(unseen, to_come))]
        for _ in range(DECLARE_SAMPLES)
    ]
