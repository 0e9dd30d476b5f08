"""The coach: a player's hands beside the best setting of the same cards, after the showdown
(Review) or for any past game (``/review``); and ``/replay``, a finished game's showdown again."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.common import (
    Mentions,
    acknowledge,
    answer,
    localized,
    picture,
    player_names,
    png,
    services,
)
from cogs.controls import Button, ChannelControl, Interaction
from cogs.language import channel_locale
from cogs.pictures import game_title, review_picture, showdown_picture
from cogs.showdown import breakdown_line, showdown_names, showdown_text
from engine.automatics import automatic_name
from engine.errors import GameError
from engine.settlement import HOUSE
from engine.stakes import PLAYERS
from engine.text import Text, tr
from render.style import signed
from storage.rows import GameStatus
from tables.coach import showdown_of
from tables.events import ShowdownSettled
from tables.games import game_named, rules_of
from tables.hand_names import hand_name
from tables.review import Review


class ReviewButton(ChannelControl[Button], custom_id="pp:review:{game:int}"):
    """Review, under a showdown: the presser's own hands beside the best, only to them."""

    ELSEWHERE = tr("Reviews are of a server's games: ask in its channel.")

    def __init__(self, *, game: int, locale: str = i18n.ENGLISH.discord) -> None:
        super().__init__(
            self.button(tr("Review"), discord.ButtonStyle.secondary, locale=locale, game=game),
        )
        self.game = game

    async def act(self, interaction: Interaction) -> None:
        """Answer the presser with their review of this game."""
        await show_review(interaction, self.where[0], self.game)


class FullShowdownButton(ChannelControl[Button], custom_id="pp:full:{game:int}"):
    """Full showdown, under a showdown posted as its summary: every hand in full cards and the
    Scoring Card, only to the presser."""

    ELSEWHERE = tr("Showdowns are of a server's games: ask in its channel.")

    def __init__(self, *, game: int, locale: str = i18n.ENGLISH.discord) -> None:
        label = tr("Full showdown")
        super().__init__(
            self.button(label, discord.ButtonStyle.secondary, locale=locale, game=game)
        )
        self.game = game

    async def act(self, interaction: Interaction) -> None:
        """Answer the presser with the game's full picture."""
        event = await settled_showdown(interaction, self.where[0], self.game)
        await acknowledge(interaction)
        await show_showdown(interaction, event, heading=tr("Full showdown"))


#: A game's status as a sentence names it.
STATUS_NAMES = {
    GameStatus.OPEN.value: tr("still open"),
    GameStatus.SETTLED.value: tr("settled"),
    GameStatus.REFUNDED.value: tr("refunded"),
}


async def settled_showdown(interaction: Interaction, guild: int, game: int) -> ShowdownSettled:
    """The showdown of a finished game of this server; a sentence if there is none."""
    found = await services(interaction).storage.games.get(game)
    if found is None or found.guild_id != guild:
        raise GameError(tr("There is no game {game} on this server.", game=str(game)))
    if found.status is not GameStatus.SETTLED or found.result is None:
        raise GameError(
            tr(
                "Game {game} has no showdown: it is {status}.",
                game=str(game),
                status=STATUS_NAMES.get(found.status.value, found.status.value),
            )
        )
    return showdown_of(found.result, game)


async def show_showdown(
    interaction: Interaction, event: ShowdownSettled, *, heading: Text, locale: str | None = None
) -> None:
    """Answer with a game's full showdown picture (every hand, the Scoring Card) and its text, in
    the language of ``locale`` (the presser's by default)."""
    locale = locale or interaction.locale.value
    assert interaction.guild_id is not None
    storage = services(interaction).storage
    names = await showdown_names(interaction.client, storage, interaction.guild_id, event)
    data = await picture(showdown_picture, event, names, locale=locale)
    text = showdown_text(event, heading=heading, locale=locale)
    await answer(interaction, text, file=png(data, "showdown.png"))


def _chips(value: float, locale: str) -> Text:
    return tr("{chips} chips", chips=signed(value, 1, locale=locale))


def review_text(review: Review, *, locale: str = i18n.ENGLISH.discord) -> str:
    """What the review says beside its picture, in the language of ``locale`` (the player's):
    each way's worth, and what made the difference."""
    return "\n".join(localized(locale, line) for line in review_lines(review, locale))


