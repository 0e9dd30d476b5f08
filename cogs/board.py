"""The table's message in its channel while a game is played: the game, its step, who is done
(never what they chose) and the deadline as a Discord relative time, with **Show my hand** and
**Rules** under it. The Start press turns the lobby into it (or posts it, for a typed start), and
the publisher edits it at each step (cogs/boards.py follows the game); the edits go through that
interaction while its token lasts (15 minutes: Discord does not count them against the bot's
requests), then through the channel.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

import i18n
from cogs.arrange import HandButton
from cogs.boards import Board, Key
from cogs.common import Mentions, mentions
from cogs.controls import ChannelControl
from cogs.rules import show_rules
from engine.text import Text, tr, tr_plural
from tables.games import game_named

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[Any]
#: An interaction's token is refused once it is 15 minutes old (401, or 404 Unknown Webhook).
EXPIRED = (401, 404)


class RulesButton(ChannelControl[Button], custom_id="pp:rules:{game:[a-z-]+}"):
    """Rules, under the table's message: the game's rules card, shown only to the presser."""

    def __init__(self, *, game: str, locale: str = i18n.ENGLISH.discord) -> None:
        label = i18n.localize(locale, tr("Rules"))
        super().__init__(self.button(label, discord.ButtonStyle.secondary, game=game))
        self.game = game

    async def act(self, interaction: Interaction) -> None:
        """Show the first page of the game's rules card to the presser."""
        await show_rules(interaction, self.game)


def board_text(board: Board, locale: str | None = None) -> str:
    """The table's message, in the language of ``locale`` (the board's own by default: the
    channel's, as the publisher sets it)."""
    locale = board.locale if locale is None else locale
    texts: list[str | Text] = [heading_text(board, locale)]
    if board.ended is not None:
        texts.append(board.ended)
    else:
        if board.deadline is None:
            texts.append(tr("Now: {step}.", step=board.step))
        else:
            ends = f"<t:{int(board.deadline)}:R>"
            texts.append(tr("Now: {step}, ends {deadline}.", step=board.step, deadline=ends))
        if board.waiting_on:
            done = [user for user in board.waiting_on if user in board.done]
            waiting = [user for user in board.waiting_on if user not in board.done]
            line = i18n.localize(
                locale,
                tr(
                    "Done: {players}.", players=mentions(done, locale) if done else tr("nobody yet")
                ),
            )
            if waiting:
                more = tr("Waiting for: {players}.", players=mentions(waiting, locale))
                line = f"{line} {i18n.localize(locale, more)}"
            texts.append(line)
        # The button's label as the button shows it (translated where the button is).
        show_hand = i18n.translate(locale, "Show my hand")
        texts.append(
            tr("**{show_hand}** shows your cards here, to you alone.", show_hand=show_hand)
        )
    return "\n".join(i18n.localize(locale, text, Mentions(locale)) for text in texts)


def heading_text(board: Board, locale: str = i18n.ENGLISH.discord) -> Text:
    """The table message's first line: the game, its number, its players and the chips held."""
    title: str | Text = tr("The game")
    if board.game:  # the game's name as the reader's /commands name it
        title = i18n.translate(locale, game_named(board.game).title, context=i18n.CHOICE)
    if board.escrow:
        return tr_plural(
            "**{game}**, game {number}, with {players}; {count} chip held.",
            "**{game}**, game {number}, with {players}; {count} chips held.",
            board.escrow,
            game=title,
            number=str(board.game_id),
            players=mentions(board.players, locale),
        )
    return tr(
        "**{game}**, game {number}, with {players}.",
        game=title,
        number=str(board.game_id),
        players=mentions(board.players, locale),
    )


def board_view(board: Board, locale: str | None = None) -> discord.ui.View:
    """Show my hand while the game is played, and the game's Rules."""
    locale = board.locale if locale is None else locale
    view = discord.ui.View(timeout=None)
    if board.ended is None:
        view.add_item(HandButton(game=board.game_id, locale=locale))
    if board.game is not None:
        view.add_item(RulesButton(game=board.game, locale=locale))
    return view


async def show_board(client: discord.Client, key: Key, board: Board) -> None:
    """Show the board as it is now in its message; a failure is logged, never raised (the next
    step shows it again)."""
    async with board.lock:
        text = board_text(board)
        if board.message is None or text == board.shown:
            return
        for _ in range(2):
            try:
                await board.message.edit(
                    content=text,
                    view=board_view(board),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                board.shown = text
                return
            except discord.HTTPException as error:
                through_interaction = not isinstance(board.message, discord.PartialMessage)
                if not (through_interaction and error.status in EXPIRED):
                    log.info("could not show the board of channel %s (%s)", key[1], error.status)
                    return
                # The interaction's token ran out: edit it as the bot's own message.
                channel = client.get_partial_messageable(key[1], guild_id=key[0])
                board.message = channel.get_partial_message(board.message.id)
