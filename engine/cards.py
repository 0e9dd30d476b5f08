"""Ranks, suits, cards and jokers, and the one card notation used everywhere."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from engine.errors import CardError, GameError, quote
from engine.text import tr


class Suit(IntEnum):
    """Suits in rising order: spades > hearts > diamonds > clubs (RULINGS §1.1)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The lower-case letter of the canonical notation."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol used in pictures and messages."""
        return "♣♦♥♠"[self]


class Rank(IntEnum):
    """Card ranks; the ace is high (14) and plays low only inside a run."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The rank character of the canonical notation (T for ten)."""
        return "23456789TJQKA"[self - 2]

    @property
    def word(self) -> str:
        """The rank's name, as in "ace"."""
        return _RANK_WORDS[self - 2]

    @property
    def plural(self) -> str:
        """The rank's plural name, as in "sixes"."""
        return _RANK_PLURALS[self - 2]


_RANK_WORDS: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_RANK_PLURALS: Final = tuple("sixes" if word == "six" else word + "s" for word in _RANK_WORDS)

#: Integer code of a joker; real cards are ``rank * 4 + suit`` (8..59).
JOKER_CODE: Final = 0


@dataclass(frozen=True, slots=True)
class Card:
    """A standard playing card. Several decks make equal cards possible: hands are multisets."""

    rank: Rank
    suit: Suit

    is_joker = False

    @property
    def code(self) -> int:
        """A small integer that sorts by rank, then suit."""
        return self.rank * 4 + self.suit

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, as in ``Q♠``."""
        return self.rank.letter + self.suit.symbol


@dataclass(frozen=True, slots=True)
class Joker:
    """A joker: fully wild in the Pyramid games, the bug in Pai Gow."""

    is_joker = True

    @property
    def code(self) -> int:
        """The joker's code, below every real card."""
        return JOKER_CODE

    def __str__(self) -> str:
        return "W"

    @property
    def pretty(self) -> str:
        """How a joker is shown."""
        return "W"


AnyCard = Card | Joker
JOKER: Final = Joker()

_CARDS_BY_CODE: Final[dict[int, AnyCard]] = {JOKER_CODE: JOKER}
for _rank in Rank:
    for _suit in Suit:
        _CARDS_BY_CODE[_rank * 4 + _suit] = Card(_rank, _suit)


def card_from_code(code: int) -> AnyCard:
    """Return the card with the given integer code."""
    return _CARDS_BY_CODE[code]


def standard_deck() -> tuple[Card, ...]:
    """The 52 cards of one deck, lowest first."""
    return tuple(Card(rank, suit) for rank in Rank for suit in Suit)


_RANK_CHARS: Final = {
    **{str(n): Rank(n) for n in range(2, 10)},
    "10": Rank.TEN,
    "T": Rank.TEN,
    "J": Rank.JACK,
    "Q": Rank.QUEEN,
    "K": Rank.KING,
    "A": Rank.ACE,
}
_SUIT_CHARS: Final = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_TOKEN: Final = re.compile(
    r"(?P<rank>10|[2-9TJQKA])(?P<suit>[SHDC♠♥♦♣♤♡♢♧])|(?P<joker>JOKER|JK|W|🃏)",
    re.IGNORECASE,
)
_SEPARATORS: Final = re.compile(r"[\s,]+")
CARD_HELP: Final = tr(
    "a card is a rank (2-9, T or 10, J, Q, K, A) followed by a suit "
    "(s, h, d, c or ♠ ♥ ♦ ♣), like As or 10h; a joker is W"
)


def parse_cards(text: str) -> tuple[AnyCard, ...]:
    """Read cards written with spaces, commas or back to back, e.g. ``"As Td,9c W"``.

    Raises ``CardError`` naming the token that is not a card.
    """
    cleaned = text.replace("\ufe0f", "")
    cards: list[AnyCard] = []
    for chunk in _SEPARATORS.split(cleaned.strip()):
        if not chunk:
            continue
        pos = 0
        while pos < len(chunk):
            match = _TOKEN.match(chunk, pos)
            if match is None:
                raise CardError(
                    tr("I can't read {text} as cards: {help}.", text=quote(chunk), help=CARD_HELP)
                )
            if match.group("joker"):
                cards.append(JOKER)
            else:
                rank = _RANK_CHARS[match.group("rank").upper()]
                cards.append(Card(rank, _SUIT_CHARS[match.group("suit").upper()]))
            pos = match.end()
    return tuple(cards)


def parse_card(text: str) -> AnyCard:
    """Read exactly one card."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise CardError(tr("{text} is not one card: {help}.", text=quote(text), help=CARD_HELP))
    return cards[0]


def parse_hands(text: str) -> tuple[tuple[AnyCard, ...], ...]:
    """Read hands separated by ``|``, e.g. ``"As | Kh Kd Ks | ..."``."""
    return tuple(parse_cards(part) for part in text.split("|"))


def format_cards(cards: Iterable[AnyCard], *, pretty: bool = False) -> str:
    """Write cards in the canonical notation (``As Td 9c W``) or with suit symbols."""
    return " ".join(card.pretty if pretty else str(card) for card in cards)


def format_hands(hands: Iterable[Iterable[AnyCard]], *, pretty: bool = False) -> str:
    """Write hands separated by `` | ``."""
    return " | ".join(format_cards(hand, pretty=pretty) for hand in hands)


#: The orders ``sort_cards`` knows: by rank (suits break ties) or grouped by suit.
SORT_ORDERS: Final = ("rank", "suit")


def _suit_first(card: AnyCard) -> int:
    return 99 if isinstance(card, Joker) else card.suit * 16 + card.rank


def _rank_first(card: AnyCard) -> int:
    return 99 if isinstance(card, Joker) else card.code


def sort_cards(cards: Iterable[AnyCard], *, by: str = "rank") -> tuple[AnyCard, ...]:
    """Cards jokers first (they can be anything), then by rank or suit from the highest down.

    ``by="rank"``: the highest rank first, spades > hearts > diamonds > clubs within a rank;
    ``by="suit"``: spades, hearts, diamonds, then clubs, each suit highest first.
    """
    if by not in SORT_ORDERS:
        raise GameError(tr("Cards sort by rank or by suit, not by {order}.", order=quote(by)))
    key = _rank_first if by == "rank" else _suit_first
    return tuple(sorted(cards, key=key, reverse=True))


class Shoe:
    """Several decks and jokers shuffled together by an injected random generator."""

    __slots__ = ("_cards", "decks", "jokers")

    def __init__(self, *, decks: int, jokers: int, rng: random.Random) -> None:
        if decks < 1 or jokers < 0:
            raise ValueError("a shoe needs at least one deck and no negative jokers")
        self.decks = decks
        self.jokers = jokers
        cards: list[AnyCard] = [card for _ in range(decks) for card in standard_deck()]
        cards.extend(JOKER for _ in range(jokers))
        rng.shuffle(cards)
        self._cards = cards

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def size(self) -> int:
        """How many cards the full shoe holds."""
        return self.decks * 52 + self.jokers

    def deal(self, count: int) -> tuple[AnyCard, ...]:
        """Take ``count`` cards from the top of the shoe."""
        if count > len(self._cards):
            raise ValueError(f"the shoe has {len(self._cards)} cards left, not {count}")
        dealt = self._cards[-count:] if count else []
        del self._cards[len(self._cards) - count :]
        return tuple(reversed(dealt))

    @property
    def remaining(self) -> Sequence[AnyCard]:
        """The undealt cards, next card last."""
        return tuple(self._cards)
