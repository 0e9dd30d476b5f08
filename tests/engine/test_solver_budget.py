"""The solver's time budget covers the whole ``solve()``, on the worst holdings each game deals.

The budget counts CPU time of the solving thread (``engine.solver.search.cpu_clock``), so a
busy machine stretches a solve's wall time but never cuts its proof short. Whether a solve
stops at its budget is counted on a clock that ticks with the solver's own reads (`Ticks`), the
same on any machine; the other times here are CPU times of this process
(``time.process_time``), which the solving thread's are part of.
"""

from __future__ import annotations

import inspect
import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrangement import Arrangement, is_legal
from engine.cards import JOKER_CODE, AnyCard, card_from_code, parse_cards
from engine.errors import GameError
from engine.evaluate import evaluator
from engine.solver.exhaustive import best_ev
from engine.solver.greedy import greedy_setting
from engine.solver.model import load_model
from engine.solver.search import cpu_clock, search
from engine.solver.solve import solve
from engine.solver.train import shoe_codes
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, VARIANTS, Variant

BUDGET_S = 0.3
#: What the solver may take beyond its budget: stopping, the automatics and the final check.
MARGIN_S = 0.1

SPADES, HEARTS = 3, 2
ACE_DOWN = range(14, 1, -1)


def _suited(suit: int, copies: int, count: int, *, jokers: int = 0) -> list[int]:
    """``count`` cards of one suit, highest ranks first, each rank ``copies`` times."""
    return [JOKER_CODE] * jokers + [r * 4 + suit for r in ACE_DOWN for _ in range(copies)][:count]


def _pairs(count: int, *, jokers: int = 0) -> list[int]:
    """``count`` cards as pairs (a spade and a heart of each rank), highest first."""
    return [JOKER_CODE] * jokers + [r * 4 + s for r in ACE_DOWN for s in (SPADES, HEARTS)][:count]


def _kinds(copies: int, ranks: tuple[int, ...], count: int, *, jokers: int = 0) -> list[int]:
    """``count`` cards, as many of each rank as the shoe holds (every suit, ``copies`` decks)."""
    cards = [r * 4 + s for r in ranks for s in range(4) for _ in range(copies)]
    return [JOKER_CODE] * jokers + [*cards, 2 * 4][:count]


#: The holdings that cost the most to search: a single suit (every hand a flush or better, runs
#: of every length), every joker the shoe allows, all pairs, and a few ranks many times over.
WORST: dict[str, tuple[Variant, list[int]]] = {
    "showdown 25 spades": (SHOWDOWN, _suited(SPADES, 3, 25)),
    "showdown 4 jokers 21 spades": (SHOWDOWN, _suited(SPADES, 3, 21, jokers=4)),
    "showdown 4 jokers 21 spades, 7 ranks": (
        SHOWDOWN,
        _suited(SPADES, 3, 21, jokers=4)[:4]
        + [r * 4 + SPADES for r in range(14, 7, -1) for _ in range(3)],
    ),
    "showdown 25 in pairs": (SHOWDOWN, _pairs(25)),
    "showdown 4 jokers 21 in pairs": (SHOWDOWN, _pairs(21, jokers=4)),
    "showdown 12 aces 12 kings": (SHOWDOWN, _kinds(3, (14, 13), 25)),
    "showdown 4 jokers 12 aces 9 kings": (SHOWDOWN, _kinds(3, (14, 13), 21, jokers=4)),
    "no-surrender 17 spades": (NO_SURRENDER, _suited(SPADES, 2, 17)),
    "no-surrender 2 jokers 15 spades": (NO_SURRENDER, _suited(SPADES, 2, 15, jokers=2)),
    "no-surrender 17 in pairs": (NO_SURRENDER, _pairs(17)),
    "no-surrender 8 aces 8 kings": (NO_SURRENDER, _kinds(2, (14, 13), 17)),
    "no-surrender 2 jokers 8 aces 7 kings": (NO_SURRENDER, _kinds(2, (14, 13), 15, jokers=2)),
    "standard 2 jokers 15 spades": (STANDARD, _suited(SPADES, 2, 15, jokers=2)),
    "standard 17 in pairs": (STANDARD, _pairs(17)),
    "casino 9 spades": (CASINO, _suited(SPADES, 2, 9)),
    "casino 2 jokers 7 spades": (CASINO, _suited(SPADES, 2, 7, jokers=2)),
    "casino 2 jokers 7 in pairs": (CASINO, _pairs(7, jokers=2)),
}


