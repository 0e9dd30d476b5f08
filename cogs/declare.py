"""Declarations: the Play and Surrender buttons sent by DM for one declaration of one game."""

from __future__ import annotations

from typing import Final

import discord

from cogs.common import run, services
from cogs.controls import Button, GameControl, Interaction
from engine.settlement import HOUSE
from engine.stakes import PLAYERS
from tables.events import DeclarationsOpened
from tables.phase import Phase

_CHOICES: Final = {
    "play": ("Play", discord.ButtonStyle.success),
    "surrender": ("Surrender", discord.ButtonStyle.danger),
}


class DeclareButton(
    GameControl[Button],
    custom_id="pp:declare:{guild:int}:{channel:int}:{game:int}:{round:int}:{choice:play|surrender}",
):
    """Play or Surrender, sent by DM for one declaration of one game."""

    PHASE = Phase.DECLARING

    def __init__(self, *, guild: int, channel: int, game: int, round: int, choice: str) -> None:
        label, style = _CHOICES[choice]
        ids = {"guild": guild, "channel": channel, "game": game, "round": round}
        super().__init__(self.button(label, style, **ids, choice=choice))
        self.at, self.game, self.round_ = (guild, channel), game, round
        self.play = choice == "play"

    async def act(self, interaction: Interaction) -> None:
        """Declare (the gate let through a player of this declaration)."""
        tables = services(interaction).tables
        word = "play on" if self.play else "surrender"
        await run(
            interaction,
            lambda: tables.declare(*self.key, interaction.user.id, self.play),
            done=f"You declared: {word}. It stays secret until everyone has declared.",
        )


def _chips(count: int, more: str = "") -> str:
    return f"{count} {more}chip" if count == 1 else f"{count} {more}chips"


def declaration_text(event: DeclarationsOpened) -> str:
    """What a declaration's DM says playing on and surrendering cost, with the figures the
    settlement will move at this table (``event.stakes``, engine/stakes.py)."""
    heading = f"Declaration {event.round + 1}"
    cards = f"{event.draw} more cards"
    stakes = event.stakes
    if stakes is None:
        return (
            f"{heading} (practice: no chips move): **Play** brings {cards}; **Surrender** "
            "leaves the game."
        )
    cost = stakes.surrender
    if cost.payee == HOUSE:
        play = f"**Play** puts up a buy-in of {_chips(stakes.play)} and brings {cards}."
        surrender = (
            f"**Surrender** folds: you lose your {cost.put_in}-chip ante and "
            f"{cost.paid} more to the dealer, {cost.total} in all."
        )
        return f"{heading}: {play} {surrender}"
    if stakes.play:
        play = f"**Play** puts {_chips(stakes.play, 'more ')} into the pot and brings {cards}."
    else:
        play = f"**Play** brings {cards} at no further cost."
    others = len(event.players) - 1
    if cost.payee == PLAYERS and others == 1:
        pays = f"pays {_chips(stakes.each)} to the other player if they play on"
    elif cost.payee == PLAYERS:
        pays = (
            f"pays {_chips(stakes.each)} to each other player who plays on, {cost.paid} if "
            f"all {others} do"
        )
    else:
        pays = f"puts {_chips(cost.paid, 'more ')} into the pot"
    surrender = (
        f"**Surrender** {pays}, and your {cost.put_in} in the pot stay there: {cost.total} in "
        "all. If everyone surrenders, nobody pays and the pot is shared."
    )
    return f"{heading}: {play} {surrender}"


def declare_view(guild: int, channel: int, game: int, round_: int) -> discord.ui.View:
    """Play and Surrender for one declaration."""
    view = discord.ui.View(timeout=None)
    for choice in _CHOICES:
        view.add_item(
            DeclareButton(guild=guild, channel=channel, game=game, round=round_, choice=choice)
        )
    return view
