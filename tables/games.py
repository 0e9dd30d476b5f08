"""The six games a table can host, and the one place that finds a game's rules object."""

from __future__ import annotations

import functools
from typing import Final

from engine.names import game_name
from engine.paigow import PaiGowVariant
from engine.three_card import ThreeCardVariant
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, Variant
from tables.rules import GameRules
from tables.rules.house import PaiGowRules, ThreeCardRules
from tables.rules.pyramid import PyramidRules
from tables.spec import Family, GameSpec

__all__ = ["GAMES", "GameSpec", "game_named", "rules_of", "rules_summary"]


#: No-Surrender's cover: 1,500 heads-up deals set by the solver lost at most 17 points to one
#: opponent in 99 of 100 deals and 25 at worst, at one chip a point (docs/rules.md).
NO_SURRENDER_COVER: Final = 20


def _pyramid(
    name: str, variant: Variant, dealer_cards: int = 0, cover_per_opponent: int = 0
) -> GameSpec:
    return GameSpec(
        name=name,
        title=variant.title,
        family=Family.PYRAMID,
        min_players=variant.min_players,
        max_players=variant.max_players,
        decks=variant.decks,
        jokers=variant.jokers,
        deal=variant.deal,
        dealer_cards=dealer_cards,
        # No-Surrender has no ante: chips move by points only (RULINGS §4).
        default_ante=variant.ante,
        variant=variant,
        cover_per_opponent=cover_per_opponent,
    )


#: The three-card game's numbers (RULINGS §5) and Pai Gow's (RULINGS §6), as the tables play them.
THREE_CARD_VARIANT: Final = ThreeCardVariant()
PAI_GOW_VARIANT: Final = PaiGowVariant()

GAMES: Final[dict[str, GameSpec]] = {
    spec.name: spec
    for spec in (
        _pyramid("showdown", SHOWDOWN),
        # The dealer sets 9 cards: its 7 and the 2 it would buy (RULINGS §3).
        _pyramid("casino", CASINO, dealer_cards=CASINO.max_held),
        _pyramid("standard", STANDARD),
        _pyramid("no-surrender", NO_SURRENDER, cover_per_opponent=NO_SURRENDER_COVER),
        GameSpec(
            name="three-card",
            title="Three-card table game",
            family=Family.THREE_CARD,
            min_players=1,
            max_players=6,
            decks=THREE_CARD_VARIANT.decks,
            jokers=0,
            deal=3,
            dealer_cards=3,
            default_ante=5,
            # Seed 002: the main bet, the 3-card bonus and the 6-card bonus.
            wagers=3,
            three_card=THREE_CARD_VARIANT,
        ),
        GameSpec(
            name="paigow",
            title="Pai Gow poker",
            family=Family.PAI_GOW,
            min_players=1,
            max_players=6,
            decks=1,
            jokers=1,
            deal=7,
            dealer_cards=7,
            default_ante=10,
            pai_gow=PAI_GOW_VARIANT,
        ),
    )
}


def game_named(name: str) -> GameSpec:
    """The game players call ``name`` (any spelling `game_name` reads); ``GameError`` otherwise."""
    return GAMES[game_name(name)]


@functools.cache
def rules_of(spec: GameSpec) -> GameRules:
    """The rules object of a game (with its table options applied)."""
    # The one place that tells the families apart.
    families: dict[Family, type[PyramidRules | ThreeCardRules | PaiGowRules]] = {
        Family.PYRAMID: PyramidRules,
        Family.THREE_CARD: ThreeCardRules,
        Family.PAI_GOW: PaiGowRules,
    }
    return families[spec.family](spec)


def rules_summary(spec: GameSpec) -> str:
    """A few lines on how the game goes, from its data (the full rules are in docs/rules.md)."""
    lines = [f"**{spec.title}**: {spec.min_players}-{spec.max_players} players"]
    if spec.has_dealer:
        lines[0] += " against the bot dealer"
    lines[0] += f"; {spec.decks} deck(s)" + (
        f" and {spec.jokers} joker(s)." if spec.jokers else "."
    )
    lines.extend(rules_of(spec).summary())
    return "\n".join(lines)
