"""Exact returns of the three-card game's main bet and 3-card bonus, counted over a full shoe.

Run ``python -m engine.three_card_exact [--decks D] [--ties-to-dealer]`` to print them. The
6-card bonus has too many deals to count this way; the simulator measures it.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from math import comb, prod

from engine.cards import Card, Rank, Suit, standard_deck
from engine.three_card import (
    ThreeCardVariant,
    house_way,
    settle_main_bet,
    settle_three_card_bonus,
)

Distribution = dict[Fraction, Fraction]


def _ways(ranks: Sequence[Rank], copies: int, used: Counter[Rank]) -> int:
    return prod(comb(copies - used[rank], n) for rank, n in Counter(ranks).items())


def main_bet_distribution(variant: ThreeCardVariant | None = None) -> Distribution:
    """Probability of each net result of the main bet, house way against house way.

    The main bet looks at ranks only, so deals are counted as rank multisets: the player's three
    ranks, then the dealer's from what is left of the shoe.
    """
    variant = variant or ThreeCardVariant()
    copies = 4 * variant.decks
    hands = list(itertools.combinations_with_replacement(Rank, 3))
    # Suits never matter to the main bet; distinct suits just keep the cards readable.
    settings = {
        hand: house_way([Card(rank, Suit(i)) for i, rank in enumerate(hand)], variant)
        for hand in hands
    }
    counts: Counter[Fraction] = Counter()
    for player in hands:
        player_ways = _ways(player, copies, Counter())
        held = Counter(player)
        for dealer in hands:
            ways = player_ways * _ways(dealer, copies, held)
            if ways:
                counts[settle_main_bet(settings[player], settings[dealer], variant).net] += ways
    total = sum(counts.values())
    return {net: Fraction(n, total) for net, n in sorted(counts.items())}


def three_card_bonus_distribution(variant: ThreeCardVariant | None = None) -> Distribution:
    """Probability of each net result of the 3-card bonus, over every 3 cards of the shoe."""
    variant = variant or ThreeCardVariant()
    counts: Counter[Fraction] = Counter()
    for cards in itertools.combinations_with_replacement(standard_deck(), 3):
        ways = prod(comb(variant.decks, n) for n in Counter(cards).values())
        if ways:
            counts[settle_three_card_bonus(cards, variant).net] += ways
    total = sum(counts.values())
    return {net: Fraction(n, total) for net, n in sorted(counts.items())}


def expected_value(distribution: Distribution) -> Fraction:
    """The player's expected net per unit staked."""
    return sum((net * p for net, p in distribution.items()), Fraction(0))


def _describe(name: str, distribution: Distribution) -> str:
    ev = expected_value(distribution)
    win = sum(p for net, p in distribution.items() if net > 0)
    lose = sum(p for net, p in distribution.items() if net < 0)
    push = distribution.get(Fraction(0), Fraction(0))
    return (
        f"{name:<18}{float(ev):>+11.4%}{float(win):>10.4%}{float(push):>10.4%}{float(lose):>10.4%}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Print the exact figures for one variant."""
    parser = argparse.ArgumentParser(prog="python -m engine.three_card_exact", description=__doc__)
    parser.add_argument("--decks", type=int, default=6)
    parser.add_argument("--ties-to-dealer", action="store_true")
    args = parser.parse_args(argv)
    variant = ThreeCardVariant(decks=args.decks, ties_to_dealer=args.ties_to_dealer)
    ties = "ties go to the dealer" if variant.ties_to_dealer else "ties push (as written)"
    print(f"three-card game, exact count: {variant.decks} decks, house way vs house way, {ties}")
    print(f"{'wager':<18}{'player EV':>11}{'win':>10}{'push':>10}{'loss':>10}")
    print(_describe("main", main_bet_distribution(variant)))
    print(_describe("three_card_bonus", three_card_bonus_distribution(variant)))


if __name__ == "__main__":
    main()
