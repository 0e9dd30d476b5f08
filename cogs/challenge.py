"""``/challenge``: the daily duplicate challenge (play today's deal alone, see the board), and
the daily announcement. Setting the hands is ``cogs.challenge_hands``'; the deal, scoring and
storing are ``tables.challenge``'s."""

from __future__ import annotations

import asyncio
import json
import logging
import statistics
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.challenge_hands import against_par, play_view
from cogs.common import acknowledge, answer, fit, picture, png, services
from cogs.pictures import challenge_picture, hand_picture
from engine.errors import GameError
from render.style import signed
from storage.challenge import ChallengePlay
from tables.challenge import (
    CHALLENGE_GAMES,
    Announcement,
    challenge_day,
    challenge_game,
    ranked,
)
from tables.hands import unsplit_text
from tables.setting import Setting

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=spec.name) for spec in CHALLENGE_GAMES]


def everyone_text(scores: Sequence[int], mine: int | None) -> str:
    """How the whole bot's players did, without names: count, median, the player's percentile
    (the share of players who scored no more than they did)."""
    if not scores:
        return "Nobody has played it yet."
    median = statistics.median(scores)
    shown = signed(int(median)) if float(median).is_integer() else signed(median, 1)
    text = f"Across every server: **{len(scores)}** player(s), median **{shown}** against par."
    if mine is not None:
        share = 100 * sum(score <= mine for score in scores) // len(scores)
        text += f" You scored as well as or better than **{share}%** of them."
    return text


def board_text(
    title: str,
    day: str,
    par: int,
    board: Sequence[ChallengePlay],
    scores: Sequence[int],
    mine: int | None,
) -> str:
    """The server's board of one day's challenge and the whole bot's figures."""
    lines = [f"**{title} challenge, {day}** (par: {par} points)"]
    if board:
        lines += [
            f"{rank}. <@{play.user_id}> {against_par(play.score)} ({play.points} points)"
            for rank, play in ranked(board)[:20]
        ]
    else:
        lines.append("Nobody on this server played it.")
    lines.append(everyone_text(scores, mine))
    return fit("\n".join(lines))


@app_commands.guild_only()
class ChallengeCog(
    commands.GroupCog, group_name="challenge", group_description="The daily duplicate challenge"
):
    """Today's deal of each Pyramid game, the same on every server, played alone."""

    @app_commands.command(name="play", description="Play today's challenge deal (privately)")
    @app_commands.describe(game="Which game's deal (Showdown if left out)")
    @app_commands.choices(game=GAME_CHOICES)
    async def play(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        """Send the player today's cards with Build hands and Type hands."""
        spec = challenge_game(game)
        await acknowledge(interaction)
        found = services(interaction)
        day = found.challenges.today()
        dealt = await found.challenges.verify_open(spec.name, day, interaction.user.id)
        data = await picture(hand_picture, dealt.held, subtitle=f"{spec.title} challenge · {day}")
        await answer(
            interaction,
            f"**Today's {spec.title} challenge** ({day}, UTC): the same cards on every server. "
            "Set your hands with **Build hands** or **Type hands**; a preview comes first, then "
            "one submission, scored against the other seats' fixed hands and compared with par, "
            "the solver's. No surrender here.\n"
            f"`{unsplit_text(dealt.held)}`",
            file=png(data, "challenge-hand.png"),
            view=play_view(spec.name, day),
        )

    @app_commands.command(name="results", description="The server's board of a day's challenge")
    @app_commands.describe(
        game="Which game's deal (Showdown if left out)",
        date="The day, as YYYY-MM-DD (UTC); today if left out",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def results(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        date: str | None = None,
    ) -> None:
        """The board, shown once the player has played the deal or the day is over."""
        spec = challenge_game(game)
        await acknowledge(interaction)
        found = services(interaction)
        guild = interaction.guild_id
        assert guild is not None
        today = found.challenges.today()
        day = challenge_day(date, today)
        mine = await found.challenges.play(spec.name, day, interaction.user.id)
        if mine is None and day == today:
            raise GameError(
                f"The board of today's {spec.title} challenge is shown to players who have played"
                " it (`/challenge play`), and to everyone once the day is over (UTC)."
            )
        store = found.storage.challenges
        dealt = await found.challenges.deal(spec.name, day)
        text = board_text(
            spec.title,
            day,
            dealt.par_points,
            await store.board(day, spec.name, guild),
            await store.scores(day, spec.name),
            None if mine is None else mine.score,
        )
        if mine is None:
            await answer(interaction, text)
            return
        setting = Setting.from_json(_loads(mine.setting))
        data = await picture(challenge_picture, dealt, setting)
        await answer(interaction, text, file=png(data, "challenge.png"))


def _loads(text: str) -> Any:
    return json.loads(text)


async def announce_daily(client: Any) -> None:
    """Announce each day's challenge now (if not yet) and after every UTC midnight, until
    cancelled (the bot's close)."""
    challenges = services_of(client).challenges
    while True:
        try:
            await announce_due(client)
        except (discord.HTTPException, GameError, OSError):
            log.exception("could not announce the daily challenge")
        # A second past midnight: the new day's deals are out.
        await asyncio.sleep(challenges.until_tomorrow() + 1)


def announcement_text(announcement: Announcement) -> str:
    """What a challenge channel reads: the day's deals are out, and yesterday's top three."""
    lines = [
        f"**Today's challenge is dealt** ({announcement.day}, UTC): the same cards on every "
        "server. Play it alone with `/challenge play`."
    ]
    for spec, top in announcement.yesterday:
        named = ", ".join(
            f"{rank}. <@{play.user_id}> {against_par(play.score)}" for rank, play in top
        )
        lines.append(f"Yesterday's {spec.title}: {named}")
    return fit("\n".join(lines))


async def announce_due(client: Any) -> int:
    """Post each announcement due (``Challenges.due_announcements``); how many were posted."""
    due = await services_of(client).challenges.due_announcements()
    for announcement in due:
        target = client.get_partial_messageable(
            announcement.channel_id, guild_id=announcement.guild_id
        )
        # Mentions name the players without pinging them.
        await target.send(
            announcement_text(announcement), allowed_mentions=discord.AllowedMentions.none()
        )
    return len(due)


def services_of(client: Any) -> Any:
    """The services of a bot (as ``services`` finds them from an interaction)."""
    return client.services
