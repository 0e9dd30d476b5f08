"""Solver checks too long for CI: legality on many seeded deals, optimality against the reference.

Run:
  .venv/bin/python -m benchmarks.check_solver legality --variant casino --deals 10000
  .venv/bin/python -m benchmarks.check_solver optimality --variant no-surrender --cards 13
  .venv/bin/python -m benchmarks.check_solver optimality --variant no-surrender --cards 13 \
      --weak-later-from 0

Legality deals hold 0 to the shoe's number of jokers in turn; every answer of ``solve`` goes
through ``is_legal`` with the holding. Optimality compares the search's EV with the exhaustive
maximum (``engine.solver.exhaustive``: ``best_ev_three_slots`` for the three-slot games, else
``best_ev``) under the same field model: 0 mismatches is the target. ``--weak-later-from 0``
makes every holding's 5-card high cards and pairs later, as only Showdown's big holdings do (no
reference reaches 25 cards), so the reference checks that path of the search too.
"""

from __future__ import annotations

import argparse
import time

from benchmarks.progress import progress
from benchmarks.solver_deals import deals
from engine.arrangement import is_legal
from engine.cards import card_from_code
from engine.solver import search as search_module
from engine.solver.exhaustive import best_ev, best_ev_three_slots
from engine.solver.model import load_model
from engine.solver.search import search
from engine.solver.solve import solve
from engine.variants import variant_named


def legality(variant_name: str, count: int, budget: float) -> None:
    """Solve ``count`` seeded holdings of the variant's full size; count illegal answers."""
    variant = variant_named(variant_name)
    illegal = 0
    exact = 0
    started = time.perf_counter()
    holdings = deals(variant, variant.max_held, count, seed=7, max_jokers=variant.jokers)
    for codes in progress(holdings, total=count, what=f"{variant.name} deals"):
        held = [card_from_code(code) for code in codes]
        solution = solve(variant, held, budget_s=budget)
        illegal += not is_legal(variant, solution.arrangement, held)
        exact += solution.exact
    elapsed = time.perf_counter() - started
    print(
        f"{variant.name}: {count} deals of {variant.max_held} cards with 0-{variant.jokers} "
        f"jokers, {illegal} illegal answers, {exact} proven optimal, {elapsed:.0f} s"
    )


def optimality(variant_name: str, cards: int, count: int, jokers: int) -> None:
    """Compare the search with the exhaustive maximum on ``count`` seeded holdings."""
    variant = variant_named(variant_name)
    model = load_model(variant)
    # Three-slot games have the faster reference (one front table per remainder of cards).
    reference_of = best_ev_three_slots if len(variant.slots) == 3 else best_ev
    mismatches = 0
    started = time.perf_counter()
    holdings = deals(variant, cards, count, seed=3, max_jokers=jokers)
    for codes in progress(holdings, total=count, what=f"{variant.name} holdings"):
        found = search(variant, model, codes)
        reference = reference_of(variant, model, codes)
        if found is None or reference is None:
            mismatches += (found is None) != (reference is None)
        elif abs(found.ev - reference) > 1e-9:
            mismatches += 1
    elapsed = time.perf_counter() - started
    print(
        f"{variant.name}: {count} holdings of {cards} cards with 0-{jokers} jokers, "
        f"{mismatches} mismatches against the exhaustive maximum, {elapsed:.0f} s"
    )


def main() -> None:
    """Run one check."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("check", choices=("legality", "optimality"))
    parser.add_argument("--variant", required=True)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--cards", type=int, default=9, help="optimality: cards per holding")
    parser.add_argument("--jokers", type=int, default=0, help="optimality: most jokers per deal")
    parser.add_argument("--budget-ms", type=float, default=2000.0, help="legality: search limit")
    parser.add_argument(
        "--weak-later-from",
        type=int,
        help="make the 5-card hands below two pair later from this many cards (the search's"
        f" own: {search_module.WEAK_LATER_FROM})",
    )
    args = parser.parse_args()
    if args.weak_later_from is not None:
        search_module.WEAK_LATER_FROM = args.weak_later_from
    if args.check == "legality":
        legality(args.variant, args.deals, args.budget_ms / 1000)
    else:
        optimality(args.variant, args.cards, args.deals, args.jokers)


if __name__ == "__main__":
    main()
