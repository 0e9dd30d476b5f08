"""The Casino Version in the simulator: player and bot dealer both set their cards by the solver.

The player always buys the two extra cards (the fold decision at 7 cards is not modelled); the
round reports the player's net points against the dealer and net chips per ante (RULINGS §3).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.cards import card_from_code
from engine.evaluate import evaluate
from engine.scoring import PlayedHands, matchup
from engine.settlement import casino_payout
from engine.solver.model import load_model
from engine.solver.search import search
from engine.solver.train import shoe_codes
from engine.variants import CASINO

#: What a Casino Version round reports, per ante.
CASINO_WAGERS = ("points", "chips")


def _played(name: str, hands: tuple[tuple[int, ...], ...]) -> PlayedHands:
    values = tuple(evaluate([card_from_code(c) for c in hand], CASINO.hand_rules) for hand in hands)
    return PlayedHands(name, values)


def casino_round(options: Any) -> Callable[[random.Random], tuple[float, ...]]:
    """A round of player (solver) against the bot dealer (solver); options take nothing here."""
    model = load_model(CASINO)
    shoe = shoe_codes(CASINO)

    def play(rng: random.Random) -> tuple[float, ...]:
        dealt = rng.sample(shoe, 18)
        player = search(CASINO, model, dealt[:9])
        dealer = search(CASINO, model, dealt[9:])
        assert player is not None and dealer is not None  # 9 cards can always be set
        points = matchup(CASINO, _played("player", player.hands), _played("dealer", dealer.hands))
        return (float(points.total), float(casino_payout(CASINO, points.total, 1)))

    return play


def describe_casino(options: Any) -> str:
    """How the Casino Version is simulated."""
    return (
        "player and bot dealer both set by the solver, the player always buys the 2 cards; "
        "2 decks + 2 jokers reshuffled every round; chips per ante"
    )
