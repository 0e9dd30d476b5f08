"""The daily challenge (duplicate play): one deal per day and game, the same everywhere, and a
player's arrangement scored against the other seats' fixed settings.

The deal is seeded from the day and the game with a stable hash (SHA-256, never Python's
``hash()``, which changes from one process to the next), so every server, process and restart
deals the same cards. Surrender does not exist in the challenge: every seat holds the cards of a
player who played on to the end (``Variant.max_held``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import AnyCard, Shoe
from engine.scoring import PlayedHands, matchup
from engine.variants import Variant

#: The other seats of a game between players: a four-handed table.
CHALLENGE_OPPONENTS: Final = 3


def challenge_seed(day: str, game: str) -> int:
    """The deal's seed: the first 8 bytes of SHA-256 of ``"{day}:{game}"``."""
    digest = hashlib.sha256(f"{day}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class ChallengeDeal:
    """The day's cards: the player's, then each other seat's (the dealer's, against a dealer)."""

    held: tuple[AnyCard, ...]
    others: tuple[tuple[AnyCard, ...], ...]


def deal_challenge(
    variant: Variant, day: str, game: str, *, opponents: int = CHALLENGE_OPPONENTS
) -> ChallengeDeal:
    """The deal of ``game`` on ``day`` from the variant's own shoe: the player's cards first,
    then ``opponents`` seats (one dealer where the variant plays against one)."""
    shoe = Shoe(
        decks=variant.decks, jokers=variant.jokers, rng=random.Random(challenge_seed(day, game))
    )
    held = shoe.deal(variant.max_held)
    seats = 1 if variant.against_dealer else opponents
    return ChallengeDeal(held, tuple(shoe.deal(variant.max_held) for _ in range(seats)))


@dataclass(frozen=True, slots=True)
class ChallengeScore:
    """What an arrangement won against the other seats: the total, and per hand."""

    points: int
    #: The points won (+) or lost (-) at each position against all the other seats.
    per_hand: tuple[int, ...]
    #: Points from automatics (17-card games), not counted in ``per_hand``.
    automatic: int = 0


def score_against(
    variant: Variant, mine: PlayedHands, others: Sequence[PlayedHands]
) -> ChallengeScore:
    """Seed 000's scoring of ``mine`` against each other seat in turn (or the dealer), summed."""
    matchups = [matchup(variant, mine, theirs) for theirs in others]
    per_hand = tuple(sum(points) for points in zip(*(m.per_hand for m in matchups), strict=True))
    return ChallengeScore(
        sum(m.total for m in matchups), per_hand, sum(m.automatic for m in matchups)
    )
