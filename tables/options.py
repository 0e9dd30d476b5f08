"""The options a table may be opened with, and a server's defaults for them.

RULINGS §5 and §6 name the table options the rules allow: the three-card game's decks (6 to 8)
and "ties go to the dealer", Pai Gow's wheel (Nevada or California); every game with
declarations has a default for a player silent at the deadline. A server keeps its own default
for each (``/settings``), and ``/table create`` may choose again for one table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.errors import GameError

WHEELS: Final = ("nevada", "california")
#: RULINGS §5: the three-card game's shoe holds six to eight decks.
THREE_CARD_DECKS: Final = range(6, 9)
#: The largest ante a table takes.
MAX_ANTE: Final = 1_000_000


def check_wheel(wheel: str) -> str:
    """A wheel name as stored; ``GameError`` for another."""
    wheel = wheel.strip().lower()
    if wheel not in WHEELS:
        raise GameError(f"The wheel is {' or '.join(WHEELS)}, not {wheel[:20]!r}.")
    return wheel


def check_decks(decks: int) -> int:
    """The three-card game's decks; ``GameError`` outside 6 to 8."""
    if decks not in THREE_CARD_DECKS:
        raise GameError(f"The three-card game deals from 6 to 8 decks, not {decks}.")
    return decks


def check_computer_seats(count: int) -> int:
    """How many computers a table may seat: 0 to 5 (a table holds six, one a person)."""
    if not 0 <= count <= 5:
        raise GameError(f"A table seats 0 to 5 computers, not {count}.")
    return count


def check_ante(ante: int) -> int:
    """An ante in range; ``GameError`` otherwise."""
    if not 1 <= ante <= MAX_ANTE:
        raise GameError(f"An ante is 1 to {MAX_ANTE:,} chips, not {ante:,}.")
    return ante


@dataclass(frozen=True, slots=True)
class TableDefaults:
    """A server's defaults for the tables it opens; each ``/table create`` may choose again."""

    #: The ante per game (by its name); a game missing here antes its own default.
    antes: Mapping[str, int] = field(default_factory=dict)
    #: At a declaration deadline a silent player plays on (False: surrenders).
    afk_plays_on: bool = True
    #: The three-card game: ties go to the dealer, and how many decks the shoe holds.
    ties_to_dealer: bool = False
    decks: int = 6
    #: Pai Gow: where A-2-3-4-5 ranks.
    wheel: str = "nevada"
    #: Whether tables may seat computer players, and how many at most.
    computers_allowed: bool = True
    computer_seats: int = 5

    def to_json(self) -> dict[str, Any]:
        """The defaults as stored with the server's settings."""
        return {
            "antes": dict(self.antes),
            "afk_plays_on": self.afk_plays_on,
            "ties_to_dealer": self.ties_to_dealer,
            "decks": self.decks,
            "wheel": self.wheel,
            "computers_allowed": self.computers_allowed,
            "computer_seats": self.computer_seats,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableDefaults:
        """Stored defaults, checked again; ``GameError`` if they cannot be read."""
        try:
            antes = {
                str(game): check_ante(int(ante)) for game, ante in data.get("antes", {}).items()
            }
            return cls(
                antes=antes,
                afk_plays_on=bool(data.get("afk_plays_on", True)),
                ties_to_dealer=bool(data.get("ties_to_dealer", False)),
                decks=check_decks(int(data.get("decks", 6))),
                wheel=check_wheel(str(data.get("wheel", "nevada"))),
                computers_allowed=bool(data.get("computers_allowed", True)),
                computer_seats=check_computer_seats(int(data.get("computer_seats", 5))),
            )
        except (AttributeError, TypeError, ValueError) as error:
            raise GameError(f"The server's table defaults are damaged ({error}).") from error

    def changed(self, **changes: Any) -> TableDefaults:
        """These defaults with some changed, each checked (``GameError`` names a bad one)."""
        if "wheel" in changes:
            changes["wheel"] = check_wheel(changes["wheel"])
        if "decks" in changes:
            changes["decks"] = check_decks(changes["decks"])
        if "computer_seats" in changes:
            changes["computer_seats"] = check_computer_seats(changes["computer_seats"])
        return replace(self, **changes)

    def with_ante(self, game: str, ante: int | None) -> TableDefaults:
        """These defaults with one game's ante set (None: back to the game's own)."""
        antes = dict(self.antes)
        if ante is None:
            antes.pop(game, None)
        else:
            antes[game] = check_ante(ante)
        return replace(self, antes=antes)
