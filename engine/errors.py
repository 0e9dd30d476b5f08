"""Errors the engine raises; every message is a sentence fit to show a player."""

from __future__ import annotations

from engine.text import Names, PlainNames, Text, tr

__all__ = ["CardError", "GameError", "HandError", "Names", "PlainNames", "Text", "quote"]

#: How much of a player's input a sentence quotes back at most.
QUOTE_CHARS = 40


def quote(text: str, limit: int = QUOTE_CHARS) -> str | Text:
    """A player's input quoted in a sentence: whole if short, else its start and its length
    (a text, its length written in the reader's language)."""
    if len(text) <= limit:
        return repr(text)
    return tr("{start}… ({count} characters)", start=repr(text[:limit]), count=len(text))


class GameError(Exception):
    """A rule was broken or input was malformed; the message explains it to the player.

    The message is a `Text` (``GameError(tr("...", value=...))``), which the bot's edge reads in
    the player's language, or a plain English string (not translated). ``str()`` is the English,
    players and channels named plainly.
    """

    def __init__(self, message: str | Text = "", *args: object) -> None:
        #: What the player reads, in no language yet.
        self.text: str | Text = message
        super().__init__(str(message), *args)

    def __reduce__(self) -> tuple[object, ...]:
        # Errors cross worker processes: rebuilt from their text and attributes, not by calling
        # ``__init__`` again (a subclass's takes other arguments than its English message).
        return (_rebuilt, (type(self), self.args, self.__dict__))

    def sentence(self, names: Names) -> str:
        """The message in English with its players and channels named by ``names``."""
        text = self.text
        return text.english(names) if isinstance(text, Text) else str(self)


def _rebuilt(
    kind: type[GameError], args: tuple[object, ...], state: dict[str, object]
) -> GameError:
    """An error unpickled: its arguments (the English) and its attributes (its ``text``)."""
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class CardError(GameError):
    """A card or a list of cards could not be read."""


class HandError(GameError):
    """A set of cards is not a hand under the rules in force."""
