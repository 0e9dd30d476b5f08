"""The games a table can host: one entry per game, naming everything the bot asks of it.

An entry holds the game's numbers (``GameSpec``), its rules object (tables/rules/, which also
writes the game's rules card for ``/rules``), the class of its table options (tables/options.py),
its aliases, its section of docs/rules.md and how the options' words name it. Everything that
lists or tells the games apart reads the entries: ``rules_of``, ``game_named``, the checks of
``make_config``, a server's defaults, the choices and words of ``/table create``, ``/settings``
and ``/rules``, the game record's options.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from engine.errors import GameError, quote
from engine.names import fold_name
from engine.paigow import PaiGowVariant
from engine.text import tr
from engine.three_card import ThreeCardVariant
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, Variant
from tables.options import Option, Options, own_options
from tables.rules import GameRules, RulesCard
from tables.rules.paigow import PaiGowOptions, PaiGowRules
from tables.rules.pyramid import PyramidRules
from tables.rules.three_card import ThreeCardOptions, ThreeCardRules
from tables.spec import GameSpec

__all__ = [
    "ENTRIES",
    "GAMES",
    "GAME_OPTIONS",
    "MAX_SEATS",
    "MIN_SEATS",
    "GameEntry",
    "GameSpec",
    "entry_of",
    "game_named",
    "option_help",
    "rules_card",
    "rules_of",
    "spec_with",
    "takers",
]


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game, and everything the rest of the bot asks of it."""

    spec: GameSpec
    #: Its rules object: reading and suggesting settings, playing out, the pictures' questions.
    rules: Callable[[GameSpec], GameRules]
    #: The table options it takes: every game's, and its own (which change ``spec``'s numbers).
    options: type[Options] = Options
    #: Other spellings players type, after case, spaces and underscores are folded to hyphens.
    aliases: tuple[str, ...] = ()
    #: The heading of its section in docs/rules.md, the full rules for people who read at length.
    section: str = ""
    #: How the descriptions of its own options and ``/settings`` name it: "Three-card game".
    label: str = ""

    @property
    def name(self) -> str:
        """The one name players type and the database keeps."""
        return self.spec.name


#: No-Surrender's cover: 1,500 heads-up deals set by the solver lost at most 17 points to one
#: opponent in 99 of 100 deals and 25 at worst, at one chip a point (docs/rules.md).
NO_SURRENDER_COVER: Final = 20


def _pyramid(
    name: str, variant: Variant, dealer_cards: int = 0, cover_per_opponent: int = 0
) -> GameSpec:
    return GameSpec(
        name=name,
        title=variant.title,
        min_players=variant.min_players,
        max_players=variant.max_players,
        decks=variant.decks,
        jokers=variant.jokers,
        deal=variant.deal,
        dealer_cards=dealer_cards,
        # No-Surrender has no ante: chips move by points only (RULINGS §4).
        default_ante=variant.ante,
        numbers=variant,
        cover_per_opponent=cover_per_opponent,
    )


#: Every game, in the order the commands list them.
ENTRIES: Final[tuple[GameEntry, ...]] = (
    GameEntry(_pyramid("showdown", SHOWDOWN), PyramidRules, section="## Showdown Version"),
    GameEntry(
        # The dealer sets 9 cards: its 7 and the 2 it would buy (RULINGS §3).
        _pyramid("casino", CASINO, dealer_cards=CASINO.max_held),
        PyramidRules,
        section="## Casino Version",
    ),
    GameEntry(_pyramid("standard", STANDARD), PyramidRules, section="## Standard 17-card game"),
    GameEntry(
        _pyramid("no-surrender", NO_SURRENDER, cover_per_opponent=NO_SURRENDER_COVER),
        PyramidRules,
        aliases=("nosurrender",),
        section="## No-Surrender",
    ),
    GameEntry(
        GameSpec(
            name="three-card",
            title="Three-card table game",
            min_players=1,
            max_players=6,
            decks=ThreeCardVariant().decks,
            jokers=0,
            deal=3,
            dealer_cards=3,
            default_ante=5,
            # RULINGS §5, before a table's options change it.
            numbers=ThreeCardVariant(),
            # Seed 002: the main bet, the 3-card bonus and the 6-card bonus.
            wagers=3,
        ),
        ThreeCardRules,
        ThreeCardOptions,
        aliases=("threecard",),
        section="## The three-card table game",
        label="Three-card game",
    ),
    GameEntry(
        GameSpec(
            name="paigow",
            title="Pai Gow poker",
            min_players=1,
            max_players=6,
            decks=1,
            jokers=1,
            deal=7,
            dealer_cards=7,
            default_ante=10,
            # RULINGS §6, before a table's wheel changes it.
            numbers=PaiGowVariant(),
        ),
        PaiGowRules,
        PaiGowOptions,
        aliases=("pai-gow",),
        section="## Pai Gow poker",
        label="Pai Gow",
    ),
)

