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

from cogs.arrange import HandButton
from cogs.boards import Board, Key
from cogs.common import mentions
from cogs.controls import ChannelControl
from cogs.rules import show_rules
from tables.games import game_named

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[Any]
#: An interaction's token is refused once it is 15 minutes old (401, or 404 Unknown Webhook).
EXPIRED = (401, 404)


class RulesButton(ChannelControl[Button], custom_id="pp:rules:{game:[a-z-]+}"):
    """Rules, under the table's message: the game's rules card, shown only to the presser."""

    def __init__(self, *, game: str) -> None:
        super().__init__(self.button("Rules", discord.ButtonStyle.secondary, game=game))
        self.game = game

    async def act(self, interaction: Interaction) -> None:
        """Show the first page of the game's rules card to the presser."""
        await show_rules(interaction, self.game)


def board_text(board: Board) -> str:
    """The table's message."""
    title = game_named(board.game).title if board.game else "The game"
    held = f"; {board.escrow:,} chips held" if board.escrow else ""
    lines = [f"**{title}**, game {board.game_id}, with {mentions(board.players)}{held}."]
    if board.ended is not None:
        lines.append(board.ended)
        return "\n".join(lines)
    ends = "" if board.deadline is None else f", ends <t:{int(board.deadline)}:R>"
    lines.append(f"Now: {board.step}{ends}.")
    if board.waiting_on:
        done = [user for user in board.waiting_on if user in board.done]
        waiting = [user for user in board.waiting_on if user not in board.done]
        lines.append(
            f"Done: {mentions(done) if done else 'nobody yet'}."
            + (f" Waiting for: {mentions(waiting)}." if waiting else "")
        )
    lines.append("**Show my hand** shows your cards here, to you alone.")
    return "\n".join(lines)


def board_view(board: Board) -> discord.ui.View:
    """Show my hand while the game is played, and the game's Rules."""
    view = discord.ui.View(timeout=None)
    if board.ended is None:
        view.add_item(HandButton(game=board.game_id))
    if board.game is not None:
        view.add_item(RulesButton(game=board.game))
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
