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

import i18n
from cogs.challenge_hands import against_par, play_view
from cogs.common import acknowledge, answer, fit, localized, picture, png, services, words
from cogs.language import server_language
from cogs.pictures import challenge_picture, game_title, hand_picture
from engine.errors import GameError
from engine.text import Term, Text, Who, tr, tr_plural
from render.style import signed
from storage.challenge import ChallengePlay
from storage.prizes import Winner
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


def everyone_text(
    scores: Sequence[int], mine: int | None, locale: str = i18n.ENGLISH.discord
) -> Text:
    """How the whole bot's players did, without names: count, median, the player's percentile
    (the share of players who scored no more than they did)."""
    if not scores:
        return tr("Nobody has played it yet.")
    median = statistics.median(scores)
    shown = (
        signed(int(median), locale=locale)
        if float(median).is_integer()
        else signed(median, 1, locale=locale)
    )
    if mine is None:
        return tr_plural(
            "Across every server: **{count}** player, median **{median}** against par.",
            "Across every server: **{count}** players, median **{median}** against par.",
            len(scores),
            median=shown,
        )
    share = 100 * sum(score <= mine for score in scores) // len(scores)
    return tr_plural(
        "Across every server: **{count}** player, median **{median}** against par. You scored "
        "as well as or better than **{share}%** of them.",
        "Across every server: **{count}** players, median **{median}** against par. You "
        "scored as well as or better than **{share}%** of them.",
        len(scores),
        median=shown,
        share=share,
    )


def prize_won(winners: Sequence[Winner], locale: str = i18n.ENGLISH.discord) -> Text:
    """Who won a day's prize: ``prize: N chips to X`` (each of a tie with their share)."""
    each = [
        tr("**{chips}** chips to {player}", chips=winner.chips, player=Who(winner.user_id))
        for winner in winners
    ]
    return tr("prize: {winners}", winners=", ".join(localized(locale, won) for won in each))


def board_text(
    title: str,
    day: str,
    par: int,
    board: Sequence[ChallengePlay],
    scores: Sequence[int],
    mine: int | None,
    winners: Sequence[Winner] = (),
    *,
    locale: str = i18n.ENGLISH.discord,
) -> str:
    """The server's board of one day's challenge, its prize once paid and the whole bot's
    figures, in the language of ``locale``."""
    lines: list[Text] = [
        tr("**{game} challenge, {day}** (par: {par} points)", game=title, day=day, par=par)
    ]
    if board:
        lines += [
            tr(
                "{rank}. {player} {score} ({points} points)",
                rank=rank,
                player=Who(play.user_id),
                score=against_par(play.score),
                points=play.points,
            )
            for rank, play in ranked(board)[:20]
        ]
    else:
        lines.append(tr("Nobody on this server played it."))
    if winners:
        lines.append(tr("{prize}.", prize=prize_won(winners, locale)))
    lines.append(everyone_text(scores, mine, locale))
    return fit("\n".join(localized(locale, line) for line in lines))


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
        locale = interaction.locale.value
        title = game_title(spec, locale)
        subtitle = tr("{game} challenge · {day}", game=title, day=day)
        data = await picture(
            hand_picture, dealt.held, subtitle=words(interaction, subtitle), locale=locale
        )
        text = tr(
            "**Today's {game} challenge** ({day}, UTC): the same cards on every server. Set your "
            "hands with **{build}** or **{type}**; a preview comes first, then one submission, "
            "scored against the other seats' fixed hands and compared with par, the solver's. "
            "No surrender here.",
            game=title,
            day=day,
            build=tr("Build hands"),
            type=tr("Type hands"),
        )
        await answer(
            interaction,
            words(interaction, text) + f"\n`{unsplit_text(dealt.held)}`",
            file=png(data, "challenge-hand.png"),
            view=play_view(spec.name, day, locale=interaction.locale.value),
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
                tr(
                    "The board of today's {game} challenge is shown to players who have played it "
                    "(`/{challenge} {play}`), and to everyone once the day is over (UTC).",
                    challenge=Term("challenge"),
                    play=Term("play"),
                    game=game_title(spec, interaction.locale.value),
                )
            )
        store = found.storage.challenges
        dealt = await found.challenges.deal(spec.name, day)
        text = board_text(
            game_title(spec, interaction.locale.value),
            day,
            dealt.par_points,
            await store.board(day, spec.name, guild),
            await store.scores(day, spec.name),
            None if mine is None else mine.score,
            await found.challenges.winners(guild, day, spec.name),
            locale=interaction.locale.value,
        )
        if mine is None:
            await answer(interaction, text)
            return
        setting = Setting.from_json(_loads(mine.setting))
        data = await picture(challenge_picture, dealt, setting, locale=interaction.locale.value)
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


def announcement_text(announcement: Announcement, *, locale: str = i18n.ENGLISH.discord) -> str:
    """What a challenge channel reads, in the language of ``locale`` (the channel's): the day's
    deals are out, and yesterday's top three and prize winners."""
    lines = [
        tr(
            "**Today's challenge is dealt** ({day}, UTC): the same cards on every server. Play "
            "it alone with `/{challenge} {play}`.",
            challenge=Term("challenge"),
            play=Term("play"),
            day=announcement.day,
        )
    ]
    prizes = {spec.name: winners for spec, winners in announcement.prizes}
    for spec, top in announcement.yesterday:
        named = ", ".join(
            localized(
                locale,
                tr(
                    "{rank}. {player} {score}",
                    rank=rank,
                    player=Who(play.user_id),
                    score=against_par(play.score),
                ),
            )
            for rank, play in top
        )
        if spec.name in prizes:
            line = tr(
                "Yesterday's {game}: {players}; {prize}",
                game=game_title(spec, locale),
                players=named,
                prize=prize_won(prizes[spec.name], locale),
            )
        else:
            line = tr("Yesterday's {game}: {players}", game=game_title(spec, locale), players=named)
        lines.append(line)
    return fit("\n".join(localized(locale, line) for line in lines))


async def announce_due(client: Any) -> int:
    """Pay the prizes of the days over (``Challenges.pay_prizes``, whether or not a server
    has a channel), then post each announcement due (``Challenges.due_announcements``), which
    names yesterday's winners; how many were posted."""
    challenges = services_of(client).challenges
    for due, winners in await challenges.pay_prizes():
        log.info("paid the challenge prize of %s to %s", due, winners)
    due = await challenges.due_announcements()
    for announcement in due:
        target = client.get_partial_messageable(
            announcement.channel_id, guild_id=announcement.guild_id
        )
        locale = await server_language(client, announcement.guild_id)
        # Mentions name the players without pinging them.
        await target.send(
            announcement_text(announcement, locale=locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    return len(due)


def services_of(client: Any) -> Any:
    """The services of a bot (as ``services`` finds them from an interaction)."""
    return client.services
