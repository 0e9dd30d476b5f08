"""Solver checks too long for CI: legality on many seeded deals, optimality against the reference.

Run:
  .venv/bin/python -m benchmarks.check_solver legality --variant casino --deals 10000
  .venv/bin/python -m benchmarks.check_solver optimality --variant no-surrender --cards 13
  .venv/bin/python -m benchmarks.check_solver optimality --variant no-surrender --cards 13 \
      --weak-later-from 0
  .venv/bin/python -m benchmarks.check_solver same --variant showdown --deals 300 \
      --before 59060c0 [--long-suit]

Legality deals hold 0 to the shoe's number of jokers in turn; every answer of ``solve`` goes
through ``is_legal`` with the holding. Optimality compares the search's EV with the exhaustive
maximum (``engine.solver.exhaustive``: ``best_ev_three_slots`` for the three-slot games, else
``best_ev``) under the same field model: 0 mismatches is the target. ``--weak-later-from 0``
makes every holding's 5-card high cards and pairs later, as only Showdown's big holdings do (no
reference reaches 25 cards), so the reference checks that path of the search too.

Same compares the proven values with an earlier search (``--before``: a commit, exported with
``git archive``, or a folder holding a tree), run in a process of its own on the same seeded
holdings of the variant's full size (0 to the shoe's jokers in turn; ``--long-suit``: Showdown's
one joker and 8-10 cards of one suit): where Showdown has no exhaustive reference, a search
made faster must prove what the earlier one proved. 0 differences is the target.

Each check exits with status 1 when it finds an illegal answer, a mismatch or a difference.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_solver import export
from benchmarks.bench_solver_tail import long_suit_holdings
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


def legality(variant_name: str, count: int, budget: float) -> int:
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
    return illegal


def optimality(variant_name: str, cards: int, count: int, jokers: int) -> int:
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
    return mismatches


#: Run in the earlier tree: the proven value of each holding read from stdin (JSON lists).
_BEFORE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from engine.solver.model import load_model
from engine.solver.search import search
from engine.variants import variant_named
variant = variant_named(sys.argv[2])
model = load_model(variant)
for line in sys.stdin:
    found = search(variant, model, json.loads(line))
    print(json.dumps(None if found is None else [found.ev, found.exact]), flush=True)
"""


def same(variant_name: str, count: int, before: str, *, long_suit: bool) -> int:
    """Compare the proven values of this search and an earlier one on seeded holdings."""
    variant = variant_named(variant_name)
    model = load_model(variant)
    if long_suit:
        holdings = long_suit_holdings(count, seed=5)
        kind = "one joker and 8-10 cards of one suit"
    else:
        holdings = deals(variant, variant.max_held, count, seed=5, max_jokers=variant.jokers)
        kind = f"0-{variant.jokers} jokers"
    differences = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(before) if Path(before).is_dir() else export(before, Path(folder))
        earlier = subprocess.Popen(
            [sys.executable, "-c", _BEFORE, str(tree), variant.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
        )
        assert earlier.stdin is not None and earlier.stdout is not None
        try:
            for codes in progress(holdings, total=count, what=f"{variant.name} holdings"):
                earlier.stdin.write(json.dumps(codes) + "\n")
                earlier.stdin.flush()
                found = search(variant, model, codes)
                answer = json.loads(earlier.stdout.readline())
                now = None if found is None else [found.ev, found.exact]
                if (now is None) != (answer is None) or (
                    now is not None
                    and answer is not None
                    and (not now[1] or not answer[1] or abs(now[0] - answer[0]) > 1e-9)
                ):
                    differences += 1
                    print(f"  differs: {codes}: {answer} before, {now} now")
        finally:
            earlier.stdin.close()
            earlier.wait()
    elapsed = time.perf_counter() - started
    print(
        f"{variant.name}: {count} holdings of {variant.max_held} cards ({kind}), "
        f"{differences} proven values differing from the search at {before}, {elapsed:.0f} s"
    )
    return differences


def main() -> None:
    """Run one check."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("check", choices=("legality", "optimality", "same"))
    parser.add_argument("--variant", required=True)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--cards", type=int, default=9, help="optimality: cards per holding")
    parser.add_argument("--jokers", type=int, default=0, help="optimality: most jokers per deal")
    parser.add_argument("--budget-ms", type=float, default=2000.0, help="legality: search limit")
    parser.add_argument("--before", help="same: an earlier commit or a folder with its tree")
    parser.add_argument(
        "--long-suit", action="store_true", help="same: Showdown's one joker and a long suit"
    )
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
        failures = legality(args.variant, args.deals, args.budget_ms / 1000)
    elif args.check == "optimality":
        failures = optimality(args.variant, args.cards, args.deals, args.jokers)
    else:
        if args.before is None:
            parser.error("same needs --before")
        if args.long_suit and args.variant != "showdown":
            parser.error("--long-suit holdings are Showdown's")
        failures = same(args.variant, args.deals, args.before, long_suit=args.long_suit)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
