"""The three-card table game of seed 002: a 1-card low and a 2-card high hand against the house.

The dealer is just the banker seat: it sets its cards by the house way (RULINGS §5). A player who
banks later takes the same seat through ``set_banker_hand``, which re-sets a fouled hand the house
way as the seed's "Player Banker Rules" require.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from engine.cards import Card, Rank
from engine.errors import GameError
from engine.evaluate import (
    FLUSH,
    FULL_HOUSE,
    PAIR,
    PYRAMID_RULES,
    QUADS,
    STRAIGHT,
    THREE_CARD_FLUSH,
    THREE_CARD_STRAIGHT,
    THREE_CARD_STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    evaluator,
    of_a_kind_ladder,
    straight_flush_ladder,
)
from engine.payouts import Outcome, Payout, loss, push, win
from engine.text import Text, tr

_ACE_HIGH_RUN: Final = Rank.ACE + 1  # the evaluator's value of a run topped by the ace


class BonusHand(Enum):
    """The hands of the 3-card bonus (2nd wager) and 6-card bonus (3rd wager) pay tables."""

    HIGH_CARD = "high_card"
    SEVEN_OR_LOWER = "seven_or_lower"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FIVE_OF_A_KIND = "five_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ACE_KING_QUEEN_SUITED = "ace_king_queen_suited"
    ROYAL_FLUSH = "royal_flush"
    SIX_OF_A_KIND = "six_of_a_kind"


PayTable = tuple[tuple[BonusHand, int], ...]

#: Seed 002, "2nd Wager (3 Card Poker) pay table"; "7 or lower, No Ace" pushes (``0``).
THREE_CARD_BONUS_PAYS: Final[PayTable] = (
    (BonusHand.SEVEN_OR_LOWER, 0),
    (BonusHand.PAIR, 1),
    (BonusHand.FLUSH, 2),
    (BonusHand.STRAIGHT, 5),
    (BonusHand.THREE_OF_A_KIND, 20),
    (BonusHand.STRAIGHT_FLUSH, 30),
    (BonusHand.ACE_KING_QUEEN_SUITED, 50),
)
#: Seed 002, "3rd Wager (6 Card Poker) pay table".
SIX_CARD_BONUS_PAYS: Final[PayTable] = (
    (BonusHand.TWO_PAIR, 1),
    (BonusHand.THREE_OF_A_KIND, 2),
    (BonusHand.STRAIGHT, 5),
    (BonusHand.FLUSH, 6),
    (BonusHand.FULL_HOUSE, 7),
    (BonusHand.FOUR_OF_A_KIND, 10),
    (BonusHand.FIVE_OF_A_KIND, 50),
    (BonusHand.STRAIGHT_FLUSH, 75),
    (BonusHand.ROYAL_FLUSH, 200),
    (BonusHand.SIX_OF_A_KIND, 1000),
)


@dataclass(frozen=True, slots=True)
class ThreeCardVariant:
    """Every number of the game in one place (RULINGS §5); a table's host chooses two of them."""

    decks: int = 6
    #: Table option of RULINGS §5: a tied low or high hand counts as won by the dealer.
    ties_to_dealer: bool = False
    #: Seed 002: player trips win the main bet 3:1 and the 6-card bonus at least 2:1.
    trips_main_odds: int = 3
    trips_six_card_minimum: int = 2
    #: House way (RULINGS §5 reading): pairs from jacks up are split unless the single card is at
    #: least the pair's rank minus this gap.
    split_pairs_from: Rank = Rank.JACK
    keep_pair_gap: int = 4
    three_card_pays: PayTable = THREE_CARD_BONUS_PAYS
    six_card_pays: PayTable = SIX_CARD_BONUS_PAYS
    # The pay tables as dicts, built once: the simulator looks them up millions of times.
    three_card_odds: dict[BonusHand, int] = field(init=False, repr=False, compare=False)
    six_card_odds: dict[BonusHand, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 6 <= self.decks <= 8:
            raise GameError(
                tr(
                    "The three-card game uses a shoe of 6 to 8 decks, not {decks}.",
                    decks=self.decks,
                )
            )
        object.__setattr__(self, "three_card_odds", dict(self.three_card_pays))
        object.__setattr__(self, "six_card_odds", dict(self.six_card_pays))


@dataclass(frozen=True, slots=True)
class ThreeCardSetting:
    """Three cards set as a 1-card low hand and a 2-card high hand."""

    low: Card
    high: tuple[Card, Card]

    @property
    def cards(self) -> tuple[Card, Card, Card]:
        """The three cards, low hand first."""
        return (self.low, *self.high)


def high_key(high: Sequence[Card]) -> tuple[int, ...]:
    """Strength of a 2-card high hand: a pair beats any two singles (seed 002's ranking)."""
    a, b = (int(card.rank) for card in high)
    if a == b:
        return (PAIR, a)
    return (0, max(a, b), min(a, b))


def is_three_of_a_kind(cards: Sequence[Card]) -> bool:
    """Trips: an automatic winner whatever the dealer holds (seed 002)."""
    return cards[0].rank == cards[1].rank == cards[2].rank


def is_foul(setting: ThreeCardSetting) -> bool:
    """The low card outranks the 2-card hand (seed 002); a pair is never beaten by one card."""
    a, b = setting.high
    if a.rank == b.rank:
        return False
    # RULINGS §1.5: with the same top card the 2-card hand has the extra kicker and is stronger.
    return setting.low.rank > max(a.rank, b.rank)


def house_way(cards: Sequence[Card], variant: ThreeCardVariant | None = None) -> ThreeCardSetting:
    """Set three cards the house way, as RULINGS §5 reads seed 002's "House Way Rules"."""
    variant = variant or ThreeCardVariant()
    if len(cards) != 3:
        raise GameError(tr("A three-card hand has 3 cards, not {count}.", count=len(cards)))
    top, middle, bottom = sorted(cards, key=lambda card: card.rank, reverse=True)
    if top.rank == bottom.rank:
        # "Always split three of a kind": the pair high, one card low.
        return ThreeCardSetting(low=top, high=(middle, bottom))
    if top.rank == middle.rank or middle.rank == bottom.rank:
        pair, single = (
            ((top, middle), bottom) if top.rank == middle.rank else ((middle, bottom), top)
        )
        rank = pair[0].rank
        if rank >= variant.split_pairs_from and single.rank < rank - variant.keep_pair_gap:
            # "Always split pair of jacks or higher if the kicker is ... less than 4 units".
            return ThreeCardSetting(low=pair[0], high=(pair[1], single))
        return ThreeCardSetting(low=single, high=pair)
    # "If no pair, then always play the second high card in the one card hand".
    return ThreeCardSetting(low=middle, high=(top, bottom))


def set_banker_hand(
    cards: Sequence[Card],
    chosen: ThreeCardSetting | None = None,
    variant: ThreeCardVariant | None = None,
) -> ThreeCardSetting:
    """The banker's hand: the house way, or a banking player's own setting unless it fouls."""
    if chosen is not None:
        verify_setting(cards, chosen)
        if not is_foul(chosen):
            return chosen
    return house_way(cards, variant)


def verify_setting(cards: Sequence[Card], setting: ThreeCardSetting) -> None:
    """Raise ``GameError`` unless the setting uses exactly the cards dealt."""
    if sorted(c.code for c in setting.cards) != sorted(c.code for c in cards):
        raise GameError(tr("Set exactly the three cards you were dealt: one low, two high."))


def _compare(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return (a > b) - (a < b)


#: Seed 002, "To win or lose the 1st Pyramid Poker wager": (low, high) from the player's side,
#: 1 won, 0 tied, -1 lost.
MAIN_BET: Final[dict[tuple[int, int], tuple[Outcome, Text]]] = {
    (1, 1): (Outcome.WIN, tr("Won both hands")),
    (0, 1): (Outcome.WIN, tr("Tied the low hand and won the high hand")),
    (1, 0): (Outcome.WIN, tr("Won the low hand and tied the high hand")),
    (-1, -1): (Outcome.LOSS, tr("Lost both hands")),
    (0, -1): (Outcome.LOSS, tr("Tied the low hand and lost the high hand")),
    (-1, 0): (Outcome.LOSS, tr("Lost the low hand and tied the high hand")),
    (1, -1): (Outcome.PUSH, tr("Won the low hand and lost the high hand")),
    (-1, 1): (Outcome.PUSH, tr("Lost the low hand and won the high hand")),
    # Not in the seed's list; RULINGS §5: both hands tied is a push.
    (0, 0): (Outcome.PUSH, tr("Tied both hands")),
}


def settle_main_bet(
    player: ThreeCardSetting, banker: ThreeCardSetting, variant: ThreeCardVariant | None = None
) -> Payout:
    """The 1st wager: the player's two hands against the banker's, per seed 002's outcome list."""
    variant = variant or ThreeCardVariant()
    if is_three_of_a_kind(player.cards):
        return win(variant.trips_main_odds, tr("Three of a kind wins automatically"))
    if is_foul(player):
        return loss(tr("Fouled: the low card outranks the two-card hand"))
    low = _compare((player.low.rank,), (banker.low.rank,))
    high = _compare(high_key(player.high), high_key(banker.high))
    tied = not (low and high)
    if variant.ties_to_dealer:
        low, high = low or -1, high or -1
    outcome, reason = MAIN_BET[(low, high)]
    if variant.ties_to_dealer and tied:
        reason = _to_the_dealer(reason)
    if outcome is Outcome.WIN:
        return win(1, reason)
    return push(reason) if outcome is Outcome.PUSH else loss(reason)


def _to_the_dealer(reason: Text) -> Text:
    return tr("{reason} (ties go to the dealer)", reason=reason)


def three_card_bonus_hand(cards: Sequence[Card]) -> BonusHand:
    """The player's three cards as a 3-card poker hand (2nd wager)."""
    key = evaluator(PYRAMID_RULES).key([card.code for card in cards])
    ladder = key[0]
    if ladder == TRIPS:
        return BonusHand.THREE_OF_A_KIND
    if ladder == THREE_CARD_STRAIGHT_FLUSH:
        ace_high = key[1] == _ACE_HIGH_RUN
        return BonusHand.ACE_KING_QUEEN_SUITED if ace_high else BonusHand.STRAIGHT_FLUSH
    if ladder == THREE_CARD_STRAIGHT:
        return BonusHand.STRAIGHT
    if ladder == THREE_CARD_FLUSH:
        return BonusHand.FLUSH
    if ladder == PAIR:
        return BonusHand.PAIR
    # "7 or lower, No Ace": the top card is a seven or lower (an ace counts high here).
    return BonusHand.SEVEN_OR_LOWER if key[1] <= Rank.SEVEN else BonusHand.HIGH_CARD


_SIX_CARD_LADDER: Final = {
    PAIR: BonusHand.PAIR,
    TWO_PAIR: BonusHand.TWO_PAIR,
    TRIPS: BonusHand.THREE_OF_A_KIND,
    STRAIGHT: BonusHand.STRAIGHT,
    FLUSH: BonusHand.FLUSH,
    FULL_HOUSE: BonusHand.FULL_HOUSE,
    QUADS: BonusHand.FOUR_OF_A_KIND,
    of_a_kind_ladder(5): BonusHand.FIVE_OF_A_KIND,
}


def six_card_bonus_hand(cards: Sequence[Card]) -> BonusHand:
    """The best poker hand of the player's three cards and the dealer's three (3rd wager)."""
    if len({card.rank for card in cards}) == 1:
        return BonusHand.SIX_OF_A_KIND
    key_of = evaluator(PYRAMID_RULES).key
    codes = [card.code for card in cards]
    best = max(key_of(five) for five in itertools.combinations(codes, 5))
    if best[0] == straight_flush_ladder(5):
        return BonusHand.ROYAL_FLUSH if best[1] == _ACE_HIGH_RUN else BonusHand.STRAIGHT_FLUSH
    return _SIX_CARD_LADDER.get(best[0], BonusHand.HIGH_CARD)


def _pay(hand: BonusHand, pays: dict[BonusHand, int], minimum: int = 0) -> Payout:
    odds = pays.get(hand)
    if odds is None and not minimum:
        return loss(tr("{hand} is not on the pay table", hand=BONUS_NAMES[hand]))
    odds = max(odds or 0, minimum)
    if odds:
        return win(odds, tr("{hand} pays {odds} to 1", hand=BONUS_NAMES[hand], odds=odds))
    return push(tr("{hand} pushes", hand=BONUS_NAMES[hand]))


#: Each pay table's hand by name, in the reader's language.
BONUS_NAMES: Final = {
    BonusHand.HIGH_CARD: tr("High card"),
    BonusHand.SEVEN_OR_LOWER: tr("Seven or lower"),
    BonusHand.PAIR: tr("Pair"),
    BonusHand.TWO_PAIR: tr("Two pair"),
    BonusHand.FLUSH: tr("Flush"),
    BonusHand.STRAIGHT: tr("Straight"),
    BonusHand.THREE_OF_A_KIND: tr("Three of a kind"),
    BonusHand.FULL_HOUSE: tr("Full house"),
    BonusHand.FOUR_OF_A_KIND: tr("Four of a kind"),
    BonusHand.FIVE_OF_A_KIND: tr("Five of a kind"),
    BonusHand.STRAIGHT_FLUSH: tr("Straight flush"),
    BonusHand.ACE_KING_QUEEN_SUITED: tr("Ace king queen suited"),
    BonusHand.ROYAL_FLUSH: tr("Royal flush"),
    BonusHand.SIX_OF_A_KIND: tr("Six of a kind"),
}


def settle_three_card_bonus(
    cards: Sequence[Card], variant: ThreeCardVariant | None = None
) -> Payout:
    """The 2nd wager, paid on the player's three cards alone."""
    variant = variant or ThreeCardVariant()
    return _pay(three_card_bonus_hand(cards), variant.three_card_odds)


def settle_six_card_bonus(
    player_cards: Sequence[Card],
    dealer_cards: Sequence[Card],
    variant: ThreeCardVariant | None = None,
) -> Payout:
    """The 3rd wager on the player's 3 and the dealer's 3 cards; player trips pay at least 2:1."""
    variant = variant or ThreeCardVariant()
    minimum = variant.trips_six_card_minimum if is_three_of_a_kind(player_cards) else 0
    return _pay(six_card_bonus_hand((*player_cards, *dealer_cards)), variant.six_card_odds, minimum)


def reasons() -> tuple[Text, ...]:
    """Every reason a wager of the game may end for, at any table (its pay tables' odds and the
    trips minimum): a reason stored in English reads back into its text by them."""
    main = [reason for _, reason in MAIN_BET.values()]
    found = [
        tr("Three of a kind wins automatically"),
        tr("Fouled: the low card outranks the two-card hand"),
        *main,
        *(_to_the_dealer(reason) for reason in main),
    ]
    odds = {odds for pays in (THREE_CARD_BONUS_PAYS, SIX_CARD_BONUS_PAYS) for _, odds in pays}
    odds.add(ThreeCardVariant().trips_six_card_minimum)
    for hand in BonusHand:
        paid = [_pay(hand, {}), *(_pay(hand, {hand: each}) for each in sorted(odds))]
        found.extend(payout.said for payout in paid if payout.said is not None)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class ThreeCardRound:
    """One player's three wagers against the dealer."""

    player: ThreeCardSetting
    dealer: ThreeCardSetting
    main: Payout
    three_card_bonus: Payout
    six_card_bonus: Payout


def settle_round(
    player: ThreeCardSetting,
    dealer: ThreeCardSetting,
    variant: ThreeCardVariant | None = None,
    *,
    banker: ThreeCardSetting | None = None,
) -> ThreeCardRound:
    """All three wagers; the main bet is against ``banker`` (the dealer unless a player banks)."""
    variant = variant or ThreeCardVariant()
    return ThreeCardRound(
        player=player,
        dealer=dealer,
        main=settle_main_bet(player, banker or dealer, variant),
        three_card_bonus=settle_three_card_bonus(player.cards, variant),
        six_card_bonus=settle_six_card_bonus(player.cards, dealer.cards, variant),
    )
