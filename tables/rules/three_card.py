"""The three-card table game (seed 002, RULINGS §5): one card low, two high, three wagers
against the dealer, and the table's options (its decks, ties to the dealer)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Final

from engine.cards import AnyCard, parse_hands, standard_deck
from engine.errors import GameError
from engine.evaluate import THREE_CARD_RULES, HandRules
from engine.payouts import Payout
from engine.text import Text, tr, tr_plural
from engine.three_card import ThreeCardSetting, ThreeCardVariant, settle_round
from engine.three_card import house_way as three_card_house_way
from engine.three_card import is_foul as three_card_fouls
from engine.three_card import verify_setting as verify_three_card
from tables.options import Option, Options, option
from tables.rules import RulesCard
from tables.rules.house import HouseRules, only_cards, rank_of, two_card_words
from tables.rules.pages import HIGH_WORDS
from tables.rules.three_card_pages import three_card_card
from tables.setting import Setting, SlotShape
from tables.spec import GameSpec

#: RULINGS §5: the three-card game's shoe holds six to eight decks, and a table may give ties to
#: the dealer.
DECKS: Final = Option(
    "decks",
    6,
    "decks in the shoe",
    low=6,
    high=8,
    refusal=tr("The three-card game deals from {low} to {high} decks, not {value}."),
    shown=lambda decks: tr_plural("**{count}** deck", "**{count}** decks", int(decks)),
)
TIES_TO_DEALER: Final = Option(
    "ties_to_dealer",
    False,
    "a tied hand goes to the dealer",
    shown=lambda ties: tr("ties go to the dealer") if ties else tr("ties go to nobody (a push)"),
)


@dataclass(frozen=True, slots=True)
class ThreeCardOptions(Options):
    """The three-card game's table: its decks and its ties beside every game's options."""

    decks: int = option(DECKS)
    ties_to_dealer: bool = option(TIES_TO_DEALER)

    def game(self, spec: GameSpec) -> GameSpec:
        """The game dealt from this many decks, its ties as chosen."""
        return _three_card_at(spec, self.decks, self.ties_to_dealer)


@functools.cache
def _three_card_at(spec: GameSpec, decks: int, ties_to_dealer: bool) -> GameSpec:
    variant = ThreeCardVariant(decks=decks, ties_to_dealer=ties_to_dealer)
    return replace(spec, decks=decks, numbers=variant)


@dataclass(frozen=True, slots=True)
class ThreeCardRules(HouseRules):
    """The three-card table game: one card low, two high, three wagers (RULINGS §5)."""

    LOW: ClassVar[SlotShape] = SlotShape("low card", (1,))
    HIGH: ClassVar[SlotShape] = SlotShape("two-card hand", (2,))
    ASKS: ClassVar[Text] = tr("one card low and two cards high")
    CALLED: ClassVar[Text] = tr("the three-card game")
    HAND_RULES: ClassVar[HandRules] = THREE_CARD_RULES

    @property
    def variant(self) -> ThreeCardVariant:
        """The game's numbers at this table."""
        assert isinstance(self.spec.numbers, ThreeCardVariant)
        return self.spec.numbers

    def _setting(self, setting: Setting) -> ThreeCardSetting:
        low, high = (only_cards(hand, self.spec.title) for hand in setting.hands)
        return ThreeCardSetting(low=low[0], high=(high[0], high[1]))

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """The cards dealt, and no low card above the two-card hand."""
        self.verify_form(setting)
        three = self._setting(setting)
        verify_three_card(only_cards(held, self.spec.title), three)
        if three_card_fouls(three):
            raise GameError(
                tr(
                    "That fouls: your low card {card} outranks your two-card hand. Put the "
                    "higher card in the two-card hand.",
                    card=three.low.pretty,
                )
            )

    def shoe_codes(self) -> tuple[int, ...]:
        """The table's decks, no joker."""
        return tuple(card.code for card in standard_deck()) * self.variant.decks

    def house_way(self, held: Sequence[AnyCard], *, banker: bool = False) -> Setting:
        """Seed 002's house way (the same for the dealer and for advice)."""
        three = three_card_house_way(only_cards(held, self.spec.title), self.variant)
        return Setting(((three.low,), three.high))

    def label_words(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[Text | str, ...]:
        """ "Nine high", then "Pair of kings" or "Ace-seven"."""
        low, high = hands
        return (HIGH_WORDS[rank_of(low[0])], two_card_words(high))

    def wagers(self, mine: Setting, dealer: Setting) -> tuple[tuple[str, Payout], ...]:
        """The main bet, the 3-card bonus and the 6-card bonus."""
        round_ = settle_round(self._setting(mine), self._setting(dealer), self.variant)
        return (
            ("main bet", round_.main),
            ("3-card bonus", round_.three_card_bonus),
            ("6-card bonus", round_.six_card_bonus),
        )

    def card(self) -> RulesCard:
        """The game's rules card, written from its variant (tables/rules/three_card_pages.py)."""
        assert DECKS.low is not None and DECKS.high is not None
        return three_card_card(self.spec, deck_range=(DECKS.low, DECKS.high))

    def warm_up(self) -> None:
        """One house way loads what the first one would wait for."""
        self.house_way(parse_hands("As Kd 7c")[0])
