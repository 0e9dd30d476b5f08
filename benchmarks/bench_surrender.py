"""The computers' declaring rule against the rule before it: how often each surrenders, what the
surrendered holdings would have brought played on, chips per game, and the decisions' time.

Run: .venv/bin/python -m benchmarks.bench_surrender [--deals 300] [--tables standard:3 standard:6
     showdown:3 casino:3] [--seed 1] [--workers N] [--budget 1.5] [--again 3]

The engine only, no tables. Each deal gives every seat a holding and the cards it would draw. A
table of one level (casual, steady or strong) plays the deal, every seat setting its cards that
level's way; each seat in turn is the seat under test, declaring by the rule now
(``engine.declaring``), by the rule before (the solver's points per opponent over three
completions, the pot not counted) or never surrendering, while the others declare by one rule.
The engine's settlement gives the seat's chips. So, on the same cards:

- *surrendered*: the share of holdings each rule surrenders (the same at every level: the rule
  reads the cards, not the level);
- *played instead*: over the holdings a rule surrenders (the others declaring by the same
  rule), the chips they would have brought played on, less what surrendering brought: above 0,
  the rule gave chips away;
- *chips per game*: the seat's mean chips declaring by each rule (the others by the rule now),
  and the difference, taken deal by deal (± one standard error over deals);
- *again*: every ``--again``-th deal each holding's first declaration is taken again on another
  series of completions; the share that comes out the other way is the rule's noise;
- the rule now's decision time (a worker's: one process, the solver's budget given to it).

In the Casino Version each seat plays the bot dealer (the solver) alone, the same dealer's hand
for every seat: chips per holding.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from benchmarks.progress import progress
from engine.arrangement import verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import JOKER_CODE, AnyCard, Shoe, card_from_code, standard_deck
from engine.declaring import outlook, surrender_cost
from engine.players import Level, computer_setting, expected_chips
from engine.scoring import PlayedHands
from engine.settlement import Seat, balances, settle
from engine.solver.solve import solve
from engine.variants import Variant, variant_named
from tables.rules import SOLVER_BUDGET_S

LEVELS = tuple(Level)
#: The rules a seat may declare by: now, before, and never surrendering.
NOW, BEFORE, PLAY = "now", "before", "play"
Rule = Callable[[Variant, int, Sequence[AnyCard], int, int, float, int], bool]


def rule_before(
    variant: Variant,
    round_: int,
    held: Sequence[AnyCard],
    opponents: int,
    seated: int,
    budget_s: float,
    draw: int = 0,
) -> bool:
    """The rule before: the solver's points per opponent over three completions (seeded by the
    cards as it was), in chips, against the surrender's cost; the pot and the stakes ignored."""
    to_come = sum(d.draw for d in variant.declarations[round_:])
    unseen = [card.code for card in standard_deck()] * variant.decks
    unseen += [JOKER_CODE] * variant.jokers
    for card in held:
        unseen.remove(card.code)
    codes = tuple(sorted(card.code for card in held))
    rng = random.Random(hash(codes if not draw else (draw, *codes)))
    completions = [
        [*held, *(card_from_code(code) for code in rng.sample(unseen, to_come))] for _ in range(3)
    ]
    ev = statistics.fmean(solve(variant, cards, budget_s=budget_s / 3).ev for cards in completions)
    chips = expected_chips(variant, ev, opponents=opponents, ante=variant.ante)
    return chips >= -surrender_cost(variant, round_, opponents, variant.ante)


@dataclass
class Timing:
    """The rule now's decisions: wall and CPU seconds, and completions weighed."""

    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    completions: list[int] = field(default_factory=list)


