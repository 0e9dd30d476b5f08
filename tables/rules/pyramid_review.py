"""The coach's review of a Pyramid game: the player's cards set again by the solver.

Each setting's expected chips come from the field model, and what it scored from the hands
actually played (the dealer's in the Casino Version); a surrender is weighed against what the
cards were expected to lose, and a player who surrendered sees what playing on was worth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine.arrangement import Arrangement
from engine.cards import AnyCard
from engine.declaring import outlook
from engine.evaluate import evaluate
from engine.players import arrangement_ev, expected_chips
from engine.scoring import PlayedHands, matchup
from engine.settlement import casino_payout
from engine.solver.solve import automatic_ev, solve
from engine.stakes import SurrenderCost, surrender_cost
from engine.variants import Automatic, Variant
from tables.events import SeatResult, ShowdownSettled
from tables.review import Difference, Review, Way
from tables.setting import Hand, Suggestion
from tables.spec import GameSpec

#: The solver's time for the best setting of a review (a person is waiting, privately).
REVIEW_BUDGET_S: Final = 1.0


def _values(variant: Variant, hands: Sequence[Hand], automatic: str | None, name: str) -> Any:
    rules = variant.hand_rules
    values = tuple(evaluate(hand, rules) for hand in hands)
    return PlayedHands(name, values, None if automatic is None else Automatic(automatic))


def review_pyramid(
    spec: GameSpec,
    ante: int,
    event: ShowdownSettled,
    seat: SeatResult,
    held: tuple[AnyCard, ...],
    *,
    solved: Suggestion | None = None,
) -> Review:
    """A Pyramid player's setting beside the solver's, scored against the hands played;
    ``solved``, the suggestion made for the same cards during the game, saves solving again."""
    variant = spec.variant_at(ante)
    rules = variant.hand_rules
    casino = variant.casino is not None
    if casino:
        dealt = event.dealer_hands
        against = [_values(variant, dealt, None, "dealer")] if dealt else []
    else:
        against = [
            _values(variant, s.hands, s.automatic, str(s.user))
            for s in event.seats
            if s.user != seat.user and s.hands and s.surrendered_at is None
        ]
    opponents = 1 if casino else max(1, len(event.seats) - 1)
    if seat.surrendered_at is not None:
        # What the cards held then were worth playing on, against what the surrender cost.
        round_ = seat.surrendered_at
        worth = outlook(
            variant,
            round_,
            held,
            opponents=opponents,
            ante=ante,
            seated=len(event.seats),
            budget_s=REVIEW_BUDGET_S,
        )
        best_way = None
        if len(held) >= variant.min_used:
            solution = solve(variant, held, budget_s=REVIEW_BUDGET_S)
            best_way = Way(
                solution.arrangement.hands,
                tuple(evaluate(hand, rules).label for hand in solution.arrangement.hands),
                None if solution.automatic is None else solution.automatic.value,
                expected=expected_chips(variant, solution.ev, opponents=opponents, ante=ante),
            )
        return Review(
            event.game_id,
            spec.name,
            seat.user,
            None,
            best_way,
            surrendered_at=round_,
            surrender=surrender_of(variant, event.seats, seat.user, round_),
            playing_on=worth.play,
        )
    if solved is not None and solved.ev is not None:
        best_hands: Sequence[Hand] = solved.setting.hands
        best_automatic, best_ev, exact = solved.setting.automatic, solved.ev, solved.exact
    else:
        solution = solve(variant, held, budget_s=REVIEW_BUDGET_S)
        best_hands = solution.arrangement.hands
        best_automatic = None if solution.automatic is None else solution.automatic.value
        best_ev, exact = solution.ev, solution.exact
    mine_ev = (
        automatic_ev(variant)
        if seat.automatic
        else arrangement_ev(variant, Arrangement(seat.hands, None))
    )
    ways = []
    for hands, automatic, ev in (
        (seat.hands, seat.automatic, mine_ev),
        (best_hands, best_automatic, best_ev),
    ):
        played = _values(variant, hands, automatic, "me")
        met = [matchup(variant, played, other) for other in against]
        per_hand = tuple(sum(points) for points in zip(*(m.per_hand for m in met), strict=True))
        ways.append(
            Way(
                tuple(hands),
                tuple(value.label for value in played.hands),
                automatic,
                per_hand=per_hand or (0,) * len(hands),
                at_table=_chips_of(variant, sum(m.total for m in met), ante),
                points=sum(m.total for m in met),
                expected=expected_chips(variant, ev, opponents=opponents, ante=ante),
            )
        )
    yours, best = ways
    if yours.expected > best.expected:
        # The player's setting is worth more by the model than the solver's within its budget.
        best = yours
    cost, fold_better = None, False
    last = last_declaration(variant, event.seats, seat.user)
    if last is not None:
        # Surrendering at the last declaration the player made, the others declaring as they did.
        cost = surrender_of(variant, event.seats, seat.user, last)
        fold_better = best.expected < -cost.paid
    dealer = None
    if casino and event.dealer_hands:
        labels = tuple(str(label) for label in event.dealer_labels)
        dealer = Way(event.dealer_hands, labels, at_table=-yours.at_table)
    return Review(
        event.game_id,
        spec.name,
        seat.user,
        yours,
        best,
        surrender=cost,
        fold_better=fold_better,
        differences=_hand_differences(yours, best),
        dealer=dealer,
        exact=exact,
    )


def last_declaration(variant: Variant, seats: Sequence[SeatResult], user: int) -> int | None:
    """The last declaration a player who played on made: one that came with another player
    still in (when every other player surrendered at a declaration, none came after it)."""
    if variant.against_dealer:
        # Each player declares against the dealer, whoever else surrendered.
        return len(variant.declarations) - 1 if variant.declarations else None
    others = [s for s in seats if s.user != user]
    for round_ in reversed(range(len(variant.declarations))):
        if any(s.surrendered_at is None or s.surrendered_at >= round_ for s in others):
            return round_
    return None


def surrender_of(
    variant: Variant, seats: Sequence[SeatResult], user: int, round_: int
) -> SurrenderCost:
    """What surrendering at declaration ``round_`` moved (or would have moved) for ``user``,
    the other players declaring as they did: the settlement's own steps (engine/stakes.py)."""
    others = [s for s in seats if s.user != user]
    still_in = [s for s in others if s.surrendered_at is None or s.surrendered_at >= round_]
    staying = [s for s in still_in if s.surrendered_at is None or s.surrendered_at > round_]
    return surrender_cost(variant, round_, players=len(still_in) + 1, staying=len(staying))


def _chips_of(variant: Variant, points: int, ante: int) -> int:
    """What points against the table come to in chips (against the dealer, its payout)."""
    if variant.casino is not None:
        return casino_payout(variant, points, ante)
    return points * variant.chips_per_point


def _hand_differences(yours: Way, best: Way) -> tuple[Difference, ...]:
    if yours.automatic or best.automatic or len(yours.hands) != len(best.hands):
        return ()
    return tuple(
        Difference(i, "", yours.labels[i], yours.per_hand[i], best.labels[i], best.per_hand[i])
        for i in range(len(yours.hands))
        if yours.per_hand[i] != best.per_hand[i]
        or sorted(c.code for c in yours.hands[i]) != sorted(c.code for c in best.hands[i])
    )
