"""The options a table is opened with: each declared once, with its default, the values it may
take and the sentence for one it may not.

Every game takes the options of ``Options`` (its ante, its seats, the two deadlines, what a
silent player declares); a game with options of its own (RULINGS §5: the three-card game's decks
and "ties go to the dealer"; §6: Pai Gow's wheel) declares a subclass beside its rules object,
which also says how those options change the game's numbers (``Options.game``). The registry
(tables/games.py) names each game's class, and everything else is read from it: ``make_config``'s
checks, a server's defaults, what ``/table create`` and ``/settings`` offer and say, the snapshot's
and the game record's JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.errors import GameError
from engine.text import Text, tr
from tables.spec import GameSpec

#: A value an option may hold.
Value = bool | int | str

#: The largest ante a table takes.
MAX_ANTE: Final = 1_000_000


def _plain(value: Value) -> str:
    return str(value)


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its name, default and range (or choices), the sentence for a value out
    of range, and the words ``/table create`` and ``/settings`` use for it."""

    #: As stored, and as ``make_config`` and the sentences name it.
    name: str
    default: Value
    #: What the option does, after the games that take it: "decks in the shoe".
    describe: str = ""
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    #: The choices as a player reads them (the slash command's names), beside ``choices``.
    choice_words: tuple[Text, ...] = ()
    #: The choices explained, where ``/table create`` has room: "Nevada: second-highest; ...".
    explain: str = ""
    #: The sentence for a value out of range; ``{value}``, ``{low}``, ``{high}`` and
    #: ``{choices}`` ("nevada or california") are filled in: a `Text` (``tr("...")``, its
    #: values left out) read in the player's language, or a plain English template.
    refusal: str | Text = ""
    #: How ``/settings`` shows a server's default: "**6** decks", a `Text` read in the
    #: reader's language (or, for an option no player reads, a plain string).
    shown: Callable[[Any], str | Text] = _plain

    @property
    def range_words(self) -> str:
        """The range as the commands' descriptions say it: "6-8", or nothing."""
        return "" if self.low is None else f"{self.low}-{self.high}"

    def check(self, value: Value, **words: object) -> Value:
        """The value as stored, if the option allows it; else ``GameError`` with the refusal."""
        if self.choices:
            text = str(value).strip().lower()
            if text not in self.choices:
                raise GameError(self._refused(text[:20], words))
            return text
        if isinstance(self.default, bool) or self.low is None or self.high is None:
            return value
        if not isinstance(value, int) or not self.low <= value <= self.high:
            raise GameError(self._refused(value, words))
        return value

    def read(self, stored: Any) -> Value:
        """A stored value (JSON, or a server's defaults) as the option's type, then checked;
        ``TypeError``/``ValueError`` if it is no such value."""
        return self.check(type(self.default)(stored))

    def within(self, low: int, high: int) -> Option:
        """The option with a game's own range (its seats)."""
        return dataclasses.replace(self, low=low, high=high, default=high)

    def _refused(self, value: object, words: Mapping[str, object]) -> str | Text:
        values = {
            "value": value,
            "low": self.low,
            "high": self.high,
            "choices": " or ".join(self.choices),
            **words,
        }
        if isinstance(self.refusal, Text):
            values["choices"] = _either(self.choice_words or self.choices)
            used = {
                name: found for name, found in values.items() if "{" + name in self.refusal.msgid
            }
            return Text(self.refusal.msgid, tuple(used.items()))
        return self.refusal.format(**values)


def _either(choices: tuple[Text | str, ...]) -> Text | str:
    """The choices as a sentence offers them, in the reader's language: "Nevada or California"."""
    if not choices:
        return ""
    joined = choices[-1]
    for choice in reversed(choices[:-1]):
        joined = tr("{first} or {rest}", first=choice, rest=joined)
    return joined


def option(declared: Option) -> Any:
    """A field of an ``Options`` class, with its declaration beside it."""
    return field(default=declared.default, metadata={"option": declared})


ANTE: Final = Option(
    "ante",
    0,
    low=1,
    high=MAX_ANTE,
    refusal=tr("An ante is {low} to {high} chips, not {value}."),
)
#: A game's own range replaces this one (``Option.within``).
SEATS: Final = Option(
    "seats", 6, low=1, high=6, refusal=tr("{title} seats {low} to {high} players, not {value}.")
)
DECLARATION_SECONDS: Final = Option(
    "declaration_seconds",
    60,
    low=15,
    high=3600,
    refusal=tr("The declaration deadline must be 15 seconds to an hour, not {value}s."),
)
ARRANGEMENT_SECONDS: Final = Option(
    "arrangement_seconds",
    180,
    low=15,
    high=3600,
    refusal=tr("The arrangement deadline must be 15 seconds to an hour, not {value}s."),
)
#: ``/table create`` calls it ``silent``; only games with declarations take it.
SILENT: Final = Option("afk_plays_on", True)
LOBBY_SECONDS: Final = Option(
    "lobby_seconds",
    1800,
    low=60,
    high=7 * 24 * 3600,
    refusal=tr("An idle lobby must close after a minute to a week."),
)
COMPUTER_SEATS: Final = Option(
    "computer_seats", 5, low=0, high=5, refusal=tr("A table seats 0 to 5 computers, not {value}.")
)


@dataclass(frozen=True, slots=True)
class Options:
    """The options every game's table takes; a game with options of its own subclasses this."""

    ante: int = option(ANTE)
    seats: int = option(SEATS)
    declaration_seconds: int = option(DECLARATION_SECONDS)
    arrangement_seconds: int = option(ARRANGEMENT_SECONDS)
    #: At a declaration deadline the silent player plays on (False: surrenders).
    afk_plays_on: bool = option(SILENT)

    def game(self, spec: GameSpec) -> GameSpec:
        """The game as these options play it; a game with options of its own overrides this."""
        return spec

    def own(self) -> dict[str, Value]:
        """The values of the game's own options (none here), by name."""
        return {declared.name: getattr(self, declared.name) for declared in own_options(type(self))}


def declared(kind: type[Options]) -> tuple[Option, ...]:
    """Every option an ``Options`` class takes, in its fields' order."""
    return tuple(f.metadata["option"] for f in dataclasses.fields(kind))


def own_options(kind: type[Options]) -> tuple[Option, ...]:
    """The options a game declares beyond those every game takes."""
    return declared(kind)[len(dataclasses.fields(Options)) :]
