"""A server's defaults for the tables it opens (``/settings``); each ``/table create`` may choose
again. The options some games take of their own are read from the registry (tables/games.py),
so a game that declares a new one gets its default here without a line of its own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.errors import GameError
from engine.text import tr
from tables.games import GAME_OPTIONS
from tables.options import (
    ANTE,
    ARRANGEMENT_SECONDS,
    COMPUTER_SEATS,
    DECLARATION_SECONDS,
    Value,
)

#: The defaults checked by an option's range when an admin changes them.
CHECKED: Final = {
    option.name: option for option in (COMPUTER_SEATS, DECLARATION_SECONDS, ARRANGEMENT_SECONDS)
}


@dataclass(frozen=True, slots=True)
class TableDefaults:
    """A server's defaults for the tables it opens; each ``/table create`` may choose again."""

    #: The ante per game (by its name); a game missing here antes its own default.
    antes: Mapping[str, int] = field(default_factory=dict)
    #: At a declaration deadline a silent player plays on (False: surrenders).
    afk_plays_on: bool = True
    #: The games' own options (``GAME_OPTIONS``) by name; one missing here is at its default.
    options: Mapping[str, Value] = field(default_factory=dict)
    #: Whether tables may seat computer players, and how many at most.
    computers_allowed: bool = True
    computer_seats: int = 5
    #: The deadlines of a declaration and of setting hands, in seconds.
    declaration_seconds: int = int(DECLARATION_SECONDS.default)
    arrangement_seconds: int = int(ARRANGEMENT_SECONDS.default)

    def option(self, name: str) -> Value:
        """The server's default of one of the games' own options."""
        return self.options.get(name, GAME_OPTIONS[name].default)

    def to_json(self) -> dict[str, Any]:
        """The defaults as stored with the server's settings."""
        return {
            "antes": dict(self.antes),
            "afk_plays_on": self.afk_plays_on,
            **{name: self.option(name) for name in GAME_OPTIONS},
            "computers_allowed": self.computers_allowed,
            "computer_seats": self.computer_seats,
            "declaration_seconds": self.declaration_seconds,
            "arrangement_seconds": self.arrangement_seconds,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableDefaults:
        """Stored defaults, checked again; ``GameError`` if they cannot be read."""
        try:
            antes = {
                str(game): int(ANTE.read(ante)) for game, ante in data.get("antes", {}).items()
            }
            return cls(
                antes=antes,
                afk_plays_on=bool(data.get("afk_plays_on", True)),
                options={
                    name: declared.read(data.get(name, declared.default))
                    for name, declared in GAME_OPTIONS.items()
                },
                computers_allowed=bool(data.get("computers_allowed", True)),
                computer_seats=int(COMPUTER_SEATS.read(data.get("computer_seats", 5))),
                declaration_seconds=int(
                    DECLARATION_SECONDS.read(
                        data.get("declaration_seconds", DECLARATION_SECONDS.default)
                    )
                ),
                arrangement_seconds=int(
                    ARRANGEMENT_SECONDS.read(
                        data.get("arrangement_seconds", ARRANGEMENT_SECONDS.default)
                    )
                ),
            )
        except (AttributeError, TypeError, ValueError) as error:
            raise GameError(
                tr("The server's table defaults are damaged ({error}).", error=str(error))
            ) from error

    def changed(self, **changes: Any) -> TableDefaults:
        """These defaults with some changed, each checked (``GameError`` names a bad one)."""
        options = dict(self.options)
        for name, value in list(changes.items()):
            if name in GAME_OPTIONS:
                options[name] = GAME_OPTIONS[name].check(changes.pop(name))
            elif name in CHECKED:
                changes[name] = CHECKED[name].check(value)
        return replace(self, options=options, **changes)

    def with_ante(self, game: str, ante: int | None) -> TableDefaults:
        """These defaults with one game's ante set (None: back to the game's own)."""
        antes = dict(self.antes)
        if ante is None:
            antes.pop(game, None)
        else:
            antes[game] = int(ANTE.check(ante))
        return replace(self, antes=antes)
