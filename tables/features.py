"""The features that listen to the tables: each a subscriber of their typed events
(``tables.subscribers``). A new one (a daily challenge, a rating, an achievement, a tournament)
is a module of its own and a line here; the tables themselves do not change."""

from __future__ import annotations

from storage import Storage
from tables.achievements import Achievements
from tables.activity import ActivityLog
from tables.ratings import PlayerRatings
from tables.statistics import PlayerStatistics
from tables.subscribers import Subscriber
from tables.tournament_play import TournamentPlay


def listening_features(storage: Storage) -> tuple[Subscriber, ...]:
    """Every subscriber the bot runs beside its publisher."""
    return (
        PlayerStatistics(storage.statistics),
        PlayerRatings(storage.ratings),
        ActivityLog(),
        Achievements(storage.achievements, storage.settings),
        TournamentPlay(storage),
    )
