"""What a wager in a game against the house returns: win, push or loss, and the net per unit."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache


class Outcome(Enum):
    """How a wager ended for the player."""

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class Payout:
    """The player's result on one wager: the net gain per unit staked, and why."""

    outcome: Outcome
    net: Fraction
    reason: str

    def __post_init__(self) -> None:
        sign = (self.net > 0) - (self.net < 0)
        expected = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSS: -1}[self.outcome]
        if sign != expected:
            raise ValueError(f"a {self.outcome.value} cannot have a net of {self.net}")


# Payouts are immutable and few: the constructors share them (the simulator builds millions).
@cache
def win(odds: Fraction | int, reason: str) -> Payout:
    """A win paid ``odds`` to 1."""
    return Payout(Outcome.WIN, Fraction(odds), reason)


@cache
def push(reason: str) -> Payout:
    """The stake comes back, nothing more."""
    return Payout(Outcome.PUSH, Fraction(0), reason)


@cache
def loss(reason: str) -> Payout:
    """The stake is lost."""
    return Payout(Outcome.LOSS, Fraction(-1), reason)
