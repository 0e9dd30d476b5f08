"""The daily challenge's deal and scoring: one deal per day and game, the same in every process,
and an arrangement's points the sum of its matchups."""

from __future__ import annotations

import subprocess
import sys

from engine.cards import AnyCard
from engine.challenge import challenge_seed, deal_challenge, score_against
from engine.evaluate import evaluate
from engine.scoring import PlayedHands, matchup
from engine.solver.solve import solve
from engine.variants import CASINO, SHOWDOWN, STANDARD


def test_the_seed_is_a_stable_hash_of_the_day_and_the_game() -> None:
    # Another interpreter (another hash seed for str) deals from the same seed.
    code = "from engine.challenge import challenge_seed; print(challenge_seed('2026-11-26', 'x'))"
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert int(other) == challenge_seed("2026-11-26", "x")
    assert challenge_seed("2026-11-26", "x") != challenge_seed("2026-11-27", "x")


def test_a_deal_depends_on_the_day_and_the_game_only() -> None:
    first = deal_challenge(SHOWDOWN, "2026-11-26", "showdown")
    assert first == deal_challenge(SHOWDOWN, "2026-11-26", "showdown")
    assert first != deal_challenge(SHOWDOWN, "2026-11-27", "showdown")
    assert len(first.held) == SHOWDOWN.max_held == 25
    assert len(first.others) == 3 and all(len(o) == 25 for o in first.others)


def test_against_a_dealer_there_is_one_other_seat() -> None:
    dealt = deal_challenge(CASINO, "2026-11-26", "casino")
    assert len(dealt.held) == 9 and len(dealt.others) == 1


def test_the_points_are_the_sum_of_the_matchups() -> None:
    dealt = deal_challenge(STANDARD, "2026-11-26", "standard")
    rules = STANDARD.hand_rules

    def played(name: str, cards: tuple[AnyCard, ...]) -> PlayedHands:
        arrangement = solve(STANDARD, cards, budget_s=0.05).arrangement
        return PlayedHands(name, tuple(evaluate(hand, rules) for hand in arrangement.hands))

    mine = played("me", dealt.held)
    others = [played(str(i), cards) for i, cards in enumerate(dealt.others)]
    score = score_against(STANDARD, mine, others)
    assert score.points == sum(matchup(STANDARD, mine, o).total for o in others)
    assert sum(score.per_hand) + score.automatic == score.points
