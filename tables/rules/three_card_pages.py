"""The three-card table game's rules card (seed 002, RULINGS §5), written from its variant: the
shoe, the wagers, the main bet's outcomes, the bonus pay tables and the dealer's house way."""

from __future__ import annotations

import functools
from typing import Final

from engine.cards import Rank
from engine.payouts import Outcome
from engine.text import Text, tr
from engine.three_card import BONUS_NAMES, MAIN_BET, BonusHand, PayTable, ThreeCardVariant
from tables.rules import Chart, RulesCard, RulesPage
from tables.rules.pages import (
    BUILD_HANDS,
    RANK_PLURALS,
    SUGGEST,
    TYPE_HANDS,
    Words,
    ante_words,
    bullets,
    comma_list,
    paragraphs,
    players_words,
    shoe_words,
)
from tables.spec import GameSpec

#: The pay tables' hands in a player's words: the names the payouts give, two of them spelled
#: out as the cards show them.
BONUS_WORDS: Final = {
    **BONUS_NAMES,
    BonusHand.SEVEN_OR_LOWER: tr("7 high or lower, no ace"),
    BonusHand.ACE_KING_QUEEN_SUITED: tr("A-K-Q of one suit"),
}
_HAND_WORDS: Final = {1: tr("wins"), 0: tr("ties"), -1: tr("loses")}
_OUTCOME_WORDS: Final = {
    Outcome.WIN: tr("win 1 to 1"),
    Outcome.PUSH: tr("push"),
    Outcome.LOSS: tr("lose"),
}
#: A card of a rank after its article, as the house way asks for it: "a 7", "an ace".
_A_CARD: Final = {
    Rank.TWO: tr("a 2"),
    Rank.THREE: tr("a 3"),
    Rank.FOUR: tr("a 4"),
    Rank.FIVE: tr("a 5"),
    Rank.SIX: tr("a 6"),
    Rank.SEVEN: tr("a 7"),
    Rank.EIGHT: tr("an 8"),
    Rank.NINE: tr("a 9"),
    Rank.TEN: tr("a 10"),
    Rank.JACK: tr("a jack"),
    Rank.QUEEN: tr("a queen"),
    Rank.KING: tr("a king"),
    Rank.ACE: tr("an ace"),
}


@functools.cache
def three_card_card(spec: GameSpec, *, deck_range: tuple[int, int]) -> RulesCard:
    """The three-card game's card; ``deck_range``: the decks a table may choose."""
    variant = spec.numbers
    assert isinstance(variant, ThreeCardVariant)
    return RulesCard(
        spec.title,
        (
            RulesPage(tr("How a game goes"), _going(spec, deck_range)),
            RulesPage(tr("What beats what"), _ranking(variant)),
            RulesPage(tr("Main bet"), _main_bet(variant), (_main_bet_chart(variant),)),
            RulesPage(tr("Bonuses"), _bonuses(variant), _bonus_charts(variant)),
            RulesPage(tr("The dealer's way"), _house_way(variant)),
        ),
    )


def _going(spec: GameSpec, deck_range: tuple[int, int]) -> Words:
    low, high = deck_range
    intro = tr(
        "{players}, each against the bot, which deals and plays the dealer's hand. The shoe: "
        "{shoe}; a table may use {low} to {high} decks.",
        players=players_words(spec),
        shoe=shoe_words(spec),
        low=low,
        high=high,
    )
    steps = [
        tr(
            "You put up {wagers} wagers, each the ante ({ante}): the **main bet**, the **3-card "
            "bonus** and the **6-card bonus**.",
            wagers=spec.wagers,
            ante=ante_words(spec),
        ),
        tr("You and the dealer each get {cards} cards.", cards=spec.deal),
        tr(
            "Set yours as a **low hand** of 1 card and a **high hand** of 2 before the "
            "deadline: **{build}**, **{typed}** or **{suggest}** in your DM. If you set "
            "nothing, the dealer's way sets them.",
            build=BUILD_HANDS,
            typed=TYPE_HANDS,
            suggest=SUGGEST,
        ),
        tr("The dealer sets its cards the house way (The dealer's way)."),
        tr(
            "Main bet: your low hand meets the dealer's low hand, your high hand its high hand "
            "(Main bet)."
        ),
        tr(
            "The bonuses pay on the cards alone: your three, then your three with the dealer's "
            "three (Bonuses)."
        ),
    ]
    return paragraphs(intro, bullets(*steps))


