"""The games against the house: what the three-card table game (seed 002, tables/rules/
three_card.py) and Pai Gow (seed 003, tables/rules/paigow.py) share.

Both are set as a low and a high hand, checked for a foul, set for the house by its house way,
and settled wager by wager against the dealer (or banker); the two differ only in their cards,
their hands' names, their wagers and their options.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import AnyCard, Card, Joker, Rank, parse_hands
from engine.errors import GameError
from engine.evaluate import HandRules
from engine.payouts import Payout
from engine.settlement import HOUSE, Transfer
from engine.text import Text, tr
from tables.events import SeatResult, ShowdownSettled, Wager
from tables.review import Review
from tables.rules import FinishedGame, Played, move, wager_chips
from tables.rules.house_review import review_house, wager_words
from tables.rules.pages import RANK_PLURALS, RANK_TITLES, RANK_WORDS
from tables.setting import Setting, SlotShape, Suggestion, hands_of
from tables.spec import GameSpec


def rank_of(card: AnyCard) -> Rank:
    # In Pai Gow's low hand the joker is an ace (seed 003); the three-card game has none.
    return card.rank if isinstance(card, Card) else Rank.ACE


def two_card_words(cards: Sequence[AnyCard]) -> Text:
    """A two-card hand's name as a text: "Pair of nines", "Ace-seven"."""
    big, small = sorted((rank_of(card) for card in cards), reverse=True)
    if big == small:
        return tr("Pair of {ranks}", ranks=RANK_PLURALS[big])
    return tr("{high}-{low}", high=RANK_TITLES[big], low=RANK_WORDS[small])


def two_card_label(cards: Sequence[AnyCard]) -> str:
    """A two-card hand's name in English, as the events keep it: "Pair of nines"."""
    return str(two_card_words(cards))


@dataclass(frozen=True, slots=True)
class HouseRules:
    """What both house games share: a low and a high hand, the house way, wager by wager."""

    spec: GameSpec

    #: The two hands, low then high, with their sizes; and how a sentence asks for them.
    LOW: ClassVar[SlotShape] = SlotShape(tr("low hand"), (2,))
    HIGH: ClassVar[SlotShape] = SlotShape(tr("high hand"), (5,))
    ASKS: ClassVar[Text] = tr("two cards low and five cards high")
    #: The game's name in a sentence, and how pictures read its hands.
    CALLED: ClassVar[Text]
    HAND_RULES: ClassVar[HandRules]

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
        return GameError(tr("{game} has no automatics.", game=self.spec.title))

    def verify_form(self, setting: Setting) -> None:
        """Raise unless the setting is a low and a high hand of the game's sizes, every card
        used and no automatic: what ``check`` asks first of a setting made anywhere."""
        if setting.automatic:
            raise self._no_automatics()
        if setting.discards:
            raise GameError(
                tr("{game} uses every card: there is nothing to discard.", game=self.spec.title)
            )
        if [len(hand) for hand in setting.hands] != [self.LOW.sizes[0], self.HIGH.sizes[0]]:
            raise GameError(tr("Set {hands}, separated by `|`.", hands=self.ASKS))

    def has_automatics(self) -> bool:
        """No: the games against the house have no automatics."""
        return False

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
        """The low hand's name, then the high hand's, in English (as the events keep them)."""
        return tuple(str(words) for words in self.label_words(hands))

    def label_words(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[Text | str, ...]:
        """The low hand's name, then the high hand's, as texts to read in a language."""
        raise NotImplementedError

    def wagers(self, mine: Setting, dealer: Setting) -> tuple[tuple[str, Payout], ...]:
        """Each wager's name and how it ended against the dealer's setting."""
        raise NotImplementedError

    def shoe_codes(self) -> tuple[int, ...]:
        """The codes of every card in the game's shoe (a card held by several decks repeats)."""
        raise NotImplementedError

    def review(
        self,
        event: ShowdownSettled,
        seat: SeatResult,
        held: tuple[AnyCard, ...],
        *,
        ante: int,
        solved: Suggestion | None = None,
    ) -> Review:
        """Every legal setting of the cards against the dealer's possible hands, the best kept
        (against the dealer's hands the house way is not the best: ``solved`` is not used)."""
        return review_house(self, ante, event, seat, held)

    def called(self) -> Text:
        """The game's name in a sentence."""
        return self.CALLED

    def hand_rules(self) -> HandRules:
        """The hand rules the pictures lay the hands out by."""
        return self.HAND_RULES

    def slot_names(self) -> tuple[str, ...]:
        """ "Low", then "High"."""
        return ("Low", "High")

    def slot_words(self) -> tuple[Text, ...]:
        """ "Low", then "High", as texts."""
        return (tr("Low"), tr("High"))

    def scores_by_hand(self) -> bool:
        """No: each wager is won or lost against the dealer."""
        return False

    def warm_up(self) -> None:
        """Nothing to load ahead beyond what one house way builds."""

    def play(self, game: FinishedGame) -> Played:
        """Each player's wagers against the house's setting, at one ante each."""
        dealer = self.house_way(game.dealer_cards, banker=True)
        transfers: list[Transfer] = []
        per_hand: dict[int, tuple[int, ...]] = {}
        wagers: dict[int, tuple[Wager, ...]] = {}
        for seat in game.active:
            if seat.setting is None:
                continue
            results = []
            for name, payout in self.wagers(seat.setting, dealer):
                chips = wager_chips(payout, game.ante)
                move(transfers, HOUSE, seat.user, chips, f"{name}: {payout.reason}")
                # The name and the reason as texts, so that each reader reads them in their
                # language.
                results.append(Wager(wager_words(name), chips, payout.text))
            wagers[seat.user] = tuple(results)
            per_hand[seat.user] = tuple(wager.chips for wager in results)
        return Played(tuple(transfers), per_hand=per_hand, wagers=wagers, dealer=dealer)


def only_cards(cards: Sequence[AnyCard], game: str) -> tuple[Card, ...]:
    if any(isinstance(card, Joker) for card in cards):
        raise GameError(tr("{game} has no jokers.", game=game))
    return tuple(card for card in cards if isinstance(card, Card))
