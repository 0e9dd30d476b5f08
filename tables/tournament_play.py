"""A tournament's hands taken in from its tables (docs/architecture.md, "Tournaments").

`TournamentPlay` is a subscriber of the tables' `ShowdownSettled`: in the transaction that
moves its position past a showdown it takes the hand into the tournament's model (once per
game: the game ids taken are part of the saved state, `Play`), ends the round when every table
has played it, places the knock-outs, and at the end pays the prizes and takes every tournament
chip back, so nothing is settled twice whatever restarts. Dealing the tables is the runner's
(`tables.tournament_runner`), which it tells once its work committed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from storage import Storage
from storage.rows import TournamentRow, TournamentStatus
from tables.events import Event, ShowdownSettled
from tables.subscribers import Delivery
from tables.tournament import RoundEnd, Tournament, prizes

log = logging.getLogger(__name__)

#: Seconds before a step that failed (the store or Discord away) is tried again.
RETRY_SECONDS = 5.0

#: One piece of news for the tournament's channel, as JSON: ``{"kind": ..., ...}`` with kinds
#: "started" (tables), "out" (player, place), "final" (table), "winner" (player, prize) and
#: "cancelled" (players).
News = dict[str, Any]


@dataclass
class Play:
    """A running tournament as its row keeps it: the model, the channel of each of its tables,
    the games taken in (a showdown handled again is passed by) and the news not yet posted."""

    model: Tournament
    channels: dict[int, int] = field(default_factory=dict)
    taken: list[int] = field(default_factory=list)
    news: list[News] = field(default_factory=list)

    def table_at(self, channel_id: int) -> int | None:
        """The number of the tournament's table in this channel, if any."""
        return next((n for n, c in self.channels.items() if c == channel_id), None)

    def to_json(self) -> dict[str, Any]:
        """The state as the tournament's row keeps it."""
        return {
            "model": self.model.to_json(),
            "channels": [[n, c] for n, c in sorted(self.channels.items())],
            "taken": list(self.taken),
            "news": list(self.news),
        }

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> Play:
        """The state `to_json` wrote."""
        return cls(
            Tournament.from_json(state["model"]),
            {n: c for n, c in state["channels"]},
            list(state["taken"]),
            list(state["news"]),
        )


def round_news(end: RoundEnd, play: Play) -> list[News]:
    """What the channel is told of a round's end: who is out, and the final table once the
    tables come down to one (its number, its thread and how many play at it)."""
    news: list[News] = [
        {"kind": "out", "player": k.player, "place": k.place} for k in end.knockouts
    ]
    if end.final_table:
        [(table, seated)] = play.model.tables.items()
        news.append(
            {
                "kind": "final",
                "table": table,
                "channel": play.channels.get(table),
                "players": len(seated),
            }
        )
    return news


def paid(tournament: TournamentRow, model: Tournament) -> dict[int, int]:
    """Each entrant's prize by their place (0 for the places not paid)."""
    pool = tournament.buy_in * len(model.entrants)
    by_place = prizes(pool, len(model.entrants))
    return {
        player: by_place[place - 1] if place <= len(by_place) else 0
        for player, place in model.places.items()
    }


class TournamentPlay:
    """The subscriber: each showdown of a tournament's table taken into the tournament."""

    name = "tournaments"
    events: tuple[type[Event], ...] = (ShowdownSettled,)

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: Told of each tournament a showdown changed, once that committed (the runner).
        self.listener: Callable[[int], None] | None = None
        self._changed: dict[int, int] = {}

    async def handle(self, event: Event, delivery: Delivery) -> None:
        """Take the showdown into its tournament: settle the table's hand, end the round when
        every table has played it, pay the prizes when one player is left."""
        assert isinstance(event, ShowdownSettled)
        if event.scope is None:
            return  # a tournament's table plays its tournament's chips: not this one's
        repository = self.storage.tournaments
        for row in await repository.of_guild(delivery.guild_id, (TournamentStatus.RUNNING,)):
            if row.state is None or Play.from_json(row.state).table_at(delivery.channel_id) is None:
                continue
            # Read again under the row's lock: another table's showdown of the same tournament
            # (another channel's lane, another process) waits until this one commits.
            row = await repository.locked(row.id)
            if row.status is not TournamentStatus.RUNNING or row.state is None:
                return
            play = Play.from_json(row.state)
            number = play.table_at(delivery.channel_id)
            assert number is not None
            self._changed[delivery.position] = row.id
            if event.game_id in play.taken:
                return  # handled already (another process, or before a restart)
            play.taken.append(event.game_id)
            model = play.model
            model.settle(number, event.nets)
            if model.is_round_over:
                play.news += round_news(model.end_round(), play)
            if not model.is_finished:
                await repository.save(row.id, play.to_json(), row.version)
                return
            prize = paid(row, model)
            assert model.winner is not None
            play.news.append(
                {"kind": "winner", "player": model.winner, "prize": prize[model.winner]}
            )
            await repository.finish(row.id, places=model.places, prizes=prize, state=play.to_json())
            return

    def committed(self, event: Event, delivery: Delivery) -> None:
        """Tell the runner which tournament moved on."""
        changed = self._changed.pop(delivery.position, None)
        if changed is not None and self.listener is not None:
            self.listener(changed)
