"""A table's settings as its host chose them at ``/table create``, checked once (the server's
policies over them, read again at each action, are in ``tables/server.py``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError
from engine.players import level_named
from engine.text import Term, Text, tr
from tables.computers import default_level
from tables.defaults import TableDefaults
from tables.games import GAME_OPTIONS, GameSpec, entry_of, game_named, rules_of, takers
from tables.options import (
    ANTE,
    ARRANGEMENT_SECONDS,
    DECLARATION_SECONDS,
    LOBBY_SECONDS,
    SEATS,
    Options,
    Value,
    own_options,
)


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings, chosen by its host at ``/table create``."""

    game: str
    #: The game's table options (its class is the game's: tables/games.py).
    options: Options = field(default_factory=Options)
    #: A lobby with no game and no one joining or leaving for this long closes.
    lobby_seconds: int = 1800
    #: A practice table deals and scores as usual but moves no chips and records nothing.
    practice: bool = False
    #: At the start, fill the empty seats with computers of this level (None: do not).
    fill: str | None = None
    #: Computers this table may seat (the server's cap as last read; 0 forbids them).
    computer_seats: int = 5
    #: The ledger scope whose balances the table's chips are (a ``guild_id`` of the ledger):
    #: None, the table's own server. Another scope keeps the table's chips apart from the
    #: server's (a tournament's chips), with its own audit.
    scope: int | None = None
    #: Computers play with the house's chips (True) or, like people, with balances of their
    #: own in the table's scope, escrowed and settled as a person's are.
    house_computers: bool = True
    #: A program runs the table (its name, as players are told: "tournament 3"): it opens the
    #: table with its players, seats them and deals every game; nobody hosts, joins, leaves,
    #: removes anyone or cancels, and the lobby stays open, with computers alone too, until the
    #: program closes it. None: a person hosts, as at ``/table create``.
    run_by: str | None = None

    @property
    def spec(self) -> GameSpec:
        """The game this table plays, with the table's options."""
        return self.options.game(entry_of(self.game).spec)

    @property
    def ante(self) -> int:
        """Chips each player antes (each wager, in a game of several); 0 in a game without."""
        return self.options.ante

    @property
    def seats(self) -> int:
        """How many players may sit."""
        return self.options.seats

    @property
    def declaration_seconds(self) -> int:
        """Seconds to declare play or surrender."""
        return self.options.declaration_seconds

    @property
    def arrangement_seconds(self) -> int:
        """Seconds to set the hands."""
        return self.options.arrangement_seconds

    @property
    def afk_plays_on(self) -> bool:
        """At a declaration deadline the silent player plays on (False: surrenders)."""
        return self.options.afk_plays_on

    def to_json(self) -> dict[str, Any]:
        """The settings as a snapshot keeps them: one flat object, the game's options in it."""
        return {
            "game": self.game,
            **dataclasses.asdict(self.options),
            "lobby_seconds": self.lobby_seconds,
            "practice": self.practice,
            "fill": self.fill,
            "computer_seats": self.computer_seats,
            "scope": self.scope,
            "house_computers": self.house_computers,
            "run_by": self.run_by,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """The settings ``to_json`` wrote (``KeyError``/``TypeError`` if damaged).

        Snapshots from before each game kept only its own options hold every game's: those of
        other games are passed over.
        """
        rest = dict(data)
        game = rest.pop("game")
        kind = entry_of(game).options
        options = kind(
            ante=rest.pop("ante"),
            seats=rest.pop("seats"),
            **{f.name: rest.pop(f.name) for f in dataclasses.fields(kind) if f.name in rest},
        )
        for name in GAME_OPTIONS:
            rest.pop(name, None)
        return cls(game, options, **rest)


def make_config(
    game: str,
    *,
    ante: int | None = None,
    seats: int | None = None,
    declaration_seconds: int | None = None,
    arrangement_seconds: int | None = None,
    afk_plays_on: bool | None = None,
    lobby_seconds: int = 1800,
    practice: bool = False,
    fill: str | None = None,
    defaults: TableDefaults | None = None,
    **chosen: Value | None,
) -> TableConfig:
    """Checked table settings; ``GameError`` names the first setting out of range.

    ``chosen`` are the games' own options (``GAME_OPTIONS``: decks, ties to the dealer, the
    wheel). Each option left out takes the server's ``defaults``; an option chosen for a game it
    does not apply to is refused with a sentence.
    """
    spec = game_named(game)
    kind = entry_of(spec.name).options
    defaults = defaults or TableDefaults()
    if ante is None:
        ante = defaults.antes.get(spec.name, spec.default_ante) if spec.default_ante else 0
    seats = spec.max_players if seats is None else seats
    if spec.default_ante:
        ANTE.check(ante)
    elif ante:
        raise GameError(
            tr(
                "{game} has no ante: chips change by points only.",
                game=Term(spec.title, "choice"),
            )
        )
    own = own_options(kind)
    # The first option the host chose that the game does not take, in the order given.
    for option, value in chosen.items():
        if option not in GAME_OPTIONS:
            raise TypeError(f"make_config() got an unexpected keyword argument {option!r}")
        if value is not None and GAME_OPTIONS[option] not in own:
            raise GameError(
                tr(
                    "The {option} option is for {games}, not {game}.",
                    option=Term(option, "option"),
                    games=_taken_by(option),
                    game=Term(spec.title, "choice"),
                )
            )
    if afk_plays_on is not None and not spec.declarations:
        raise GameError(
            tr(
                "The silent option is for games with declarations, not {game}.",
                game=Term(spec.title, "choice"),
            )
        )
    SEATS.within(spec.min_players, spec.max_players).check(seats, title=spec.title)
    if declaration_seconds is None:
        declaration_seconds = defaults.declaration_seconds
    if arrangement_seconds is None:
        arrangement_seconds = defaults.arrangement_seconds
    DECLARATION_SECONDS.check(declaration_seconds)
    ARRANGEMENT_SECONDS.check(arrangement_seconds)
    LOBBY_SECONDS.check(lobby_seconds)
    cap = computer_cap(defaults)
    if practice and fill is None and cap:
        fill = default_level()  # a lone player practises at once, against whoever the seats need
    if fill is not None:
        fill = level_named(fill).value
        if cap == 0:
            raise GameError(tr("This server does not seat computers at its tables."))
    values: dict[str, Value] = {}
    for declared in own:
        value = chosen.get(declared.name)
        chosen_or_default = defaults.option(declared.name) if value is None else value
        values[declared.name] = declared.check(chosen_or_default)
    options = kind(
        ante=ante,
        seats=seats,
        declaration_seconds=declaration_seconds,
        arrangement_seconds=arrangement_seconds,
        afk_plays_on=defaults.afk_plays_on if afk_plays_on is None else afk_plays_on,
        **values,
    )
    return TableConfig(spec.name, options, lobby_seconds, practice, fill, cap)


def computer_cap(defaults: TableDefaults) -> int:
    """How many computers a server lets one table seat (0: none)."""
    return defaults.computer_seats if defaults.computers_allowed else 0


def _taken_by(option: str) -> tuple[Text, ...]:
    """The games that take a table option, as a sentence lists them."""
    called = (rules_of(entry.spec).called() for entry in takers(option))
    return tuple(dict.fromkeys(called))
