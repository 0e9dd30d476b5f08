"""The four Pyramid games as data: one frozen ``Variant`` value per game, every number in one place.

Each value transcribes RULINGS §2-§4 (and the seeds where the rulings defer to them). Whoever runs
the bot and wants other stakes or another point table changes a value here, never the logic that
reads it; a table's host changes only the table options (tables/options.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final

from engine.errors import GameError, quote
from engine.evaluate import (
    ACE,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PYRAMID_RULES,
    QUADS,
    SEVENTEEN_CARD_RULES,
    STRAIGHT,
    TRIPS,
    HandRules,
    of_a_kind_ladder,
    straight_flush_ladder,
)
from engine.names import game_name
from engine.readings import BIG_HAND_RULES
from engine.text import Text, tr


class OrderRule(Enum):
    """How each hand must compare with the hand before it (weaker slot first)."""

    #: Seed 000: "Hand 6 must be stronger than Hand 5"; equal is a foul (RULINGS §2).
    STRICT = "strict"
    #: Seed 001: "Back ≥ Middle ≥ Front"; equal is allowed (RULINGS §4).
    AT_LEAST = "at_least"


class Payee(Enum):
    """Who receives a surrender payment."""

    EACH_PLAYER = "each_player"  # Showdown: every player who plays on (RULINGS §2)
    POT = "pot"  # Standard: into the pot (RULINGS §4)
    HOUSE = "house"  # Casino Version: the fold is paid to the house (RULINGS §3)


class Automatic(Enum):
    """The automatic wins of the 17-card game (seed 001, "Automatic Win Conditions")."""

    THREE_FULL_HOUSES = "three_full_houses"
    DRAGON = "dragon"
    THREE_STRAIGHTS = "three_straights"
    THREE_FLUSHES = "three_flushes"

    @property
    def title(self) -> str:
        """The automatic's name for players."""
        return self.value.replace("_", " ")


@dataclass(frozen=True, slots=True)
class Declaration:
    """One play-or-surrender decision: what surrendering costs, what playing on costs and brings."""

    surrender_cost: int
    paid_to: Payee
    play_stake: int
    draw: int


@dataclass(frozen=True, slots=True)
class SizeRule:
    """One size a slot may hold, with what a hand of that size must be."""

    size: int
    #: The hand must sit at least this high on the ladder (RULINGS §1.5).
    min_ladder: int = HIGH_CARD
    #: How the condition reads to a player, as in "at least a full house".
    requirement: str | Text = ""
    #: Another slot (by position) that must hold at least ``needs_size`` cards (seed 000, Hand 3).
    needs_slot: int | None = None
    needs_size: int = 0


@dataclass(frozen=True, slots=True)
class Special:
    """Points the winner of a position scores with a hand of this ladder place (and top rank)."""

    ladder: int
    points: int
    #: If not 0, the hand's top rank must be this (the Casino Version's ace as Hand 1).
    top_rank: int = 0


@dataclass(frozen=True, slots=True)
class Slot:
    """One of a player's hands: its name, the sizes it may hold and its special points."""

    name: str
    sizes: tuple[SizeRule, ...]
    specials: tuple[Special, ...] = ()

    def size_rule(self, size: int) -> SizeRule | None:
        """The rule for a hand of ``size`` cards here, or None if the size is not allowed."""
        for rule in self.sizes:
            if rule.size == size:
                return rule
        return None

    @property
    def allowed_sizes(self) -> tuple[int, ...]:
        """Every size this slot may hold, smallest first."""
        return tuple(sorted(rule.size for rule in self.sizes))


@dataclass(frozen=True, slots=True)
class CasinoPayout:
    """The Casino Version's money, in multiples of each player's ante (RULINGS §3)."""

    fold_match: int = 1  # folding loses the ante and an equal match
    buy_in: int = 1  # two more cards cost one ante
    bonus_points: int = 4  # winning this many points or more ...
    bonus: int = 1  # ... wins this many more antes


@dataclass(frozen=True, slots=True)
class AutomaticRules:
    """How the 17-card automatics rank and score (RULINGS §4)."""

    precedence: tuple[Automatic, ...]  # highest first
    against_regular: int = 3
    against_lower: int = 3
    sweep: int = 3  # same type, all three rows won
    majority: int = 1  # same type, more rows won but not all
    dragon_tiebreak: int = 3  # dragon against dragon: the higher ace suit wins an automatic's 3


