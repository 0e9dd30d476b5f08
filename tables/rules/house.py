"""The games against the house: the three-card table game (seed 002) and Pai Gow (seed 003).

Both are set as a low and a high hand, checked for a foul, set for the house by its house way,
and settled wager by wager against the dealer (or banker); the two differ only in their cards,
their hands' names and their wagers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.cards import AnyCard, Card, Joker, Rank, card_from_code, parse_hands, standard_deck
from engine.errors import GameError
from engine.evaluate import PAI_GOW_RULES, THREE_CARD_RULES, HandRules, evaluate
from engine.paigow import DECK_CODES, PaiGowSetting, Role
from engine.paigow import is_foul as pai_gow_fouls
from engine.paigow import settle as settle_pai_gow
from engine.paigow import verify_setting as verify_pai_gow
from engine.paigow_house_way import house_way as pai_gow_house_way
from engine.payouts import Payout
from engine.settlement import HOUSE, Transfer
from engine.three_card import ThreeCardSetting, settle_round
from engine.three_card import house_way as three_card_house_way
from engine.three_card import is_foul as three_card_fouls
from engine.three_card import verify_setting as verify_three_card
from tables.events import SeatResult, ShowdownSettled, Wager
from tables.games import GameSpec
from tables.review import Review
from tables.rules import Played, move, wager_chips
from tables.rules.house_review import review_house
from tables.setting import Setting, SlotShape, Suggestion, hands_of

if TYPE_CHECKING:
    from tables.table import Table


def _rank_of(card: AnyCard) -> Rank:
    # In Pai Gow's low hand the joker is an ace (seed 003); the three-card game has none.
    return card.rank if isinstance(card, Card) else Rank.ACE


def two_card_label(cards: Sequence[AnyCard]) -> str:
    """A two-card hand's name: "Pair of nines", "Ace-seven"."""
    big, small = sorted((_rank_of(card) for card in cards), reverse=True)
    if big == small:
        return f"Pair of {big.plural}"
    return f"{big.word.capitalize()}-{small.word}"


