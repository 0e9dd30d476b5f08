"""What the games' rules cards share: bullets, the table and its cards in words, and the names of
the hands on the one ladder (RULINGS §1.5), so that every card says them alike.

A card is written in no language yet: its sentences are `Text` values (``tr``), put together as
`Lines` (bullets, paragraphs, lines) that the bot's edge reads in the reader's language
(``read``). A list inside a sentence is a `Text` too (``comma_list``), so that each language
joins it its own way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import Rank
from engine.evaluate import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    THREE_CARD_FLUSH,
    THREE_CARD_STRAIGHT,
    THREE_CARD_STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    Category,
    category_of_ladder,
    of_a_kind_ladder,
)
from engine.text import Text, tr, tr_plural
from tables.spec import GameSpec

#: The cards of one deck.
DECK: Final = 52
#: What a chart shows where a hand cannot be played.
CANNOT: Final = "\N{EN DASH}"
#: A true minus sign: a hyphen looks too short before a number.
MINUS: Final = "\N{MINUS SIGN}"

#: The three-card straights and flushes, which only some games' hands have (RULINGS §1.5).
THREE_CARD_RUNS: Final = frozenset(
    {THREE_CARD_STRAIGHT, THREE_CARD_FLUSH, THREE_CARD_STRAIGHT_FLUSH}
)
_FIVE_CARDS_ONLY: Final = frozenset({TWO_PAIR, STRAIGHT, FLUSH, FULL_HOUSE})


#: The buttons of a player's DM that the cards name, as the buttons read them (the same texts:
#: where the buttons' catalog translates them, the cards say what the buttons say).
BUILD_HANDS: Final = tr("Build hands")
TYPE_HANDS: Final = tr("Type hands")
SUGGEST: Final = tr("Suggest")


@dataclass(frozen=True, slots=True)
class Lines:
    """Texts shown one after the other: each after ``marker`` ("- " for a bullet), with ``sep``
    between them (a line break, a blank line). Empty items are left out."""

    items: tuple[Words, ...]
    sep: str = "\n"
    marker: str = ""

    def __str__(self) -> str:
        return read(self, str)


@dataclass(frozen=True, slots=True)
class Capital:
    """A text starting with a capital letter, as a chart's row names it ("Full house")."""

    text: Text

    def __str__(self) -> str:
        return read(self, str)


#: What a rules card shows: a text, texts put together, or words no language changes ("3").
Words = Text | Lines | Capital | str


def read(words: Words, say: Callable[[Text], str]) -> str:
    """``words`` as one string, each `Text` read by ``say`` (``str`` for English, or
    ``lambda text: i18n.localize(locale, text)``)."""
    if isinstance(words, Text):
        return say(words)
    if isinstance(words, Capital):
        said = say(words.text)
        return said[:1].upper() + said[1:]
    if isinstance(words, Lines):
        shown = (read(item, say) for item in words.items)
        return words.sep.join(words.marker + line for line in shown if line)
    return words


def bullets(*lines: Words) -> Lines:
    """Lines as a list Discord shows with bullets (empty lines left out)."""
    return Lines(lines, "\n", "- ")


def paragraphs(*blocks: Words) -> Lines:
    """Blocks of text with a blank line between them (empty blocks left out)."""
    return Lines(blocks, "\n\n")


def comma_list(items: Sequence[Text | str]) -> Text | str:
    """Items joined as a sentence lists them without "and": "a, b, c" ("a、b、c" in Chinese)."""
    if not items:
        return ""
    joined: Text | str = items[-1]
    for item in reversed(items[:-1]):
        joined = tr("{first}, {rest}", first=item, rest=joined)
    return joined


def semicolon_list(items: Sequence[Text | str]) -> Text | str:
    """Items joined by semicolons: "3 cards; 5 if a straight or better"."""
    if not items:
        return ""
    joined: Text | str = items[-1]
    for item in reversed(items[:-1]):
        joined = tr("{first}; {rest}", first=item, rest=joined)
    return joined


def times(count: int) -> Text:
    """ "twice", "3 times"."""
    if count == 1:
        return tr("once")
    if count == 2:
        return tr("twice")
    return tr_plural("{count} time", "{count} times", count)


def of_ante(count: int) -> Text:
    """ "your ante", "twice your ante", "3 times your ante"."""
    if count == 1:
        return tr("your ante")
    if count == 2:
        return tr("twice your ante")
    return tr_plural("{count} time your ante", "{count} times your ante", count)


def players_words(spec: GameSpec) -> Text:
    """ "2 to 6 players"."""
    return tr("{low} to {high} players", low=spec.min_players, high=spec.max_players)


def shoe_words(spec: GameSpec) -> Text:
    """ "3 decks and 4 jokers (160 cards)", "6 decks, no jokers"."""
    decks = tr_plural("{count} deck", "{count} decks", spec.decks)
    if not spec.jokers:
        return tr("{decks}, no jokers ({cards} cards)", decks=decks, cards=spec.decks * DECK)
    return tr(
        "{decks} and {jokers} ({cards} cards)",
        decks=decks,
        jokers=tr_plural("{count} joker", "{count} jokers", spec.jokers),
        cards=spec.decks * DECK + spec.jokers,
    )


def ante_words(spec: GameSpec) -> Text:
    """The ante a table takes unless its host sets another: "10 chips unless the table sets
    another"."""
    return tr("{chips} chips unless the table sets another", chips=spec.default_ante)


