"""Lookups of 3- and 5-card hands: the product of the cards' primes names their ranks, unsorted.

Every rank has its own prime, and the joker one more (2), so the product of a hand's primes is
the same in any order and different for every multiset of ranks and jokers. With one flag, "the
real cards share one suit", it fixes the hand's rank part (category and ranks, no suits) under a
set of hand rules: a joker only ever becomes a rank the hand already names, a rank a run needs,
or a card of that one suit. So two lookups per size (suited or not) hold every 3- and 5-card
hand, jokers included, and finding a hand's entry takes no sort (after treys' prime products).

A rank part is stored as one integer that orders like the tuple: the ladder place, then six
4-bit digits (the ranks in key order, then zeros; every rank is 2 to 15). The entries are built
from the general path (``engine.readings``) once and shipped in ``engine/data/`` (about 20 kB a
set of rules, read in a few milliseconds); rules not shipped are built when first used (0.3 s).
``python -m engine.lookups`` writes the shipped files again; a test compares them with a build.
"""

from __future__ import annotations

import itertools
import math
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from engine.cards import JOKER_CODE
from engine.hand_rules import (
    PAI_GOW_RULES,
    PYRAMID_RULES,
    SEVENTEEN_CARD_RULES,
    SPADES,
    HandRules,
    WheelMode,
)
from engine.readings import resolve

Key = tuple[int, ...]

#: The prime of each symbol: 1 stands for the joker, 2 to 14 for the ranks.
_SYMBOL_PRIMES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43)
_CARDS: Final = range(8, 60)
#: The prime of each card code (the joker's code is 0; codes that are no card have 0).
PRIMES: Final[tuple[int, ...]] = tuple(
    2 if code == JOKER_CODE else _SYMBOL_PRIMES[(code >> 2) - 1] if code in _CARDS else 0
    for code in range(64)
)
#: Each card's suit as one bit; the joker has every bit, so the AND of a hand's masks is not 0
#: exactly when its real cards share one suit.
SUIT_MASKS: Final[tuple[int, ...]] = tuple(
    15 if code == JOKER_CODE else 1 << (code & 3) if code in _CARDS else 0 for code in range(64)
)
#: Each card's suit as a 4-bit counter (the joker counts in every suit): a sum of these holds
#: a suit with five or more cards exactly when ``(total + FIVE_CARRY) & FIVE_BITS`` is not 0.
SUIT_COUNTS: Final[tuple[int, ...]] = tuple(
    0x1111 if code == JOKER_CODE else 1 << 4 * (code & 3) if code in _CARDS else 0
    for code in range(64)
)
FIVE_CARRY: Final = 0x3333
FIVE_BITS: Final = 0x8888
_DIGITS: Final = 6


def encode(part: Sequence[int]) -> int:
    """The integer of a rank part ``(ladder, ranks..., 0)``, ordered as the tuples are."""
    value = part[0]
    for i in range(1, _DIGITS + 1):
        value = value * 16 + (part[i] if i < len(part) else 0)
    return value


def ladder_of(value: int) -> int:
    """The ladder place of a rank part integer made by ``encode``."""
    return value >> 4 * _DIGITS


def decode(value: int) -> Key:
    """The rank part ``(ladder, ranks..., 0)`` of an integer made by ``encode``."""
    digits = []
    for _ in range(_DIGITS):
        digits.append(value & 15)
        value >>= 4
    ranks = []
    for digit in reversed(digits):
        if not digit:
            break
        ranks.append(digit)
    return (value, *ranks, 0)


@dataclass(frozen=True, slots=True)
class Lookups:
    """Rank part integers of 3- and 5-card hands by prime product: not suited, and suited."""

    plain5: dict[int, int]
    flush5: dict[int, int]
    plain3: dict[int, int]
    flush3: dict[int, int]


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` symbols (1: joker, 2-14: ranks), in one fixed order."""
    return list(itertools.combinations_with_replacement(range(1, 15), size))


def _entry(symbols: Sequence[int], rules: HandRules, *, suited: bool) -> int:
    """The rank part integer of one multiset, read by the general path."""
    codes = []
    for i, symbol in enumerate(symbols):
        if symbol == 1:
            codes.append(JOKER_CODE)
        else:
            # Not suited: the real cards go round the suits, so two of them never share one.
            codes.append(symbol * 4 + (SPADES if suited else (SPADES - i) % 4))
    ladder, ranks, _, _ = resolve(codes, rules)
    return encode((ladder, *ranks, 0))


def _products(size: int) -> list[int]:
    return [math.prod(_SYMBOL_PRIMES[s - 1] for s in symbols) for symbols in _multisets(size)]


def _values(rules: HandRules) -> list[int]:
    """Every entry, in the shipped order: 5 cards plain, suited, then 3 cards plain, suited."""
    out: list[int] = []
    for size in (5, 3):
        for suited in (False, True):
            out.extend(_entry(symbols, rules, suited=suited) for symbols in _multisets(size))
    return out


def _lookups(values: Sequence[int]) -> Lookups:
    five, three = _products(5), _products(3)
    n5, n3 = len(five), len(three)
    return Lookups(
        plain5=dict(zip(five, values[:n5], strict=True)),
        flush5=dict(zip(five, values[n5 : 2 * n5], strict=True)),
        plain3=dict(zip(three, values[2 * n5 : 2 * n5 + n3], strict=True)),
        flush3=dict(zip(three, values[2 * n5 + n3 :], strict=True)),
    )


DATA_DIR: Final = Path(__file__).resolve().parent / "data"
#: The rules whose lookups ship with the engine (the three-card game's are the 17-card game's:
#: suits breaking ties changes no rank part).
SHIPPED: Final = (
    PYRAMID_RULES,
    SEVENTEEN_CARD_RULES,
    PAI_GOW_RULES,
    HandRules(three_card_runs=False, joker=PAI_GOW_RULES.joker, wheel=WheelMode.LOW),
)


def data_path(rules: HandRules) -> Path:
    """Where the lookups of these rules are shipped (whether or not they are)."""
    runs = "runs" if rules.three_card_runs else "no-runs"
    return DATA_DIR / f"lookups-{runs}-{rules.joker.value}-{rules.wheel.value}.bin"


def _read(path: Path) -> list[int] | None:
    try:
        raw = zlib.decompress(path.read_bytes())
    except (OSError, zlib.error):
        return None
    values = array("I")
    values.frombytes(raw)
    if sys.byteorder != "little":
        values.byteswap()
    return values.tolist()


def load_lookups(rules: HandRules) -> Lookups:
    """The lookups of these rules: read from the shipped file, else built from the readings."""
    values = _read(data_path(rules))
    expected = 2 * (len(_multisets(5)) + len(_multisets(3)))
    if values is None or len(values) != expected:
        values = _values(rules)
    return _lookups(values)


def build_lookups(rules: HandRules) -> Lookups:
    """The lookups of these rules, built from the general path (what the shipped files hold)."""
    return _lookups(_values(rules))


def write_lookups(rules: HandRules) -> Path:
    """Build the lookups of these rules and write them where ``load_lookups`` reads them."""
    values = array("I", _values(rules))
    if sys.byteorder != "little":
        values.byteswap()
    path = data_path(rules)
    path.write_bytes(zlib.compress(values.tobytes(), 9))
    return path


if __name__ == "__main__":
    for shipped in SHIPPED:
        print(write_lookups(shipped))
