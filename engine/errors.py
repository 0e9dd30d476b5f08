"""Errors the engine raises; every message is a sentence fit to show a player."""

from __future__ import annotations


class GameError(Exception):
    """A rule was broken or input was malformed; the message explains it to the player."""


class CardError(GameError):
    """A card or a list of cards could not be read."""


class HandError(GameError):
    """A set of cards is not a hand under the rules in force."""
