"""Pai Gow poker's rules card (seed 003, RULINGS §6), written from its variant: the deck and the
bug, the wheel of the table, the bet and its commission, and the banker's house way in short."""

from __future__ import annotations

import functools

from engine.evaluate import WheelMode, of_a_kind_ladder
from engine.paigow import PaiGowVariant
from engine.text import Text, tr
from tables.rules import Chart, RulesCard, RulesPage
from tables.rules.pages import (
    BUILD_HANDS,
    SUGGEST,
    TYPE_HANDS,
    Words,
    ante_words,
    bullets,
    comma_list,
    hand_name,
    ladder_names,
    paragraphs,
    players_words,
    shoe_words,
)
from tables.spec import GameSpec


@functools.cache
def pai_gow_card(spec: GameSpec) -> RulesCard:
    """Pai Gow's card: how it goes, what beats what, the bet, the banker's way."""
    variant = spec.numbers
    assert isinstance(variant, PaiGowVariant)
    return RulesCard(
        spec.title,
        (
            RulesPage(tr("How a game goes"), _going(spec)),
            RulesPage(tr("What beats what"), _ranking(variant)),
            RulesPage(tr("Payouts"), _payouts(variant), (_payouts_chart(variant),)),
            RulesPage(tr("The banker's way"), _house_way()),
        ),
    )


def _commission(variant: PaiGowVariant) -> str:
    return f"{float(variant.commission * 100):g}%"


def _going(spec: GameSpec) -> Words:
    intro = tr(
        "{players}, each against the bot as banker. The deck: {shoe}.",
        players=players_words(spec),
        shoe=shoe_words(spec),
    )
    return paragraphs(
        intro,
        bullets(
            tr(
                "You put up one bet, the ante ({ante}), and get {cards} cards; so does the banker.",
                ante=ante_words(spec),
                cards=spec.deal,
            ),
            tr(
                "Set them as a **high hand** of 5 cards and a **low hand** of 2 before the "
                "deadline: **{build}**, **{typed}** or **{suggest}** in your DM. If you set "
                "nothing, the banker's way sets them.",
                build=BUILD_HANDS,
                typed=TYPE_HANDS,
                suggest=SUGGEST,
            ),
            tr("Your high hand must beat your low hand (What beats what)."),
            tr(
                "Each of your hands meets the banker's: beat both and you win, beat one and it "
                "is a push (Payouts)."
            ),
            tr("The banker sets its cards the house way (The banker's way)."),
        ),
    )


def _ranking(variant: PaiGowVariant) -> Words:
    five = hand_name(of_a_kind_ladder(5))
    ladder = comma_list([name for name in ladder_names(5, three_card_runs=False) if name != five])
    if variant.wheel is WheelMode.SECOND:
        wheel = tr(
            "A-2-3-4-5 is the second-best straight, below A-K-Q-J-10 (Nevada). A table may "
            "choose California instead, where it is the lowest."
        )
    else:
        wheel = tr(
            "At this table A-2-3-4-5 is the lowest straight (California); elsewhere it may be "
            "the second-best (Nevada)."
        )
    return bullets(
        tr(
            "**High hand**: poker hands, lowest first: {ladder}. **Five aces** (four aces and "
            "the joker) beats them all.",
            ladder=ladder,
        ),
        tr(
            "**Low hand**: a pair beats any two unpaired cards; pairs go by rank; two unpaired "
            "cards by the higher card, then the lower."
        ),
        tr(
            "The joker is the **bug**: in the high hand it completes a straight, a flush or a "
            "straight flush if it can, else it is an ace. In the low hand it is an ace."
        ),
        tr("Suits never count: equal ranks tie, and ties go to the banker."),
        wheel,
        tr(
            "Your high hand must beat your low hand; a 5-card hand with a pair beats a 2-card "
            "pair of the same rank. The bot refuses a setting that fouls and says why."
        ),
    )


def _payouts(variant: PaiGowVariant) -> Words:
    return bullets(
        tr(
            "Beat both of the banker's hands: you win even money, less a {commission} "
            "commission (rounded down to whole chips).",
            commission=_commission(variant),
        ),
        tr("Beat one of them: a push, your bet comes back."),
        tr("Beat neither: you lose your bet."),
        tr("A tie is no win: ties go to the banker, hand by hand."),
    )


def _payouts_chart(variant: PaiGowVariant) -> Chart:
    won, not_won = tr("beats it"), tr("ties or loses")
    rows: tuple[tuple[Text, ...], ...] = (
        (won, won, tr("win 1 to 1, less {commission}", commission=_commission(variant))),
        (won, not_won, tr("push")),
        (not_won, won, tr("push")),
        (not_won, not_won, tr("lose")),
    )
    return Chart(
        tr("Your bet against the banker"),
        (tr("Your high hand"), tr("Your low hand"), tr("Your bet")),
        rows,
    )


def _house_way() -> Words:
    return paragraphs(
        tr(
            "The banker sets its seven cards by a fixed house way; the same way sets yours if "
            "you set nothing in time. In short (the joker counts as an ace in pairs):"
        ),
        bullets(
            tr("**No pair**: the highest card high, the next two low."),
            tr("**One pair**: the pair high, the next two cards low."),
            tr(
                "**Two pairs**: aces with any pair, and kings with sevens or better, are split "
                "(the lower pair low). Two pairs of sixes or lower stay together, the two best "
                "single cards low. Others are split unless an ace can go low; with one they "
                "mostly stay together."
            ),
            tr("**Three pairs**: the highest pair low."),
            tr(
                "**Three of a kind**: stays together, but three aces split (a pair high, an ace "
                "low), and three kings too unless an ace or a queen can go low."
            ),
            tr(
                "**Straights and flushes**: played high, the one that leaves the best low hand; "
                "a pair is played instead when it leaves a much better low hand."
            ),
            tr(
                "**Full house**: split, the pair low, unless the pair is small and an ace with "
                "a face card can go low."
            ),
            tr(
                "**Four of a kind**: kept or split by its rank and the cards beside it; fives "
                "and lower always stay together."
            ),
        ),
    )
