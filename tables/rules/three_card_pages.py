"""The three-card table game's rules card (seed 002, RULINGS §5), written from its variant: the
shoe, the wagers, the main bet's outcomes, the bonus pay tables and the dealer's house way."""

from __future__ import annotations

import functools
from typing import Final

from engine.cards import Rank
from engine.payouts import Outcome
from engine.three_card import MAIN_BET, BonusHand, PayTable, ThreeCardVariant
from tables.rules import Chart, RulesCard, RulesPage
from tables.rules.pages import ante_words, bullets, paragraphs, players_words, shoe_words
from tables.spec import GameSpec

#: The pay tables' hands in a player's words.
BONUS_WORDS: Final = {
    BonusHand.HIGH_CARD: "High card",
    BonusHand.SEVEN_OR_LOWER: "7 high or lower, no ace",
    BonusHand.PAIR: "Pair",
    BonusHand.TWO_PAIR: "Two pair",
    BonusHand.FLUSH: "Flush",
    BonusHand.STRAIGHT: "Straight",
    BonusHand.THREE_OF_A_KIND: "Three of a kind",
    BonusHand.FULL_HOUSE: "Full house",
    BonusHand.FOUR_OF_A_KIND: "Four of a kind",
    BonusHand.FIVE_OF_A_KIND: "Five of a kind",
    BonusHand.STRAIGHT_FLUSH: "Straight flush",
    BonusHand.ACE_KING_QUEEN_SUITED: "A-K-Q of one suit",
    BonusHand.ROYAL_FLUSH: "Royal flush",
    BonusHand.SIX_OF_A_KIND: "Six of a kind",
}
_HAND_WORDS: Final = {1: "wins", 0: "ties", -1: "loses"}
_OUTCOME_WORDS: Final = {Outcome.WIN: "win 1 to 1", Outcome.PUSH: "push", Outcome.LOSS: "lose"}


@functools.cache
def three_card_card(spec: GameSpec, *, deck_range: tuple[int, int]) -> RulesCard:
    """The three-card game's card; ``deck_range``: the decks a table may choose."""
    variant = spec.numbers
    assert isinstance(variant, ThreeCardVariant)
    return RulesCard(
        spec.title,
        (
            RulesPage("How a game goes", _going(spec, deck_range)),
            RulesPage("What beats what", _ranking(variant)),
            RulesPage("Main bet", _main_bet(variant), (_main_bet_chart(variant),)),
            RulesPage("Bonuses", _bonuses(variant), _bonus_charts(variant)),
            RulesPage("The dealer's way", _house_way(variant)),
        ),
    )


def _going(spec: GameSpec, deck_range: tuple[int, int]) -> str:
    low, high = deck_range
    intro = (
        f"{players_words(spec)}, each against the bot, which deals and plays the dealer's hand. "
        f"The shoe: {shoe_words(spec)}; a table may use {low} to {high} decks."
    )
    steps = [
        f"You put up {spec.wagers} wagers, each the ante ({ante_words(spec)}): the **main bet**, "
        "the **3-card bonus** and the **6-card bonus**.",
        f"You and the dealer each get {spec.deal} cards.",
        "Set yours as a **low hand** of 1 card and a **high hand** of 2 before the deadline: "
        "**Build hands**, **Type hands** or **Suggest** in your DM. If you set nothing, the "
        "dealer's way sets them.",
        "The dealer sets its cards the house way (The dealer's way).",
        "Main bet: your low hand meets the dealer's low hand, your high hand its high hand "
        "(Main bet).",
        "The bonuses pay on the cards alone: your three, then your three with the dealer's "
        "three (Bonuses).",
    ]
    return paragraphs(intro, bullets(*steps))