def rule_now(timing: Timing) -> Rule:
    """The rule now, its time and completions noted in ``timing``."""

    def decide(
        variant: Variant,
        round_: int,
        held: Sequence[AnyCard],
        opponents: int,
        seated: int,
        budget_s: float,
        draw: int = 0,
    ) -> bool:
        started, cpu = time.perf_counter(), time.thread_time()
        found = outlook(
            variant,
            round_,
            held,
            opponents=opponents,
            ante=variant.ante,
            seated=seated,
            budget_s=budget_s,
            draw=draw,
        )
        if not draw:
            timing.seconds.append(time.perf_counter() - started)
            timing.cpu.append(time.thread_time() - cpu)
            timing.completions.append(found.completions)
        return found.plays_on

    return decide


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal's figures, per level (by value)."""

    holdings: int
    surrendered: dict[str, int]
    #: Per level and rule: the seats' mean chips (the others declaring by the rule now).
    chips: dict[tuple[str, str], float]
    #: Per level and rule: for each holding the rule surrendered, played on less surrendered.
    instead: dict[tuple[str, str], list[float]]
    #: Per rule: first declarations taken again, and how many came out the other way.
    again: dict[str, tuple[int, int]]
    timing: Timing


def _played(
    variant: Variant, level: Level, held: Sequence[AnyCard], budget_s: float
) -> PlayedHands:
    arrangement, automatic = computer_setting(variant, level, held, budget_s=budget_s)
    if automatic is None:
        values = verify_arrangement(variant, held, arrangement)
    else:
        values = verify_automatic(variant, held, arrangement, automatic)
    return PlayedHands(level.value, values, automatic)


def _declare(
    variant: Variant,
    rule: Rule,
    held: list[list[AnyCard]],
    draws: list[list[list[AnyCard]]],
    budget_s: float,
) -> list[int | None]:
    """The declaration each seat surrenders at when every seat declares by ``rule``."""
    held = [list(cards) for cards in held]
    seated = len(held)
    surrendered: list[int | None] = [None] * seated
    for round_ in range(len(variant.declarations)):
        staying = [i for i, at in enumerate(surrendered) if at is None]
        if variant.casino is None and len(staying) < 2:
            break  # the last player left takes the pot at once
        opponents = 1 if variant.casino else len(staying) - 1
        for i in staying:
            if not rule(variant, round_, held[i], opponents, seated, budget_s, 0):
                surrendered[i] = round_
        for i in staying:
            if surrendered[i] is None:
                held[i] += draws[i][round_]
    return surrendered


def one_deal(game: str, players: int, deal: int, seed: int, budget_s: float, again: int) -> Deal:
    """One deal played by a table of each level, each seat in turn under test."""
    variant = variant_named(game)
    rng = random.Random(seed * 1_000_003 + deal)
    shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=rng)
    held = [list(shoe.deal(variant.deal)) for _ in range(players)]
    draws = [[list(shoe.deal(d.draw)) for d in variant.declarations] for _ in range(players)]
    timing = Timing()
    rules: dict[str, Rule] = {NOW: rule_now(timing), BEFORE: rule_before}
    decided = {name: _declare(variant, rule, held, draws, budget_s) for name, rule in rules.items()}
    decided[PLAY] = [None] * players
    full = [[*held[i], *(card for d in draws[i] for card in d)] for i in range(players)]
    hands = {
        (i, level): _played(variant, level, full[i], budget_s)
        for i in range(players)
        for level in LEVELS
    }
    dealer = None
    if variant.casino is not None:
        dealer_cards = list(shoe.deal(variant.max_held))
        solution = solve(variant, dealer_cards, budget_s=budget_s)
        dealer = PlayedHands(
            "dealer", verify_arrangement(variant, dealer_cards, solution.arrangement)
        )

    def chips(level: Level, tested: int, rule: str, others: str) -> int:
        """The tested seat's chips when it declares by ``rule`` and the others by ``others``."""
        at = [decided[rule if i == tested else others][i] for i in range(players)]
        if dealer is not None:
            seat = Seat(tested, at[tested], hands[(tested, level)] if at[tested] is None else None)
            return balances(settle(variant, [seat], dealer_hands=dealer)).get(tested, 0)
        seats = [
            Seat(i, at[i], hands[(i, level)] if at[i] is None else None) for i in range(players)
        ]
        return balances(settle(variant, seats, dealer=deal % players)).get(tested, 0)

    figures: dict[tuple[str, str], float] = {}
    instead: dict[tuple[str, str], list[float]] = {}
    for level in LEVELS:
        for rule in (NOW, BEFORE, PLAY):
            won = [chips(level, t, rule, NOW) for t in range(players)]
            figures[(level.value, rule)] = statistics.fmean(won)
        for rule in (NOW, BEFORE):
            instead[(level.value, rule)] = [
                chips(level, t, PLAY, rule) - chips(level, t, rule, rule)
                for t in range(players)
                if decided[rule][t] is not None
            ]
    retaken: dict[str, tuple[int, int]] = {}
    if again and deal % again == 0:
        opponents = 1 if variant.casino else players - 1
        for name, decide in rules.items():
            first = [decided[name][i] != 0 for i in range(players)]
            second = [
                decide(variant, 0, held[i], opponents, players, budget_s, 1) for i in range(players)
            ]
            retaken[name] = (players, sum(a != b for a, b in zip(first, second, strict=True)))
    return Deal(
        players,
        {name: sum(at is not None for at in decided[name]) for name in rules},
        figures,
        instead,
        retaken,
        timing,
    )


