"""Whole random tables of every Pyramid variant: the books always balance.

Each example deals a table from the variant's shoe (or, for power hands and automatics, from
thinned shoes), lets players surrender at random, sets every remaining hand with a random legal
arrangement (declaring an automatic now and then), scores and settles it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arrangement import Arrangement, verify_arrangement
from engine.automatics import detect_automatics, layout_automatic, verify_automatic
from engine.cards import AnyCard, Shoe
from engine.scoring import PlayedHands, net_matrix
from engine.settlement import HOUSE, POT, Seat, Transfer, balances, settle
from engine.variants import VARIANTS, Variant
from tests.engine.pyramid_helpers import random_arrangement, random_holding

TABLES = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
STACK = 100_000

# 8,000 whole tables in all: the quick loop has tests/engine/test_settlement.py.
pytestmark = pytest.mark.slow


@dataclass(frozen=True, slots=True)
class Table:
    """A dealt, declared and arranged table, ready to settle."""

    seats: tuple[Seat, ...]
    held: dict[str, tuple[AnyCard, ...]]
    arrangements: dict[str, Arrangement]
    dealer: int
    dealer_hands: PlayedHands | None


def _set(
    rng: random.Random, variant: Variant, name: str, held: tuple[AnyCard, ...]
) -> tuple[Arrangement, PlayedHands]:
    found = detect_automatics(variant, held)
    if found and rng.random() < 0.7:
        automatic = rng.choice(found)
        arrangement = layout_automatic(variant, held, automatic)
        values = verify_automatic(variant, held, arrangement, automatic)
        return arrangement, PlayedHands(name, values, automatic)
    arrangement = random_arrangement(rng, variant, held)
    assert arrangement is not None, f"no legal arrangement found for {held}"
    return arrangement, PlayedHands(name, verify_arrangement(variant, held, arrangement))


def deal_table(variant: Variant, seed: int) -> Table:
    """One random table of the variant."""
    rng = random.Random(seed)
    count = rng.randint(variant.min_players, variant.max_players)
    names = [f"p{i}" for i in range(count)]
    narrow = rng.random() < 0.4
    shoe = Shoe(decks=variant.decks, jokers=variant.jokers, rng=rng)
    full = {
        name: random_holding(rng, variant, variant.max_held, narrow=True)
        if narrow
        else shoe.deal(variant.max_held)
        for name in names
    }
    surrendered: dict[str, int] = {}
    for turn in range(len(variant.declarations)):
        for name in names:
            if name not in surrendered and rng.random() < 0.15:
                surrendered[name] = turn
    seats, held, arrangements = [], {}, {}
    for name in names:
        ante = rng.randint(1, 20) if variant.casino else None
        if name in surrendered:
            seats.append(Seat(name, surrendered[name], None, ante))
            continue
        held[name] = full[name]
        arrangements[name], played = _set(rng, variant, name, full[name])
        seats.append(Seat(name, None, played, ante))
    dealer_hands = None
    if variant.against_dealer:
        dealer_held = shoe.deal(variant.max_held)
        _, dealer_hands = _set(rng, variant, HOUSE, dealer_held)
    return Table(tuple(seats), held, arrangements, rng.randrange(count), dealer_hands)


def played(table: Table) -> list[PlayedHands]:
    hands = [seat.hands for seat in table.seats if seat.hands is not None]
    return hands + ([table.dealer_hands] if table.dealer_hands else [])


def settle_table(variant: Variant, table: Table) -> tuple[Transfer, ...]:
    return settle(variant, table.seats, dealer=table.dealer, dealer_hands=table.dealer_hands)


NAMES = sorted(VARIANTS)


@pytest.mark.parametrize("name", NAMES)
@settings(TABLES)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_tables_keep_the_books(name: str, seed: int) -> None:
    """Per table: hands from held cards, antisymmetric nets, zero-sum and conserved chips."""
    variant = VARIANTS[name]
    table = deal_table(variant, seed)
    # A legal arrangement uses only held cards (a sub-multiset of the deal).
    for player, arrangement in table.arrangements.items():
        assert not Counter(arrangement.used) - Counter(table.held[player]), player
    # The net matrix is antisymmetric: what i nets against j, j loses against i.
    matrix = net_matrix(variant, played(table))
    for i, row in enumerate(matrix):
        assert row[i] == 0
        for j, cell in enumerate(row):
            assert cell == -matrix[j][i], (i, j)
    # The settlement sums to zero, and the pot ends empty.
    transfers = settle_table(variant, table)
    chips = balances(transfers)
    assert all(t.amount > 0 for t in transfers)
    assert sum(chips.values()) == 0
    assert chips.get(POT, 0) == 0
    # The table's chips are conserved, and the pot never pays out more than it holds.
    stacks = {seat.name: STACK for seat in table.seats} | {POT: 0, HOUSE: 10 * STACK}
    before = sum(stacks.values())
    for transfer in transfers:
        stacks[transfer.payer] -= transfer.amount
        stacks[transfer.payee] += transfer.amount
        assert stacks[POT] >= 0
    assert sum(stacks.values()) == before
