"""The coach: a player's setting of a finished game beside the best setting of the same cards.

Every settled game keeps each seat's holding and the showdown as it was shown (tables/settle.py).
A review reads them back and asks the game's rules object to set the player's cards again
(``GameRules.review``: the solver in the Pyramid games, every legal setting against the dealer's
possible hands in the house games) and to score each way against the hands actually played; what
it finds is the values of tables/review.py.

The work is CPU (the solver, the dealer's hands): ``review_game`` sends it to the worker pool.
``Reviews`` keeps each review it made (a settled game's record never changes, so neither does its
review) and limits how often one player may ask, since each review costs the workers up to half
a second.
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from engine.cards import AnyCard
from engine.errors import GameError
from engine.text import tr, tr_plural
from storage import Storage
from storage.rows import GameStatus
from tables.events import SeatResult, ShowdownSettled
from tables.games import GameSpec, game_named, rules_of, spec_with
from tables.record import GameRecord, record_from_json
from tables.review import Review
from tables.runtime import Offload, Priority
from tables.setting import Setting, Suggestion

#: Reviews one player may ask for within ``REVIEW_WINDOW_S`` seconds (this process's count).
REVIEWS_PER_WINDOW: Final = 5
REVIEW_WINDOW_S: Final = 60.0
#: Reviews kept per process, the oldest forgotten first (a few kilobytes each).
CACHED_REVIEWS: Final = 1_000


async def find_reviewed(
    storage: Storage, guild_id: int, user_id: int, game_id: int | None
) -> tuple[int, GameRecord]:
    """The game to review (the player's latest when none is named) and its record, or the
    sentence saying why there is none."""
    if game_id is None:
        # The player's own latest game, however many games the server played since.
        found = await storage.games.latest_played(guild_id, user_id)
        if found is None or found.result is None:
            raise GameError(tr("You have no finished game here to review yet."))
        game_id = found.id
    else:
        found = await storage.games.get(game_id)
        if found is None or found.guild_id != guild_id:
            raise GameError(tr("There is no game {game} on this server.", game=str(game_id)))
        if found.result is None or found.status is not GameStatus.SETTLED:
            raise GameError(
                tr(
                    "Game {game} has not finished; review it after its showdown.",
                    game=str(game_id),
                )
            )
        if not _played(found.result, user_id):
            raise GameError(tr("You did not play in game {game}.", game=str(game_id)))
    record = found.result
    if "showdown" not in record or "holdings" not in record:
        raise GameError(
            tr(
                "Game {game} finished before the bot kept every holding, so it has no review.",
                game=str(game_id),
            )
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

    def __init__(
        self,
        storage: Storage,
        offload: Offload,
        clock: Callable[[], float],
        prepared: Callable[[int, int], Suggestion | None] | None = None,
    ) -> None:
        self.storage = storage
        self.offload = offload
        self.clock = clock
        #: The suggestions made during the games (``Suggestions.ready``): a review takes the
        #: player's rather than solving the same cards again.
        self.prepared = prepared
        self._made: OrderedDict[tuple[int, int], Review] = OrderedDict()
        self._asked: dict[int, deque[float]] = {}

    async def review(self, guild_id: int, user_id: int, game_id: int | None) -> Review:
        """The player's review of a game of this server (their latest when none is named)."""
        self._admit(user_id)
        game_id, record = await find_reviewed(self.storage, guild_id, user_id, game_id)
        key = (game_id, user_id)
        made = self._made.get(key)
        if made is None:
            solved = None if self.prepared is None else self.prepared(game_id, user_id)
            made = await self.offload(
                review_record, record, game_id, user_id, solved, priority=Priority.SUGGEST
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
                tr(
                    "You asked for {reviews} reviews in the last {window} seconds; {wait}",
                    reviews=len(asked),
                    window=round(REVIEW_WINDOW_S),
                    wait=tr_plural(
                        "try again in {count} second.", "try again in {count} seconds.", wait
                    ),
                )
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
    return spec_with(game_named(record.game).name, record.options)


def review_record(
    record: GameRecord, game_id: int, user_id: int, solved: Suggestion | None = None
) -> Review:
    """The review of one player's part in a settled game's record (CPU work: the solver);
    ``solved``, the suggestion made for the player's cards in the game, spares solving them
    again if it is of the very cards the record holds."""
    event = record.showdown
    spec = spec_of(record)
    seat = next((s for s in event.seats if s.user == user_id), None)
    if seat is None:
        raise GameError(tr("You did not play in game {game}.", game=str(game_id)))
    held = record.holdings[user_id]
    if solved is not None and not _same_cards(solved.setting, held):
        solved = None
    review = rules_of(spec).review(event, seat, held, ante=record.ante, solved=solved)
    return replace(review, seat=None if record.practice else seat)


def _same_cards(setting: Setting, held: Sequence[AnyCard]) -> bool:
    """Whether a setting places (or discards) exactly the cards held."""
    placed = [*(card for hand in setting.hands for card in hand), *setting.discards]
    return Counter(map(str, placed)) == Counter(map(str, held))


def seat_of(result: Mapping[str, Any] | None, game_id: int, user_id: int) -> SeatResult | None:
    """A player's part of a finished game's showdown, from what the games table keeps (None:
    the game kept no showdown, or the player had no seat in it)."""
    if result is None:
        return None
    try:
        record = record_from_json(result, game_id)
    except GameError:
        return None
    return next((seat for seat in record.showdown.seats if seat.user == user_id), None)
