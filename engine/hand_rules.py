"""The one ladder of hand categories (RULINGS §1.5) and the rules that decide a hand's strength.

Every hand size shares one ladder; a category's place on it is a small integer (``ladder``),
the first item of every strength key. ``HandRules`` holds the parts of a variant that change how
strong a hand is: 3-card runs, how jokers play, where the wheel ranks, whether suits break ties.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from engine.cards import Suit

ACE: Final = 14
SPADES: Final = int(Suit.SPADES)

# The ladder of RULINGS §1.5, one number per category and size.
HIGH_CARD: Final = 0
PAIR: Final = 1
THREE_CARD_STRAIGHT: Final = 2
THREE_CARD_FLUSH: Final = 3
THREE_CARD_STRAIGHT_FLUSH: Final = 4
TWO_PAIR: Final = 5
TRIPS: Final = 6
STRAIGHT: Final = 7
FLUSH: Final = 8
FULL_HOUSE: Final = 9
QUADS: Final = 10


def straight_flush_ladder(size: int) -> int:
    """Ladder place of an n-card straight flush (3, or 5 to 10 cards)."""
    return THREE_CARD_STRAIGHT_FLUSH if size == 3 else 2 * size + 1


def of_a_kind_ladder(count: int) -> int:
    """Ladder place of n of a kind (3 to 10 cards)."""
    if count == 3:
        return TRIPS
    if count == 4:
        return QUADS
    return 2 * count + 2


class Category(Enum):
    """Hand categories; the ladder place also depends on the size (a 7-card straight flush)."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    THREE_CARD_STRAIGHT = "three_card_straight"
    THREE_CARD_FLUSH = "three_card_flush"
    THREE_CARD_STRAIGHT_FLUSH = "three_card_straight_flush"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    FIVE_OF_A_KIND = "five_of_a_kind"
    SIX_OF_A_KIND = "six_of_a_kind"
    SEVEN_OF_A_KIND = "seven_of_a_kind"
    EIGHT_OF_A_KIND = "eight_of_a_kind"
    NINE_OF_A_KIND = "nine_of_a_kind"
    TEN_OF_A_KIND = "ten_of_a_kind"

    @property
    def of_a_kind(self) -> int:
        """How many cards of one rank the category is made of (0 if it is not n of a kind)."""
        return _KIND_COUNTS.get(self, 0)


_KIND_COUNTS: Final = {
    Category.THREE_OF_A_KIND: 3,
    Category.FOUR_OF_A_KIND: 4,
    Category.FIVE_OF_A_KIND: 5,
    Category.SIX_OF_A_KIND: 6,
    Category.SEVEN_OF_A_KIND: 7,
    Category.EIGHT_OF_A_KIND: 8,
    Category.NINE_OF_A_KIND: 9,
    Category.TEN_OF_A_KIND: 10,
}
_LOW_LADDER: Final = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.THREE_CARD_STRAIGHT,
    Category.THREE_CARD_FLUSH,
    Category.THREE_CARD_STRAIGHT_FLUSH,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
)
_KIND_BY_COUNT: Final = {count: category for category, count in _KIND_COUNTS.items()}


def category_of_ladder(ladder: int) -> Category:
    """The category a ladder place belongs to."""
    if ladder < len(_LOW_LADDER):
        return _LOW_LADDER[ladder]
    if ladder % 2:
        return Category.STRAIGHT_FLUSH
    return _KIND_BY_COUNT[(ladder - 2) // 2]


class JokerMode(Enum):
    """How jokers play: fully wild (Pyramid games) or as the bug (Pai Gow)."""

    WILD = "wild"
    BUG = "bug"


class WheelMode(Enum):
    """Where the A-low run ranks: second-highest (RULINGS §1.3, Nevada) or lowest (California)."""

    SECOND = "second"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class HandRules:
    """The parts of a variant that decide how strong a hand is."""

    three_card_runs: bool = True
    joker: JokerMode = JokerMode.WILD
    wheel: WheelMode = WheelMode.SECOND
    suits_break_ties: bool = True


#: Showdown and Casino Version: 3-card straights and flushes exist, jokers fully wild.
PYRAMID_RULES: Final = HandRules()
#: The 17-card game (seed 001): a 3-card front is high card, pair or trips only.
SEVENTEEN_CARD_RULES: Final = HandRules(three_card_runs=False)
#: Pai Gow poker (seed 003): the joker is the bug.
PAI_GOW_RULES: Final = HandRules(three_card_runs=False, joker=JokerMode.BUG, suits_break_ties=False)
#: The three-card table game (seed 002): equal ranks push.
THREE_CARD_RULES: Final = HandRules(three_card_runs=False, suits_break_ties=False)

#: Hand rules by the variant names of the engine's command line.
HAND_RULES: Final[dict[str, HandRules]] = {
    "showdown": PYRAMID_RULES,
    "casino": PYRAMID_RULES,
    "standard": SEVENTEEN_CARD_RULES,
    "no-surrender": SEVENTEEN_CARD_RULES,
    "three-card": THREE_CARD_RULES,
    "paigow": PAI_GOW_RULES,
}
