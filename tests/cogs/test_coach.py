"""The coach's words: every figure signed as the pictures sign it."""

from __future__ import annotations

import re

from cogs.coach import review_text
from engine.cards import parse_cards
from render.style import MINUS
from tables.review import Difference, Review, Way


def test_a_reviews_figures_are_signed_with_a_true_minus() -> None:
    low, high = parse_cards("7c"), parse_cards("As Kd")
    yours = Way((high[:1], (low[0], high[1])), ("Ace high", "King-seven"), expected=-2.5)
    best = Way((low, high), ("Seven high", "Ace-king"), at_table=-5, expected=0.5)
    review = Review(
        1,
        "three-card",
        1001,
        yours,
        best,
        differences=(Difference(0, "main bet", "lost", -5, "pushed", 0),),
    )
    text = review_text(review)
    assert f"expected {MINUS}2.5 chips" in text and "expected +0.5 chips" in text
    assert f"against the same hands, {MINUS}5 chips" in text
    assert f"main bet: lost {MINUS}5 against pushed 0" in text
    assert re.search(r"-\d", text) is None  # no ASCII hyphen as a minus anywhere


def test_a_review_between_players_says_its_chips_are_the_points_alone() -> None:
    hands = tuple(parse_cards(text) for text in ("2c 3d 4h", "5s 6s 7d 8h 9c", "Ts Js Qs Ks As"))
    yours = Way(hands, ("Three high", "Straight", "Royal flush"), at_table=-12, expected=-1.0)
    best = Way(hands, ("Three high", "Straight", "Royal flush"), at_table=-12, expected=-1.0)
    text = review_text(Review(7, "standard", 1001, yours, best))
    # Was: "-12 chips" beside a showdown whose chips (ante, stakes, pot) said something else.
    assert (
        f"Yours: expected {MINUS}1.0 chips; against the hands played, {MINUS}12 chips from points"
        " (the ante, stakes and pot aside)."
    ) in text.splitlines()
    casino = review_text(Review(8, "casino", 1001, yours, best))
    assert f"against the hands played, {MINUS}12 chips." in casino