@dataclass(frozen=True, slots=True)
class Variant:
    """Everything that makes one Pyramid game: shoe, players, deal, slots, points and chips."""

    name: str
    title: str
    decks: int
    jokers: int
    min_players: int
    max_players: int
    deal: int
    declarations: tuple[Declaration, ...]
    slots: tuple[Slot, ...]
    min_used: int
    max_used: int
    order: OrderRule
    hand_rules: HandRules
    ante: int
    has_pot: bool
    multiplier: int = 1
    win_points: int = 1
    chips_per_point: int = 1
    against_dealer: bool = False
    casino: CasinoPayout | None = None
    automatics: AutomaticRules | None = None

    @property
    def max_held(self) -> int:
        """How many cards a player who plays every declaration ends up holding."""
        return self.deal + sum(declaration.draw for declaration in self.declarations)


def _any(size: int) -> SizeRule:
    return SizeRule(size)


def _big(size: int) -> SizeRule:
    """A 6-10 card hand: n of a kind or an n-card straight flush (the lower of the two)."""
    return SizeRule(
        size,
        min_ladder=straight_flush_ladder(size),
        requirement=BIG_HAND_RULES[size],
    )


def kind(count: int) -> int:
    """Ladder place of ``count`` of a kind (a short name for the tables below)."""
    return of_a_kind_ladder(count)


def sf(size: int) -> int:
    """Ladder place of a ``size``-card straight flush (a short name for the tables below)."""
    return straight_flush_ladder(size)


def _specials(points: Mapping[int, int]) -> tuple[Special, ...]:
    return tuple(Special(ladder, value) for ladder, value in points.items())


# Seed 000 "Special Scoring", Hand 6. Hands 5, 4 and 3 score 2x, 3x and 4x these, the seed's
# stated rule, not its printed chart, which differs in four cells (RULINGS §2).
SHOWDOWN_HAND6: Final = {
    QUADS: 4,
    kind(5): 6,
    kind(6): 10,
    kind(7): 14,
    kind(8): 18,
    kind(9): 22,
    kind(10): 26,
    sf(5): 5,
    sf(6): 8,
    sf(7): 11,
    sf(8): 14,
    sf(9): 17,
    sf(10): 20,
}


def _showdown_slot(
    name: str,
    sizes: tuple[SizeRule, ...],
    *,
    multiple: int = 0,
    extras: Mapping[int, int] | None = None,
) -> Slot:
    """A Showdown slot: ``multiple`` times the Hand 6 specials that fit in it, plus its extras."""
    largest = max(rule.size for rule in sizes)
    fitting = {
        QUADS,
        *(kind(n) for n in range(5, largest + 1)),
        *(sf(n) for n in range(5, largest + 1)),
    }
    scaled = {
        ladder: value * multiple
        for ladder, value in SHOWDOWN_HAND6.items()
        if ladder in fitting and multiple
    }
    return Slot(name, sizes, _specials({**(extras or {}), **scaled}))


_AT_LEAST_FULL_HOUSE: Final = tr("at least a full house")

SHOWDOWN: Final = Variant(
    name="showdown",
    title="Showdown Version",
    decks=3,
    jokers=4,
    min_players=2,
    max_players=6,
    deal=20,
    declarations=(
        Declaration(surrender_cost=5, paid_to=Payee.EACH_PLAYER, play_stake=10, draw=3),
        Declaration(surrender_cost=10, paid_to=Payee.EACH_PLAYER, play_stake=10, draw=2),
    ),
    slots=(
        _showdown_slot("Hand 1", (_any(1),)),
        _showdown_slot("Hand 2", (_any(3),), extras={TRIPS: 9}),
        _showdown_slot(
            "Hand 3",
            (
                _any(3),
                # Seed 000 "Power Hands": Hand 3 goes to 5 cards only beside a 5-6 card Hand 4.
                SizeRule(5, FULL_HOUSE, _AT_LEAST_FULL_HOUSE, needs_slot=3, needs_size=5),
            ),
            multiple=4,
            extras={TRIPS: 6, FULL_HOUSE: 6},
        ),
        _showdown_slot(
            "Hand 4",
            (_any(3), SizeRule(5, FULL_HOUSE, _AT_LEAST_FULL_HOUSE), _big(6)),
            multiple=3,
            extras={TRIPS: 3, FULL_HOUSE: 4},
        ),
        _showdown_slot("Hand 5", (_any(5), _big(6), _big(7)), multiple=2, extras={FULL_HOUSE: 2}),
        _showdown_slot("Hand 6", (_any(5), *(_big(n) for n in range(6, 11))), multiple=1),
    ),
    min_used=20,
    max_used=25,
    order=OrderRule.STRICT,
    hand_rules=PYRAMID_RULES,
    ante=10,
    has_pot=True,
)

