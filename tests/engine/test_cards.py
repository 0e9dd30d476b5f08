"""Card notation, jokers and shoes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.cards import (
    JOKER,
    Card,
    Rank,
    Shoe,
    Suit,
    format_cards,
    format_hands,
    parse_card,
    parse_cards,
    parse_hands,
    sort_cards,
)
from engine.errors import CardError, GameError


def test_canonical_notation_round_trips() -> None:
    cards = parse_cards("As Td 9c W")
    assert cards == (
        Card(Rank.ACE, Suit.SPADES),
        Card(Rank.TEN, Suit.DIAMONDS),
        Card(Rank.NINE, Suit.CLUBS),
        JOKER,
    )
    assert format_cards(cards) == "As Td 9c W"


@pytest.mark.parametrize(
    "text",
    [
        "As Td 9c W",
        "AS TD 9C W",
        "as td 9c w",
        "A♠ T♦ 9♣ W",
        "As,Td,9c,W",
        "As, Td , 9c ,W",
        "AsTd9cW",
        "A♠️ 10d 9c 🃏",
        "As 10d 9c JK",
        "As Td 9c Joker",
    ],
)
def test_every_accepted_spelling_reads_the_same_cards(text: str) -> None:
    assert format_cards(parse_cards(text)) == "As Td 9c W"


def test_suits_rank_spades_over_hearts_over_diamonds_over_clubs() -> None:
    assert Suit.SPADES > Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS


def test_pretty_form_uses_suit_symbols() -> None:
    assert format_cards(parse_cards("Qs Th W"), pretty=True) == "Q♠ T♥ W"


@pytest.mark.parametrize(
    ("text", "token"),
    [("As Xs", "Xs"), ("As 1h", "1h"), ("Ahh", "Ahh"), ("11s", "11s"), ("A", "A")],
)
def test_a_malformed_card_names_the_token_and_says_what_a_card_looks_like(
    text: str, token: str
) -> None:
    with pytest.raises(CardError) as raised:
        parse_cards(text)
    message = str(raised.value)
    assert repr(token) in message
    assert "a card is a rank" in message and "a joker is W" in message


def test_a_long_malformed_token_is_quoted_by_its_start_only() -> None:
    # A player's message (or a line of the command line) may be long: the sentence is not.
    with pytest.raises(CardError) as raised:
        parse_cards("As " + "Zz" * 500)
    message = str(raised.value)
    assert "'ZzZzZz" in message and "(1,000 characters)" in message
    assert len(message) < 250
    with pytest.raises(CardError) as raised:
        parse_card("Kh " * 500)
    assert len(str(raised.value)) < 250


def test_parse_card_wants_exactly_one_card() -> None:
    assert parse_card("kh") == Card(Rank.KING, Suit.HEARTS)
    with pytest.raises(CardError):
        parse_card("Kh Qh")


def test_hands_of_an_arrangement_are_separated_by_bars() -> None:
    hands = parse_hands("As | Kh Kd Ks | 2c 3c 4c")
    assert [len(h) for h in hands] == [1, 3, 3]
    assert format_hands(hands) == "As | Kh Kd Ks | 2c 3c 4c"


def test_duplicate_cards_are_kept_as_a_multiset() -> None:
    assert Counter(parse_cards("As As As W W")) == Counter(
        {Card(Rank.ACE, Suit.SPADES): 3, JOKER: 2}
    )


@pytest.mark.parametrize(
    ("decks", "jokers", "size"), [(3, 4, 160), (2, 2, 106), (1, 1, 53), (6, 0, 312)]
)
def test_shoes_hold_their_decks_and_jokers(decks: int, jokers: int, size: int) -> None:
    shoe = Shoe(decks=decks, jokers=jokers, rng=random.Random(1))
    assert len(shoe) == shoe.size == size
    cards = shoe.deal(size)
    counts = Counter(cards)
    assert counts[JOKER] == jokers
    assert all(counts[Card(rank, suit)] == decks for rank in Rank for suit in Suit)


def test_the_same_seed_deals_the_same_cards() -> None:
    one = Shoe(decks=3, jokers=4, rng=random.Random(42)).deal(20)
    two = Shoe(decks=3, jokers=4, rng=random.Random(42)).deal(20)
    other = Shoe(decks=3, jokers=4, rng=random.Random(43)).deal(20)
    assert one == two and one != other


def test_dealing_takes_cards_off_the_shoe() -> None:
    shoe = Shoe(decks=1, jokers=1, rng=random.Random(3))
    first = shoe.deal(7)
    second = shoe.deal(7)
    assert len(shoe) == 53 - 14
    assert Counter(first) + Counter(second) + Counter(shoe.remaining) == Counter(
        Shoe(decks=1, jokers=1, rng=random.Random(0)).deal(53)
    )
    with pytest.raises(ValueError, match="39 cards left"):
        shoe.deal(40)


def test_cards_sort_by_rank_jokers_first_then_spades_over_hearts_within_a_rank() -> None:
    cards = parse_cards("2c Ah W Kd As 2s Kd")
    assert format_cards(sort_cards(cards)) == "W As Ah Kd Kd 2s 2c"
    assert sort_cards(cards, by="rank") == sort_cards(cards)


def test_cards_sort_by_suit_jokers_first_then_spades_hearts_diamonds_clubs_highest_first() -> None:
    cards = parse_cards("2c Ah W Kd As 2s Tc 3h")
    assert format_cards(sort_cards(cards, by="suit")) == "W As 2s Ah 3h Kd Tc 2c"


def test_cards_sort_only_by_rank_or_suit() -> None:
    with pytest.raises(GameError, match="rank or by suit"):
        sort_cards(parse_cards("As"), by="colour")
