"""Hands' names and slots' names as `Text`, so a showdown, a builder or a picture reads them in
the reader's language.

The rules (tables/rules/, engine/evaluate.py's ``describe``) name a hand in English, in a small
fixed grammar: "Pair of kings (Q 9 4)", "Full house, kings over fours", "6-card straight flush,
nine high", "Ace-seven", with what each joker became after it ("(W→A♠)"). `hand_name` reads that
grammar back into a text made of translated pieces (a rank's word, the category's phrase), whose
English is the name it read, exactly; a name it does not know reads as it is, in English, in
every language. A name that is a `Text` already passes through.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from engine.text import Text, tr

#: Each rank's words by its English word: capitalised (a name's first word), alone, plural.
RANK_WORDS: Final[dict[str, tuple[Text, Text, Text]]] = {
    "two": (tr("Two"), tr("two"), tr("twos")),
    "three": (tr("Three"), tr("three"), tr("threes")),
    "four": (tr("Four"), tr("four"), tr("fours")),
    "five": (tr("Five"), tr("five"), tr("fives")),
    "six": (tr("Six"), tr("six"), tr("sixes")),
    "seven": (tr("Seven"), tr("seven"), tr("sevens")),
    "eight": (tr("Eight"), tr("eight"), tr("eights")),
    "nine": (tr("Nine"), tr("nine"), tr("nines")),
    "ten": (tr("Ten"), tr("ten"), tr("tens")),
    "jack": (tr("Jack"), tr("jack"), tr("jacks")),
    "queen": (tr("Queen"), tr("queen"), tr("queens")),
    "king": (tr("King"), tr("king"), tr("kings")),
    "ace": (tr("Ace"), tr("ace"), tr("aces")),
}
#: A high card's name, and a run's or a flush's top, each rank in a phrase of its own (a
#: language may say it differently by rank: "As alto", "Reina alta"; "al rey", "a la reina").
HIGH_CARDS: Final[dict[str, Text]] = {
    text.msgid: text
    for text in (
        tr("Two high"),
        tr("Three high"),
        tr("Four high"),
        tr("Five high"),
        tr("Six high"),
        tr("Seven high"),
        tr("Eight high"),
        tr("Nine high"),
        tr("Ten high"),
        tr("Jack high"),
        tr("Queen high"),
        tr("King high"),
        tr("Ace high"),
    )
}
TOPS: Final[dict[str, Text]] = {
    text.msgid: text
    for text in (
        tr("two high"),
        tr("three high"),
        tr("four high"),
        tr("five high"),
        tr("six high"),
        tr("seven high"),
        tr("eight high"),
        tr("nine high"),
        tr("ten high"),
        tr("jack high"),
        tr("queen high"),
        tr("king high"),
        tr("ace high"),
    )
}
_CAPITAL: Final = {str(words[0]): words[0] for words in RANK_WORDS.values()}
_WORD: Final = {str(words[1]): words[1] for words in RANK_WORDS.values()}
_PLURAL: Final = {str(words[2]): words[2] for words in RANK_WORDS.values()}


def _of_a_kind(count: str, ranks: Text) -> Text | None:
    """ "Three of a kind, kings" to "Ten of a kind, twos"."""
    found = {
        "Three": lambda: tr("Three of a kind, {ranks}", ranks=ranks),
        "Four": lambda: tr("Four of a kind, {ranks}", ranks=ranks),
        "Five": lambda: tr("Five of a kind, {ranks}", ranks=ranks),
        "Six": lambda: tr("Six of a kind, {ranks}", ranks=ranks),
        "Seven": lambda: tr("Seven of a kind, {ranks}", ranks=ranks),
        "Eight": lambda: tr("Eight of a kind, {ranks}", ranks=ranks),
        "Nine": lambda: tr("Nine of a kind, {ranks}", ranks=ranks),
        "Ten": lambda: tr("Ten of a kind, {ranks}", ranks=ranks),
    }.get(count)
    return None if found is None else found()


def _high(words: str) -> Text | None:
    """A run's or a flush's top: "king high", "wheel, ace to five"."""
    if match := re.fullmatch(r"wheel, ace to (\w+)", words):
        rank = _WORD.get(match[1])
        return None if rank is None else tr("wheel, ace to {rank}", rank=rank)
    return TOPS.get(words)


def _with_high(make: Callable[[Text], Text]) -> Callable[[re.Match[str]], Text | None]:
    def read(match: re.Match[str]) -> Text | None:
        high = _high(match[1])
        return None if high is None else make(high)

    return read


def _ranks(
    make: Callable[..., Text], *kinds: dict[str, Text]
) -> Callable[[re.Match[str]], Text | None]:
    """A reader of a match's groups as rank words of these kinds (capital, word, plural)."""

    def read(match: re.Match[str]) -> Text | None:
        found = [kind.get(group) for kind, group in zip(kinds, match.groups(), strict=True)]
        if any(rank is None for rank in found):
            return None
        return make(*found)

    return read


