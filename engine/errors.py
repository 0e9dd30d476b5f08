"""Errors the engine raises; every message is a sentence fit to show a player."""

from __future__ import annotations

from typing import Final


class GameError(Exception):
    """A rule was broken or input was malformed; the message explains it to the player."""


class CardError(GameError):
    """A card or a list of cards could not be read."""


class HandError(GameError):
    """A set of cards is not a hand under the rules in force."""


#: The most of a player's own text that a sentence quotes.
QUOTED_CHARS: Final = 24


def shorten(text: str) -> str:
    """A player's own text as a sentence quotes it: the first characters and "…" if longer."""
    return text if len(text) <= QUOTED_CHARS else text[: QUOTED_CHARS - 1] + "…"
