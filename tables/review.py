"""The coach: a player's setting of a finished game beside the best setting of the same cards.

Every settled game keeps each seat's holding and the showdown as it was shown (tables/settle.py).
A review reads them back and asks the game's rules object to set the player's cards again
(``GameRules.review``: the solver in the Pyramid games, every legal setting against the dealer's
possible hands in the house games) and to score each way against the hands actually played.

The work is CPU (the solver, the dealer's hands): ``review_game`` sends it to the worker pool.
``Reviews`` keeps each review it made (a settled game's record never changes, so neither does its
review) and limits how often one player may ask, since each review costs the workers up to half
a second.
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import GameError
from engine.stakes import SurrenderCost
from storage import Storage
from storage.rows import GameStatus
from tables.events import ShowdownSettled, Wager
from tables.games import GameSpec, game_named
from tables.record import GameRecord, record_from_json
from tables.rules import rules_of
from tables.runtime import Offload, Priority
from tables.setting import Hand

#: Reviews one player may ask for within ``REVIEW_WINDOW_S`` seconds (this process's count).
REVIEWS_PER_WINDOW: Final = 5
REVIEW_WINDOW_S: Final = 60.0
#: Reviews kept per process, the oldest forgotten first (a few kilobytes each).
CACHED_REVIEWS: Final = 1_000


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
    #: What the surrender moved (or would have moved at the last declaration, the others
    #: declaring as they did), as the settlement moves it; None: the game has no surrender.
    surrender: SurrenderCost | None = None
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
    def surrender_cost(self) -> int | None:
        """Chips the surrender moved beyond those the player had staked already."""
        return None if self.surrender is None else self.surrender.paid

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


async def find_reviewed(
    storage: Storage, guild_id: int, user_id: int, game_id: int | None
) -> tuple[int, GameRecord]:
    """The game to review (the player's latest when none is named) and its record, or the
    sentence saying why there is none."""
    if game_id is None:
        # The player's own latest game, however many games the server played since.
        found = await storage.games.latest_played(guild_id, user_id)
        if found is None or found.result is None:
            raise GameError("You have no finished game here to review yet.")
        game_id = found.id
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
    return game_id, record_from_json(record, game_id)


async def review_game(
    storage: Storage, offload: Offload, guild_id: int, user_id: int, game_id: int | None
) -> Review:
    """The player's review of a game of this server (their latest when none is named)."""
    game_id, record = await find_reviewed(storage, guild_id, user_id, game_id)
    return await offload(review_record, record, game_id, user_id, priority=Priority.SUGGEST)


class ReviewLimitError(GameError):
    """A player asked for more reviews than the window allows; the sentence says when to ask."""


class Reviews:
    """Reviews as players ask for them: each made once per game and player (in this process,
    the oldest forgotten beyond ``CACHED_REVIEWS``), and at most ``REVIEWS_PER_WINDOW`` asked by
    one player in ``REVIEW_WINDOW_S`` seconds."""

    def __init__(self, storage: Storage, offload: Offload, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.offload = offload
        self.clock = clock
        self._made: OrderedDict[tuple[int, int], Review] = OrderedDict()
        self._asked: dict[int, deque[float]] = {}

    async def review(self, guild_id: int, user_id: int, game_id: int | None) -> Review:
        """The player's review of a game of this server (their latest when none is named)."""
        self._admit(user_id)
        game_id, record = await find_reviewed(self.storage, guild_id, user_id, game_id)
        key = (game_id, user_id)
        made = self._made.get(key)
        if made is None:
            made = await self.offload(
                review_record, record, game_id, user_id, priority=Priority.SUGGEST
            )
            self._made[key] = made
            while len(self._made) > CACHED_REVIEWS:
                self._made.popitem(last=False)
        self._made.move_to_end(key)
        return made

    def _admit(self, user_id: int) -> None:
        """Count the player's ask, or refuse it with when to ask again."""
        now = self.clock()
        asked = self._asked.setdefault(user_id, deque())
        while asked and asked[0] <= now - REVIEW_WINDOW_S:
            asked.popleft()
        if len(asked) >= REVIEWS_PER_WINDOW:
            wait = max(1, math.ceil(asked[0] + REVIEW_WINDOW_S - now))
            raise ReviewLimitError(
                f"You asked for {len(asked)} reviews in the last {REVIEW_WINDOW_S:.0f} seconds; "
                f"try again in {wait} second{'s' if wait != 1 else ''}."
            )
        asked.append(now)
        # Players who stopped asking are forgotten as others ask (the map stays small).
        if len(self._asked) > CACHED_REVIEWS:
            stale = [u for u, times in self._asked.items() if times[-1] <= now - REVIEW_WINDOW_S]
            for user in stale:
                del self._asked[user]


def _played(record: dict[str, Any], user_id: int) -> bool:
    return str(user_id) in record.get("holdings", {}) or user_id in record.get("players", ())


def showdown_of(result: Mapping[str, Any], game_id: int) -> ShowdownSettled:
    """A finished game's showdown as it was shown, from what the games table keeps."""
    return record_from_json(result, game_id).showdown


def spec_of(record: GameRecord) -> GameSpec:
    """The game a record was played at, with its table's options."""
    spec = game_named(record.game)
    options = record.options
    if options is None:
        return spec
    return spec.with_options(
        ties_to_dealer=options.ties_to_dealer, wheel=options.wheel, decks=options.decks
    )


def review_record(record: GameRecord, game_id: int, user_id: int) -> Review:
    """The review of one player's part in a settled game's record (CPU work: the solver)."""
    event = record.showdown
    spec = spec_of(record)
    seat = next((s for s in event.seats if s.user == user_id), None)
    if seat is None:
        raise GameError(f"You did not play in game {game_id}.")
    return rules_of(spec).review(event, seat, record.holdings[user_id], ante=record.ante)