CASINO: Final = Variant(
    name="casino",
    title="Casino Version",
    decks=2,
    jokers=2,
    min_players=1,
    max_players=6,
    deal=7,
    # The fold and the buy-in are multiples of each player's own ante: see ``CasinoPayout``.
    declarations=(Declaration(surrender_cost=0, paid_to=Payee.HOUSE, play_stake=0, draw=2),),
    slots=(
        Slot("Hand 1", (_any(1),), (Special(HIGH_CARD, 2, top_rank=ACE),)),
        Slot("Hand 2", (_any(3),), (Special(TRIPS, 3),)),
        Slot(
            "Hand 3",
            (_any(5),),
            # Five of a kind is not in the seed; extrapolated from Showdown Hand 6 (RULINGS §3).
            _specials({FULL_HOUSE: 2, QUADS: 4, sf(5): 5, kind(5): 6}),
        ),
    ),
    min_used=9,
    max_used=9,
    order=OrderRule.STRICT,
    hand_rules=PYRAMID_RULES,
    ante=5,
    has_pot=False,
    against_dealer=True,
    casino=CasinoPayout(),
)

# Seed 001 "Hand Rankings and Point Values", front / middle / back.
_FRONT_POINTS: Final = {
    TRIPS: 3,
    STRAIGHT: 4,
    FLUSH: 4,
    FULL_HOUSE: 5,
    QUADS: 12,
    sf(5): 15,
    kind(5): 18,
}
_MIDDLE_POINTS: Final = {
    FULL_HOUSE: 2,
    QUADS: 8,
    sf(5): 10,
    kind(5): 12,
    sf(6): 16,
    sf(7): 22,
    kind(6): 20,
    kind(7): 28,
}
_BACK_POINTS: Final = {
    QUADS: 4,
    sf(5): 5,
    kind(5): 6,
    sf(6): 8,
    sf(7): 11,
    sf(8): 14,
    kind(6): 10,
    kind(7): 14,
    kind(8): 18,
}
_SEVENTEEN_SLOTS: Final = (
    # RULINGS §4: a 5-card front must be a straight or better.
    Slot(
        "front hand",
        (_any(3), SizeRule(5, STRAIGHT, tr("a straight or better"))),
        _specials(_FRONT_POINTS),
    ),
    Slot("middle hand", (_any(5), _big(6), _big(7)), _specials(_MIDDLE_POINTS)),
    Slot("back hand", (_any(5), _big(6), _big(7), _big(8)), _specials(_BACK_POINTS)),
)
_SEVENTEEN_AUTOMATICS: Final = AutomaticRules(
    # Seed 001's order; the inventor's web game swaps the last two (RULINGS §4).
    precedence=(
        Automatic.THREE_FULL_HOUSES,
        Automatic.DRAGON,
        Automatic.THREE_STRAIGHTS,
        Automatic.THREE_FLUSHES,
    )
)

STANDARD: Final = Variant(
    name="standard",
    title="Standard (17 cards)",
    decks=2,
    jokers=2,
    min_players=2,
    max_players=6,
    deal=13,
    declarations=(Declaration(surrender_cost=10, paid_to=Payee.POT, play_stake=0, draw=4),),
    slots=_SEVENTEEN_SLOTS,
    min_used=13,
    max_used=17,
    order=OrderRule.AT_LEAST,
    hand_rules=SEVENTEEN_CARD_RULES,
    ante=20,
    has_pot=True,
    multiplier=2,
    automatics=_SEVENTEEN_AUTOMATICS,
)

#: Seed 001's Phase 1: the same game dealt 17 cards at once, no ante, no pot, points unscaled.
NO_SURRENDER: Final = replace(
    STANDARD,
    name="no-surrender",
    title="No-Surrender (17 cards)",
    deal=17,
    declarations=(),
    ante=0,
    has_pot=False,
    multiplier=1,
)

#: Every Pyramid variant by name.
VARIANTS: Final[dict[str, Variant]] = {
    variant.name: variant for variant in (SHOWDOWN, CASINO, STANDARD, NO_SURRENDER)
}


#: Each Pyramid variant's title as a sentence names it in the reader's language.
_TITLES: Final = {
    "showdown": tr("Showdown Version"),
    "casino": tr("Casino Version"),
    "standard": tr("Standard (17 cards)"),
    "no-surrender": tr("No-Surrender (17 cards)"),
}


def variant_title(variant: Variant) -> Text | str:
    """The variant's title inside a sentence, translated where it is one of the bot's own (a
    variant made for a test keeps its English title)."""
    found = _TITLES.get(variant.name)
    return found if found is not None and str(found) == variant.title else variant.title


def variant_named(name: str) -> Variant:
    """The Pyramid variant of this name (any spelling `game_name` reads); ``GameError`` else."""
    variant = VARIANTS.get(game_name(name))
    if variant is None:
        raise GameError(
            tr(
                "{name} is not a Pyramid game; try one of {known}.",
                name=quote(name),
                known=", ".join(VARIANTS),
            )
        )
    return variant