@dataclass(frozen=True, slots=True)
class HouseRules:
    """What both house games share: a low and a high hand, the house way, wager by wager."""

    spec: GameSpec

    #: The two hands, low then high, with their sizes; and how a sentence asks for them.
    LOW: ClassVar[SlotShape] = SlotShape("low hand", (2,))
    HIGH: ClassVar[SlotShape] = SlotShape("high hand", (5,))
    ASKS: ClassVar[str] = "two cards low and five cards high"
    #: The table options the game takes, its name in a sentence, how pictures read its hands.
    OPTIONS: ClassVar[frozenset[str]]
    CALLED: ClassVar[str]
    HAND_RULES: ClassVar[HandRules]
    #: How the game goes, in a line for ``/rules``.
    SUMMARY: ClassVar[str]

    def shape(self) -> tuple[SlotShape, ...]:
        """The low hand, then the high hand."""
        return (self.LOW, self.HIGH)

    def read(self, held: Sequence[AnyCard], text: str, automatic: str | None = None) -> Setting:
        """The two hands typed (in either order), checked for the cards and for a foul."""
        if automatic:
            raise self._no_automatics()
        setting = Setting(hands_of(sorted(parse_hands(text), key=len)))
        self.check(held, setting)
        return setting

    def _no_automatics(self) -> GameError:
        return GameError(f"{self.spec.title} has no automatics.")

    def verify_form(self, setting: Setting) -> None:
        """Raise unless the setting is a low and a high hand of the game's sizes, every card
        used and no automatic: what ``check`` asks first of a setting made anywhere."""
        if setting.automatic:
            raise self._no_automatics()
        if setting.discards:
            raise GameError(f"{self.spec.title} uses every card: there is nothing to discard.")
        if [len(hand) for hand in setting.hands] != [self.LOW.sizes[0], self.HIGH.sizes[0]]:
            raise GameError(f"Set {self.ASKS}, separated by `|`.")

    def suggest(self, held: Sequence[AnyCard], *, budget_s: float | None) -> Suggestion:
        """The house way's setting (it is the game's own advice; no solver here)."""
        return Suggestion(self.house_way(held), None, True)

    def computer_sets(self, level: str, held: Sequence[AnyCard]) -> Setting:
        """The house way, at every level: the game's own advice."""
        return self.house_way(held)

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """The game's own sentence if the setting is not legal for these cards."""
        raise NotImplementedError

    def house_way(self, held: Sequence[AnyCard], *, banker: bool = False) -> Setting:
        """The house way's setting of these cards (the dealer's, or advice for a player)."""
        raise NotImplementedError

    def labels(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[str, ...]:
        """The low hand's name, then the high hand's."""
        raise NotImplementedError

    def wagers(self, mine: Setting, dealer: Setting) -> tuple[tuple[str, Payout], ...]:
        """Each wager's name and how it ended against the dealer's setting."""
        raise NotImplementedError

    def shoe_codes(self) -> tuple[int, ...]:
        """The codes of every card in the game's shoe (a card held by several decks repeats)."""
        raise NotImplementedError

    def review(
        self, event: ShowdownSettled, seat: SeatResult, held: tuple[AnyCard, ...], *, ante: int
    ) -> Review:
        """Every legal setting of the cards against the dealer's possible hands, the best kept."""
        return review_house(self, ante, event, seat, held)

    def options(self) -> frozenset[str]:
        """The table options of RULINGS §5 or §6 this game takes."""
        return self.OPTIONS

    def called(self) -> str:
        """The game's name in a sentence."""
        return self.CALLED

    def hand_rules(self) -> HandRules:
        """The hand rules the pictures lay the hands out by."""
        return self.HAND_RULES

    def slot_names(self) -> tuple[str, ...]:
        """ "Low", then "High"."""
        return ("Low", "High")

    def scores_by_hand(self) -> bool:
        """No: each wager is won or lost against the dealer."""
        return False

    def summary(self) -> tuple[str, ...]:
        """The hands and the wagers against the house, in one line."""
        return (self.SUMMARY,)

    def warm_up(self) -> None:
        """Nothing to load ahead beyond what one house way builds."""

    def play(self, table: Table) -> Played:
        """Each player's wagers against the house's setting, at one ante each."""
        dealer = self.house_way(tuple(card_from_code(c) for c in table.dealer_cards), banker=True)
        transfers: list[Transfer] = []
        per_hand: dict[int, tuple[int, ...]] = {}
        wagers: dict[int, tuple[Wager, ...]] = {}
        for seat in table.active:
            if seat.setting is None:
                continue
            results = []
            for name, payout in self.wagers(seat.setting, dealer):
                chips = wager_chips(payout, table.config.ante)
                move(transfers, HOUSE, seat.user, chips, f"{name}: {payout.reason}")
                results.append(Wager(name, chips, payout.reason))
            wagers[seat.user] = tuple(results)
            per_hand[seat.user] = tuple(wager.chips for wager in results)
        return Played(tuple(transfers), per_hand=per_hand, wagers=wagers, dealer=dealer)


def _only_cards(cards: Sequence[AnyCard], game: str) -> tuple[Card, ...]:
    if any(isinstance(card, Joker) for card in cards):
        raise GameError(f"{game} has no jokers.")
    return tuple(card for card in cards if isinstance(card, Card))


@dataclass(frozen=True, slots=True)
class ThreeCardRules(HouseRules):
    """The three-card table game: one card low, two high, three wagers (RULINGS §5)."""

    LOW: ClassVar[SlotShape] = SlotShape("low card", (1,))
    HIGH: ClassVar[SlotShape] = SlotShape("two-card hand", (2,))
    ASKS: ClassVar[str] = "one card low and two cards high"
    OPTIONS: ClassVar[frozenset[str]] = frozenset({"ties_to_dealer", "decks"})
    CALLED: ClassVar[str] = "the three-card game"
    HAND_RULES: ClassVar[HandRules] = THREE_CARD_RULES
    SUMMARY: ClassVar[str] = (
        "3 cards each, set as a 1-card low and a 2-card high hand; three wagers of one "
        "ante each (main bet, 3-card bonus, 6-card bonus) against the dealer's house way."
    )

    def _setting(self, setting: Setting) -> ThreeCardSetting:
        low, high = (_only_cards(hand, self.spec.title) for hand in setting.hands)
        return ThreeCardSetting(low=low[0], high=(high[0], high[1]))

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """The cards dealt, and no low card above the two-card hand."""
        self.verify_form(setting)
        three = self._setting(setting)
        verify_three_card(_only_cards(held, self.spec.title), three)
        if three_card_fouls(three):
            raise GameError(
                f"That fouls: your low card {three.low.pretty} outranks your two-card hand. "
                "Put the higher card in the two-card hand."
            )

    def shoe_codes(self) -> tuple[int, ...]:
        """The table's decks, no joker."""
        return tuple(card.code for card in standard_deck()) * self.spec.three_card_variant.decks

    def house_way(self, held: Sequence[AnyCard], *, banker: bool = False) -> Setting:
        """Seed 002's house way (the same for the dealer and for advice)."""
        three = three_card_house_way(
            _only_cards(held, self.spec.title), self.spec.three_card_variant
        )
        return Setting(((three.low,), three.high))

    def labels(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[str, ...]:
        """ "Nine high", then "Pair of kings" or "Ace-seven"."""
        low, high = hands
        return (f"{_rank_of(low[0]).word.capitalize()} high", two_card_label(high))

    def wagers(self, mine: Setting, dealer: Setting) -> tuple[tuple[str, Payout], ...]:
        """The main bet, the 3-card bonus and the 6-card bonus."""
        round_ = settle_round(
            self._setting(mine), self._setting(dealer), self.spec.three_card_variant
        )
        return (
            ("main bet", round_.main),
            ("3-card bonus", round_.three_card_bonus),
            ("6-card bonus", round_.six_card_bonus),
        )

    def warm_up(self) -> None:
        """One house way loads what the first one would wait for."""
        self.house_way(parse_hands("As Kd 7c")[0])


@dataclass(frozen=True, slots=True)
class PaiGowRules(HouseRules):
    """Pai Gow poker: two cards low, five high, one bet less the commission (RULINGS §6)."""

    OPTIONS: ClassVar[frozenset[str]] = frozenset({"wheel"})
    CALLED: ClassVar[str] = "Pai Gow"
    HAND_RULES: ClassVar[HandRules] = PAI_GOW_RULES
    SUMMARY: ClassVar[str] = (
        "7 cards each, set as a 5-card high and a 2-card low hand; the high hand must "
        "win. Win both hands against the banker: even money less 5%; ties go to the banker."
    )

    def shoe_codes(self) -> tuple[int, ...]:
        """One deck and the joker."""
        return DECK_CODES

    def _setting(self, setting: Setting) -> PaiGowSetting:
        low, high = setting.hands
        return PaiGowSetting(high=high, low=low)

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """The seven cards dealt, and a high hand that beats the low one."""
        self.verify_form(setting)
        pai_gow = self._setting(setting)
        verify_pai_gow(held, pai_gow)
        if pai_gow_fouls(pai_gow, self.spec.pai_gow_variant):
            raise GameError("That fouls: your five-card hand must beat your two-card hand.")

    def house_way(self, held: Sequence[AnyCard], *, banker: bool = False) -> Setting:
        """Seed 003's strong house way, as the banker or as advice to a player."""
        role = Role.BANKER if banker else Role.PLAYER
        pai_gow = pai_gow_house_way(held, role=role, variant=self.spec.pai_gow_variant)
        return Setting((pai_gow.low, pai_gow.high))

    def labels(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[str, ...]:
        """ "Pair of nines" or "Ace-seven", then the five-card hand's name."""
        low, high = hands
        return (two_card_label(low), evaluate(high, self.spec.pai_gow_variant.rules).label)

    def wagers(self, mine: Setting, dealer: Setting) -> tuple[tuple[str, Payout], ...]:
        """The one bet against the banker."""
        payout = settle_pai_gow(
            self._setting(mine), self._setting(dealer), self.spec.pai_gow_variant
        )
        return (("bet", payout),)

    def warm_up(self) -> None:
        """Pai Gow's hand keys for this table's wheel."""
        assert self.spec.pai_gow_variant.keys is not None
