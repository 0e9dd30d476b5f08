"""The coach: a player's setting of a finished game beside the best setting of the same cards.

Every settled game keeps each seat's holding and the showdown as it was shown (tables/settle.py).
A review reads them back and sets the player's cards again:

- in the Pyramid games by the solver (an automatic where it pays more), each setting's expected
  points by the field model, and what each would have scored against the hands actually played;
  a surrender is weighed against what the cards were expected to lose, and a player who
  surrendered sees what playing on was worth;
- in the house games by trying every legal setting against the same few hundred dealer hands
  drawn from what the shoe may still hold (the dealer sets them by its house way), and what each
  would have won against the dealer's hand that was played.

The work is CPU (the solver, the dealer's hands): ``review_game`` sends it to the worker pool.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from engine.arrangement import Arrangement
from engine.cards import AnyCard, card_from_code, standard_deck
from engine.errors import GameError
from engine.evaluate import evaluate
from engine.paigow import DECK_CODES
from engine.players import (
    arrangement_ev,
    expected_chips,
    playing_on,
    surrender_cost,
)
from engine.scoring import PlayedHands, matchup
from engine.settlement import casino_payout
from engine.solver.solve import automatic_ev, solve
from engine.variants import Automatic, Variant
from storage import Storage
from storage.rows import GameStatus
from tables.codec import decode_event
from tables.events import SeatResult, ShowdownSettled, Wager
from tables.games import Family, GameSpec, game_named
from tables.rules import rules_of, wager_chips
from tables.rules.house import HouseRules
from tables.runtime import Offload, Priority
from tables.setting import Hand, Setting

#: The solver's time for the best setting of a review (a person is waiting, privately).
REVIEW_BUDGET_S: Final = 1.0
#: Dealer hands a house game's settings are weighed against (the same hands for every setting).
DEALER_SAMPLES: Final = 600
#: Settled games of a server searched for a player's latest when no game is named.
LATEST_OF: Final = 50


@dataclass(frozen=True, slots=True)
class Way:
    """One way to set the cards, and what it scored and was worth."""

    hands: tuple[Hand, ...]
    labels: tuple[str, ...]
    automatic: str | None = None
    #: Pyramid games: points against the hands actually played, hand by hand.
    per_hand: tuple[int, ...] = ()
    #: House games: each wager against the dealer's hand that was played.
    wagers: tuple[Wager, ...] = ()
    #: Chips against the hands actually played (the points' chips in the Pyramid games, before
    #: any surrender, pot or table stakes).
    at_table: int = 0
    #: Pyramid games: the points against the hands actually played.
    points: int = 0
    #: Chips expected before anyone's hands were seen (against the field, or a random dealer).
    expected: float = 0.0


@dataclass(frozen=True, slots=True)
class Difference:
    """A hand (or a wager) the two ways played differently: what each made of it."""

    #: The hand's position, weakest first (house games: the wager's place).
    position: int
    #: The wager's name in the house games; empty for a hand.
    wager: str
    yours: str
    yours_points: int
    best: str
    best_points: int


@dataclass(frozen=True, slots=True)
class Review:
    """A player's review of one game."""

    game_id: int
    game: str
    user: int
    #: The player's setting; None when they surrendered before setting one.
    yours: Way | None
    #: The best setting of the same cards (of the cards held then, for a surrender).
    best: Way | None
    #: The declaration (0-based) at which the player surrendered, if they did.
    surrendered_at: int | None = None
    #: Chips the surrender cost (or would have cost at the last declaration); None: no surrender.
    surrender_cost: int | None = None
    #: With hindsight of all the cards: surrendering was worth more than the best setting.
    fold_better: bool = False
    #: Chips playing on was expected to be worth when the player surrendered.
    playing_on: float | None = None
    differences: tuple[Difference, ...] = ()
    #: The dealer's (or banker's) hands, in the games against the house.
    dealer: Way | None = None
    #: False when the solver's time ran out before it proved its setting best.
    exact: bool = True

    @property
    def spec(self) -> GameSpec:
        """The game reviewed."""
        return game_named(self.game)

    @property
    def same(self) -> bool:
        """The player set their cards as the best way does."""
        if self.yours is None or self.best is None:
            return False
        return self.yours.automatic == self.best.automatic and _same_hands(
            self.yours.hands, self.best.hands
        )


