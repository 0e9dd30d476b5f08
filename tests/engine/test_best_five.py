"""The public best_five gives what the general path gives: the same value, cards, name and label."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from engine.cards import JOKER, AnyCard, card_from_code, parse_cards, standard_deck
from engine.errors import HandError
from engine.evaluate import (
    PAI_GOW_RULES,
    PYRAMID_RULES,
    SEVENTEEN_CARD_RULES,
    HandRules,
    HandValue,
    best_five,
    evaluator,
)
from engine.readings import key_of, resolve

DECK = standard_deck()
#: Shoes as the games deal them: Pai Gow's 52 cards and the bug; three decks and four jokers.
SHOES = {
    "one deck": list(DECK),
    "one deck and the bug": [*DECK, JOKER],
    "three decks and four jokers": [*DECK * 3, *[JOKER] * 4],
}
RULES = {"pyramid": PYRAMID_RULES, "paigow": PAI_GOW_RULES, "seventeen-card": SEVENTEEN_CARD_RULES}


def _general(held: Sequence[AnyCard], rules: HandRules) -> HandValue:
    """The strongest five by the general path: the first of the strongest in the order tried."""
    strongest = max(
        itertools.combinations(held, 5),
        key=lambda five: key_of(resolve([card.code for card in five], rules)),
    )
    return evaluator(rules).evaluate(strongest)


def _fields(value: HandValue) -> tuple[object, ...]:
    """Everything a value shows: equal values compare by key alone, so each field is pinned."""
    return (
        value.cards,
        value.category,
        value.key,
        value.resolved,
        value.jokers,
        value.name,
        value.label,
    )


def _same_ranks_other_suits(held: Sequence[AnyCard], rng: random.Random) -> list[AnyCard]:
    """The same ranks (and jokers) with new suits, shuffled: best_five remembers by ranks."""
    out = [
        card if card.is_joker else card_from_code(card.code & ~3 | rng.randrange(4))
        for card in held
    ]
    rng.shuffle(out)
    return out


@pytest.mark.parametrize("rules_name", RULES)
@pytest.mark.parametrize("shoe", SHOES)
def test_best_five_is_the_general_paths_answer_on_random_hands(rules_name: str, shoe: str) -> None:
    rng = random.Random(f"{shoe}/{rules_name}")
    rules, cards = RULES[rules_name], SHOES[shoe]
    # Flushes more often than chance deals them: most of a hand from one suit.
    hearts = [card for card in cards if card.is_joker or card.code & 3 == 2]
    ours = evaluator(rules)
    for _ in range(60):
        size = rng.choice((5, 6, 7, 7, 7, 8))
        held = rng.sample(cards if rng.random() < 0.8 else hearts, size)
        for hand in (held, _same_ranks_other_suits(held, rng)):
            expected = _fields(_general(hand, rules))
            assert _fields(best_five(hand, rules)) == expected, hand
            assert _fields(ours.best_five(iter(hand))) == expected, hand


@pytest.mark.parametrize(
    ("text", "cards", "label"),
    [
        ("As Ks Qs Js Ts W 2c", "As Ks Qs Js Ts", "Royal flush"),
        ("W Ks Qs Js Ts As 2c", "W Ks Qs Js Ts", "Royal flush (W→A♠)"),
    ],
)
def test_best_five_keeps_the_first_of_equal_fives_in_the_order_given(
    text: str, cards: str, label: str
) -> None:
    # The joker and the ace of spades make the same royal flush: the first five given is shown.
    value = best_five(parse_cards(text))
    assert " ".join(str(card) for card in value.cards) == cards
    assert value.label == label


def test_best_five_of_four_cards_is_refused_with_the_count() -> None:
    with pytest.raises(HandError, match=r"A best five-card hand needs at least 5 cards, not 4\."):
        best_five(parse_cards("As Ks Qs Js"))


@pytest.mark.parametrize("size", [12, 13, 16])
def test_best_rank_of_many_cards_of_one_suit_is_the_best_fives(size: int) -> None:
    # Thirteen clubs hold a royal flush; the packed suit counts once overflowed past twelve
    # cards of a suit and read them as a straight.
    clubs = [card for card in DECK if card.suit.name == "CLUBS"]
    held = (clubs * 2)[:size]
    judge = evaluator(PYRAMID_RULES)
    codes = [card.code for card in held]
    best = max(judge.rank([code for code in five]) for five in itertools.combinations(codes, 5))
    assert judge.best_rank(codes) == best