#: The ladder's hands in a player's words (the straight flushes of 6 cards and more, and the
#: hands of 6 of a kind and more, by size below).
_HANDS: Final = {
    Category.HIGH_CARD: tr("high card"),
    Category.PAIR: tr("pair"),
    Category.THREE_CARD_STRAIGHT: tr("three-card straight"),
    Category.THREE_CARD_FLUSH: tr("three-card flush"),
    Category.THREE_CARD_STRAIGHT_FLUSH: tr("three-card straight flush"),
    Category.TWO_PAIR: tr("two pair"),
    Category.THREE_OF_A_KIND: tr("trips"),
    Category.STRAIGHT: tr("straight"),
    Category.FLUSH: tr("flush"),
    Category.FULL_HOUSE: tr("full house"),
    Category.FOUR_OF_A_KIND: tr("four of a kind"),
    Category.FIVE_OF_A_KIND: tr("five of a kind"),
    Category.SIX_OF_A_KIND: tr("six of a kind"),
    Category.SEVEN_OF_A_KIND: tr("seven of a kind"),
    Category.EIGHT_OF_A_KIND: tr("eight of a kind"),
    Category.NINE_OF_A_KIND: tr("nine of a kind"),
    Category.TEN_OF_A_KIND: tr("ten of a kind"),
}


def hand_name(ladder: int) -> Text:
    """A place on the ladder in a player's words: "trips", "6-card straight flush"."""
    category = category_of_ladder(ladder)
    if category is Category.STRAIGHT_FLUSH:
        size = (ladder - 1) // 2
        if size == 5:
            return tr("straight flush")
        return tr("{size}-card straight flush", size=str(size))
    return _HANDS[category]


def ladder_names(largest: int, *, three_card_runs: bool) -> tuple[Text, ...]:
    """The ladder's hands, lowest first, up to ``largest`` of a kind."""
    return tuple(
        hand_name(place)
        for place in range(of_a_kind_ladder(largest) + 1)
        if three_card_runs or place not in THREE_CARD_RUNS
    )


#: Each rank's name in a sentence ("seven"), at the start of a hand's name ("Ace"), and its
#: plural ("aces").
RANK_WORDS: Final = {
    Rank.TWO: tr("two"),
    Rank.THREE: tr("three"),
    Rank.FOUR: tr("four"),
    Rank.FIVE: tr("five"),
    Rank.SIX: tr("six"),
    Rank.SEVEN: tr("seven"),
    Rank.EIGHT: tr("eight"),
    Rank.NINE: tr("nine"),
    Rank.TEN: tr("ten"),
    Rank.JACK: tr("jack"),
    Rank.QUEEN: tr("queen"),
    Rank.KING: tr("king"),
    Rank.ACE: tr("ace"),
}
RANK_TITLES: Final = {
    Rank.TWO: tr("Two"),
    Rank.THREE: tr("Three"),
    Rank.FOUR: tr("Four"),
    Rank.FIVE: tr("Five"),
    Rank.SIX: tr("Six"),
    Rank.SEVEN: tr("Seven"),
    Rank.EIGHT: tr("Eight"),
    Rank.NINE: tr("Nine"),
    Rank.TEN: tr("Ten"),
    Rank.JACK: tr("Jack"),
    Rank.QUEEN: tr("Queen"),
    Rank.KING: tr("King"),
    Rank.ACE: tr("Ace"),
}
#: A hand's name by its highest card ("Ace high": the Casino Version's Hand 1, the three-card
#: game's low card).
HIGH_WORDS: Final = {
    Rank.TWO: tr("Two high"),
    Rank.THREE: tr("Three high"),
    Rank.FOUR: tr("Four high"),
    Rank.FIVE: tr("Five high"),
    Rank.SIX: tr("Six high"),
    Rank.SEVEN: tr("Seven high"),
    Rank.EIGHT: tr("Eight high"),
    Rank.NINE: tr("Nine high"),
    Rank.TEN: tr("Ten high"),
    Rank.JACK: tr("Jack high"),
    Rank.QUEEN: tr("Queen high"),
    Rank.KING: tr("King high"),
    Rank.ACE: tr("Ace high"),
}
RANK_PLURALS: Final = {
    Rank.TWO: tr("twos"),
    Rank.THREE: tr("threes"),
    Rank.FOUR: tr("fours"),
    Rank.FIVE: tr("fives"),
    Rank.SIX: tr("sixes"),
    Rank.SEVEN: tr("sevens"),
    Rank.EIGHT: tr("eights"),
    Rank.NINE: tr("nines"),
    Rank.TEN: tr("tens"),
    Rank.JACK: tr("jacks"),
    Rank.QUEEN: tr("queens"),
    Rank.KING: tr("kings"),
    Rank.ACE: tr("aces"),
}


def can_make(size: int, ladder: int) -> bool:
    """Whether a hand of ``size`` cards can sit at this place on the ladder."""
    category = category_of_ladder(ladder)
    if ladder in THREE_CARD_RUNS:
        return size == 3
    if ladder in _FIVE_CARDS_ONLY:
        return size == 5
    if ladder == HIGH_CARD:
        return size <= 5
    if ladder == PAIR:
        return 2 <= size <= 5
    if ladder == TRIPS:
        return size in (3, 5)
    if category is Category.STRAIGHT_FLUSH:
        return size == (ladder - 1) // 2
    # Four of a kind takes a kicker; five and more of a kind are the whole hand.
    return size == max(category.of_a_kind, 5)
