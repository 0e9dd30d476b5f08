"""Errors the engine raises; every message is a sentence fit to show a player."""

from __future__ import annotations

from typing import Protocol

#: How much of a player's input a sentence quotes back at most.
QUOTE_CHARS = 40


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """A player's input quoted in a sentence: whole if short, else its start and its length."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


class Names(Protocol):
    """How a message names the players and channels it speaks of (ids below the bot's edge)."""

    def user(self, user_id: int) -> str:
        """A player."""

    def channel(self, channel_id: int) -> str:
        """A channel."""


class PlainNames:
    """Players and channels by their ids, for logs, tests and the command line."""

    def user(self, user_id: int) -> str:
        """``player 1001``."""
        return f"player {user_id}"

    def channel(self, channel_id: int) -> str:
        """``channel 3003``."""
        return f"channel {channel_id}"


class GameError(Exception):
    """A rule was broken or input was malformed; the message explains it to the player."""

    def sentence(self, names: Names) -> str:
        """The message with its players and channels named by ``names`` (the bot mentions them).

        Errors that speak of players keep their ids and override this; ``str()`` names them
        plainly.
        """
        return str(self)


class CardError(GameError):
    """A card or a list of cards could not be read."""


class HandError(GameError):
    """A set of cards is not a hand under the rules in force."""
