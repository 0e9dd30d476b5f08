"""What the games' rules cards share: bullets, the table and its cards in words, and the names of
the hands on the one ladder (RULINGS §1.5), so that every card says them alike."""

from __future__ import annotations

from typing import Final

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


def bullets(*lines: str) -> str:
    """Lines as a list Discord shows with bullets (empty lines left out)."""
    return "\n".join(f"- {line}" for line in lines if line)


def paragraphs(*blocks: str) -> str:
    """Blocks of text with a blank line between them (empty blocks left out)."""
    return "\n\n".join(block for block in blocks if block)


def counted(count: int, word: str) -> str:
    """ "1 deck", "3 decks"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def times(count: int) -> str:
    """ "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def players_words(spec: GameSpec) -> str:
    """ "2 to 6 players"."""
    return f"{spec.min_players} to {spec.max_players} players"


def shoe_words(spec: GameSpec) -> str:
    """ "3 decks and 4 jokers (160 cards)", "6 decks, no jokers"."""
    decks = counted(spec.decks, "deck")
    if not spec.jokers:
        return f"{decks}, no jokers ({spec.decks * DECK} cards)"
    return f"{decks} and {counted(spec.jokers, 'joker')} ({spec.decks * DECK + spec.jokers} cards)"


def ante_words(spec: GameSpec) -> str:
    """The ante a table takes unless its host sets another: "10 chips unless the table sets
    another"."""
    return f"{spec.default_ante} chips unless the table sets another"


def hand_name(ladder: int) -> str:
    """A place on the ladder in a player's words: "trips", "6-card straight flush"."""
    category = category_of_ladder(ladder)
    if category is Category.STRAIGHT_FLUSH:
        size = (ladder - 1) // 2
        return "straight flush" if size == 5 else f"{size}-card straight flush"
    if category is Category.THREE_OF_A_KIND:
        return "trips"
    return str(category.value).replace("three_card_", "three-card ").replace("_", " ")


def ladder_names(largest: int, *, three_card_runs: bool) -> tuple[str, ...]:
    """The ladder's hands, lowest first, up to ``largest`` of a kind."""
    return tuple(
        hand_name(place)
        for place in range(of_a_kind_ladder(largest) + 1)
        if three_card_runs or place not in THREE_CARD_RUNS
    )


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
