"""The declaring rule of every computer: play on unless surrendering costs less than playing on
is expected to lose, in chips, the pot counted.

Playing on is worth, beyond the chips already in the pot: the points the cards are expected to
win against the other players, plus the share of the pot they are expected to take, less the
stakes still to put in (Showdown's 10 a declaration); in the Casino Version, the payout against
the dealer with the ante back. The expectation runs over completions of the cards still to come
(each set by the solver) and, for each, over a fixed sample of tables of opponents drawn from
the field model's hands, who score against each other too: that decides who holds the highest
net and takes the pot.

At least ``DECLARE_MIN`` completions are weighed, then more until playing on is clear of the
surrender's cost by ``CLEAR_BY`` standard errors, up to ``DECLARE_MAX`` or a share of the
solver's budget in CPU time: a holding near the line is weighed on many, one far from it on few,
and a Showdown holding (some 70 ms of the solver a completion) on what the time allows. The
completions are seeded by the cards: the same cards are weighed on the same completions, in the
same order. A computer sees only its own cards.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from engine import stakes
from engine.cards import JOKER_CODE, AnyCard, card_from_code, standard_deck
from engine.evaluate import evaluate
from engine.scoring import slot_points
from engine.settlement import casino_payout
from engine.solver.model import load_model, rank_part
from engine.solver.solve import Solution, automatic_ev, solve
from engine.variants import Variant

#: Completions weighed at least (a few set a standard error too small to trust), and at most.
DECLARE_MIN: Final = 12
DECLARE_MAX: Final = 32
#: Completions stop once playing on is this many standard errors from the surrender's cost ...
CLEAR_BY: Final = 2.5
#: ... or once this share of the budget is spent in CPU time, after the first ``GUARD_AFTER``
#: (a Showdown holding, whose every completion takes the solver some 70 ms to set).
DECLARE_SHARE: Final = 0.3
GUARD_AFTER: Final = 3
#: Tables of opponents drawn from the field, the same for every decision of a table size.
FIELD_TABLES: Final = 400
#: The most one completion's solve may take (a Showdown holding rarely needs more).
SOLVE_CAP_S: Final = 0.25
#: Above every suit: ``ranks + (_ABOVE,)`` sorts after every key with those ranks (as the model).
_ABOVE: Final = 99

Key = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outlook:
    """What playing on is expected to bring (beyond the chips already in the pot), beside what
    surrendering costs, and on how many completions of the cards."""

    play: float
    #: The standard error of ``play`` over the completions.
    error: float
    surrender: float
    completions: int

    @property
    def plays_on(self) -> bool:
        """Whether playing on is worth at least surrendering."""
        return self.play >= self.surrender


def surrender_cost(variant: Variant, round_: int, opponents: int, ante: int) -> int:
    """Chips a surrender at this declaration costs, beyond what is already staked (the pot, the
    Casino ante), when every opponent plays on: what the settlement moves (engine/stakes.py)."""
    return stakes.surrender_cost(
        variant, round_, players=opponents + 1, staying=opponents, ante=ante
    ).paid


def pot_if_all_play(variant: Variant, opponents: int, seated: int, ante: int) -> int:
    """The pot at the showdown if this player and its opponents all play on to the end: every
    seat's ante and, for those still in, every declaration's stake (an earlier surrender's
    stakes are not counted, so the pot is never overestimated)."""
    stakes = sum(declaration.play_stake for declaration in variant.declarations)
    return ante * seated + stakes * (opponents + 1)


def stakes_to_come(variant: Variant, round_: int) -> int:
    """The stakes a player who plays on from this declaration still puts into the pot."""
    return sum(declaration.play_stake for declaration in variant.declarations[round_:])


def outlook(
    variant: Variant,
    round_: int,
    held: Sequence[AnyCard],
    *,
    opponents: int,
    ante: int,
    budget_s: float,
    seated: int | None = None,
    draw: int = 0,
) -> Outlook:
    """What playing on is expected to bring against surrendering, at a table of ``opponents``
    still in (``seated``: everyone dealt in, whose antes are in the pot; by default the same).

    Completions are weighed until playing on is clear of the surrender's cost, within a share of
    the budget; ``draw`` picks another seeded series of completions (0: the one tables use).
    """
    # The guard counts this thread's CPU time, not the wall clock: a busy machine makes a
    # decision slower, never noisier.
    started = time.thread_time()
    opponents = 1 if variant.casino is not None else max(1, opponents)
    seated = opponents + 1 if seated is None else seated
    surrender = -float(surrender_cost(variant, round_, opponents, ante))
    tables = _field_tables(variant, opponents)
    pot = pot_if_all_play(variant, opponents, seated, ante) if variant.has_pot else 0
    stakes = stakes_to_come(variant, round_)
    solve_s = min(SOLVE_CAP_S, budget_s * DECLARE_SHARE / GUARD_AFTER)
    values: list[float] = []
    for cards in _completions(variant, round_, held, draw):
        solution = solve(variant, cards, budget_s=solve_s)
        values.append(_worth(variant, solution, tables, pot=pot, ante=ante) - stakes)
        if len(values) >= DECLARE_MIN:
            error = statistics.stdev(values) / math.sqrt(len(values))
            if abs(statistics.fmean(values) - surrender) >= CLEAR_BY * error:
                break
        if len(values) >= GUARD_AFTER and time.thread_time() - started > budget_s * DECLARE_SHARE:
            break
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return Outlook(statistics.fmean(values), error, surrender, len(values))


def plays_on(
    variant: Variant,
    round_: int,
    held: Sequence[AnyCard],
    *,
    opponents: int,
    ante: int,
    budget_s: float,
    seated: int | None = None,
) -> bool:
    """The declaring rule of every computer: whether playing on is worth at least surrendering."""
    return outlook(
        variant, round_, held, opponents=opponents, ante=ante, budget_s=budget_s, seated=seated
    ).plays_on


def warm_up_declaring(variant: Variant) -> None:
    """Draw the opponents' tables of every table size now (a worker's warm-up), not at the
    first declaration."""
    for opponents in range(1, variant.max_players):
        _field_tables(variant, opponents)


@dataclass(frozen=True, slots=True)
class _Tables:
    """``FIELD_TABLES`` tables of opponents drawn from the field model, hand by hand: each
    opponent's index into the field's sorted keys at every position, and the points each nets
    against the other opponents of its table."""

    keys: tuple[tuple[Key, ...], ...]
    #: Per position, the points each field hand scores when it wins there.
    points: tuple[tuple[int, ...], ...]
    #: Per table, per opponent, its field index at each position.
    seats: tuple[tuple[tuple[int, ...], ...], ...]
    #: Per table, per opponent, its net points against the table's other opponents.
    among: tuple[tuple[int, ...], ...]


@cache
def _field_tables(variant: Variant, opponents: int) -> _Tables:
    """The opponents' tables for this many opponents (drawn once per process, seeded)."""
    model = load_model(variant)
    keys = tuple(tuple(rank_part(key) for key in field.keys) for field in model.fields)
    points = tuple(
        tuple(field.points_from[i] - field.points_from[i + 1] for i in range(len(field.keys)))
        for field in model.fields
    )
    rng = random.Random(f"{variant.name}:{opponents}")
    seats = tuple(
        tuple(tuple(rng.randrange(len(at)) for at in keys) for _ in range(opponents))
        for _ in range(FIELD_TABLES)
    )
    among = tuple(
        tuple(
            sum(_between(keys, points, mine, theirs) for j, theirs in enumerate(table) if j != i)
            for i, mine in enumerate(table)
        )
        for table in seats
    )
    return _Tables(keys, points, seats, among)


