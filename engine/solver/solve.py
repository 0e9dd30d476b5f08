"""The solver's public face: the best arrangement, or an automatic when it pays more."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.arrangement import Arrangement, verify_arrangement
from engine.automatics import detect_automatics, layout_automatic
from engine.cards import JOKER_CODE, AnyCard, card_from_code
from engine.errors import GameError
from engine.evaluate import evaluator
from engine.solver.model import FieldModel, load_model
from engine.solver.search import Clock, cpu_clock, search
from engine.text import tr
from engine.variants import Automatic, Variant, variant_title

#: Kept from a budget for what follows the search: freeing its candidates (about 10 ms for 25
#: cards), the automatics, their layout and the final check.
_AFTER_SEARCH_S = 0.02


@dataclass(frozen=True, slots=True)
class Solution:
    """A legal arrangement (weakest slot first), its EV per opponent, and how it was found."""

    arrangement: Arrangement
    ev: float
    automatic: Automatic | None
    #: False when a time budget ran out first: then the best arrangement found, not proven best.
    exact: bool
    #: Wall milliseconds of the whole call.
    ms: float


def _cards(codes: Sequence[int]) -> tuple[AnyCard, ...]:
    return tuple(card_from_code(code) for code in sorted(codes, reverse=True))


def automatic_ev(variant: Variant) -> float:
    """What declaring an automatic scores per opponent, taken as a regular player.

    The field rarely holds an automatic (a few in a thousand deals), so the solver compares
    against_regular * multiplier with Σ v_p, both per opponent, and ignores the rare opponent
    whose automatic ranks higher.
    """
    rules = variant.automatics
    return 0.0 if rules is None else float(rules.against_regular * variant.multiplier)


def verify_dealable(variant: Variant, held: Sequence[AnyCard]) -> None:
    """Raise ``GameError`` unless the variant's shoe could deal ``held``.

    A holding no shoe deals (Qc 25 times) may have no legal setting at all, and then no greedy
    one: the search would run to its end to prove it, past any budget.
    """
    counts = Counter(card.code for card in held)
    shoe = tr(
        "{game} deals from {decks} decks and {jokers} jokers",
        game=variant_title(variant),
        decks=variant.decks,
        jokers=variant.jokers,
    )
    if counts[JOKER_CODE] > variant.jokers:
        raise GameError(
            tr("{shoe}: no holding has {count} jokers.", shoe=shoe, count=counts[JOKER_CODE])
        )
    for code, count in counts.items():
        if code != JOKER_CODE and count > variant.decks:
            raise GameError(
                tr(
                    "{shoe}: no holding has {card} {count} times.",
                    shoe=shoe,
                    card=str(card_from_code(code)),
                    count=count,
                )
            )


def solve(
    variant: Variant,
    held: Sequence[AnyCard],
    *,
    model: FieldModel | None = None,
    budget_s: float | None = None,
    clock: Clock = cpu_clock,
) -> Solution:
    """The arrangement of ``held`` with the greatest expected points under the field model.

    ``budget_s`` bounds the whole call in seconds of ``clock``, CPU time of the calling thread
    (``search.cpu_clock``), so a busy machine stretches the call but never cuts its proof
    short: the search gets what is left of it once the model and the evaluator's lookups are
    loaded, less a little for the automatics and the final check; a legal setting is ready
    before the search starts, so the answer never waits for the search's first one.
    Raises ``GameError`` when the cards cannot be set at all (too few of them), or when the
    variant's shoe could not have dealt them.
    """
    started = time.perf_counter()
    begun = clock()
    model = model or load_model(variant)
    evaluator(variant.hand_rules)  # its lookups are read once per process, inside the budget
    codes = [card.code for card in held]
    if len(codes) < variant.min_used:
        raise GameError(
            tr(
                "{game} needs at least {count} cards to set.",
                game=variant_title(variant),
                count=variant.min_used,
            )
        )
    if len(codes) > variant.max_held:
        raise GameError(
            tr(
                "{game} deals at most {count} cards.",
                game=variant_title(variant),
                count=variant.max_held,
            )
        )
    verify_dealable(variant, held)
    if budget_s is not None:
        spent = clock() - begun
        budget_s = max(0.0, budget_s - spent - _AFTER_SEARCH_S)
    found = search(variant, model, codes, budget_s=budget_s, clock=clock)
    if found is None:
        raise GameError(tr("These cards cannot be set into legal hands."))
    arrangement = Arrangement(tuple(_cards(hand) for hand in found.hands), _cards(found.discards))
    ev, automatic = found.ev, None
    autos = detect_automatics(variant, held)
    if autos and automatic_ev(variant) > ev:
        automatic, ev = autos[0], automatic_ev(variant)
        laid = layout_automatic(variant, held, automatic)
        left = list(codes)
        for card in laid.used:
            left.remove(card.code)
        arrangement = Arrangement(laid.hands, _cards(left))
    # Every answer is checked by the same rule code a player's arrangement goes through.
    verify_arrangement(variant, held, arrangement)
    ms = (time.perf_counter() - started) * 1000
    return Solution(arrangement, ev, automatic, found.exact, ms)
