"""Legal arrangements: sizes, power hands, order, holdings, and the reason a player is given."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arrangement import (
    Arrangement,
    is_legal,
    parse_arrangement,
    partial_fault,
    verify_arrangement,
)
from engine.cards import AnyCard, parse_cards
from engine.errors import GameError
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, VARIANTS, Variant
from tests.engine.pyramid_helpers import (
    random_arrangement,
    random_holding,
    reference_legal,
)

SEEDED = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

BASE = "2c | 3c 3d 4h | 9c 9d Kh | 9s 9h Kd | As Ad Ah Kc Kd | Qs Js Ts 9s 8s"


def refusal(variant: Variant, text: str, held: str | None = None) -> str:
    with pytest.raises(GameError) as caught:
        verify_arrangement(variant, parse_cards(held) if held else None, parse_arrangement(text))
    return str(caught.value)


def test_arrangement_reads_hands_weakest_first_and_discards_after_a_double_bar() -> None:
    arrangement = parse_arrangement("As | Kh Kd Ks || 2c W")
    assert arrangement.hands == (parse_cards("As"), parse_cards("Kh Kd Ks"))
    assert arrangement.discards == parse_cards("2c W")
    assert str(arrangement) == "As | Kh Kd Ks || 2c W"


def test_a_legal_showdown_arrangement_gives_each_hands_value() -> None:
    values = verify_arrangement(SHOWDOWN, None, parse_arrangement(BASE))
    assert [value.category.value for value in values] == [
        "high_card",
        "pair",
        "pair",
        "pair",
        "full_house",
        "straight_flush",
    ]


def test_equal_showdown_hands_are_a_foul() -> None:
    text = BASE.replace("9s 9h Kd", "9c 9d Kh")
    assert refusal(SHOWDOWN, text) == (
        "Hand 4 must be stronger than Hand 3, but both are a pair of nines (K); "
        "equal hands are a foul."
    )


def test_a_weaker_later_hand_is_refused_naming_both_hands() -> None:
    text = BASE.replace("9s 9h Kd", "9s 9h 5d")
    assert refusal(SHOWDOWN, text) == (
        "Hand 4 must be stronger than Hand 3: Hand 4 is a pair of nines (5), "
        "Hand 3 is a pair of nines (K)."
    )


def test_a_card_not_held_is_refused_naming_the_card() -> None:
    held = "2c 3c 3d 4h 9c 9d Kh 9s 9h Kd As Ad Ah Kc Qs Js Ts 9s 8s 7s"
    assert refusal(SHOWDOWN, BASE, held) == "You do not hold a second K♦."


def test_a_joker_not_held_is_refused() -> None:
    text = BASE.replace("2c", "W")
    held = "2c 3c 3d 4h 9c 9d Kh 9s 9h Kd As Ad Ah Kc Kd Qs Js Ts 9s 8s"
    assert refusal(SHOWDOWN, text, held) == "You do not hold a joker."


def test_discards_given_must_account_for_every_held_card() -> None:
    held = "2c 3c 3d 4h 9c 9d Kh 9s 9h Kd As Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 6c"
    assert refusal(SHOWDOWN, BASE + " || 7c", held) == (
        "Play or discard every card you hold; 6♣ is in neither."
    )
    assert is_legal(SHOWDOWN, parse_arrangement(BASE + " || 7c 6c"), parse_cards(held))


def test_a_power_hand_of_six_cards_must_be_six_of_a_kind_or_a_six_card_straight_flush() -> None:
    text = BASE.replace("As Ad Ah Kc Kd", "As Ad Ah Kc Kd Qd")
    assert refusal(SHOWDOWN, text) == (
        "A 6-card Hand 5 must be six of a kind or a 6-card straight flush."
    )


def test_showdown_hand_6_may_hold_up_to_ten_cards_of_one_rank() -> None:
    text = BASE.replace("Qs Js Ts 9s 8s", "7s 7s 7s 7h 7h 7h 7d 7d 7d W")
    assert is_legal(SHOWDOWN, parse_arrangement(text))


def test_showdown_hand_5_may_not_hold_eight_cards() -> None:
    text = BASE.replace("As Ad Ah Kc Kd", "5s 5s 5s 5h 5h 5h 5d 5d").replace(
        "Qs Js Ts 9s 8s", "7s 7s 7s 7h 7h 7h 7d 7d 7d W"
    )
    assert refusal(SHOWDOWN, text) == "Hand 5 holds 8; it must hold 5, 6 or 7 cards."


def test_a_five_card_hand_4_must_be_at_least_a_full_house() -> None:
    text = BASE.replace("9s 9h Kd", "9s 9h Kd Ks 2d")
    assert refusal(SHOWDOWN, text) == (
        "A 5-card Hand 4 must be at least a full house; yours is two pair, kings and nines (2)."
    )


def test_a_five_card_hand_4_full_house_is_a_power_hand() -> None:
    text = BASE.replace("9s 9h Kd", "6s 6h 6d 4c 4d")
    assert is_legal(SHOWDOWN, parse_arrangement(text))


def test_a_six_card_hand_4_must_be_six_of_a_kind_or_a_straight_flush() -> None:
    text = BASE.replace("9s 9h Kd", "Ts Th Td Tc Ts Td").replace(
        "Qs Js Ts 9s 8s", "Qs Qs Qh Qh Qd Qd"
    )
    text = text.replace("As Ad Ah Kc Kd", "Jh Jh Jd Jd Jc Jc")
    assert is_legal(SHOWDOWN, parse_arrangement(text))


def test_a_five_card_hand_3_needs_hand_4_of_five_or_more_cards() -> None:
    text = BASE.replace("9c 9d Kh", "8s 8h 8d 4c 4d").replace("9s 9h Kd", "Ts Th Td")
    assert refusal(SHOWDOWN, text) == ("Hand 3 may hold 5 cards only when Hand 4 holds 5 or more.")


def test_a_five_card_hand_3_beside_a_five_card_hand_4_is_a_power_hand() -> None:
    text = BASE.replace("9c 9d Kh", "8s 8h 8d 4c 4d").replace("9s 9h Kd", "Ts Th Td 4s 4h")
    assert is_legal(SHOWDOWN, parse_arrangement(text))


def test_showdown_uses_at_least_20_cards() -> None:
    # A 5-card Hand 4 leaves room to play 22 cards; 20 are the fewest, so 1/3/3/3/5/5 is fine.
    assert sum(parse_arrangement(BASE).sizes) == 20
    assert is_legal(SHOWDOWN, parse_arrangement(BASE))


def test_wrong_number_of_hands_is_refused() -> None:
    assert (
        refusal(CASINO, "As | Kh Kd Ks")
        == "Set 3 hands (Hand 1 to Hand 3), weakest first; you set 2."
    )


def test_seventeen_card_equal_hands_are_allowed_back_at_least_middle() -> None:
    equal = "Ks Kd 4c | Qs Qd Qc 3h 3s | Qs Qd Qc 3h 3s"
    assert is_legal(STANDARD, parse_arrangement(equal))


def test_seventeen_card_weaker_back_is_refused() -> None:
    text = "Ks Kd 4c | Qs Qd Qc 3h 3s | Js Jd Jc 3h 3s"
    assert refusal(STANDARD, text) == (
        "The back hand must be at least as strong as the middle hand: the back hand is "
        "a full house, jacks over threes, the middle hand is a full house, queens over threes."
    )


def test_a_five_card_front_must_be_a_straight_or_better() -> None:
    text = "Ks Kd 4c 3h 2s | Qs Qd Qc 3h 3s | Qs Qd Qc 3h 3s"
    assert refusal(STANDARD, text) == (
        "A 5-card front hand must be a straight or better; yours is a pair of kings (4 3 2)."
    )


def test_seventeen_card_game_uses_13_to_17_cards() -> None:
    assert is_legal(
        NO_SURRENDER, parse_arrangement("Ks Kd 4c | 2s 3s 4s 5s 7s | 8h 8h 8h 8d 8d 8d")
    )
    eighteen = "Ks Kd Kc 4c 4d | 2s 3s 4s 5s 6s 7s 8s | 8h 8h 8h 8d 8d 8d"
    assert refusal(NO_SURRENDER, eighteen) == "Use at most 17 cards in your hands; you used 18."


def test_eight_cards_only_in_the_back() -> None:
    text = "Ks Kd 4c | 5h 5h 5h 5d 5d 5d 5c 5c | 8h 8h 8h 8d 8d 8d 8c 8c"
    assert refusal(NO_SURRENDER, text) == "The middle hand holds 8; it must hold 5, 6 or 7 cards."


def test_a_joker_resolves_to_the_strongest_hand_of_its_slot() -> None:
    values = verify_arrangement(CASINO, None, parse_arrangement("W | Ks Kd Qs | Ac Ad Ah 2c 2d"))
    assert values[0].label == "Ace high (W→A♠)"


@pytest.mark.slow
def test_verify_agrees_with_the_reference_on_every_casino_split_of_small_holdings() -> None:
    rng = random.Random(3)
    checked = accepted = 0
    for _ in range(12):
        held = random_holding(rng, CASINO, 9, narrow=rng.random() < 0.5)
        for one in range(9):
            rest = [i for i in range(9) if i != one]
            for three in itertools.combinations(rest, 3):
                five = [i for i in rest if i not in three]
                hands = ([held[one]], [held[i] for i in three], [held[i] for i in five])
                arrangement = Arrangement(tuple(tuple(hand) for hand in hands))
                ours = is_legal(CASINO, arrangement, held)
                assert ours == reference_legal(CASINO, held, hands), str(arrangement)
                checked += 1
                accepted += ours
    assert checked == 12 * 9 * 56 and accepted > 100


def _perturb(rng: random.Random, hands: list[list[AnyCard]], spare: list[AnyCard]) -> None:
    """Move, swap or add a card: legal arrangements turn into near misses."""
    move = rng.randrange(4)
    a, b = rng.randrange(len(hands)), rng.randrange(len(hands))
    if move == 0 and hands[a]:
        hands[b].append(hands[a].pop(rng.randrange(len(hands[a]))))
    elif move == 1 and hands[a] and hands[b]:
        i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    elif move == 2 and spare:
        hands[a].append(spare.pop())
    elif hands[a] and spare:
        i = rng.randrange(len(hands[a]))
        hands[a][i], spare[-1] = spare[-1], hands[a][i]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(SEEDED, max_examples=800)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_verify_never_accepts_what_the_reference_rejects(name: str, seed: int) -> None:
    variant = VARIANTS[name]
    rng = random.Random(seed)
    # The reference tries every card for each joker: two jokers at most keep it quick.
    narrow = rng.random() < 0.6
    held = random_holding(rng, variant, variant.max_held, narrow=narrow, jokers=rng.randint(0, 2))
    arrangement = random_arrangement(rng, variant, held)
    if arrangement is None:
        return
    hands = [list(hand) for hand in arrangement.hands]
    spare = list(held)
    for card in arrangement.used:
        spare.remove(card)
    for _ in range(rng.choice((0, 1, 1, 2))):
        _perturb(rng, hands, spare)
    candidate = Arrangement(tuple(tuple(hand) for hand in hands))
    assert is_legal(variant, candidate, held) == reference_legal(variant, held, hands)


def test_the_hands_chosen_so_far_are_judged_as_they_come() -> None:
    # Every beginning of a legal arrangement can stand.
    legal = parse_arrangement("W | Ks Kd Qs | Ac Ad Ah 2c 2d")
    for count in range(1, 4):
        assert partial_fault(CASINO, legal.hands[:count]) is None
    # A second hand weaker than the first is said at once, with the engine's own words.
    assert str(partial_fault(CASINO, parse_cards_hands("As", "2c 3d 5h"))) == (
        "Hand 2 must be stronger than Hand 1: Hand 2 is five high, then 3 2, Hand 1 is ace high."
    )
    assert str(partial_fault(CASINO, parse_cards_hands("As", "2c 3d"))) == (
        "Hand 2 holds 2; it must hold 3 cards."
    )


def parse_cards_hands(*hands: str) -> tuple[tuple[AnyCard, ...], ...]:
    return tuple(parse_cards(hand) for hand in hands)
