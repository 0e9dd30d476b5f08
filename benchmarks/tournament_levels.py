"""The computer levels against one another: chips per deal, declarations included.

Run: .venv/bin/python -m benchmarks.tournament_levels [--deals 2000] [--games showdown standard
     casino] [--seed 1] [--workers N]

Each deal seats one computer of each level (casual, steady, strong) at a table of the game and
plays it through as the bot does: every computer declares by the one rule (``plays_on``), draws,
sets its cards its own way, and the engine's settlement moves the chips (antes, surrenders, the
pot, points). The Casino Version seats the three against the bot dealer (the solver), each
settled against it alone. Seats rotate with the deal, so each level sits in each seat as often.
Printed: each level's chips per deal with its standard error, and how often each surrendered.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from benchmarks.progress import progress
from engine.arrangement import verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import AnyCard, Shoe
from engine.players import Level, computer_setting, plays_on
from engine.scoring import PlayedHands
from engine.settlement import Seat, balances, settle
from engine.solver.solve import solve
from engine.variants import Variant, variant_named

LEVELS = tuple(Level)
#: The bot's budget for a computer's decision.
BUDGET_S = 0.5


def _played(variant: Variant, name: str, level: Level, held: Sequence[AnyCard]) -> PlayedHands:
    arrangement, automatic = computer_setting(variant, level, held, budget_s=BUDGET_S)
    if automatic is None:
        values = verify_arrangement(variant, held, arrangement)
    else:
        values = verify_automatic(variant, held, arrangement, automatic)
    return PlayedHands(name, values, automatic)


def one_deal(game: str, deal: int, seed: int) -> tuple[dict[str, int], dict[str, int]]:
    """(chips won per level, surrenders per level) of one deal."""
    variant = variant_named(game)
    rng = random.Random(seed * 1_000_003 + deal)
    shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=rng)
    shift = deal % len(LEVELS)
    seats = [LEVELS[(i + shift) % len(LEVELS)] for i in range(len(LEVELS))]
    names = [level.value for level in seats]
    held = {name: list(shoe.deal(variant.deal)) for name in names}
    ante = variant.ante
    surrendered: dict[str, int | None] = dict.fromkeys(names)
    for round_, declaration in enumerate(variant.declarations):
        staying = [n for n in names if surrendered[n] is None]
        for name in staying:
            opponents = 1 if variant.casino else len(staying) - 1
            if not plays_on(
                variant, round_, held[name], opponents=opponents, ante=ante, budget_s=BUDGET_S
            ):
                surrendered[name] = round_
        for name in staying:
            if surrendered[name] is None:
                held[name] += list(shoe.deal(declaration.draw))
    if variant.casino is not None:
        dealer_cards = list(shoe.deal(variant.max_held))
        dealer_solution = solve(variant, dealer_cards, budget_s=BUDGET_S)
        dealer = PlayedHands(
            "dealer", verify_arrangement(variant, dealer_cards, dealer_solution.arrangement)
        )
        chips: dict[str, int] = {}
        for name in names:
            hands = (
                None
                if surrendered[name] is not None
                else _played(variant, name, LEVELS[names.index(name)], held[name])
            )
            seat = Seat(name, surrendered[name], hands, ante)
            chips[name] = balances(settle(variant, [seat], dealer_hands=dealer)).get(name, 0)
    else:
        table = []
        for name, level in zip(names, seats, strict=True):
            hands = None
            if surrendered[name] is None:
                hands = _played(variant, name, level, held[name])
            table.append(Seat(name, surrendered[name], hands, ante))
        nets = balances(settle(variant, table, dealer=deal % len(names)))
        chips = {name: nets.get(name, 0) for name in names}
    folds = {name: int(surrendered[name] is not None) for name in names}
    return chips, folds


def _interval(values: Sequence[int]) -> str:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+8.3f} ± {se:.3f}"


def main() -> None:
    """Play the tournament and print each level's chips per deal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--games", nargs="+", default=["showdown", "standard", "casino"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        for game in args.games:
            jobs = [pool.submit(one_deal, game, deal, args.seed) for deal in range(args.deals)]
            won: dict[str, list[int]] = {level.value: [] for level in LEVELS}
            folded: dict[str, int] = dict.fromkeys(won, 0)
            for job in progress(jobs, total=args.deals, what=game):
                chips, folds = job.result()
                for name in won:
                    won[name].append(chips[name])
                    folded[name] += folds[name]
            title = variant_named(game).title
            print(f"{title}: {args.deals} deals, seed {args.seed}; chips per deal (± s.e.)")
            for name, values in won.items():
                print(
                    f"  {name:<7} {_interval(values)}   surrendered {folded[name] / args.deals:.1%}"
                )


if __name__ == "__main__":
    main()
