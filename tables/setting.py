"""A player's setting of their cards as a typed value: checked once when set, kept in the seat.

A setting is the hands (weakest first), the cards left out of them (Pyramid games may discard),
and the automatic a 17-card player declares. It is written to a table's snapshot as card codes
and read back the same; its text is the notation players type (``As | Kh Kd 9s || 2c``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.arrangement import DISCARD_MARK
from engine.cards import AnyCard, card_from_code, format_cards, format_hands
from engine.errors import GameError
from engine.text import Text, tr

Hand = tuple[AnyCard, ...]


@dataclass(frozen=True, slots=True)
class Setting:
    """A legal setting: its hands (weakest first), its discards and any automatic declared."""

    hands: tuple[Hand, ...]
    discards: Hand = ()
    automatic: str | None = None

    @property
    def text(self) -> str:
        """The setting in the notation players type."""
        text = format_hands(self.hands)
        return f"{text} {DISCARD_MARK} {format_cards(self.discards)}" if self.discards else text

    @property
    def used(self) -> Hand:
        """Every card played in a hand."""
        return tuple(card for hand in self.hands for card in hand)

    def to_json(self) -> dict[str, Any]:
        """The setting as snapshot data (card codes)."""
        return {
            "hands": [[card.code for card in hand] for hand in self.hands],
            "discards": [card.code for card in self.discards],
            "automatic": self.automatic,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setting:
        """A setting ``to_json`` wrote; ``GameError`` if it cannot be read."""
        try:
            hands = tuple(tuple(card_from_code(int(c)) for c in hand) for hand in data["hands"])
            discards = tuple(card_from_code(int(c)) for c in data.get("discards", ()))
            automatic = data.get("automatic")
        except (KeyError, TypeError, ValueError) as error:
            raise GameError(
                tr("A saved setting is damaged ({error}).", error=str(error))
            ) from error
        return cls(hands, discards, None if automatic is None else str(automatic))


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The solver's (or the house way's) setting, with its expected points when there are any."""

    setting: Setting
    ev: float | None
    exact: bool


@dataclass(frozen=True, slots=True)
class SlotShape:
    """One hand of a setting as a builder asks for it: its name (a text to read in the
    player's language, or the rules' English name, which ``tables.hand_names.slot_name`` reads)
    and the sizes it may hold."""

    name: str | Text
    sizes: tuple[int, ...]


def strongest_first(shape: Sequence[SlotShape], sizes: Sequence[int]) -> bool:
    """Whether hands of these sizes, in the order typed, were written strongest first: they fit
    the shape (weakest first) reversed and not as typed. Where the sizes cannot tell the two
    orders apart, the hands read weakest first."""

    def fits(typed: Sequence[int]) -> bool:
        return len(typed) == len(shape) and all(
            size in slot.sizes for size, slot in zip(typed, shape, strict=True)
        )

    return not fits(sizes) and fits(sizes[::-1])


def hands_of(hands: Sequence[Sequence[AnyCard]]) -> tuple[Hand, ...]:
    """Hands as the tuples a setting holds."""
    return tuple(tuple(hand) for hand in hands)
