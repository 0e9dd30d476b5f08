"""Texts a player reads, kept as their English message and its values until a language is chosen.

A rule that explains itself (an error, a hand's name, a reason in an event) builds a `Text` with
`tr` (or `tr_plural`): the English sentence is the message id, with ``{name}`` placeholders, and
the values fill them. ``str()`` of a text is its English, with players and channels named plainly;
the bot's edge translates it into a reader's language (``i18n.localize``), naming players by
mention. `locales/extract.py` finds every ``tr(...)`` and ``tr_plural(...)`` in the source by
reading it (Babel's extractor), so a message id must be a string literal written in the call.

Values may be texts themselves (translated in turn), `Who` and `Where` (a player, a channel),
numbers (written as the reader's language writes them), a tuple of values (a list, joined as the
language joins one: "a, b and c") or anything else (shown with ``str()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol


class Names(Protocol):
    """How a text names the players and channels it speaks of (ids below the bot's edge)."""

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


@dataclass(frozen=True, slots=True)
class Who:
    """A player a text speaks of, named by the reader's edge (a mention in Discord)."""

    user_id: int


@dataclass(frozen=True, slots=True)
class Where:
    """A channel a text speaks of."""

    channel_id: int


@dataclass(frozen=True, slots=True)
class Term:
    """A name of the slash commands inside a sentence: a command's (``context`` "command"), an
    option's ("option") or a choice's ("choice": a game's title). The reader reads the name
    their Discord client shows ("arrange": "legen"), English in English."""

    name: str
    context: str = "command"


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence or a phrase in no language yet: its English message id and the values of its
    placeholders (and, for a sentence with a plural, the English plural and the count)."""

    msgid: str
    values: tuple[tuple[str, object], ...] = ()
    plural: str | None = None
    count: int | None = None

    @property
    def params(self) -> dict[str, object]:
        """The values by placeholder name; ``count`` too where the text has a plural."""
        found = dict(self.values)
        if self.count is not None:
            found.setdefault("count", self.count)
        return found

    def english(self, names: Names | None = None) -> str:
        """The text in English, players and channels named by ``names`` (plainly by default)."""
        source = self.msgid if self.plural is None or self.count == 1 else self.plural
        return fill(source, self.params, names or PlainNames())

    def __str__(self) -> str:
        return self.english()


def tr(msgid: str, /, **values: object) -> Text:
    """The text ``msgid`` (English, with ``{placeholders}``), its placeholders' ``values``."""
    return Text(msgid, tuple(values.items()))


def tr_plural(singular: str, plural: str, count: int, /, **values: object) -> Text:
    """A text with a plural: the form for ``count`` is chosen by the reader's language;
    ``{count}`` is the number."""
    return Text(singular, tuple(values.items()), plural, count)


def english(value: object, names: Names | None = None) -> str:
    """Any value a text may hold, in English."""
    names = names or PlainNames()
    if isinstance(value, Text):
        return value.english(names)
    if isinstance(value, Who):
        return names.user(value.user_id)
    if isinstance(value, Where):
        return names.channel(value.channel_id)
    if isinstance(value, Term):
        return value.name
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple):
        return english_list([english(item, names) for item in value])
    return str(value)


def english_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def fill(source: str, values: Mapping[str, object], names: Names) -> str:
    """An English source with its placeholders filled."""
    if not values:
        return source
    return source.format(**{name: english(value, names) for name, value in values.items()})
