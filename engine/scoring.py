"""Scoring: hand-by-hand matchups, the net matrix of a table, and its points as numbers.

Seed 000 "Individual Showdown": every pair of players compares hand by hand; the winner of a
position scores its own hand's points there, the loser loses as many, a tie scores nothing
(RULINGS §2). The 17-card games score the same way from seed 001's table, doubled in Standard,
unless an automatic was declared (RULINGS §4). Chips are settled in ``engine.settlement``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.automatics import automatic_points
from engine.errors import GameError
from engine.evaluate import HandValue
from engine.text import tr
from engine.variants import Automatic, Variant, variant_title


def slot_points(variant: Variant, position: int, hand: HandValue | tuple[int, ...]) -> int:
    """What winning ``position`` with this hand (or strength key) scores, the multiplier applied."""
    key = hand.key if isinstance(hand, HandValue) else hand
    for special in variant.slots[position].specials:
        if special.ladder == key[0] and (not special.top_rank or special.top_rank == key[1]):
            return special.points * variant.multiplier
    return variant.win_points * variant.multiplier


@dataclass(frozen=True, slots=True)
class PlayedHands:
    """One player's set hands as scoring sees them (values weakest slot first)."""

    name: str
    hands: tuple[HandValue, ...]
    automatic: Automatic | None = None


@dataclass(frozen=True, slots=True)
class Matchup:
    """How two players' hands met: the first player's points per position and by automatics."""

    per_hand: tuple[int, ...]
    automatic: int = 0

    @property
    def total(self) -> int:
        """The first player's net points against the second (negative: the second's)."""
        return sum(self.per_hand) + self.automatic


def matchup(variant: Variant, mine: PlayedHands, theirs: PlayedHands) -> Matchup:
    """Compare two players' hands position by position (or their automatics)."""
    if mine.automatic is not None or theirs.automatic is not None:
        if variant.automatics is None:
            raise GameError(tr("{game} has no automatics.", game=variant_title(variant)))
        points = automatic_points(
            variant.automatics, mine.automatic, mine.hands, theirs.automatic, theirs.hands
        )
        return Matchup((0,) * len(variant.slots), points * variant.multiplier)
    per_hand = []
    for position, (a, b) in enumerate(zip(mine.hands, theirs.hands, strict=True)):
        if a.key > b.key:
            per_hand.append(slot_points(variant, position, a))
        elif a.key < b.key:
            per_hand.append(-slot_points(variant, position, b))
        else:
            per_hand.append(0)
    return Matchup(tuple(per_hand))


def net_matrix(variant: Variant, players: Sequence[PlayedHands]) -> tuple[tuple[int, ...], ...]:
    """Seed 000's "Scoring Card": row i, column j is what player i nets against player j."""
    return tuple(
        tuple(0 if i == j else matchup(variant, a, b).total for j, b in enumerate(players))
        for i, a in enumerate(players)
    )


def totals(matrix: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Each player's total net score: the sum of their row."""
    return tuple(sum(row) for row in matrix)