def _held(codes: list[int]) -> list[AnyCard]:
    return [card_from_code(code) for code in codes]


def _arrangement(hands: tuple[tuple[int, ...], ...], discards: tuple[int, ...]) -> Arrangement:
    return Arrangement(
        tuple(tuple(card_from_code(code) for code in hand) for hand in hands),
        tuple(card_from_code(code) for code in discards),
    )


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    # What the bot's worker processes load once at start-up (tables.hands.warm_up).
    for variant in VARIANTS.values():
        load_model(variant)
        evaluator(variant.hand_rules)


def test_the_worst_holdings_are_what_their_shoes_can_deal() -> None:
    for variant, codes in WORST.values():
        assert len(codes) == variant.max_held
        assert codes.count(JOKER_CODE) <= variant.jokers
        assert all(codes.count(code) <= variant.decks for code in set(codes) if code)


class Ticks:
    """A budget's clock that moves on by ``TICK`` each time it is read: a solve's time on it is
    its count of reads, the same on any machine however busy."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += TICK
        return self.now


#: One read of the ticking clock (the search reads it once every 64 nodes).
TICK = 0.001
#: Reads past its budget a solve may make: the searches it is in each stop at their next read.
PAST_BUDGET = 5


@pytest.mark.parametrize("name", WORST)
def test_solve_answers_the_worst_holdings_legally_within_its_budget(name: str) -> None:
    # Counted on a clock that ticks with the solver's reads, not on a busy machine's: each
    # worst holding spends its whole budget and stops at once past it, with a legal answer.
    variant, codes = WORST[name]
    held = _held(codes)
    clock = Ticks()
    solution = solve(variant, held, budget_s=BUDGET_S, clock=clock)
    assert clock.now <= BUDGET_S + PAST_BUDGET * TICK, f"{name}: {clock.now:.3f} s on the clock"
    assert is_legal(variant, solution.arrangement, held)


#: The greedy setting must be ready long before any budget a player waits on runs out.
GREEDY_S = 0.02


@pytest.mark.parametrize("name", WORST)
def test_the_greedy_setting_of_the_worst_holdings_is_quick_and_legal(name: str) -> None:
    variant, codes = WORST[name]
    started = time.process_time()
    setting = greedy_setting(variant, codes)
    spent = time.process_time() - started
    assert setting is not None
    assert spent <= GREEDY_S, f"{name}: {spent * 1000:.1f} ms of CPU"
    assert is_legal(variant, _arrangement(*setting), _held(codes))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(list(VARIANTS.values())), st.randoms(use_true_random=False))
def test_the_greedy_setting_is_legal_on_any_deal(variant: Variant, rng: random.Random) -> None:
    size = rng.randint(variant.min_used, variant.max_held)
    codes = rng.sample(shoe_codes(variant), size)
    setting = greedy_setting(variant, codes)
    assert setting is not None
    assert is_legal(variant, _arrangement(*setting), _held(codes))


@pytest.mark.parametrize("name", ["showdown 4 jokers 21 spades", "no-surrender 2 jokers 15 spades"])
def test_a_spent_budget_answers_with_the_greedy_setting_without_searching(name: str) -> None:
    # Before any candidate is made: the search used to run on to its first answer.
    variant, codes = WORST[name]
    found = search(variant, load_model(variant), codes, budget_s=0.0)
    setting = greedy_setting(variant, sorted(codes))
    assert found is not None and setting is not None
    assert not found.exact and found.nodes == 0
    assert (found.hands, found.discards) == setting


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "size", "count"), [(CASINO, 9, 100), (NO_SURRENDER, 13, 15)])
def test_a_search_that_must_beat_the_greedy_setting_still_finds_the_optimum(
    variant: Variant, size: int, count: int
) -> None:
    # With a budget the greedy setting is the best known from the start, and it prunes.
    model = load_model(variant)
    rng = random.Random(size)
    for _ in range(count):
        held = rng.sample(shoe_codes(variant), size)
        found = search(variant, model, held, budget_s=600.0)
        assert found is not None and found.exact
        assert found.ev == pytest.approx(best_ev(variant, model, held), abs=1e-9)


@pytest.mark.parametrize(
    ("variant", "cards", "sentence"),
    [
        (
            SHOWDOWN,
            "Qc " * 25,
            "Showdown Version deals from 3 decks and 4 jokers: no holding has Qc 25 times.",
        ),
        (
            NO_SURRENDER,
            "Qc " * 17,
            "No-Surrender (17 cards) deals from 2 decks and 2 jokers: no holding has Qc 17 times.",
        ),
        (
            CASINO,
            "W W W As Ks Qs Js Ts 9s",
            "Casino Version deals from 2 decks and 2 jokers: no holding has 3 jokers.",
        ),
    ],
)
def test_a_holding_no_shoe_can_deal_is_refused_within_the_budget(
    variant: Variant, cards: str, sentence: str
) -> None:
    # Qc 25 times has no legal setting, not even a greedy one: the search ran to its end, past any
    # budget (2 s at --budget-ms 50).
    held = parse_cards(cards)
    started = time.process_time()
    with pytest.raises(GameError) as refused:
        solve(variant, held, budget_s=0.05)
    spent = time.process_time() - started
    assert spent <= 0.05 + MARGIN_S, f"{spent * 1000:.0f} ms of CPU"
    assert str(refused.value) == sentence


def test_the_budget_is_counted_in_cpu_time_of_the_solving_thread() -> None:
    # In a process's main thread (a solver worker): its CPU time.
    assert abs(cpu_clock() - time.thread_time()) < 0.01
    # In a thread beside others (threads take turns for the interpreter): the wall clock.
    beside: list[float] = []
    other = threading.Thread(target=lambda: beside.append(cpu_clock() - time.perf_counter()))
    other.start()
    other.join()
    assert abs(beside[0]) < 0.01
    assert inspect.signature(solve).parameters["clock"].default is cpu_clock
    assert inspect.signature(search).parameters["clock"].default is cpu_clock


def test_the_budgets_clock_stands_still_while_the_thread_waits_and_others_work() -> None:
    # A busy host: the solving thread waits for a core while other work runs.
    def spin() -> None:
        until = time.perf_counter() + 0.1
        while time.perf_counter() < until:
            pass

    started = cpu_clock()
    other = threading.Thread(target=spin)
    other.start()
    other.join()
    time.sleep(0.05)
    assert cpu_clock() - started < 0.05


#: Needs a few thousand nodes to prove, in well under a second of CPU.
PROVED_SLOWLY = "W W W 9c 7s Qs Kh 3c 3d Jh 5s 8s 6c 8c Kc 5c 8h 7s Ah 7c 6h 5h Jd Jh Jc"


@pytest.fixture
def racing_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every wall clock jumps ten seconds further each time it is read."""
    for name in ("perf_counter", "monotonic", "time"):
        real = getattr(time, name)
        jumps = iter(range(10, 10**9, 10))
        monkeypatch.setattr(time, name, lambda real=real, jumps=jumps: real() + next(jumps))


@pytest.mark.usefixtures("racing_wall_clock")
def test_wall_time_passing_while_cpu_time_does_not_leaves_the_proof_whole() -> None:
    held = parse_cards(PROVED_SLOWLY)
    unbudgeted = search(SHOWDOWN, load_model(SHOWDOWN), [card.code for card in held])
    solution = solve(SHOWDOWN, held, budget_s=0.3, clock=lambda: 0.0)
    assert unbudgeted is not None and unbudgeted.nodes > 1000
    assert solution.exact
    assert solution.ev == unbudgeted.ev


def test_cpu_time_running_out_stops_the_search_with_a_legal_setting() -> None:
    held = parse_cards(PROVED_SLOWLY)
    seconds = iter(range(10**9))  # one second of CPU passes at every reading
    solution = solve(SHOWDOWN, held, budget_s=0.3, clock=lambda: float(next(seconds)))
    assert not solution.exact
    assert is_legal(SHOWDOWN, solution.arrangement, held)
