"""Computer players at a table: who they are, and the work they do in a worker process.

A computer sits in a seat with a negative user id (Discord's are positive), so it can never be a
member, never has chips of its own (it plays with the house's: its results go to the house's
account) and never appears on a leaderboard. It sees only its own cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import AnyCard
from engine.declaring import plays_on
from engine.players import Level
from engine.text import Text, tr
from tables.games import GameSpec, rules_of
from tables.rules import SOLVER_BUDGET_S
from tables.setting import Setting

__all__ = [
    "Level",
    "computer_declares",
    "computer_label",
    "computer_name",
    "computer_sets",
    "is_computer",
]


def is_computer(user: int) -> bool:
    """Whether a seat's user is a computer."""
    return user < 0


def computer_label(user: int, level: str) -> Text:
    """How a computer is named in messages and pictures, in the reader's language:
    "Computer 2 (strong)"."""
    return tr("Computer {number} ({level})", number=str(-user), level=level_name(level))


def computer_name(user: int, level: str) -> str:
    """A computer's name in English (`computer_label` in the reader's language)."""
    return str(computer_label(user, level))


def level_name(level: str) -> str | Text:
    """A computer's level ("casual", "steady", "strong") as a text."""
    return {
        Level.CASUAL.value: tr("casual"),
        Level.STEADY.value: tr("steady"),
        Level.STRONG.value: tr("strong"),
    }.get(level, level)


def computer_sets(spec: GameSpec, level: str, held: Sequence[AnyCard]) -> Setting:
    """The setting a computer of this level plays (CPU work: in a worker, within the budget)."""
    return rules_of(spec).computer_sets(level, held)


def computer_declares(
    spec: GameSpec,
    round_: int,
    held: Sequence[AnyCard],
    opponents: int,
    ante: int,
    seated: int | None = None,
) -> bool:
    """Whether a computer plays on at this declaration (every level decides the same way);
    ``seated``: everyone dealt in, whose antes are in the pot."""
    assert spec.variant is not None, "only the Pyramid games have declarations"
    return plays_on(
        spec.variant,
        round_,
        held,
        opponents=opponents,
        ante=ante,
        seated=seated,
        budget_s=SOLVER_BUDGET_S,
    )


def default_level() -> str:
    """The level a computer plays when none is named (Add computer, fill)."""
    return Level.STEADY.value