def _ranking(variant: ThreeCardVariant) -> Words:
    three = dict(variant.three_card_pays)[BonusHand.THREE_OF_A_KIND]
    return bullets(
        tr("**Low hand**: one card; the higher rank wins, ace high."),
        tr(
            "**High hand**: two cards. A pair beats any two unpaired cards; pairs go by rank; "
            "two unpaired cards by the higher card, then the lower."
        ),
        tr("Suits never count: equal ranks tie."),
        tr(
            "**Foul**: your low card must not be higher than both cards of your high hand (a "
            "pair is never beaten by one card). The bot refuses a foul and says why."
        ),
        tr(
            "**Three of a kind** wins at once: {main} to 1 on the main bet, {three} to 1 on the "
            "3-card bonus, at least {six} to 1 on the 6-card bonus.",
            main=variant.trips_main_odds,
            three=three,
            six=variant.trips_six_card_minimum,
        ),
    )


def _main_bet(variant: ThreeCardVariant) -> Words:
    lines = [
        tr(
            "Your low hand against the dealer's, and your high hand against the dealer's: the "
            "chart says what the two results do to your main bet."
        ),
        tr(
            "Three of a kind wins {odds} to 1 whatever the dealer holds.",
            odds=variant.trips_main_odds,
        ),
    ]
    if variant.ties_to_dealer:
        lines.append(tr("At this table ties go to the dealer: a tied hand counts as lost."))
    else:
        lines.append(tr("A table may give ties to the dealer: a tied hand then counts as lost."))
    return bullets(*lines)


def _main_bet_chart(variant: ThreeCardVariant) -> Chart:
    rows = tuple(
        (_HAND_WORDS[low], _HAND_WORDS[high], _OUTCOME_WORDS[outcome])
        for (low, high), (outcome, _) in MAIN_BET.items()
    )
    note: Words = tr("Ties go to the dealer at this table.") if variant.ties_to_dealer else ""
    return Chart(
        tr("Main bet"),
        (tr("Your low hand"), tr("Your high hand"), tr("Main bet")),
        rows,
        note=note,
    )


def _bonuses(variant: ThreeCardVariant) -> Words:
    return bullets(
        tr(
            "**3-card bonus**: your three cards as a poker hand. Three-card straights and "
            "flushes count, A-2-3 is a straight, and a flush holding a pair is a flush."
        ),
        tr(
            "**6-card bonus**: the best five-card hand among your three cards and the dealer's "
            "three, or six of a kind."
        ),
        tr(
            "With three of a kind the 6-card bonus pays at least {odds} to 1.",
            odds=variant.trips_six_card_minimum,
        ),
        tr("Hands not in the charts lose the bonus."),
    )


def _pays(title: Text, heading: Text, table: PayTable) -> Chart:
    ranked = sorted(table, key=lambda pay: pay[1], reverse=True)
    rows: tuple[tuple[Words, ...], ...] = tuple(
        (BONUS_WORDS[hand], tr("{odds} to 1", odds=odds) if odds else tr("push"))
        for hand, odds in ranked
    )
    return Chart(title, (heading, tr("Pays")), (*rows, (tr("Anything else"), tr("loses"))))


def _bonus_charts(variant: ThreeCardVariant) -> tuple[Chart, ...]:
    return (
        _pays(tr("3-card bonus"), tr("Your three cards"), variant.three_card_pays),
        _pays(tr("6-card bonus"), tr("The six cards make"), variant.six_card_pays),
    )


def _house_way(variant: ThreeCardVariant) -> Words:
    gap = variant.keep_pair_gap
    ranks = range(variant.split_pairs_from, Rank.ACE + 1)
    needs: list[Text | str] = [
        tr(
            "{pairs} {card}",
            pairs=RANK_PLURALS[Rank(rank)],
            card=_A_CARD[Rank(rank - gap)],
        )
        for rank in ranks
    ]
    first = variant.split_pairs_from
    needs[0] = tr(
        "{pairs} need {card} or better",
        pairs=RANK_PLURALS[Rank(first)],
        card=_A_CARD[Rank(first - gap)],
    )
    return paragraphs(
        tr(
            "The dealer always sets its three cards this way; the same way sets yours if you "
            "set nothing in time."
        ),
        bullets(
            tr("**Three of a kind**: a pair high, the third card low."),
            tr(
                "**A pair of {pairs} or better** stays together, pair high and the single card "
                "low, if the single card is at least the pair's rank minus {gap}: {needs}. "
                "Otherwise the pair is split: one of its cards low, the other high with the "
                "single card.",
                pairs=RANK_PLURALS[Rank(first)],
                gap=gap,
                needs=comma_list(needs),
            ),
            tr(
                "**A pair of {pairs} or lower** always stays together as the high hand.",
                pairs=RANK_PLURALS[Rank(first - 1)],
            ),
            tr("**No pair**: the middle card low, the highest and the lowest high."),
        ),
    )
