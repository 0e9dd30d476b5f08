"""A game as data: who plays, how many cards, what is staked and when (see tables/games.py)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from enum import Enum

from engine.errors import GameError
from engine.evaluate import WheelMode
from engine.paigow import PaiGowVariant
from engine.three_card import ThreeCardVariant
from engine.variants import Variant


class Family(Enum):
    """How a game is played out: Pyramid hands, or one of the two casino relatives."""

    PYRAMID = "pyramid"
    THREE_CARD = "three_card"
    PAI_GOW = "pai_gow"


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game as a table runs it; ``name`` is the word players type (``/table create``)."""

    name: str
    title: str
    family: Family
    min_players: int
    max_players: int
    decks: int
    jokers: int
    #: Cards each player is dealt before any declaration.
    deal: int
    #: Cards the bot dealer (or banker) holds; 0 in games between players only.
    dealer_cards: int
    default_ante: int
    variant: Variant | None = None
    #: Wagers a player puts up at the start, each one ante (the three-card game's three bets).
    wagers: int = 1
    #: A game with no ante holds this many chips per opponent from each player while it is played
    #: (returned with the result), so nobody plays who could not pay a likely loss.
    cover_per_opponent: int = 0
    #: The house games' numbers as this table plays them (its options applied).
    three_card: ThreeCardVariant | None = None
    pai_gow: PaiGowVariant | None = None

    @property
    def three_card_variant(self) -> ThreeCardVariant:
        """The three-card game's numbers at this table; ``GameError`` for another game."""
        if self.three_card is None:
            raise GameError(f"{self.title} is not the three-card game.")
        return self.three_card

    @property
    def pai_gow_variant(self) -> PaiGowVariant:
        """Pai Gow's numbers at this table; ``GameError`` for another game."""
        if self.pai_gow is None:
            raise GameError(f"{self.title} is not Pai Gow.")
        return self.pai_gow

    def with_options(self, *, ties_to_dealer: bool, wheel: str, decks: int) -> GameSpec:
        """This game with a table's options (those that do not apply to it are ignored)."""
        return _with_options(self, ties_to_dealer, wheel, decks)

    def put_up(self, ante: int) -> int:
        """What each player puts up at the start at this ante: the ante, once per wager."""
        return ante * self.wagers

    def variant_at(self, ante: int) -> Variant:
        """The Pyramid variant as a table with this ante plays it; ``GameError`` for another
        game. A game without an ante (No-Surrender) keeps its none (RULINGS §4)."""
        if self.variant is None:
            raise GameError(f"{self.title} is not a Pyramid game.")
        return replace(self.variant, ante=ante) if self.default_ante else self.variant

    @property
    def declarations(self) -> int:
        """How many play-or-surrender rounds the game has."""
        return 0 if self.variant is None else len(self.variant.declarations)

    @property
    def has_dealer(self) -> bool:
        """Whether the bot plays a hand (the Casino dealer, the three-card dealer, the banker)."""
        return self.dealer_cards > 0


@functools.cache
def _with_options(spec: GameSpec, ties_to_dealer: bool, wheel: str, decks: int) -> GameSpec:
    # A game takes the options its own numbers have (RULINGS §5, §6); the others ignore them.
    if spec.three_card is not None:
        variant = ThreeCardVariant(decks=decks, ties_to_dealer=ties_to_dealer)
        return replace(spec, decks=decks, three_card=variant)
    if spec.pai_gow is not None:
        mode = WheelMode.LOW if wheel == "california" else WheelMode.SECOND
        return replace(spec, pai_gow=PaiGowVariant(wheel=mode))
    return spec