def _between(
    keys: Sequence[Sequence[Key]],
    points: Sequence[Sequence[int]],
    mine: Sequence[int],
    theirs: Sequence[int],
) -> int:
    """What one field hand nets against another, position by position (ranks only, as the
    model compares them)."""
    net = 0
    for position, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if keys[position][a] > keys[position][b]:
            net += points[position][a]
        elif keys[position][a] < keys[position][b]:
            net -= points[position][b]
    return net


def _against_field(variant: Variant, solution: Solution, tables: _Tables) -> list[list[int]]:
    """Per position, the points this setting nets against each hand of the field there."""
    if solution.automatic is not None:
        # An automatic beats every regular hand (the field rarely holds one): its points at once.
        won = int(automatic_ev(variant))
        return [[won if position == 0 else 0] * len(at) for position, at in enumerate(tables.keys)]
    rules = variant.hand_rules
    rows = []
    for position, hand in enumerate(solution.arrangement.hands):
        key = evaluate(hand, rules).key
        ranks = rank_part(key)
        at = tables.keys[position]
        below = bisect_left(at, ranks)
        above = bisect_right(at, (*ranks, _ABOVE))
        won = slot_points(variant, position, key)
        lost = tables.points[position]
        rows.append([won] * below + [0] * (above - below) + [-p for p in lost[above:]])
    return rows


def _worth(variant: Variant, solution: Solution, tables: _Tables, *, pot: int, ante: int) -> float:
    """Chips this setting brings on average over the field's tables: its points, and the pot
    when its net is the table's highest (shared on a tie); in the Casino Version, its payout
    with the ante back."""
    rows = _against_field(variant, solution, tables)
    total = 0.0
    for table, among in zip(tables.seats, tables.among, strict=True):
        nets = [sum(row[i] for row, i in zip(rows, seat, strict=True)) for seat in table]
        mine = sum(nets)
        if variant.casino is not None:
            total += casino_payout(variant, mine, ante) + ante
            continue
        chips: float = mine * variant.chips_per_point
        if pot:
            best = max(other - net for other, net in zip(among, nets, strict=True))
            if mine > best:
                chips += pot
            elif mine == best:
                tied = 1 + sum(other - net == best for other, net in zip(among, nets, strict=True))
                chips += pot / tied
        total += chips
    return total / len(tables.seats)


def _completions(
    variant: Variant, round_: int, held: Sequence[AnyCard], draw: int
) -> Iterator[list[AnyCard]]:
    """Up to ``DECLARE_MAX`` ways the draws of this and the later declarations may come, from
    what the shoe may still hold (seeded by the cards held: the same cards, the same ways)."""
    to_come = sum(d.draw for d in variant.declarations[round_:])
    unseen = [card.code for card in standard_deck()] * variant.decks
    unseen += [JOKER_CODE] * variant.jokers
    for card in held:
        unseen.remove(card.code)
    rng = random.Random(hash((draw, *sorted(card.code for card in held))))
    for _ in range(DECLARE_MAX):
        yield [*held, *(card_from_code(code) for code in rng.sample(unseen, to_come))]