def _same_hands(a: Sequence[Hand], b: Sequence[Hand]) -> bool:
    def codes(hands: Sequence[Hand]) -> list[list[int]]:
        return [sorted(card.code for card in hand) for hand in hands]

    return codes(a) == codes(b)


async def review_game(
    storage: Storage, offload: Offload, guild_id: int, user_id: int, game_id: int | None
) -> Review:
    """The player's review of a game of this server (their latest when none is named)."""
    if game_id is None:
        for game in await storage.games.recent(guild_id, limit=LATEST_OF):
            if game.result is not None and _played(game.result, user_id):
                game_id, record = game.id, game.result
                break
        else:
            raise GameError("You have no finished game here to review yet.")
    else:
        found = await storage.games.get(game_id)
        if found is None or found.guild_id != guild_id:
            raise GameError(f"There is no game {game_id} on this server.")
        if found.result is None or found.status is not GameStatus.SETTLED:
            raise GameError(f"Game {game_id} has not finished; review it after its showdown.")
        if not _played(found.result, user_id):
            raise GameError(f"You did not play in game {game_id}.")
        record = found.result
    if "showdown" not in record or "holdings" not in record:
        raise GameError(
            f"Game {game_id} finished before the bot kept every holding, so it has no review."
        )
    return await offload(review_record, record, game_id, user_id, priority=Priority.SUGGEST)


def _played(record: dict[str, Any], user_id: int) -> bool:
    return str(user_id) in record.get("holdings", {}) or user_id in record.get("players", ())


def showdown_of(record: dict[str, Any], game_id: int) -> ShowdownSettled:
    """A finished game's showdown as it was shown, from its record."""
    if "showdown" not in record:
        raise GameError(f"Game {game_id} finished before the bot kept its showdown.")
    event = decode_event(record["showdown"])
    if not isinstance(event, ShowdownSettled):
        raise GameError(f"Game {game_id}'s record is damaged.")
    return event


def spec_of(record: dict[str, Any]) -> GameSpec:
    """The game a record was played at, with its table's options."""
    spec = game_named(record["game"])
    options = record.get("options")
    if not options:
        return spec
    return spec.with_options(
        ties_to_dealer=bool(options["ties_to_dealer"]),
        wheel=str(options["wheel"]),
        decks=int(options["decks"]),
    )


def review_record(record: dict[str, Any], game_id: int, user_id: int) -> Review:
    """The review of one player's part in a settled game's record (CPU work: the solver)."""
    event = showdown_of(record, game_id)
    spec = spec_of(record)
    seat = next((s for s in event.seats if s.user == user_id), None)
    if seat is None:
        raise GameError(f"You did not play in game {game_id}.")
    held = tuple(card_from_code(int(code)) for code in record["holdings"][str(user_id)])
    if spec.family is Family.PYRAMID:
        return _pyramid(spec, int(record.get("ante", 0)), event, seat, held)
    return _house(spec, int(record.get("ante", 0)), event, seat, held)


def _values(variant: Variant, hands: Sequence[Hand], automatic: str | None, name: str) -> Any:
    rules = variant.hand_rules
    values = tuple(evaluate(hand, rules) for hand in hands)
    return PlayedHands(name, values, None if automatic is None else Automatic(automatic))


