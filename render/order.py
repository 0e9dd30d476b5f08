"""The order a hand is drawn in: as it plays, each joker in the place of the card it became."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.cards import AnyCard, Card, sort_cards
from engine.errors import HandError
from engine.evaluate import HandRules, evaluate
from render.cards import Face, PlayedJoker


def in_play_order(cards: Sequence[AnyCard], rules: HandRules) -> tuple[Face, ...]:
    """The hand as it plays: groups first (the trips of a full house), runs from the top down,
    and each joker where the card it became would be, drawn as that card marked wild.

    Cards that are not a hand under ``rules`` (discards) are drawn from the highest down.
    """
    try:
        value = evaluate(cards, rules)
    except HandError:
        return sort_cards(cards)
    # The evaluation's concrete cards are the real ones and what the jokers became, in key
    # order; a card the hand really holds is drawn as itself, the rest were jokers.
    held = Counter(card for card in cards if isinstance(card, Card))
    drawn: list[Face] = []
    for card in value.resolved:
        if held[card] > 0:
            held[card] -= 1
            drawn.append(card)
        else:
            drawn.append(PlayedJoker(card))
    return tuple(drawn)
