"""Achievements, earned by listening: each is defined once below as data (its key, name, what
earns it in words, and the rule that reads one event for one player), and the subscriber
earns them from the settled games' showdowns and the daily challenge's plays, each once per
player and server, and answers the new ones as `AchievementEarned` events for the channel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.players import Level
from engine.text import Text, tr
from engine.variants import Automatic
from storage.achievements import AchievementRepository, Tally
from storage.settings import SettingsRepository
from tables.computers import is_computer
from tables.events import (
    AchievementEarned,
    ChallengePlayed,
    Event,
    SeatResult,
    ShowdownSettled,
)
from tables.games import GAMES
from tables.subscribers import Delivery


@dataclass(frozen=True, slots=True)
class Facts:
    """What a rule reads of one player at one event: their seat at a settled game (with the
    whole showdown) or their play of a daily challenge, and their games so far, this one
    counted."""

    settled: ShowdownSettled | None = None
    seat: SeatResult | None = None
    challenge: ChallengePlayed | None = None
    tally: Tally = field(default_factory=Tally)


Rule = Callable[[Facts], bool]


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: its key (kept in the database: never change one), its name, what
    earns it in a player's words, the event that may earn it and the rule that decides."""

    key: str
    #: Its name and what earns it, read in each player's language.
    name: Text
    description: Text
    event: type[Event]
    rule: Rule


def _won(facts: Facts) -> bool:
    """The game left the player chips up (as the leaderboards count a win)."""
    return facts.seat is not None and facts.seat.net > 0


def _automatic(facts: Facts) -> str | None:
    return None if facts.seat is None else facts.seat.automatic


def _swept(facts: Facts) -> bool:
    """Ahead on every one of six hands (only a six-hand game has six), against the table."""
    seat = facts.seat
    return seat is not None and len(seat.per_hand) == 6 and all(p > 0 for p in seat.per_hand)


def _beat_strong_computer(facts: Facts) -> bool:
    """The player's points against a strong computer's at the table came out above zero."""
    settled, seat = facts.settled, facts.seat
    if settled is None or seat is None or seat.user not in settled.matrix_players:
        return False
    row = settled.matrix[settled.matrix_players.index(seat.user)]
    return any(
        other.computer == Level.STRONG.value and row[settled.matrix_players.index(other.user)] > 0
        for other in settled.seats
        if other.user in settled.matrix_players
    )


def _took_the_pot(facts: Facts) -> bool:
    settled, seat = facts.settled, facts.seat
    return (
        settled is not None
        and seat is not None
        and settled.pot > 0
        and settled.pot_winners == (seat.user,)
    )


def _score(facts: Facts) -> int | None:
    """Points against par in a challenge (None: not a challenge)."""
    return None if facts.challenge is None else facts.challenge.score


def _streak(facts: Facts) -> int:
    return 0 if facts.challenge is None else facts.challenge.streak


