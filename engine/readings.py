"""The general path of hand evaluation: every reading of a hand, jokers resolved, the best kept.

A hand (1, 2, 3, 5 or 6-10 cards, jokers included) is read as a rank pattern (jokers join the
largest group), a run (found by arithmetic on the held ranks) and a flush; the strongest reading
is its strength. It is the rules written out once: the lookups of 3- and 5-card hands are built
from it, and every other hand goes through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Final, NamedTuple, NoReturn

from engine.cards import JOKER_CODE
from engine.errors import HandError
from engine.hand_rules import (
    ACE,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    SPADES,
    STRAIGHT,
    THREE_CARD_FLUSH,
    THREE_CARD_STRAIGHT,
    TRIPS,
    TWO_PAIR,
    HandRules,
    JokerMode,
    WheelMode,
    of_a_kind_ladder,
    straight_flush_ladder,
)
from engine.text import tr


class Reading(NamedTuple):
    """One reading of a hand: its ladder place, ranks in key order, cards in key order, jokers."""

    ladder: int
    ranks: tuple[int, ...]
    ordered: tuple[int, ...]
    substitutes: tuple[int, ...]


NUMBER_WORDS: Final = {
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
}
#: What a 6-10-card hand must be, as a sentence says it.
BIG_HAND_RULES: Final = {
    6: tr("six of a kind or a 6-card straight flush"),
    7: tr("seven of a kind or a 7-card straight flush"),
    8: tr("eight of a kind or a 8-card straight flush"),
    9: tr("nine of a kind or a 9-card straight flush"),
    10: tr("ten of a kind or a 10-card straight flush"),
}
_PATTERN_LADDER: Final = {
    (1,): HIGH_CARD,
    (2,): PAIR,
    (1, 1): HIGH_CARD,
    (3,): TRIPS,
    (2, 1): PAIR,
    (1, 1, 1): HIGH_CARD,
    (5,): of_a_kind_ladder(5),
    (4, 1): QUADS,
    (3, 2): FULL_HOUSE,
    (3, 1, 1): TRIPS,
    (2, 2, 1): TWO_PAIR,
    (2, 1, 1, 1): PAIR,
    (1, 1, 1, 1, 1): HIGH_CARD,
}


def _exact_pattern(real: Sequence[int]) -> Reading | None:
    """The rank-pattern reading of joker-free cards (sorted high to low), if it is a hand."""
    by_rank: dict[int, list[int]] = {}
    for code in real:
        by_rank.setdefault(code >> 2, []).append(code)
    shape = sorted(((len(codes), rank) for rank, codes in by_rank.items()), reverse=True)
    groups = tuple(count for count, _ in shape)
    if len(groups) == 1 and groups[0] >= 3:
        ladder = of_a_kind_ladder(groups[0])
    elif groups in _PATTERN_LADDER:
        ladder = _PATTERN_LADDER[groups]
    else:
        return None
    ordered = tuple(code for _, rank in shape for code in by_rank[rank])
    return Reading(ladder, tuple(rank for _, rank in shape), ordered, ())


def _pattern_reading(real: Sequence[int], jokers: int, *, bug: bool) -> Reading | None:
    """Best pair/trips/full house/n-of-a-kind reading.

    A wild joker joins the largest group of equal ranks (the highest on a tie): that always
    gives the strongest of these readings. The bug is an ace here (seed 003).
    """
    if not jokers:
        return _exact_pattern(real)
    if bug:
        rank = ACE
    else:
        counts: dict[int, int] = {}
        for code in real:
            counts[code >> 2] = counts.get(code >> 2, 0) + 1
        rank = max(counts.items(), key=lambda item: (item[1], item[0]))[0] if counts else ACE
    substitutes = (rank * 4 + SPADES,) * jokers
    found = _exact_pattern(sorted((*real, *substitutes), reverse=True))
    return None if found is None else found._replace(substitutes=substitutes)


@cache
def _run_windows(size: int, wheel: WheelMode) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every run of ``size`` ranks as (value, ranks top first), strongest first (RULINGS §1.3)."""
    ace_high = (ACE + 1, tuple(range(ACE, ACE - size, -1)))
    plain = [(top, tuple(range(top, top - size, -1))) for top in range(ACE - 1, size, -1)]
    if wheel is WheelMode.SECOND:
        return (ace_high, (ACE, (ACE, *range(size, 1, -1))), *plain)
    return (ace_high, *plain, (size, (*range(size, 1, -1), ACE)))


