"""Errors the engine raises; every message is a sentence fit to show a player."""

from __future__ import annotations

#: How much of a player's input a message quotes back at most.
EXCERPT_CHARS = 40


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """A player's input quoted for a message: whole if short, else its start and its length."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


class GameError(Exception):
    """A rule was broken or input was malformed; the message explains it to the player."""


class CardError(GameError):
    """A card or a list of cards could not be read."""


class HandError(GameError):
    """A set of cards is not a hand under the rules in force."""