#: Every achievement, in the order a profile lists them and docs/rules.md names them (a test
#: holds the two equal).
ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement(
        "first-game",
        tr("Pull up a chair"),
        tr("Play your first game."),
        ShowdownSettled,
        lambda f: f.tally.played >= 1,
    ),
    Achievement(
        "first-win",
        tr("First win"),
        tr("Win a game: end it with more chips than you started with."),
        ShowdownSettled,
        _won,
    ),
    Achievement(
        "regular",
        tr("Regular"),
        tr("Play 10 games."),
        ShowdownSettled,
        lambda f: f.tally.played >= 10,
    ),
    Achievement(
        "centurion",
        tr("Centurion"),
        tr("Play 100 games."),
        ShowdownSettled,
        lambda f: f.tally.played >= 100,
    ),
    Achievement(
        "ten-wins",
        tr("Ten wins"),
        tr("Win 10 games."),
        ShowdownSettled,
        lambda f: f.tally.won >= 10,
    ),
    Achievement(
        "grand-tour",
        tr("Grand tour"),
        tr("Play every game the bot deals at least once."),
        ShowdownSettled,
        lambda f: f.tally.games >= frozenset(GAMES),
    ),
    Achievement(
        "automatic",
        tr("Automatic"),
        tr("Declare an automatic."),
        ShowdownSettled,
        lambda f: _automatic(f) is not None,
    ),
    Achievement(
        "dragon",
        tr("Dragon"),
        tr("Declare a dragon: one card of each rank, ace to two."),
        ShowdownSettled,
        lambda f: _automatic(f) == Automatic.DRAGON.value,
    ),
    Achievement(
        "clean-sweep",
        tr("Clean sweep"),
        tr("Come out ahead on all six hands of one game."),
        ShowdownSettled,
        _swept,
    ),
    Achievement(
        "giant-killer",
        tr("Giant killer"),
        tr("Score more points than a strong computer at your table."),
        ShowdownSettled,
        _beat_strong_computer,
    ),
    Achievement(
        "pot-taker", tr("Pot taker"), tr("Take a whole pot alone."), ShowdownSettled, _took_the_pot
    ),
    Achievement(
        "high-roller",
        tr("High roller"),
        tr("Win 100 chips or more in one game."),
        ShowdownSettled,
        lambda f: f.seat is not None and f.seat.net >= 100,
    ),
    Achievement(
        "live-to-play",
        tr("Live to play again"),
        tr("Surrender (or fold) at a declaration."),
        ShowdownSettled,
        lambda f: f.seat is not None and f.seat.surrendered_at is not None,
    ),
    Achievement(
        "daily-player",
        tr("Daily player"),
        tr("Play a daily challenge."),
        ChallengePlayed,
        lambda f: f.challenge is not None,
    ),
    Achievement(
        "beat-par",
        tr("Beat par"),
        tr("Score more points than par in a daily challenge."),
        ChallengePlayed,
        lambda f: (_score(f) or 0) > 0,
    ),
    Achievement(
        "crushed-par",
        tr("Crushed par"),
        tr("Beat par by 10 points or more in a daily challenge."),
        ChallengePlayed,
        lambda f: (_score(f) or 0) >= 10,
    ),
    Achievement(
        "week-streak",
        tr("Seven days"),
        tr("Play the daily challenge 7 days in a row."),
        ChallengePlayed,
        lambda f: _streak(f) >= 7,
    ),
    Achievement(
        "month-streak",
        tr("Thirty days"),
        tr("Play the daily challenge 30 days in a row."),
        ChallengePlayed,
        lambda f: _streak(f) >= 30,
    ),
)
#: Each achievement by its key.
BY_KEY: dict[str, Achievement] = {achievement.key: achievement for achievement in ACHIEVEMENTS}


def earned_by(event: Event, facts: Facts) -> list[Achievement]:
    """The achievements the event earns a player with these facts (earned before or not)."""
    return [a for a in ACHIEVEMENTS if isinstance(event, a.event) and a.rule(facts)]


class Achievements:
    """Earns the achievements of the people at each settled game and of each challenge play,
    once per player and server, and answers those earned now for the channel (unless the
    server keeps them quiet)."""

    name = "achievements"
    events: tuple[type[Event], ...] = (ShowdownSettled, ChallengePlayed)

    def __init__(self, achievements: AchievementRepository, settings: SettingsRepository) -> None:
        self.achievements = achievements
        self.settings = settings

    async def handle(self, event: Event, delivery: Delivery) -> Sequence[Event]:
        """Earn what the event earns; the announcements of those earned now."""
        guild = delivery.guild_id
        players: list[tuple[int, Facts]] = []
        game_id: int | None = None
        if isinstance(event, ShowdownSettled):
            if not event.moved_server_chips:
                # Scored, but nothing counts, as the statistics see it: a practice game, or a
                # tournament hand (which counts for the tournament's places and prizes only).
                return []
            game_id = event.game_id
            # A computer has no profile.
            seats = [seat for seat in event.seats if not is_computer(seat.user)]
            tallies = await self.achievements.note_games(
                guild_id=guild,
                game_id=event.game_id,
                game=event.game,
                won={seat.user: seat.net > 0 for seat in seats},
            )
            players = [
                (seat.user, Facts(settled=event, seat=seat, tally=tallies[seat.user]))
                for seat in seats
            ]
        elif isinstance(event, ChallengePlayed) and not is_computer(event.user):
            players.append((event.user, Facts(challenge=event)))
        # Keyed by server, player and achievement: a second delivery earns nothing again.
        earnable = {user: [a.key for a in earned_by(event, facts)] for user, facts in players}
        new = await self.achievements.earn(
            guild_id=guild,
            achievements=earnable,
            game_id=game_id,
            earned=delivery.committed,
        )
        announced: list[Event] = [
            AchievementEarned(user, key, BY_KEY[key].name, BY_KEY[key].description, game_id=game_id)
            for user, _ in players
            for key in new.get(user, [])
        ]
        if not announced or not (await self.settings.get(guild)).announce_achievements:
            return []
        return announced
