"""The stores (SQLite, PostgreSQL), their migrations, the repositories and the chip ledger."""

from __future__ import annotations

from dataclasses import dataclass

from storage.achievements import AchievementRepository
from storage.challenge import ChallengeRepository
from storage.chips import ChipRepository
from storage.cluster import DeadlineRepository, ProcessRepository
from storage.commands import CommandSyncRepository
from storage.database import Database
from storage.games import GameRepository, SnapshotRepository
from storage.house import HouseRepository
from storage.leaderboards import LeaderboardRepository
from storage.locales import LocaleRepository
from storage.messages import TableMessageRepository
from storage.outbox import OutboxRepository
from storage.players import PlayerRepository
from storage.prizes import PrizeRepository
from storage.ratings import RatingRepository
from storage.settings import SettingsRepository
from storage.statistics import StatisticsRepository
from storage.tournaments import TournamentRepository


@dataclass(frozen=True, slots=True)
class Storage:
    """Every repository over one database, as the bot and the tables use them."""

    database: Database
    players: PlayerRepository
    chips: ChipRepository
    games: GameRepository
    snapshots: SnapshotRepository
    leaderboards: LeaderboardRepository
    settings: SettingsRepository
    outbox: OutboxRepository
    deadlines: DeadlineRepository
    processes: ProcessRepository
    house: HouseRepository
    statistics: StatisticsRepository
    commands: CommandSyncRepository
    messages: TableMessageRepository
    ratings: RatingRepository
    achievements: AchievementRepository
    challenges: ChallengeRepository
    prizes: PrizeRepository
    tournaments: TournamentRepository
    locales: LocaleRepository

    @classmethod
    def over(cls, database: Database) -> Storage:
        """The repositories, all sharing ``database``."""
        return cls(
            database,
            PlayerRepository(database),
            ChipRepository(database),
            GameRepository(database),
            SnapshotRepository(database),
            LeaderboardRepository(database),
            SettingsRepository(database),
            OutboxRepository(database),
            DeadlineRepository(database),
            ProcessRepository(database),
            HouseRepository(database),
            StatisticsRepository(database),
            CommandSyncRepository(database),
            TableMessageRepository(database),
            RatingRepository(database),
            AchievementRepository(database),
            ChallengeRepository(database),
            PrizeRepository(database),
            TournamentRepository(database),
            LocaleRepository(database),
        )