def _ranking(variant: ThreeCardVariant) -> str:
    three = dict(variant.three_card_pays)[BonusHand.THREE_OF_A_KIND]
    return bullets(
        "**Low hand**: one card; the higher rank wins, ace high.",
        "**High hand**: two cards. A pair beats any two unpaired cards; pairs go by rank; two "
        "unpaired cards by the higher card, then the lower.",
        "Suits never count: equal ranks tie.",
        "**Foul**: your low card must not be higher than both cards of your high hand (a pair "
        "is never beaten by one card). The bot refuses a foul and says why.",
        f"**Three of a kind** wins at once: {variant.trips_main_odds} to 1 on the main bet, "
        f"{three} to 1 on the 3-card bonus, at least {variant.trips_six_card_minimum} to 1 on "
        "the 6-card bonus.",
    )


def _main_bet(variant: ThreeCardVariant) -> str:
    lines = [
        "Your low hand against the dealer's, and your high hand against the dealer's: the chart "
        "says what the two results do to your main bet.",
        f"Three of a kind wins {variant.trips_main_odds} to 1 whatever the dealer holds.",
    ]
    if variant.ties_to_dealer:
        lines.append("At this table ties go to the dealer: a tied hand counts as lost.")
    else:
        lines.append("A table may give ties to the dealer: a tied hand then counts as lost.")
    return bullets(*lines)


def _main_bet_chart(variant: ThreeCardVariant) -> Chart:
    rows = tuple(
        (_HAND_WORDS[low], _HAND_WORDS[high], _OUTCOME_WORDS[outcome])
        for (low, high), (outcome, _) in MAIN_BET.items()
    )
    note = "Ties go to the dealer at this table." if variant.ties_to_dealer else ""
    return Chart("Main bet", ("Your low hand", "Your high hand", "Main bet"), rows, note=note)


def _bonuses(variant: ThreeCardVariant) -> str:
    return bullets(
        "**3-card bonus**: your three cards as a poker hand. Three-card straights and flushes "
        "count, A-2-3 is a straight, and a flush holding a pair is a flush.",
        "**6-card bonus**: the best five-card hand among your three cards and the dealer's "
        "three, or six of a kind.",
        f"With three of a kind the 6-card bonus pays at least {variant.trips_six_card_minimum} "
        "to 1.",
        "Hands not in the charts lose the bonus.",
    )


def _pays(title: str, heading: str, table: PayTable) -> Chart:
    ranked = sorted(table, key=lambda pay: pay[1], reverse=True)
    rows = tuple((BONUS_WORDS[hand], f"{odds} to 1" if odds else "push") for hand, odds in ranked)
    return Chart(title, (heading, "Pays"), (*rows, ("Anything else", "loses")))


def _bonus_charts(variant: ThreeCardVariant) -> tuple[Chart, ...]:
    return (
        _pays("3-card bonus", "Your three cards", variant.three_card_pays),
        _pays("6-card bonus", "The six cards make", variant.six_card_pays),
    )


def _rank_text(rank: int) -> str:
    """A rank as players write it: "7", "10", "jack"."""
    return str(rank) if rank <= Rank.TEN else Rank(rank).word


def _a(word: str) -> str:
    """The word after its article: "a 7", "an 8", "an ace"."""
    return f"{'an' if word[0] in '8aeiou' else 'a'} {word}"


def _house_way(variant: ThreeCardVariant) -> str:
    gap = variant.keep_pair_gap
    needs = [
        f"{Rank(rank).plural} {_a(_rank_text(rank - gap))}"
        for rank in range(variant.split_pairs_from, Rank.ACE + 1)
    ]
    needs[0] = needs[0].replace(" ", " need ", 1) + " or better"
    highest_kept = Rank(variant.split_pairs_from - 1).plural
    return paragraphs(
        "The dealer always sets its three cards this way; the same way sets yours if you set "
        "nothing in time.",
        bullets(
            "**Three of a kind**: a pair high, the third card low.",
            f"**A pair of {Rank(variant.split_pairs_from).plural} or better** stays together, "
            f"pair high and the single card low, if the single card is at least the pair's rank "
            f"minus {gap}: {', '.join(needs)}. Otherwise the pair is split: one of its cards "
            "low, the other high with the single card.",
            f"**A pair of {highest_kept} or lower** always stays together as the high hand.",
            "**No pair**: the middle card low, the highest and the lowest high.",
        ),
    )
