"""A person who always takes the suggestion against the house's computers: what they win a deal,
and what the daily cap leaves them a day, per game and computer level.

Run: .venv/bin/python -m benchmarks.bench_house_cap [--deals 150] [--day 30] [--cap 100]
     [--tables showdown:3 standard:3 no-surrender:3 casino:3] [--seed 1] [--workers N]

Each deal seats a person and computers. The person plays on at every declaration and sets the
solver's hands, which is what Suggest → Take it plays; the computers declare by their rule
(``engine.declaring``) and set their cards their level's way, each level on the same deals. The
engine settles the deal, the computers' chips are the house's (``tables.settle``), and the
deals are played in days of ``--day`` deals: through each day the cut of the daily cap is taken
as a table takes it (``tables.house_cap``, the server's cap ``--cap``). Printed per game and
level: the person's chips a deal before the cap (± one standard error over deals), a day's
worth of them, and with the cap: a day's mean, the best day, and the most the person was up at
any moment of any day, neither of which passes the cap. In the
Casino Version the person plays the house's dealer: a house game, which the cap leaves alone.
"""

from __future__ import annotations

import argparse
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
from engine.settlement import Seat, Transfer, balances, settle
from engine.solver.solve import solve
from engine.variants import Variant, variant_named
from storage.rows import HouseDay
from tables.house_cap import cap_house
from tables.rules import SOLVER_BUDGET_S
from tables.settle import house_plays_computers

PERSON = 1
LEVELS = tuple(Level)
#: The person's chips, enough that no loss is ever cut (table stakes are not what is measured).
BANKROLL = 10**9


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal's chips moves per computer level, the computers' chips already the house's."""

    transfers: dict[str, tuple[Transfer, ...]]


def _played(
    variant: Variant, name: int, level: Level, held: Sequence[AnyCard], budget_s: float
) -> PlayedHands:
    arrangement, automatic = computer_setting(variant, level, held, budget_s=budget_s)
    if automatic is None:
        values = verify_arrangement(variant, held, arrangement)
    else:
        values = verify_automatic(variant, held, arrangement, automatic)
    return PlayedHands(str(name), values, automatic)


def _declare(
    variant: Variant, held: list[list[AnyCard]], draws: list[list[list[AnyCard]]], budget_s: float
) -> list[int | None]:
    """Where each seat surrenders: the person (seat 0) never, the computers by their rule."""
    seated = len(held)
    surrendered: list[int | None] = [None] * seated
    for round_ in range(len(variant.declarations)):
        staying = [i for i, at in enumerate(surrendered) if at is None]
        if variant.casino is None and len(staying) < 2:
            break  # the last player left takes the pot at once
        opponents = 1 if variant.casino else len(staying) - 1
        for i in staying:
            if i != 0 and not plays_on(
                variant,
                round_,
                held[i],
                opponents=opponents,
                ante=variant.ante,
                seated=seated,
                budget_s=budget_s,
            ):
                surrendered[i] = round_
        for i in staying:
            if surrendered[i] is None:
                held[i] += draws[i][round_]
    return surrendered


def one_deal(game: str, seats: int, deal: int, seed: int, budget_s: float) -> Deal:
    """One deal, played by the person against computers of each level in turn."""
    variant = variant_named(game)
    rng = random.Random(seed * 1_000_003 + deal)
    shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=rng)
    held = [list(shoe.deal(variant.deal)) for _ in range(seats)]
    draws = [[list(shoe.deal(d.draw)) for d in variant.declarations] for _ in range(seats)]
    surrendered = _declare(variant, held, draws, budget_s)
    names = [PERSON, *(-i for i in range(1, seats))]
    person = _played(variant, PERSON, Level.STRONG, held[0], budget_s)
    dealer = None
    if variant.casino is not None:
        cards = list(shoe.deal(variant.max_held))
        found = solve(variant, cards, budget_s=budget_s)
        dealer = PlayedHands("dealer", verify_arrangement(variant, cards, found.arrangement))
    moved: dict[str, tuple[Transfer, ...]] = {}
    for level in LEVELS:
        table = [
            Seat(
                names[i],
                surrendered[i],
                None
                if surrendered[i] is not None
                else person
                if i == 0
                else _played(variant, names[i], level, held[i], budget_s),
            )
            for i in range(seats)
        ]
        if dealer is not None:
            transfers = settle(variant, table, dealer_hands=dealer)
        else:
            transfers = settle(variant, table, dealer=deal % seats)
        moved[level.value] = house_plays_computers(transfers)
    return Deal(moved)


def _interval(values: Sequence[float]) -> str:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+8.1f} ± {se:5.1f}"


@dataclass(frozen=True, slots=True)
class Days:
    """The person's chips per deal and per day, and the most they were up at any moment."""

    per_deal: list[int]
    per_day: list[int]
    peak: int


def days_of(deals: Sequence[Sequence[Transfer]], day: int, cap: int | None) -> Days:
    """The person's chips through days of ``day`` deals, the cap's cut taken through each day
    as a table takes it (None: no cap, a house game)."""
    per_deal: list[int] = []
    per_day: list[int] = []
    peak = 0
    for start in range(0, len(deals) - day + 1, day):
        won = 0
        for transfers in deals[start : start + day]:
            if cap is not None:
                today = HouseDay(cap, {PERSON: won})
                transfers, _, _ = cap_house(transfers, today, {PERSON: BANKROLL})
            net = balances(transfers).get(PERSON, 0)
            won += net
            peak = max(peak, won)
            per_deal.append(net)
        per_day.append(won)
    return Days(per_deal, per_day, peak)


def report(title: str, variant: Variant, deals: Sequence[Deal], day: int, cap: int) -> list[str]:
    """The lines printed for one game and table size."""
    capped = variant.casino is None
    lines = [
        f"{title}: {len(deals)} deals in days of {day}"
        + (f", cap {cap} a day" if capped else ", a house game: no cap"),
        f"  {'level':<8} {'a deal, no cap':>17} {'a day, no cap':>17}"
        f" {'a day, capped':>17} {'best day':>9} {'most up':>8} {'days at the cap':>16}",
    ]
    for level in LEVELS:
        runs = [deal.transfers[level.value] for deal in deals]
        loose = days_of(runs, day, None)
        tight = days_of(runs, day, cap if capped else None)
        at_cap = sum(won == cap for won in tight.per_day)
        lines.append(
            f"  {level.value:<8} {_interval(loose.per_deal):>17} {_interval(loose.per_day):>17}"
            f" {_interval(tight.per_day):>17} {max(tight.per_day):>+9} {tight.peak:>+8}"
            f" {f'{at_cap} of {len(tight.per_day)}':>16}"
        )
    return lines


def main() -> None:
    """Play the deals and print each game's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--day", type=int, default=30, help="deals a day")
    parser.add_argument("--cap", type=int, default=100)
    parser.add_argument(
        "--tables", nargs="+", default=["showdown:3", "standard:3", "no-surrender:3", "casino:3"]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=float, default=SOLVER_BUDGET_S, help="seconds")
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        for spec in args.tables:
            game, _, count = spec.partition(":")
            seats = int(count or 3)
            jobs = [
                pool.submit(one_deal, game, seats, deal, args.seed, args.budget)
                for deal in range(args.deals)
            ]
            deals = [job.result() for job in progress(jobs, total=args.deals, what=spec)]
            variant = variant_named(game)
            title = (
                f"{variant.title}, a person and {seats - 1} computers, seed {args.seed},"
                f" budget {args.budget} s"
            )
            print("\n".join(report(title, variant, deals, args.day, args.cap)), flush=True)


if __name__ == "__main__":
    main()
