"""Ratings and seasons: ``/rating`` and ``/season`` (``/leaderboard by:rating``: cogs/chips.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.common import answer, localized, run, services
from cogs.language import channel_locale
from cogs.pictures import named_game_title
from engine.text import Text, Who, tr
from storage.rows import PlayerRating, Season, SeasonStanding
from tables.games import GAMES
from tables.ratings import Ratings

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
#: Lines of a season's standings: per game when every game is shown, or for the one chosen.
EACH_GAME, ONE_GAME = 5, 10


def day(moment: datetime) -> str:
    """A date as each reader's Discord shows it."""
    return discord.utils.format_dt(moment, "D")


def season_line(season: Season) -> Text:
    """When the season began and ends (or ended)."""
    number = str(season.number)
    if season.ends is not None:
        return tr(
            "Season {number} ran from {start} to {end}.",
            number=number,
            start=day(season.starts),
            end=day(season.ends),
        )
    if season.due is not None:
        return tr(
            "Season {number} is under way since {start}; it ends {end}.",
            number=number,
            start=day(season.starts),
            end=day(season.due),
        )
    return tr(
        "Season {number} is under way since {start}.", number=number, start=day(season.starts)
    )


def rating_line(rating: PlayerRating, locale: str = i18n.ENGLISH.discord) -> Text:
    """One game's rating of a player, with their place this season."""
    place = (
        tr(
            "**#{rank}** this season ({games} rated)",
            rank=str(rating.rank),
            games=rating.season_games,
        )
        if rating.rank is not None
        else tr("not rated this season yet")
    )
    return tr(
        "- {game}: **{rating}** ({games} games rated); {place}",
        game=named_game_title(rating.game, locale),
        rating=rating.shown,
        games=rating.games,
        place=place,
    )


def rating_text(
    user_id: int,
    season: Season,
    ratings: Sequence[PlayerRating],
    *,
    locale: str = i18n.ENGLISH.discord,
) -> str:
    """``/rating``'s answer, in the language of ``locale``."""
    if not ratings:
        return localized(
            locale,
            tr(
                "{player} has no rating here yet: a game against at least one other person "
                "(not at a practice table) gives one.",
                player=Who(user_id),
            ),
        )
    heading = tr(
        "**Ratings of {player}**. {season}", player=Who(user_id), season=season_line(season)
    )
    return "\n".join(
        localized(locale, line) for line in [heading, *(rating_line(r, locale) for r in ratings)]
    )


def standings_lines(standings: Sequence[PlayerRating | SeasonStanding]) -> list[Text]:
    """A game's standings, a line a player, with the games each was rated in that season."""
    lines = []
    for s in standings:
        games = s.games if isinstance(s, SeasonStanding) else s.season_games
        lines.append(
            tr(
                "{rank}. {player} **{rating}** ({games} games)",
                rank=s.rank,
                player=Who(s.user_id),
                rating=s.shown,
                games=games,
            )
        )
    return lines


class RatingsCog(commands.Cog):
    """Players' ratings per game and the seasons they are ranked in."""

    @app_commands.command(name="rating", description="A player's rating in each game")
    @app_commands.describe(player="Whose rating (yours by default)", game="One game only")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rating(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show a player's ratings and season ranks."""
        assert interaction.guild_id is not None
        guild, who = interaction.guild_id, player or interaction.user
        ratings = Ratings(services(interaction).storage.ratings)
        chosen = game.value if game else None
        season, found = await run(
            interaction, lambda: ratings.player(guild, who.id, game=chosen), ephemeral=False
        )
        locale = await channel_locale(interaction)
        await answer(interaction, rating_text(who.id, season, found, locale=locale))

    @app_commands.command(name="season", description="A rating season's standings")
    @app_commands.describe(
        number="Which season (the one under way by default)", game="One game only"
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def season(
        self,
        interaction: discord.Interaction[Any],
        number: app_commands.Range[int, 1, 1_000_000] | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show the season under way, or a finished season's final standings."""
        assert interaction.guild_id is not None
        guild = interaction.guild_id
        ratings = Ratings(services(interaction).storage.ratings)
        games = [game.value] if game else list(GAMES)
        limit = ONE_GAME if game else EACH_GAME
        # Posted in the channel: in the channel's language.
        locale = await channel_locale(interaction)

        async def read() -> list[Text | str]:
            current = await ratings.season(guild)
            asked = current.number if number is None else number
            if asked > current.number:
                return [
                    tr(
                        "There is no season {asked} yet: season {number} is under way.",
                        asked=str(asked),
                        number=str(current.number),
                    )
                ]
            shown: Season | None = current
            boards: dict[str, Sequence[PlayerRating | SeasonStanding]] = {}
            for name in games:
                if asked == current.number:
                    boards[name] = (await ratings.standings(guild, name, limit=limit))[1]
                else:
                    shown, boards[name] = await ratings.finished(guild, asked, name, limit=limit)
            assert shown is not None
            lines: list[Text | str] = [season_line(shown)]
            for name, standings in boards.items():
                if standings:
                    lines += [f"**{named_game_title(name, locale)}**", *standings_lines(standings)]
            if len(lines) == 1:
                lines.append(
                    tr("Nobody was rated in it.") if shown.ends else tr("Nobody is rated yet.")
                )
            return lines

        said = await run(interaction, read, ephemeral=False)
        await answer(interaction, "\n".join(localized(locale, line) for line in said))
