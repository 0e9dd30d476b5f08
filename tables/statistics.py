"""The players' statistics, kept by listening: each settled game's showdown counts every person's
net on the day it settled (what the leaderboards and ``/history``'s record read)."""

from __future__ import annotations

from storage.statistics import StatisticsRepository
from tables.computers import is_computer
from tables.events import Event, ShowdownSettled
from tables.subscribers import Delivery


class PlayerStatistics:
    """Counts each settled game into the statistics of the people who played it."""

    name = "statistics"
    events: tuple[type[Event], ...] = (ShowdownSettled,)

    def __init__(self, statistics: StatisticsRepository) -> None:
        self.statistics = statistics

    async def handle(self, event: Event, delivery: Delivery) -> None:
        """Count the showdown's people (once per game and player, however often it comes)."""
        assert isinstance(event, ShowdownSettled)
        if not event.moved_server_chips:
            # A practice table moved no chip; a tournament table moved tournament chips,
            # which are not the server's: neither has a result here.
            return
        # A computer plays with the house's chips: it has no statistics (nor a leaderboard place).
        nets = {
            seat.user: event.nets.get(seat.user, 0)
            for seat in event.seats
            if not is_computer(seat.user)
        }
        await self.statistics.count(
            guild_id=delivery.guild_id,
            game_id=event.game_id,
            game=event.game,
            # The showdown is queued by the settlement's own transaction, at its moment.
            settled=delivery.committed,
            nets=nets,
        )
