"""Automatics of the 17-card game: detection against a brute-force search, layouts, scoring."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arrangement import parse_arrangement, verify_arrangement
from engine.automatics import (
    automatic_points,
    detect_automatics,
    dragon_suit,
    has_automatic,
    layout_automatic,
    verify_automatic,
)
from engine.cards import AnyCard, Card, Rank, Suit, card_from_code, parse_cards
from engine.errors import GameError
from engine.evaluate import HandValue
from engine.scoring import PlayedHands, matchup
from engine.variants import NO_SURRENDER, SHOWDOWN, STANDARD, Automatic
from tests.engine.pyramid_helpers import shoe_cards

SEEDED = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
RULES = STANDARD.automatics
assert RULES is not None

# --- The reference: try every split of the cards into three 5-card hands. ---

WINDOWS = [set(range(top - 4, top + 1)) for top in range(6, 15)] + [{14, 2, 3, 4, 5}]


def is_flush(hand: Sequence[AnyCard]) -> bool:
    return len({card.suit for card in hand if not card.is_joker}) <= 1  # type: ignore[union-attr]


def is_straight(hand: Sequence[AnyCard]) -> bool:
    ranks = [card.rank for card in hand if not card.is_joker]  # type: ignore[union-attr]
    return len(set(ranks)) == len(ranks) and any(set(ranks) <= window for window in WINDOWS)


def is_full_house(hand: Sequence[AnyCard]) -> bool:
    counts = Counter(card.rank for card in hand if not card.is_joker)  # type: ignore[union-attr]
    return len(counts) <= 2 and all(n <= 3 for n in counts.values())


HAND_TESTS: dict[Automatic, Callable[[Sequence[AnyCard]], bool]] = {
    Automatic.THREE_FLUSHES: is_flush,
    Automatic.THREE_STRAIGHTS: is_straight,
    Automatic.THREE_FULL_HOUSES: is_full_house,
}


def brute_force_three_hands(held: Sequence[AnyCard], test: Callable[..., bool]) -> bool:
    """Every 5-card part of the cards that passes ``test``; any three that fit together?

    Parts are multisets packed 4 bits a card (3 for the count, 1 guard bit), so "does A + B + C
    fit in what is held" is one subtraction with the guard bits intact.
    """
    codes = sorted(card.code for card in held)
    field = {code: 4 * i for i, code in enumerate(sorted(set(codes)))}
    guard = sum(8 << shift for shift in field.values())
    top = sum(1 << field[code] for code in codes) | guard
    parts: set[tuple[int, ...]] = set()
    for combo in itertools.combinations(codes, 5):
        if combo not in parts and test([card_from_code(code) for code in combo]):
            parts.add(combo)
    packed = [sum(1 << field[code] for code in part) for part in parts]

    def fits(total: int) -> bool:
        return (top - total) & guard == guard

    for i, a in enumerate(packed):
        for j in range(i, len(packed)):
            pair = a + packed[j]
            if fits(pair) and any(fits(pair + packed[k]) for k in range(j, len(packed))):
                return True
    return False


def brute_force_dragon(held: Sequence[AnyCard]) -> bool:
    """Some 13 of the cards whose real ranks are all different (jokers fill the rest)."""
    for combo in itertools.combinations(held, 13):
        ranks = [card.rank for card in combo if not card.is_joker]  # type: ignore[union-attr]
        if len(set(ranks)) == len(ranks):
            return True
    return False


def themed_holding(rng: random.Random, automatic: Automatic) -> tuple[AnyCard, ...]:
    """15-17 cards from a shoe thinned so the automatic is about as likely as not."""
    pool = shoe_cards(NO_SURRENDER, jokers=rng.randint(0, 2))
    if automatic is Automatic.THREE_FLUSHES:
        suits = rng.sample(range(4), 2)
        ranks = rng.sample(range(2, 15), 8)
        pool = [c for c in pool if c.is_joker or (c.suit in suits and c.rank in ranks)]  # type: ignore[union-attr]
    elif automatic is Automatic.THREE_STRAIGHTS:
        # Three runs of nearby ranks, less a card or two, plus strays: near the boundary.
        low = rng.randint(1, 8)
        runs = [rng.choice((low, low + 1, low + 2)) for _ in range(3)]
        cards: list[AnyCard] = []
        for start in runs:
            for rank in range(start, start + 5):
                cards.append(Card(Rank(14 if rank == 1 else rank), Suit(rng.randrange(4))))
        for _ in range(rng.randint(0, 3)):
            cards.pop(rng.randrange(len(cards)))
        near = {14 if r == 1 else r for r in range(low, low + 7)}
        nearby = [c for c in pool if c.is_joker or c.rank in near]  # type: ignore[union-attr]
        cards += rng.sample(nearby, rng.randint(15, 17) - len(cards))
        return tuple(cards)
    elif automatic is Automatic.THREE_FULL_HOUSES:
        ranks = set(rng.sample(range(2, 15), rng.randint(5, 7)))
        pool = [c for c in pool if c.is_joker or c.rank in ranks]  # type: ignore[union-attr]
    else:
        # One card of all but 0-3 ranks, then more of those ranks: a dragon iff jokers cover.
        ranks = set(rng.sample(range(2, 15), rng.randint(10, 13)))
        jokers = [c for c in pool if c.is_joker]
        real = [c for c in pool if not c.is_joker and c.rank in ranks]  # type: ignore[union-attr]
        rng.shuffle(real)
        first = list({c.rank: c for c in real}.values())  # type: ignore[union-attr]
        for card in first:
            real.remove(card)
        extra = rng.sample(real, rng.randint(15, 17) - len(first) - len(jokers))
        return tuple(first + jokers + extra)
    return tuple(rng.sample(pool, min(len(pool), rng.randint(15, 17))))


THREE_HAND_AUTOMATICS = [
    Automatic.THREE_FLUSHES,
    Automatic.THREE_STRAIGHTS,
    Automatic.THREE_FULL_HOUSES,
]


@pytest.mark.slow
@pytest.mark.parametrize("automatic", THREE_HAND_AUTOMATICS, ids=lambda a: a.value)
@settings(SEEDED, max_examples=120)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_detection_finds_a_three_hand_automatic_exactly_when_a_split_exists(
    automatic: Automatic, seed: int
) -> None:
    held = themed_holding(random.Random(seed), automatic)
    assert has_automatic(held, automatic) == brute_force_three_hands(held, HAND_TESTS[automatic])


@settings(SEEDED, max_examples=300)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_detection_finds_a_dragon_exactly_when_thirteen_ranks_can_be_made(seed: int) -> None:
    held = themed_holding(random.Random(seed), Automatic.DRAGON)
    assert has_automatic(held, Automatic.DRAGON) == brute_force_dragon(held)


@pytest.mark.parametrize("automatic", list(Automatic), ids=lambda a: a.value)
@settings(SEEDED, max_examples=150)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_detected_automatic_lays_out_as_a_legal_arrangement_of_held_cards(
    automatic: Automatic, seed: int
) -> None:
    held = themed_holding(random.Random(seed), automatic)
    found = detect_automatics(NO_SURRENDER, held)
    assert list(found) == [a for a in RULES.precedence if a in found]  # highest first
    if automatic not in found:
        with pytest.raises(GameError):
            layout_automatic(NO_SURRENDER, held, automatic)
        return
    arrangement = layout_automatic(NO_SURRENDER, held, automatic)
    verify_automatic(NO_SURRENDER, held, arrangement, automatic)


def test_detection_names_every_automatic_a_holding_allows() -> None:
    held = parse_cards("As Ks Qs Js Ts 9h 8h 7h 6h 5h 4d 3d 2d W Kd Kc 7c")
    assert detect_automatics(NO_SURRENDER, held) == (Automatic.DRAGON, Automatic.THREE_FLUSHES)


def test_detection_uses_jokers_for_three_full_houses() -> None:
    held = parse_cards("Ks Kd Kh 4c 4d Qs Qd Qh 2c 2d 9s 9d 9h 5c W 7s 8d")
    assert Automatic.THREE_FULL_HOUSES in detect_automatics(NO_SURRENDER, held)
    assert not has_automatic(held[:-3] + parse_cards("7s 8d 6h"), Automatic.THREE_FULL_HOUSES)


def test_games_without_automatics_detect_none() -> None:
    held = parse_cards("As Ks Qs Js Ts 9h 8h 7h 6h 5h 4d 3d 2d W Kd Kc 7c")
    assert detect_automatics(SHOWDOWN, held) == ()


def test_declaring_an_automatic_the_hands_do_not_show_is_refused() -> None:
    arrangement = parse_arrangement("Ks Kd Kh 4c 4d | Qs Qd Qh Qc 2d | As Ad Ah Ac 5c")
    with pytest.raises(GameError, match="For three full houses, the middle hand must be"):
        verify_automatic(NO_SURRENDER, None, arrangement, Automatic.THREE_FULL_HOUSES)


def values(text: str) -> tuple[HandValue, ...]:
    return verify_arrangement(NO_SURRENDER, None, parse_arrangement(text))


FLUSHES_A = values("2s 5s 7s 9s Js | 3h 6h 8h Th Qh | 2d 5d 7d 9d Kd")


def test_same_automatic_winning_all_three_rows_takes_3() -> None:
    weaker = values("2c 4c 7c 9c Jc | 3c 6c 8c Tc Qc | 2c 5c 7c 9c Kc")
    kind = Automatic.THREE_FLUSHES
    assert automatic_points(RULES, kind, FLUSHES_A, kind, weaker) == 3
    assert automatic_points(RULES, kind, weaker, kind, FLUSHES_A) == -3


def test_same_automatic_winning_more_rows_but_not_all_takes_1() -> None:
    other = values("2c 4c 7c 9c Jc | 3c 6c 8c Tc Qc | 2c 5c 7c 9c Ac")
    kind = Automatic.THREE_FLUSHES
    assert automatic_points(RULES, kind, FLUSHES_A, kind, other) == 1
    assert automatic_points(RULES, kind, other, kind, FLUSHES_A) == -1


def test_same_automatic_winning_one_row_with_two_ties_takes_1() -> None:
    other = values("2c 4c 7c 9c Jc | 3h 6h 8h Th Qh | 2d 5d 7d 9d Kd")
    kind = Automatic.THREE_FLUSHES
    assert automatic_points(RULES, kind, FLUSHES_A, kind, other) == 1


def test_same_automatic_with_equal_rows_won_pushes() -> None:
    kind = Automatic.THREE_FLUSHES
    split = values("2c 4c 7c 9c Jc | 3h 6h 8h Th Qh | 2d 5d 7d 9d Ad")
    assert automatic_points(RULES, kind, FLUSHES_A, kind, split) == 0
    assert automatic_points(RULES, kind, FLUSHES_A, kind, FLUSHES_A) == 0


def dragon(ace: str) -> tuple[HandValue, ...]:
    return values(f"4d 3d 2d | 9h 8h 7c 6h 5h | {ace} Ks Qs Js Ts")


def test_dragon_against_dragon_the_aces_suit_decides() -> None:
    kind = Automatic.DRAGON
    assert automatic_points(RULES, kind, dragon("As"), kind, dragon("Ah")) == 3
    assert automatic_points(RULES, kind, dragon("Ac"), kind, dragon("Ad")) == -3
    assert automatic_points(RULES, kind, dragon("Ah"), kind, dragon("Ah")) == 0


def test_a_joker_ace_in_a_dragon_is_a_spade() -> None:
    assert dragon_suit(parse_cards("W Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h")) == Suit.SPADES
    assert dragon_suit(parse_cards("Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h W")) == Suit.HEARTS


def test_a_spare_joker_plays_the_dragons_ace_of_spades() -> None:
    held = parse_cards("Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h W")
    assert dragon_suit(held) == Suit.SPADES
    layout = layout_automatic(NO_SURRENDER, held, Automatic.DRAGON)
    assert dragon_suit(layout.used) == Suit.SPADES


def test_automatic_points_are_doubled_in_standard_play() -> None:
    flushes = PlayedHands("a", FLUSHES_A, Automatic.THREE_FLUSHES)
    dragon_player = PlayedHands("b", dragon("As"), Automatic.DRAGON)
    assert matchup(STANDARD, dragon_player, flushes).total == 6
    assert matchup(NO_SURRENDER, dragon_player, flushes).total == 3
    assert matchup(NO_SURRENDER, flushes, dragon_player).automatic == -3
