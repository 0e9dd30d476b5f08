"""The computer levels against one another: chips per deal, declarations included.

Run: .venv/bin/python -m benchmarks.tournament_levels [--deals 2000] [--games showdown standard
     casino] [--seed 1] [--workers N] [--budget 1.5]

Each deal gives three holdings from one shoe (each with the cards it would draw) and plays them
as the bot does: every holding declares by the one rule (``plays_on``), and each level sets the
holdings that play on its own way, within the bot's budget. The three levels then play the deal
in all six seatings, so every level sets every holding, in every seat, against each other level
on the same cards (common random numbers): a level's figure for the deal is its mean over the
seatings, and a difference between two levels is taken deal by deal, which removes most of the
luck of the cards from it (two levels that set alike differ by exactly 0). The engine's
settlement moves the chips (antes, surrenders, the pot, points). In the Casino Version each
holding is settled against the bot dealer (the solver) alone, the same dealer's hand for every
level; a level's figure is its chips per holding.

The declaring rule depends on the cards only, so a holding declares the same way whichever level
holds it: surrenders are counted per holding, not per level. Printed: each level's chips per deal,
the differences between the levels, each with its standard error over deals, and the surrenders.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from benchmarks.progress import progress
from engine.arrangement import verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import AnyCard, Shoe
from engine.declaring import plays_on
from engine.players import Level, computer_setting
from engine.scoring import PlayedHands
from engine.settlement import Seat, balances, settle
from engine.solver.solve import solve
from engine.variants import Variant, variant_named
from tables.rules import SOLVER_BUDGET_S

LEVELS = tuple(Level)
#: The differences printed, each as the first level's chips less the second's.
DIFFERENCES = (
    (Level.STRONG, Level.CASUAL),
    (Level.STEADY, Level.CASUAL),
    (Level.STRONG, Level.STEADY),
)


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal's outcome: each level's mean chips over the seatings, and the surrenders."""

    chips: dict[Level, float]
    holdings: int
    surrendered: int


def _played(
    variant: Variant, name: str, level: Level, held: Sequence[AnyCard], budget_s: float
) -> PlayedHands:
    arrangement, automatic = computer_setting(variant, level, held, budget_s=budget_s)
    if automatic is None:
        values = verify_arrangement(variant, held, arrangement)
    else:
        values = verify_automatic(variant, held, arrangement, automatic)
    return PlayedHands(name, values, automatic)


def _declare(
    variant: Variant, held: list[list[AnyCard]], draws: list[list[list[AnyCard]]], budget_s: float
) -> list[int | None]:
    """The declaration each holding surrenders at (None: plays on), drawing as it goes."""
    surrendered: list[int | None] = [None] * len(held)
    for round_ in range(len(variant.declarations)):
        staying = [i for i, at in enumerate(surrendered) if at is None]
        if variant.casino is None and len(staying) < 2:
            break  # the last player left takes the pot at once: nothing more to declare
        opponents = 1 if variant.casino else len(staying) - 1
        for i in staying:
            if not plays_on(
                variant,
                round_,
                held[i],
                opponents=opponents,
                ante=variant.ante,
                seated=len(held),
                budget_s=budget_s,
            ):
                surrendered[i] = round_
        for i in staying:
            if surrendered[i] is None:
                held[i] += draws[i][round_]
    return surrendered


def one_deal(game: str, deal: int, seed: int, budget_s: float) -> Deal:
    """Three holdings of one shoe, played by the three levels in all six seatings."""
    variant = variant_named(game)
    rng = random.Random(seed * 1_000_003 + deal)
    shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=rng)
    seats = len(LEVELS)
    # Each seat's cards and draws come off the shoe at once, so every seating meets the same.
    held = [list(shoe.deal(variant.deal)) for _ in range(seats)]
    draws = [[list(shoe.deal(d.draw)) for d in variant.declarations] for _ in range(seats)]
    surrendered = _declare(variant, held, draws, budget_s)
    hands = {
        (i, level): _played(variant, level.value, level, held[i], budget_s)
        for i in range(seats)
        if surrendered[i] is None
        for level in LEVELS
    }
    chips = dict.fromkeys(LEVELS, 0.0)
    if variant.casino is not None:
        dealer_cards = list(shoe.deal(variant.max_held))
        solution = solve(variant, dealer_cards, budget_s=budget_s)
        dealer = PlayedHands(
            "dealer", verify_arrangement(variant, dealer_cards, solution.arrangement)
        )
        for i in range(seats):
            for level in LEVELS:
                seat = Seat(level.value, surrendered[i], hands.get((i, level)), variant.ante)
                won = balances(settle(variant, [seat], dealer_hands=dealer)).get(level.value, 0)
                chips[level] += won / seats
    else:
        seatings = list(itertools.permutations(LEVELS))
        for sitting in seatings:
            table = [
                Seat(level.value, surrendered[i], hands.get((i, level)), variant.ante)
                for i, level in enumerate(sitting)
            ]
            nets = balances(settle(variant, table, dealer=deal % seats))
            for level in LEVELS:
                chips[level] += nets.get(level.value, 0) / len(seatings)
    return Deal(chips, seats, sum(at is not None for at in surrendered))


def _interval(values: Sequence[float]) -> str:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+8.3f} ± {se:.3f}"


def report(title: str, unit: str, deals: Sequence[Deal]) -> list[str]:
    """The lines printed for one game."""
    count = len(deals)
    holdings = sum(deal.holdings for deal in deals)
    surrendered = sum(deal.surrendered for deal in deals)
    lines = [f"{title}: {count} deals, chips per {unit} (± s.e. over deals)"]
    for level in LEVELS:
        lines.append(f"  {level.value:<16} {_interval([deal.chips[level] for deal in deals])}")
    for first, second in DIFFERENCES:
        paired = [deal.chips[first] - deal.chips[second] for deal in deals]
        lines.append(f"  {first.value} - {second.value:<7} {_interval(paired)}")
    lines.append(f"  holdings surrendered {surrendered / holdings:.1%} of {holdings}")
    return lines


def main() -> None:
    """Play the tournament and print each level's chips per deal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--games", nargs="+", default=["showdown", "standard", "casino"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=float, default=SOLVER_BUDGET_S, help="seconds")
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        for game in args.games:
            jobs = [
                pool.submit(one_deal, game, deal, args.seed, args.budget)
                for deal in range(args.deals)
            ]
            deals = [job.result() for job in progress(jobs, total=args.deals, what=game)]
            variant = variant_named(game)
            title = f"{variant.title}, seed {args.seed}, budget {args.budget} s"
            unit = "holding" if variant.casino is not None else "deal"
            print("\n".join(report(title, unit, deals)), flush=True)


if __name__ == "__main__":
    main()