@cache
def _window_ranks(size: int, wheel: WheelMode) -> dict[int, tuple[int, ...]]:
    return dict(_run_windows(size, wheel))


def _run(
    real: Sequence[int], jokers: int, size: int, *, suited: bool, wheel: WheelMode
) -> Reading | None:
    """Best run (straight or straight flush) of ``size`` cards; jokers fill the gaps."""
    suits = {code & 3 for code in real}
    if suited and len(suits) > 1:
        return None
    ranks = [code >> 2 for code in real]
    if len(set(ranks)) != len(ranks):
        return None
    joker_suit = next(iter(suits)) if suited and suits else SPADES
    held = {code >> 2: code for code in real}
    value = _best_run_value(held, size, wheel)
    if value is None:
        return None
    window = _window_ranks(size, wheel)[value]
    ordered = tuple(held.get(rank, rank * 4 + joker_suit) for rank in window)
    substitutes = tuple(rank * 4 + joker_suit for rank in window if rank not in held)
    if suited:
        ladder = straight_flush_ladder(size)
    else:
        ladder = THREE_CARD_STRAIGHT if size == 3 else STRAIGHT
    return Reading(ladder, (value,), ordered, substitutes)


def _best_run_value(held: Iterable[int], size: int, wheel: WheelMode) -> int | None:
    """Value of the strongest run of ``size`` ranks holding every held rank (distinct ranks)."""
    ranks = sorted(held)
    if not ranks or ranks[0] > ACE - size:
        return ACE + 1  # the ace-high run
    ace_low_fits = all(rank == ACE or rank <= size for rank in ranks)
    if wheel is WheelMode.SECOND and ace_low_fits:
        return ACE
    if ranks[-1] < ACE:
        top = max(min(ACE - 1, ranks[0] + size - 1), size + 1)
        if ranks[-1] <= top:
            return top
    if wheel is WheelMode.LOW and ace_low_fits:
        return size
    return None


def _flush(real: Sequence[int], jokers: int, size: int, *, bug: bool) -> Reading | None:
    """Best flush; a wild joker is an ace of the suit, the bug the best rank not yet held."""
    suits = {code & 3 for code in real}
    if len(suits) > 1:
        return None
    suit = next(iter(suits)) if suits else SPADES
    if bug:
        held = {code >> 2 for code in real}
        fill = [r for r in range(ACE, 1, -1) if r not in held][:jokers]
    else:
        fill = [ACE] * jokers
    substitutes = tuple(rank * 4 + suit for rank in fill)
    ordered = tuple(sorted((*real, *substitutes), reverse=True))
    ladder = THREE_CARD_FLUSH if size == 3 else FLUSH
    return Reading(ladder, tuple(code >> 2 for code in ordered), ordered, substitutes)


def resolve(codes: Sequence[int], rules: HandRules) -> Reading:
    """The strongest reading of a hand, with what each joker became (the general path)."""
    size = len(codes)
    if size not in (1, 2, 3, 5, 6, 7, 8, 9, 10):
        raise HandError(tr("A hand has 1, 2, 3, 5 or 6 to 10 cards, not {size}.", size=size))
    real = sorted((c for c in codes if c != JOKER_CODE), reverse=True)
    jokers = size - len(real)
    bug = rules.joker is JokerMode.BUG
    if size > 5 and len({c >> 2 for c in real}) > 1 and len({c & 3 for c in real}) > 1:
        _not_a_hand(size)  # neither one rank nor one suit, whatever the jokers become
    found = [_pattern_reading(real, jokers, bug=bug)]
    if size >= 5 or (size == 3 and rules.three_card_runs):
        found.append(_run(real, jokers, size, suited=True, wheel=rules.wheel))
        if size <= 5:
            found.append(_flush(real, jokers, size, bug=bug))
            found.append(_run(real, jokers, size, suited=False, wheel=rules.wheel))
    readings = [result for result in found if result is not None]
    if not readings:
        _not_a_hand(size)
    return max(readings, key=key_of)


def _not_a_hand(size: int) -> NoReturn:
    """Refuse a 6-10-card hand that is neither n of a kind nor a straight flush."""
    raise HandError(
        tr(
            "A {size}-card hand must be {requirement}.",
            size=str(size),
            requirement=BIG_HAND_RULES[size],
        )
    )


def key_of(result: Reading) -> tuple[int, ...]:
    """The strength key of a reading: ``(ladder, ranks..., 0, suits...)``."""
    return (result.ladder, *result.ranks, 0, *(code & 3 for code in result.ordered))