#: The names of the grammar, each a pattern and its reader (the first that matches reads it).
_NAMES: Final[tuple[tuple[str, Callable[[re.Match[str]], Text | None]], ...]] = (
    ("Royal flush", lambda _: tr("Royal flush")),
    ("Wheel, ace to five", lambda _: tr("Wheel, ace to five")),
    (
        r"(\w+ high), then (.+)",
        lambda m: (
            None
            if m[1] not in HIGH_CARDS
            else tr("{hand}, then {cards}", hand=HIGH_CARDS[m[1]], cards=m[2])
        ),
    ),
    (r"\w+ high", lambda m: HIGH_CARDS.get(m[0])),
    (r"Pair of (\w+)", _ranks(lambda ranks: tr("Pair of {ranks}", ranks=ranks), _PLURAL)),
    (
        r"Two pair, (\w+) and (\w+)",
        _ranks(lambda a, b: tr("Two pair, {high} and {low}", high=a, low=b), _PLURAL, _PLURAL),
    ),
    (
        r"Full house, (\w+) over (\w+)",
        _ranks(lambda a, b: tr("Full house, {high} over {low}", high=a, low=b), _PLURAL, _PLURAL),
    ),
    (
        r"(\w+) of a kind, (\w+)",
        lambda m: None if m[2] not in _PLURAL else _of_a_kind(m[1], _PLURAL[m[2]]),
    ),
    (r"Flush, (.+)", _with_high(lambda high: tr("Flush, {high}", high=high))),
    (r"Three-card flush, (.+)", _with_high(lambda high: tr("Three-card flush, {high}", high=high))),
    (r"Straight, (.+)", _with_high(lambda high: tr("Straight, {high}", high=high))),
    (
        r"Three-card straight flush, (.+)",
        _with_high(lambda high: tr("Three-card straight flush, {high}", high=high)),
    ),
    (
        r"Three-card straight, (.+)",
        _with_high(lambda high: tr("Three-card straight, {high}", high=high)),
    ),
    (r"Straight flush, (.+)", _with_high(lambda high: tr("Straight flush, {high}", high=high))),
    (
        r"(\d+)-card straight flush, (.+)",
        lambda m: (
            None
            if (high := _high(m[2])) is None
            else tr("{size}-card straight flush, {high}", size=int(m[1]), high=high)
        ),
    ),
    (
        r"(\w+)-(\w+)",
        _ranks(lambda a, b: tr("{high}-{low}", high=a, low=b), _CAPITAL, _WORD),
    ),
)
#: What follows a name in brackets: its kickers or its cards ("Q 9 4"), or what each joker
#: became ("W→A♠, W→K♥").
_AFTER: Final = re.compile(r"(.+) \(([^()]+)\)")


def _read(label: str) -> Text | None:
    if match := _AFTER.fullmatch(label):
        hand = _read(match[1])
        return None if hand is None else tr("{hand} ({cards})", hand=hand, cards=match[2])
    for pattern, read in _NAMES:
        if match := re.fullmatch(pattern, label):
            return read(match)
    return None


def hand_name(label: str | Text) -> Text:
    """A hand's name as the rules give it, as a text in no language yet (its English the same)."""
    if isinstance(label, Text):
        return label
    found = _read(label)
    # Anything the grammar does not hold reads as it is: never a different English.
    return found if found is not None and str(found) == label else Text(label)


#: The slots' names the rules give (tables/rules' ``slot_names``).
_SLOTS: Final = {
    "Front": tr("Front"),
    "Middle": tr("Middle"),
    "Back": tr("Back"),
    "Low": tr("Low"),
    "High": tr("High"),
}


def slot_name(name: str | Text) -> Text:
    """A slot's name as the rules give it ("Hand 3", "Front", "Low"), as a text."""
    if isinstance(name, Text):
        return name
    if match := re.fullmatch(r"Hand (\d+)", name):
        return tr("Hand {number}", number=match[1])
    return _SLOTS.get(name, Text(name))
