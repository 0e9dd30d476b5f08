"""The coach: a player's hands beside the best setting of the same cards, after the showdown
(Review) or for any past game (``/review``); and ``/replay``, a finished game's showdown again."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.common import acknowledge, answer, picture, player_names, png, services
from cogs.controls import Button, ChannelControl, Interaction
from cogs.pictures import review_picture, showdown_picture, slot_names
from cogs.showdown import breakdown_line, showdown_names, showdown_text
from engine.errors import GameError
from engine.settlement import HOUSE
from engine.stakes import PLAYERS
from engine.text import tr
from render.style import signed
from storage.rows import GameStatus
from tables.coach import showdown_of
from tables.events import ShowdownSettled
from tables.games import game_named
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
        await show_showdown(interaction, event, heading="Full showdown")


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


async def show_showdown(interaction: Interaction, event: ShowdownSettled, *, heading: str) -> None:
    """Answer with a game's full showdown picture (every hand, the Scoring Card) and its text."""
    assert interaction.guild_id is not None
    storage = services(interaction).storage
    names = await showdown_names(interaction.client, storage, interaction.guild_id, event)
    data = await picture(showdown_picture, event, names)
    text = showdown_text(event, heading=heading)
    await answer(interaction, text, file=png(data, "showdown.png"))


def _chips(value: float) -> str:
    return f"{signed(value, 1)} chips"


def review_text(review: Review) -> str:
    """What the review says beside its picture: each way's worth, and what made the difference."""
    spec = game_named(review.game)
    lines = [f"**Your review of game {review.game_id} ({spec.title}).**"]
    yours, best = review.yours, review.best
    if yours is None:
        lines.append(surrender_text(review))
        if review.playing_on is not None and review.surrender_cost is not None:
            right = review.playing_on < -review.surrender_cost
            verdict = "so surrendering was right" if right else "so playing on was worth more"
            lines.append(
                f"Playing on was expected to be worth {_chips(review.playing_on)}, {verdict}."
            )
        if best is not None:
            lines.append("The best setting of the cards you held then is in the picture.")
        return "\n".join(lines)
    assert best is not None
    # Between players the review weighs the points' chips; the ante, stakes and pot come
    # whichever way the hands are set, and the showdown's line for the player counts them.
    aside = (
        " from points (the ante, stakes and pot aside)"
        if spec.variant is not None and spec.variant.casino is None
        else ""
    )
    lines.append(
        f"Yours: expected {_chips(yours.expected)}; against the hands played, "
        f"{signed(yours.at_table)} chips{aside}."
    )
    if review.same:
        lines.append("You set them the best way. Well played.")
    else:
        automatic = f" (automatic: {best.automatic.replace('_', ' ')})" if best.automatic else ""
        lines.append(
            f"Best{automatic}: expected {_chips(best.expected)}; against the same hands, "
            f"{signed(best.at_table)} chips."
        )
    if review.differences:
        slots = slot_names(spec)
        made = "; ".join(
            f"{d.wager or slots[d.position]}: {d.yours} {signed(d.yours_points)} against "
            f"{d.best} {signed(d.best_points)}"
            for d in review.differences
        )
        lines.append(f"Where they differ: {made}.")
    if review.fold_better and review.surrender is not None:
        word = "folding" if spec.has_dealer else "surrendering at the last declaration"
        cost = review.surrender
        lines.append(
            f"With every card seen, {word} was worth more than the best setting: it would have "
            f"cost {cost.paid} chips beyond the {cost.put_in} you had staked, {cost.total} in all."
        )
    if not review.exact:
        lines.append("(The solver's time ran out before it proved its setting the best.)")
    if review.seat is not None:
        lines.append(f"At the table: {breakdown_line(review.seat)}.")
    return "\n".join(lines)


def surrender_text(review: Review) -> str:
    """What the player's surrender (or fold) moved, with the settlement's figures."""
    at = f"declaration {(review.surrendered_at or 0) + 1}"
    cost = review.surrender
    if cost is None:
        return f"You surrendered at {at}."
    if cost.payee == HOUSE:
        return (
            f"You folded at {at}: you lost your {cost.put_in}-chip ante and {cost.paid} more to "
            f"the dealer, {cost.total} in all."
        )
    if not cost.paid:
        return f"You surrendered at {at}, as everyone did: nobody paid, and the pot was shared."
    if cost.payee == PLAYERS:
        paid = f"you paid {cost.paid} chips to those who played on"
    else:
        paid = f"you put {cost.paid} more chips into the pot"
    return (
        f"You surrendered at {at}: {paid}, and your {cost.put_in} in the pot stayed there: "
        f"{cost.total} in all."
    )


async def show_review(interaction: Interaction, guild: int, game_id: int | None) -> None:
    """The player's review of a game of this server (their latest when none is named)."""
    await acknowledge(interaction)
    found = services(interaction)
    review = await found.reviews.review(guild, interaction.user.id, game_id)
    names = await player_names(interaction.client, found.storage, guild, [interaction.user.id])
    data = await picture(review_picture, review, names[interaction.user.id])
    await answer(interaction, review_text(review), file=png(data, "review.png"))


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
        await show_showdown(interaction, event, heading="Replay")
