"""What a wager in a game against the house returns: win, push or loss, and the net per unit."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cache

from engine.text import Text


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
    #: Why, in English.
    reason: str
    #: Why, as a text in no language yet (None: ``reason`` is not translated).
    said: Text | None = field(default=None, compare=False)

    @property
    def text(self) -> str | Text:
        """Why, to be read in the player's language (``reason`` where there is no text)."""
        return self.reason if self.said is None else self.said

    def __post_init__(self) -> None:
        sign = (self.net > 0) - (self.net < 0)
        expected = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSS: -1}[self.outcome]
        if sign != expected:
            raise ValueError(f"a {self.outcome.value} cannot have a net of {self.net}")


# Payouts are immutable and few: the constructors share them (the simulator builds millions).
@cache
def win(odds: Fraction | int, reason: str | Text) -> Payout:
    """A win paid ``odds`` to 1."""
    return Payout(Outcome.WIN, Fraction(odds), str(reason), _said(reason))


@cache
def push(reason: str | Text) -> Payout:
    """The stake comes back, nothing more."""
    return Payout(Outcome.PUSH, Fraction(0), str(reason), _said(reason))


@cache
def loss(reason: str | Text) -> Payout:
    """The stake is lost."""
    return Payout(Outcome.LOSS, Fraction(-1), str(reason), _said(reason))


def _said(reason: str | Text) -> Text | None:
    return reason if isinstance(reason, Text) else None