def _interval(values: Sequence[float]) -> str:
    if not values:
        return "    (none)      "
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+8.2f} ± {se:5.2f}"


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(title: str, unit: str, deals: Sequence[Deal]) -> list[str]:
    """The lines printed for one game and table size."""
    holdings = sum(deal.holdings for deal in deals)
    lines = [f"{title}: {len(deals)} deals, {holdings} holdings"]
    for rule in (BEFORE, NOW):
        surrendered = sum(deal.surrendered[rule] for deal in deals)
        taken = sum(deal.again[rule][0] for deal in deals if deal.again)
        flipped = sum(deal.again[rule][1] for deal in deals if deal.again)
        lines.append(
            f"  rule {rule:<6} surrendered {surrendered / holdings:6.1%}; taken again on other"
            f" completions, {flipped} of {taken} first declarations came out the other way"
        )
    completions = [c for deal in deals for c in deal.timing.completions]
    for what, seconds in (
        ("CPU", [s for deal in deals for s in deal.timing.cpu]),
        ("wall", [s for deal in deals for s in deal.timing.seconds]),
    ):
        lines.append(
            f"  rule now, a decision's {what} time: p50 {statistics.median(seconds) * 1000:.0f} ms,"
            f" p95 {_percentile(seconds, 0.95) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms"
        )
    lines.append(
        f"  rule now, completions weighed: mean {statistics.fmean(completions):.1f},"
        f" p95 {_percentile(completions, 0.95):.0f}, max {max(completions)}"
    )
    lines.append(
        f"  {'level':<8} {'chips per ' + unit + ': before':>24} {'now':>16} {'never':>16}"
        f" {'now - before':>16}   played instead: before (n)      now (n)"
    )
    for level in LEVELS:
        name = level.value
        before = [deal.chips[(name, BEFORE)] for deal in deals]
        now = [deal.chips[(name, NOW)] for deal in deals]
        never = [deal.chips[(name, PLAY)] for deal in deals]
        gained = [a - b for a, b in zip(now, before, strict=True)]
        instead_before = [x for deal in deals for x in deal.instead[(name, BEFORE)]]
        instead_now = [x for deal in deals for x in deal.instead[(name, NOW)]]
        lines.append(
            f"  {name:<8} {_interval(before):>24} {_interval(now):>16} {_interval(never):>16}"
            f" {_interval(gained):>16}   {_interval(instead_before)} ({len(instead_before)})"
            f"  {_interval(instead_now)} ({len(instead_now)})"
        )
    return lines


def main() -> None:
    """Play the deals and print the figures per game and table size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument(
        "--tables", nargs="+", default=["standard:3", "standard:6", "showdown:3", "casino:3"]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=float, default=SOLVER_BUDGET_S, help="seconds")
    parser.add_argument("--again", type=int, default=3, help="retake every n-th deal (0: none)")
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        for spec in args.tables:
            game, _, seats = spec.partition(":")
            players = int(seats or 3)
            jobs = [
                pool.submit(one_deal, game, players, deal, args.seed, args.budget, args.again)
                for deal in range(args.deals)
            ]
            deals = [job.result() for job in progress(jobs, total=args.deals, what=spec)]
            variant = variant_named(game)
            title = f"{variant.title}, {players} seats, seed {args.seed}, budget {args.budget} s"
            unit = "holding" if variant.casino is not None else "game"
            print("\n".join(report(title, unit, deals)), flush=True)


if __name__ == "__main__":
    main()