def review_lines(review: Review, locale: str) -> list[Text]:
    """`review_text`'s lines (the differences already in the language of ``locale``)."""
    spec = game_named(review.game)
    lines = [
        tr(
            "**Your review of game {game} ({title}).**",
            game=str(review.game_id),
            title=game_title(spec, locale),
        )
    ]
    yours, best = review.yours, review.best
    if yours is None:
        lines.append(surrender_text(review))
        if review.playing_on is not None and review.surrender_cost is not None:
            worth = _chips(review.playing_on, locale)
            if review.playing_on < -review.surrender_cost:
                verdict = tr(
                    "Playing on was expected to be worth {chips}, so surrendering was right.",
                    chips=worth,
                )
            else:
                verdict = tr(
                    "Playing on was expected to be worth {chips}, so playing on was worth more.",
                    chips=worth,
                )
            lines.append(verdict)
        if best is not None:
            lines.append(tr("The best setting of the cards you held then is in the picture."))
        return lines
    assert best is not None
    # Between players the review weighs the points' chips; the ante, stakes and pot come
    # whichever way the hands are set, and the showdown's line for the player counts them.
    if spec.variant is not None and spec.variant.casino is None:
        lines.append(
            tr(
                "Yours: expected {expected}; against the hands played, {chips} chips from points "
                "(the ante, stakes and pot aside).",
                expected=_chips(yours.expected, locale),
                chips=signed(yours.at_table, locale=locale),
            )
        )
    else:
        lines.append(
            tr(
                "Yours: expected {expected}; against the hands played, {chips} chips.",
                expected=_chips(yours.expected, locale),
                chips=signed(yours.at_table, locale=locale),
            )
        )
    if review.same:
        lines.append(tr("You set them the best way. Well played."))
    elif best.automatic:
        lines.append(
            tr(
                "Best (automatic: {automatic}): expected {expected}; against the same hands, "
                "{chips} chips.",
                automatic=automatic_name(best.automatic),
                expected=_chips(best.expected, locale),
                chips=signed(best.at_table, locale=locale),
            )
        )
    else:
        lines.append(
            tr(
                "Best: expected {expected}; against the same hands, {chips} chips.",
                expected=_chips(best.expected, locale),
                chips=signed(best.at_table, locale=locale),
            )
        )
    if review.differences:
        slots = rules_of(spec).slot_words()

        def local(value: Text | str) -> str:
            return i18n.localize(locale, value, Mentions(locale))

        made = "; ".join(
            localized(
                locale,
                tr(
                    "{hand}: {yours} {yours_points} against {best} {best_points}",
                    hand=local(d.wager or slots[d.position]),
                    yours=local(hand_name(d.yours)),
                    yours_points=signed(d.yours_points, locale=locale),
                    best=local(hand_name(d.best)),
                    best_points=signed(d.best_points, locale=locale),
                ),
            )
            for d in review.differences
        )
        lines.append(tr("Where they differ: {differences}.", differences=made))
    if review.fold_better and review.surrender is not None:
        cost = review.surrender
        if spec.has_dealer:
            text = tr(
                "With every card seen, folding was worth more than the best setting: it would "
                "have cost {paid} chips beyond the {put_in} you had staked, {total} in all.",
                paid=cost.paid,
                put_in=cost.put_in,
                total=cost.total,
            )
        else:
            text = tr(
                "With every card seen, surrendering at the last declaration was worth more than "
                "the best setting: it would have cost {paid} chips beyond the {put_in} you had "
                "staked, {total} in all.",
                paid=cost.paid,
                put_in=cost.put_in,
                total=cost.total,
            )
        lines.append(text)
    if not review.exact:
        lines.append(tr("(The solver's time ran out before it proved its setting the best.)"))
    if review.seat is not None:
        lines.append(tr("At the table: {line}.", line=breakdown_line(review.seat, locale=locale)))
    return lines


def surrender_text(review: Review) -> Text:
    """What the player's surrender (or fold) moved, with the settlement's figures."""
    at = (review.surrendered_at or 0) + 1
    cost = review.surrender
    if cost is None:
        return tr("You surrendered at declaration {number}.", number=at)
    if cost.payee == HOUSE:
        return tr(
            "You folded at declaration {number}: you lost your {put_in}-chip ante and {paid} "
            "more to the dealer, {total} in all.",
            number=at,
            put_in=cost.put_in,
            paid=cost.paid,
            total=cost.total,
        )
    if not cost.paid:
        return tr(
            "You surrendered at declaration {number}, as everyone did: nobody paid, and the pot "
            "was shared.",
            number=at,
        )
    if cost.payee == PLAYERS:
        return tr(
            "You surrendered at declaration {number}: you paid {paid} chips to those who played "
            "on, and your {put_in} in the pot stayed there: {total} in all.",
            number=at,
            paid=cost.paid,
            put_in=cost.put_in,
            total=cost.total,
        )
    return tr(
        "You surrendered at declaration {number}: you put {paid} more chips into the pot, and "
        "your {put_in} in the pot stayed there: {total} in all.",
        number=at,
        paid=cost.paid,
        put_in=cost.put_in,
        total=cost.total,
    )


async def show_review(interaction: Interaction, guild: int, game_id: int | None) -> None:
    """The player's review of a game of this server (their latest when none is named)."""
    await acknowledge(interaction)
    found = services(interaction)
    review = await found.reviews.review(guild, interaction.user.id, game_id)
    names = await player_names(interaction.client, found.storage, guild, [interaction.user.id])
    data = await picture(
        review_picture, review, names[interaction.user.id], locale=interaction.locale.value
    )
    text = review_text(review, locale=interaction.locale.value)
    await answer(interaction, text, file=png(data, "review.png"))


class CoachCog(commands.Cog):
    """Reviews and replays of finished games."""

    @app_commands.command(name="review", description="Your hands in a game beside the best")
    @app_commands.describe(game="The game's number (your latest if left out; see /history)")
    @app_commands.guild_only()
    async def review(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """The caller's review of a game, only to them."""
        assert interaction.guild_id is not None  # guild_only
        await show_review(interaction, interaction.guild_id, game)

    @app_commands.command(name="replay", description="A finished game's showdown again")
    @app_commands.describe(game="The game's number (see /history)")
    @app_commands.guild_only()
    async def replay(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1]
    ) -> None:
        """The showdown picture of a finished game of this server, for anyone on it."""
        assert interaction.guild_id is not None
        event = await settled_showdown(interaction, interaction.guild_id, game)
        # Checked before the answer is deferred, so a refusal stays private; the replay is not.
        await acknowledge(interaction, ephemeral=False)
        locale = await channel_locale(interaction)
        await show_showdown(interaction, event, heading=tr("Replay"), locale=locale)
