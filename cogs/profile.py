"""``/profile``: a player's card, drawn from what the features keep (their games and wins, the
achievements earned, and the ratings and daily challenge where those are kept)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.common import answer, localized, picture, player_names, png, run, services, words
from cogs.language import channel_locale
from cogs.pictures import named_game_title
from engine.text import Who, tr
from render.profile import (
    Badge,
    ChallengeFigures,
    Profile,
    RatingLine,
    TournamentLine,
    profile_png,
)
from storage import Storage
from tables.achievements import ACHIEVEMENTS
from tables.ratings import Ratings

NO_PROFILE = tr("Bots have no profile: only players do.")
#: The latest finished tournaments a profile lists.
TOURNAMENT_LINES = 5


async def gather_profile(
    storage: Storage,
    guild_id: int,
    user_id: int,
    name: str,
    today: str,
    *,
    locale: str = i18n.ENGLISH.discord,
) -> Profile:
    """Everything a profile card shows, read in one place: one function per section
    (``today``: the UTC day, ISO, that the challenge's streak runs to), its words in the
    language of ``locale``."""
    stats = await storage.leaderboards.statistics(guild_id, user_id)
    earned = {row.achievement for row in await storage.achievements.earned(guild_id, user_id)}
    return Profile(
        name=name,
        played=stats.played,
        won=stats.won,
        net=stats.net,
        earned=tuple(
            Badge(i18n.localize(locale, a.name), i18n.localize(locale, a.description))
            for a in ACHIEVEMENTS
            if a.key in earned
        ),
        achievements=len(ACHIEVEMENTS),
        ratings=await ratings_of(storage, guild_id, user_id, locale=locale),
        challenge=await challenge_of(storage, user_id, today),
        tournaments=await tournaments_of(storage, guild_id, user_id),
    )


async def ratings_of(
    storage: Storage, guild_id: int, user_id: int, *, locale: str = i18n.ENGLISH.discord
) -> tuple[RatingLine, ...] | None:
    """The player's rating per game with the season's rank (a season that has ended is rolled
    over first, as `/rating` does)."""
    _, rated = await Ratings(storage.ratings).player(guild_id, user_id)
    return tuple(RatingLine(named_game_title(r.game, locale), r.shown, r.rank) for r in rated)


async def tournaments_of(
    storage: Storage, guild_id: int, user_id: int
) -> tuple[TournamentLine, ...] | None:
    """The player's latest finished tournaments on the server with their place and prize
    (None: none yet, and the card leaves the section out)."""
    finished = await storage.tournaments.places_of(guild_id, user_id, limit=TOURNAMENT_LINES)
    return (
        tuple(
            TournamentLine(tournament=number, place=place, entrants=entrants, prize=prize)
            for number, place, prize, entrants in finished
        )
        or None
    )


async def challenge_of(storage: Storage, user_id: int, today: str) -> ChallengeFigures | None:
    """The player's best daily challenge score against par and current streak of days (the
    challenge is the same on every server; None: never played, and the card leaves it out)."""
    record = await storage.challenges.record(user_id, today)
    if record.best is None:
        return None
    return ChallengeFigures(best=record.best, streak=record.streak)


class ProfileCog(commands.Cog):
    """Players' profile cards."""

    @app_commands.command(name="profile", description="Your profile card (or another player's)")
    @app_commands.describe(player="Whose profile to show")
    @app_commands.guild_only()
    async def profile(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        """Draw a player's profile card."""
        assert interaction.guild_id is not None
        who = player or interaction.user
        if who.bot:
            await interaction.response.send_message(words(interaction, NO_PROFILE), ephemeral=True)
            return
        guild = interaction.guild_id
        found = services(interaction)
        storage = found.storage

        # Posted in the channel: in the channel's language.
        locale = await channel_locale(interaction)

        async def read() -> Profile:
            names = await player_names(interaction.client, storage, guild, [who.id])
            today = found.challenges.today()
            return await gather_profile(storage, guild, who.id, names[who.id], today, locale=locale)

        profile = await run(interaction, read, ephemeral=False)
        data = await picture(profile_png, profile, locale=locale)
        text = tr(
            "{player}'s profile: {earned} of {achievements} achievements earned.",
            player=Who(who.id),
            earned=len(profile.earned),
            achievements=profile.achievements,
        )
        await answer(interaction, localized(locale, text), file=png(data, "profile.png"))
