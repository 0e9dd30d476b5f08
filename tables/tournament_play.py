"""A tournament's hands taken in from its tables (docs/architecture.md, "Tournaments").

`TournamentPlay` is a subscriber of the tables' `ShowdownSettled` and `TableAbandoned`: in the
transaction that moves its position past a showdown it takes the hand into the tournament's
model (once per game: the game ids taken are part of the saved state, `Play`), ends the round
when every table has played it, places the knock-outs, and at the end pays the prizes and takes
every tournament chip back, so nothing is settled twice whatever restarts. A table whose channel
went away (abandoned: its hand under way refunded) is noted as lost, to play on in a new place.
Opening places and dealing the tables is the runner's (`tables.tournament_runner`), which it
tells once its work committed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from storage import Storage
from storage.rows import TournamentRow, TournamentStatus
from tables.events import Event, ShowdownSettled, TableAbandoned
from tables.subscribers import Delivery
from tables.tournament import RoundEnd, Tournament, prizes

log = logging.getLogger(__name__)

#: Seconds before a step that failed (the store or Discord away) is tried again.
RETRY_SECONDS = 5.0

#: One piece of news for the tournament's channel, as JSON: ``{"kind": ..., ...}`` with kinds
#: "started" (tables), "out" (player, place), "final" (table), "moved" (table, channel: its new
#: place, its first gone), "winner" (player, prize) and "cancelled" (players).
News = dict[str, Any]


@dataclass
class Play:
    """A running tournament as its row keeps it: the model, the channel of each of its tables,
    the games taken in (a showdown handled again is passed by), the news not yet posted, the
    tournament's hands each table had played before its channel opened, the tables opened in
    their channel, and the tables whose channel went away, not yet told where they play on."""

    model: Tournament
    channels: dict[int, int] = field(default_factory=dict)
    taken: list[int] = field(default_factory=list)
    news: list[News] = field(default_factory=list)
    since: dict[int, int] = field(default_factory=dict)
    tabled: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)

    def table_at(self, channel_id: int) -> int | None:
        """The number of the tournament's table in this channel, if any."""
        return next((n for n, c in self.channels.items() if c == channel_id), None)

    def place(self, number: int, channel_id: int) -> None:
        """Table ``number`` plays in this channel from now on; a table that lost its channel
        is said to have moved."""
        self.channels[number] = channel_id
        if number in self.tabled:
            self.tabled.remove(number)
        # A table that played the round's hand before it moved plays the next one first there.
        self.since[number] = self.model.hands + (number in self.model.settled)
        if number in self.lost:
            self.lost.remove(number)
            self.news.append({"kind": "moved", "table": number, "channel": channel_id})

    def lose(self, channel_id: int) -> int | None:
        """The channel went away (its table abandoned); the number of the table that was there,
        which, if the tournament still needs it, is to play on in a new place."""
        number = self.table_at(channel_id)
        if number is None:
            return None
        del self.channels[number]
        if number in self.tabled:
            self.tabled.remove(number)  # never opened there again: the channel is gone
        if number in self.model.tables and number not in self.lost:
            self.lost.append(number)
        return number

    def games_before(self, number: int) -> int:
        """The games table ``number`` has played in its channel before the round's hand (what
        `TableManager.deal` counts): its channel's count starts again when it moves."""
        return self.model.hands - self.since.get(number, 0)

    def to_json(self) -> dict[str, Any]:
        """The state as the tournament's row keeps it."""
        return {
            "model": self.model.to_json(),
            "channels": [[n, c] for n, c in sorted(self.channels.items())],
            "taken": list(self.taken),
            "news": list(self.news),
            "since": [[n, h] for n, h in sorted(self.since.items())],
            "tabled": list(self.tabled),
            "lost": list(self.lost),
        }

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> Play:
        """The state `to_json` wrote (one saved before tables moved: none did, each opened at
        the start)."""
        return cls(
            Tournament.from_json(state["model"]),
            {n: c for n, c in state["channels"]},
            list(state["taken"]),
            list(state["news"]),
            {n: h for n, h in state.get("since", [])},
            list(state.get("tabled", [])),
            list(state.get("lost", [])),
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
    """The subscriber: each showdown of a tournament's table taken into the tournament, and
    each table abandoned noted to play on elsewhere."""

    name = "tournaments"
    events: tuple[type[Event], ...] = (ShowdownSettled, TableAbandoned)

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: Told of each tournament a showdown changed, once that committed (the runner).
        self.listener: Callable[[int], None] | None = None
        self._changed: dict[int, int] = {}

    async def handle(self, event: Event, delivery: Delivery) -> None:
        """Take the event into the tournament whose table the channel is: a showdown settles
        the table's hand (the round ended when every table has played it, the prizes paid when
        one player is left); an abandonment notes the table to play on in a new place."""
        if isinstance(event, ShowdownSettled) and event.scope is None:
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
            if number is None:
                return  # the channel's abandonment was taken in meanwhile (another process)
            self._changed[delivery.position] = row.id
            if isinstance(event, TableAbandoned):
                # Its hand under way was refunded into the tournament's chips: void, to be
                # dealt again where the table plays on.
                play.lose(delivery.channel_id)
                await repository.save(row.id, play.to_json(), row.version)
                return
            assert isinstance(event, ShowdownSettled)
            await self._settle(row, play, number, event)
            return

    async def _settle(
        self, row: TournamentRow, play: Play, number: int, event: ShowdownSettled
    ) -> None:
        """Take one table's showdown into the model, once per game."""
        repository = self.storage.tournaments
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
        play.news.append({"kind": "winner", "player": model.winner, "prize": prize[model.winner]})
        await repository.finish(row.id, places=model.places, prizes=prize, state=play.to_json())

    def committed(self, event: Event, delivery: Delivery) -> None:
        """Tell the runner which tournament moved on."""
        changed = self._changed.pop(delivery.position, None)
        if changed is not None and self.listener is not None:
            self.listener(changed)
