"""The players' ratings, kept by listening: each settled game between two or more people moves
their rating in that game on that server (docs/rules.md, "Ratings and seasons").

The model is openskill's Plackett-Luce (Weng & Lin's Bayesian approximation): it rates a result
of any number of players given as a ranking, ties included, which is what a Pyramid table of
two to six players produces; Elo and Glicko rate pairs only, and TrueSkill's Thurstone-Mosteller
models (also in openskill) handle draws and many players less simply. Every rating is a skill
estimate ``mu`` and an uncertainty ``sigma``; players see ``shown``, a cautious number that
starts at 1,000 and rises as the bot becomes sure a player is good.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Final

from openskill.models import PlackettLuce

from storage.ratings import RatingRepository
from storage.rows import PlayerRating, Season, SeasonStanding, Skill
from tables.computers import is_computer
from tables.events import Event, ShowdownSettled
from tables.subscribers import Delivery

#: openskill's defaults: a new player's mu 25 and sigma 25/3.
MODEL: Final = PlackettLuce()
#: What players see: ``SHOWN_BASE + SHOWN_SCALE * (mu - 3 sigma)``, the skill the bot is
#: almost sure (99.7%) a player has at least, so a new player shows 1,000 and a lucky first
#: win counts for less than a long record.
SHOWN_BASE: Final = 1_000
SHOWN_SCALE: Final = 20
#: At a season's start each mu moves this part of the way back to the default, and each sigma
#: this part of the way back up to it: last season's form counts, with room to move again.
SOFTEN_MU: Final = 0.5
SOFTEN_SIGMA: Final = 0.5


def shown(mu: float, sigma: float) -> int:
    """The number players see for a rating."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def skill(mu: float, sigma: float) -> Skill:
    """A rating with its shown number."""
    return Skill(mu, sigma, shown(mu, sigma))


def new_skill() -> Skill:
    """A player's rating before their first rated game."""
    return skill(MODEL.mu, MODEL.sigma)


def soften(rating: Skill) -> Skill:
    """A rating as the next season starts it: halfway back to a new player's."""
    mu = rating.mu + SOFTEN_MU * (MODEL.mu - rating.mu)
    sigma = rating.sigma + SOFTEN_SIGMA * (MODEL.sigma - rating.sigma)
    return skill(mu, sigma)


def places(nets: Mapping[int, int]) -> dict[int, int]:
    """Each player's place by chips won, 1 the best; equal nets share a place."""
    return {user: 1 + sum(other > net for other in nets.values()) for user, net in nets.items()}


def rate_game(nets: Mapping[int, int], before: Mapping[int, Skill | None]) -> dict[int, Skill]:
    """The people's ratings after a game that left them ``nets`` (the model's one update)."""
    users = sorted(nets)
    ratings = [before.get(user) or new_skill() for user in users]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
    order = places(nets)
    rated = MODEL.rate(teams, ranks=[float(order[user]) for user in users])
    return {user: skill(team[0].mu, team[0].sigma) for user, team in zip(users, rated, strict=True)}


def rated_people(event: ShowdownSettled) -> dict[int, int]:
    """The people a showdown rates, with their nets: none at a practice table, at a table
    playing another scope's chips (a tournament's: its result is the tournament's places) or
    with fewer than two people; computers are never rated (they play with the house's chips),
    so a game with computers rates its people against each other."""
    if not event.moved_server_chips:
        return {}
    nets = {
        seat.user: event.nets.get(seat.user, 0)
        for seat in event.seats
        if not is_computer(seat.user)
    }
    return nets if len(nets) >= 2 else {}


class PlayerRatings:
    """Rates each settled game between people, once per game however often it comes."""

    name = "ratings"
    events: tuple[type[Event], ...] = (ShowdownSettled,)

    def __init__(self, ratings: RatingRepository) -> None:
        self.ratings = ratings

    async def handle(self, event: Event, delivery: Delivery) -> None:
        """Rate the showdown's people in the season under way."""
        assert isinstance(event, ShowdownSettled)
        nets = rated_people(event)
        if not nets:
            return
        await self.ratings.rate(
            guild_id=delivery.guild_id,
            game_id=event.game_id,
            game=event.game,
            users=sorted(nets),
            rate=partial(rate_game, nets),
            soften=soften,
        )


class Ratings:
    """The ratings and seasons as the commands read them: a season whose end has passed is
    rolled over first (the first read after its end does it, if no game did)."""

    def __init__(self, ratings: RatingRepository) -> None:
        self.ratings = ratings

    async def season(self, guild_id: int) -> Season:
        """The season under way."""
        return await self.ratings.season(guild_id, soften=soften)

    async def player(
        self, guild_id: int, user_id: int, *, game: str | None = None
    ) -> tuple[Season, list[PlayerRating]]:
        """The season under way, and the player's rating in each game (or one) with their
        rank in that season: what ``/rating`` and a player's profile show."""
        season = await self.season(guild_id)
        return season, await self.ratings.player(guild_id, user_id, game=game)

    async def standings(
        self, guild_id: int, game: str, *, limit: int = 10
    ) -> tuple[Season, list[PlayerRating]]:
        """The season under way and its standings in one game."""
        season = await self.season(guild_id)
        return season, await self.ratings.standings(guild_id, game, limit=limit)

    async def finished(
        self, guild_id: int, number: int, game: str, *, limit: int = 10
    ) -> tuple[Season | None, list[SeasonStanding]]:
        """A season (None: none of that number yet) and, once finished, its final standings
        in one game."""
        await self.season(guild_id)
        found = await self.ratings.past(guild_id, number)
        if found is None or found.ends is None:
            return found, []
        return found, await self.ratings.final_standings(guild_id, number, game, limit=limit)