def _pyramid(
    spec: GameSpec, ante: int, event: ShowdownSettled, seat: SeatResult, held: tuple[AnyCard, ...]
) -> Review:
    assert spec.variant is not None
    variant = spec.variant
    if spec.default_ante:
        variant = replace(variant, ante=ante)
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
        worth = playing_on(variant, round_, held, budget_s=REVIEW_BUDGET_S)
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
            surrender_cost=surrender_cost(variant, round_, opponents, ante),
            playing_on=expected_chips(variant, worth, opponents=opponents, ante=ante),
        )
    solution = solve(variant, held, budget_s=REVIEW_BUDGET_S)
    best_automatic = None if solution.automatic is None else solution.automatic.value
    mine_ev = (
        automatic_ev(variant)
        if seat.automatic
        else arrangement_ev(variant, Arrangement(seat.hands, None))
    )
    ways = []
    for hands, automatic, ev in (
        (seat.hands, seat.automatic, mine_ev),
        (solution.arrangement.hands, best_automatic, solution.ev),
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
    if variant.declarations:
        last = len(variant.declarations) - 1
        cost = surrender_cost(variant, last, opponents, ante)
        fold_better = best.expected < -cost
    dealer = None
    if casino and event.dealer_hands:
        dealer = Way(event.dealer_hands, event.dealer_labels, at_table=-yours.at_table)
    return Review(
        event.game_id,
        spec.name,
        seat.user,
        yours,
        best,
        surrender_cost=cost,
        fold_better=fold_better,
        differences=_hand_differences(yours, best),
        dealer=dealer,
        exact=solution.exact,
    )


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


def _house(
    spec: GameSpec, ante: int, event: ShowdownSettled, seat: SeatResult, held: tuple[AnyCard, ...]
) -> Review:
    rules = rules_of(spec)
    assert isinstance(rules, HouseRules)
    dealer = Setting(event.dealer_hands)
    settings = _house_settings(rules, held)
    dealers = [rules.house_way(hand, banker=True) for hand in _dealer_hands(spec, event, held)]

    def worth(setting: Setting) -> float:
        return statistics.fmean(
            sum(wager_chips(payout, ante) for _, payout in rules.wagers(setting, other))
            for other in dealers
        )

    def way(setting: Setting) -> Way:
        wagers = tuple(
            Wager(name, wager_chips(payout, ante), payout.reason)
            for name, payout in rules.wagers(setting, dealer)
        )
        return Way(
            setting.hands,
            rules.labels(setting.hands),
            wagers=wagers,
            at_table=sum(w.chips for w in wagers),
            expected=worth(setting),
        )

    mine = Setting(seat.hands) if seat.hands else None
    house_way = rules.house_way(held)
    # The best by expectation; a tie goes to the player's own setting, then to the house way.
    order = [s for s in (mine, house_way) if s is not None] + settings
    best_setting = max(order, key=worth)
    yours = None if mine is None else way(mine)
    best = way(best_setting)
    differences: tuple[Difference, ...] = ()
    if yours is not None:
        differences = tuple(
            Difference(i, a.name, a.reason, a.chips, b.reason, b.chips)
            for i, (a, b) in enumerate(zip(yours.wagers, best.wagers, strict=True))
            if a.chips != b.chips
        )
    return Review(
        event.game_id,
        spec.name,
        seat.user,
        yours,
        best,
        surrendered_at=seat.surrendered_at,
        differences=differences,
        dealer=Way(
            event.dealer_hands,
            event.dealer_labels,
            at_table=0 if yours is None else -yours.at_table,
        ),
    )


def _house_settings(rules: HouseRules, held: Sequence[AnyCard]) -> list[Setting]:
    """Every legal low/high setting of a house game's cards."""
    low_size = rules.LOW.sizes[0]
    found = []
    for low in itertools.combinations(range(len(held)), low_size):
        setting = Setting(
            (
                tuple(held[i] for i in low),
                tuple(card for i, card in enumerate(held) if i not in low),
            )
        )
        try:
            rules.check(held, setting)
        except GameError:
            continue  # a foul
        found.append(setting)
    return found


def _dealer_hands(
    spec: GameSpec, event: ShowdownSettled, held: Sequence[AnyCard]
) -> list[list[AnyCard]]:
    """Dealer hands the shoe could hold, as far as the player knew (their own cards out)."""
    if spec.family is Family.THREE_CARD:
        codes = [card.code for card in standard_deck()] * spec.three_card_table.decks
    else:
        codes = list(DECK_CODES)
    for card in held:
        codes.remove(card.code)
    rng = random.Random(f"review:{event.game_id}:{[card.code for card in held]}")
    size = spec.dealer_cards
    return [
        [card_from_code(code) for code in rng.sample(codes, size)] for _ in range(DEALER_SAMPLES)
    ]