_ENTRIES: Final = {entry.name: entry for entry in ENTRIES}
_ALIASES: Final = {alias: entry.name for entry in ENTRIES for alias in entry.aliases}

#: Every game by its name, as the game starts before a table's options.
GAMES: Final[dict[str, GameSpec]] = {entry.name: entry.spec for entry in ENTRIES}

#: The options some games take of their own (the three-card game's, Pai Gow's), by name, in
#: the entries' order; games that share one share its declaration.
GAME_OPTIONS: Final[dict[str, Option]] = {
    declared.name: declared for entry in ENTRIES for declared in own_options(entry.options)
}

#: The fewest and most seats any game's table has.
MIN_SEATS: Final = min(entry.spec.min_players for entry in ENTRIES)
MAX_SEATS: Final = max(entry.spec.max_players for entry in ENTRIES)


def entry_of(name: str) -> GameEntry:
    """The entry of the game with this one name (``KeyError`` for another)."""
    return _ENTRIES[name]


def game_named(text: str) -> GameSpec:
    """The game players call ``text`` (its name or an alias, in any case, with spaces or
    underscores); ``GameError`` naming the games otherwise."""
    folded = fold_name(text)
    entry = _ENTRIES.get(_ALIASES.get(folded, folded))
    if entry is None:
        raise GameError(
            tr(
                "There is no game called {typed}; try one of {games}.",
                typed=quote(text),
                games=", ".join(_ENTRIES),
            )
        )
    return entry.spec


@functools.cache
def rules_of(spec: GameSpec) -> GameRules:
    """The rules object of a game (with its table options applied)."""
    return _ENTRIES[spec.name].rules(spec)


def spec_with(name: str, own: Mapping[str, object]) -> GameSpec:
    """The game with these values of its own options (others ignored, those missing at their
    defaults), as a game's record keeps them; ``TypeError``/``ValueError`` for a damaged one."""
    entry = _ENTRIES[name]
    values = {o.name: o.read(own[o.name]) for o in own_options(entry.options) if o.name in own}
    return entry.options(**values).game(entry.spec)  # type: ignore[arg-type]


def takers(option: str) -> tuple[GameEntry, ...]:
    """The games that take one of the games' own options."""
    return tuple(e for e in ENTRIES if option in {o.name for o in own_options(e.options)})


def option_help(option: str, *, explained: bool = False) -> str:
    """What a command says of one of the games' own options: the games that take it, what it
    does, its range, and (``explained``) its choices: "Three-card game: decks in the shoe (6-8)"."""
    declared = GAME_OPTIONS[option]
    named = " and ".join(entry.label or entry.spec.title for entry in takers(option))
    notes = [declared.range_words] if declared.range_words else []
    if explained and declared.explain:
        notes.append(declared.explain)
    return f"{named}: {declared.describe}" + (f" ({'; '.join(notes)})" if notes else "")


def rules_card(spec: GameSpec) -> RulesCard:
    """The game's rules for players, page by page (``/rules``; the full rules for people who
    read them at length are docs/rules.md)."""
    return rules_of(spec).card()
