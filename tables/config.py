"""A table's settings as its host chose them at ``/table create``, checked once (the server's
policies over them, read again at each action, are in ``tables/server.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import GameError
from engine.players import level_named
from tables.computers import default_level
from tables.games import GAMES, GameSpec, game_named
from tables.options import TableDefaults, check_ante, check_decks, check_wheel
from tables.rules import rules_of


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings, chosen by its host at ``/table create``."""

    game: str
    ante: int
    seats: int
    declaration_seconds: int = 60
    arrangement_seconds: int = 180
    #: At a declaration deadline the silent player plays on (False: surrenders).
    afk_plays_on: bool = True
    #: A lobby with no game and no one joining or leaving for this long closes.
    lobby_seconds: int = 1800
    #: The three-card game's options (RULINGS §5).
    ties_to_dealer: bool = False
    decks: int = 6
    #: Pai Gow's wheel (RULINGS §6): "nevada" (second-highest) or "california" (lowest).
    wheel: str = "nevada"
    #: A practice table deals and scores as usual but moves no chips and records nothing.
    practice: bool = False
    #: At the start, fill the empty seats with computers of this level (None: do not).
    fill: str | None = None
    #: Computers this table may seat (the server's cap as last read; 0 forbids them).
    computer_seats: int = 5

    @property
    def spec(self) -> GameSpec:
        """The game this table plays, with the table's options."""
        return game_named(self.game).with_options(
            ties_to_dealer=self.ties_to_dealer, wheel=self.wheel, decks=self.decks
        )


def make_config(
    game: str,
    *,
    ante: int | None = None,
    seats: int | None = None,
    declaration_seconds: int = 60,
    arrangement_seconds: int = 180,
    afk_plays_on: bool | None = None,
    lobby_seconds: int = 1800,
    ties_to_dealer: bool | None = None,
    decks: int | None = None,
    wheel: str | None = None,
    practice: bool = False,
    fill: str | None = None,
    defaults: TableDefaults | None = None,
) -> TableConfig:
    """Checked table settings; ``GameError`` names the first setting out of range.

    Each option left out takes the server's ``defaults``; an option chosen for a game it does
    not apply to is refused with a sentence.
    """
    spec = game_named(game)
    defaults = defaults or TableDefaults()
    if ante is None:
        ante = defaults.antes.get(spec.name, spec.default_ante) if spec.default_ante else 0
    seats = spec.max_players if seats is None else seats
    if spec.default_ante:
        check_ante(ante)
    elif ante:
        raise GameError(f"{spec.title} has no ante: chips change by points only.")
    taken = rules_of(spec).options()
    for option, value in (("ties_to_dealer", ties_to_dealer), ("decks", decks), ("wheel", wheel)):
        if value is not None and option not in taken:
            raise GameError(f"The {option} option is for {_taken_by(option)}, not {spec.title}.")
    if afk_plays_on is not None and not spec.declarations:
        raise GameError(f"The silent option is for games with declarations, not {spec.title}.")
    if not spec.min_players <= seats <= spec.max_players:
        raise GameError(
            f"{spec.title} seats {spec.min_players} to {spec.max_players} players, not {seats}."
        )
    for name, value in (("declaration", declaration_seconds), ("arrangement", arrangement_seconds)):
        if not 15 <= value <= 3600:
            raise GameError(f"The {name} deadline must be 15 seconds to an hour, not {value}s.")
    if not 60 <= lobby_seconds <= 7 * 24 * 3600:
        raise GameError("An idle lobby must close after a minute to a week.")
    cap = computer_cap(defaults)
    if practice and fill is None and cap:
        fill = default_level()  # a lone player practises at once, against whoever the seats need
    if fill is not None:
        fill = level_named(fill).value
        if cap == 0:
            raise GameError("This server does not seat computers at its tables.")
    return TableConfig(
        spec.name,
        ante,
        seats,
        declaration_seconds,
        arrangement_seconds,
        defaults.afk_plays_on if afk_plays_on is None else afk_plays_on,
        lobby_seconds,
        defaults.ties_to_dealer if ties_to_dealer is None else ties_to_dealer,
        check_decks(defaults.decks if decks is None else decks),
        check_wheel(defaults.wheel if wheel is None else wheel),
        practice,
        fill,
        cap,
    )


def computer_cap(defaults: TableDefaults) -> int:
    """How many computers a server lets one table seat (0: none)."""
    return defaults.computer_seats if defaults.computers_allowed else 0


def _taken_by(option: str) -> str:
    """The games that take a table option, as a sentence names them."""
    called = (rules_of(s).called() for s in GAMES.values() if option in rules_of(s).options())
    return " and ".join(dict.fromkeys(called))
