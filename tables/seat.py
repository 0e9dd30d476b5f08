"""One player at a table and their part of the current game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import AnyCard, card_from_code
from tables.rules import GameRules
from tables.setting import Setting


@dataclass(slots=True)
class SeatState:
    """One player at the table and their part of the current game."""

    user: int
    cards: list[int] = field(default_factory=list)
    #: This round's secret declaration: True plays on, False surrenders, None not yet.
    choice: bool | None = None
    surrendered_at: int | None = None
    setting: Setting | None = None
    set_by: str | None = None
    kicked: bool = False
    #: A computer's level; None for a person.
    computer: str | None = None

    @property
    def held(self) -> tuple[AnyCard, ...]:
        """The cards the player holds."""
        return tuple(card_from_code(code) for code in self.cards)

    @property
    def is_active(self) -> bool:
        """Still in the game: has not surrendered or folded."""
        return self.surrendered_at is None

    def clear(self) -> None:
        """Forget the finished game's cards and choices."""
        self.cards, self.choice, self.surrendered_at = [], None, None
        self.setting, self.set_by = None, None

    def to_state(self) -> dict[str, Any]:
        """The seat as snapshot data."""
        return {
            "user": self.user,
            "cards": list(self.cards),
            "choice": self.choice,
            "surrendered_at": self.surrendered_at,
            "setting": None if self.setting is None else self.setting.to_json(),
            "set_by": self.set_by,
            "kicked": self.kicked,
            "computer": self.computer,
        }

    @classmethod
    def from_state(cls, data: dict[str, Any], rules: GameRules) -> SeatState:
        """A seat ``to_state`` saved, its setting checked again by the game's rules."""
        seat = cls(
            user=int(data["user"]),
            cards=[int(code) for code in data["cards"]],
            choice=data["choice"],
            surrendered_at=data["surrendered_at"],
            set_by=data["set_by"],
            kicked=bool(data["kicked"]),
            computer=data.get("computer"),
        )
        saved = data["setting"]
        if isinstance(saved, str):
            # Format 1 kept the setting as its text, with the automatic beside it.
            seat.setting = rules.read(seat.held, saved, data.get("automatic"))
        elif saved is not None:
            seat.setting = Setting.from_json(saved)
            rules.check(seat.held, seat.setting)
        return seat
