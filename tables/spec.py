"""A game as data: who plays, how many cards, what is staked and when (see tables/games.py)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace

from engine.errors import GameError
from engine.text import Term, tr
from engine.variants import Variant


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game as a table runs it; ``name`` is the word players type (``/table create``)."""

    name: str
    title: str
    min_players: int
    max_players: int
    decks: int
    jokers: int
    #: Cards each player is dealt before any declaration.
    deal: int
    #: Cards the bot dealer (or banker) holds; 0 in games between players only.
    dealer_cards: int
    default_ante: int
    #: The engine's numbers of the game, its table's options applied: a Pyramid game's
    #: ``Variant``, or the variant of a game against the house, which only its rules object
    #: reads (tables/rules/).
    numbers: Hashable
    #: Wagers a player puts up at the start, each one ante (the three-card game's three bets).
    wagers: int = 1
    #: A game with no ante holds this many chips per opponent from each player while it is played
    #: (returned with the result), so nobody plays who could not pay a likely loss.
    cover_per_opponent: int = 0

    @property
    def variant(self) -> Variant | None:
        """The Pyramid variant, whose declarations the table itself runs; None for a game
        without them."""
        return self.numbers if isinstance(self.numbers, Variant) else None

    def put_up(self, ante: int) -> int:
        """What each player puts up at the start at this ante: the ante, once per wager."""
        return ante * self.wagers

    def variant_at(self, ante: int) -> Variant:
        """The Pyramid variant as a table with this ante plays it; ``GameError`` for another
        game. A game without an ante (No-Surrender) keeps its none (RULINGS §4)."""
        if self.variant is None:
            raise GameError(tr("{game} is not a Pyramid game.", game=Term(self.title, "choice")))
        return replace(self.variant, ante=ante) if self.default_ante else self.variant

    @property
    def declarations(self) -> int:
        """How many play-or-surrender rounds the game has."""
        return 0 if self.variant is None else len(self.variant.declarations)

    @property
    def has_dealer(self) -> bool:
        """Whether the bot plays a hand (the Casino dealer, the three-card dealer, the banker)."""
        return self.dealer_cards > 0
