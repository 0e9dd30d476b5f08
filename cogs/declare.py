"""Declarations: the Play and Surrender buttons sent by DM for one declaration of one game."""

from __future__ import annotations

from typing import Final

import discord

import i18n
from cogs.common import localized, run, services, words
from cogs.controls import Button, GameControl, Interaction
from engine.settlement import HOUSE
from engine.stakes import PLAYERS
from engine.text import Text, tr, tr_plural
from tables.events import DeclarationsOpened
from tables.phase import Phase

_CHOICES: Final = {
    "play": (tr("Play"), discord.ButtonStyle.success),
    "surrender": (tr("Surrender"), discord.ButtonStyle.danger),
}


class DeclareButton(
    GameControl[Button],
    custom_id="pp:declare:{guild:int}:{channel:int}:{game:int}:{round:int}:{choice:play|surrender}",
):
    """Play or Surrender, sent by DM for one declaration of one game."""

    PHASE = Phase.DECLARING

    def __init__(
        self,
        *,
        guild: int,
        channel: int,
        game: int,
        round: int,
        choice: str,
        locale: str = i18n.ENGLISH.discord,
    ) -> None:
        label, style = _CHOICES[choice]
        ids = {"guild": guild, "channel": channel, "game": game, "round": round}
        super().__init__(self.button(label, style, locale=locale, **ids, choice=choice))
        self.at, self.game, self.round_ = (guild, channel), game, round
        self.play = choice == "play"

    async def act(self, interaction: Interaction) -> None:
        """Declare (the gate let through a player of this declaration)."""
        tables = services(interaction).tables
        if self.play:
            done = tr("You declared: play on. It stays secret until everyone has declared.")
        else:
            done = tr("You declared: surrender. It stays secret until everyone has declared.")
        await run(
            interaction,
            lambda: tables.declare(*self.key, interaction.user.id, self.play),
            done=words(interaction, done),
        )


def _chips(count: int) -> Text:
    return tr_plural("{count} chip", "{count} chips", count)


def _more_chips(count: int) -> Text:
    return tr_plural("{count} more chip", "{count} more chips", count)


def declaration_text(event: DeclarationsOpened, *, locale: str = i18n.ENGLISH.discord) -> str:
    """What a declaration's DM says playing on and surrendering cost, with the figures the
    settlement will move at this table (``event.stakes``, engine/stakes.py), in the language of
    ``locale`` (the player's)."""
    return localized(locale, declaration_words(event))


def declaration_words(event: DeclarationsOpened) -> Text:
    """`declaration_text` in no language yet."""
    number = event.round + 1
    cards = event.draw
    stakes = event.stakes
    if stakes is None:
        return tr(
            "Declaration {number} (practice: no chips move): **Play** brings {cards} more "
            "cards; **Surrender** leaves the game.",
            number=number,
            cards=cards,
        )
    cost = stakes.surrender
    if cost.payee == HOUSE:
        return tr(
            "Declaration {number}: **Play** puts up a buy-in of {buy_in} and brings {cards} more "
            "cards. **Surrender** folds: you lose your {ante}-chip ante and {paid} more to the "
            "dealer, {total} in all.",
            number=number,
            buy_in=_chips(stakes.play),
            cards=cards,
            ante=cost.put_in,
            paid=cost.paid,
            total=cost.total,
        )
    if stakes.play:
        play = tr(
            "**Play** puts {chips} into the pot and brings {cards} more cards.",
            chips=_more_chips(stakes.play),
            cards=cards,
        )
    else:
        play = tr("**Play** brings {cards} more cards at no further cost.", cards=cards)
    others = len(event.players) - 1
    if cost.payee == PLAYERS and others == 1:
        pays = tr("pays {chips} to the other player if they play on", chips=_chips(stakes.each))
    elif cost.payee == PLAYERS:
        pays = tr(
            "pays {chips} to each other player who plays on, {paid} if all {others} do",
            chips=_chips(stakes.each),
            paid=cost.paid,
            others=others,
        )
    else:
        pays = tr("puts {chips} into the pot", chips=_more_chips(cost.paid))
    surrender = tr(
        "**Surrender** {pays}, and your {put_in} in the pot stay there: {total} in all. If "
        "everyone surrenders, nobody pays and the pot is shared.",
        pays=pays,
        put_in=cost.put_in,
        total=cost.total,
    )
    return tr(
        "Declaration {number}: {play} {surrender}", number=number, play=play, surrender=surrender
    )


def declare_view(
    guild: int, channel: int, game: int, round_: int, *, locale: str = i18n.ENGLISH.discord
) -> discord.ui.View:
    """Play and Surrender for one declaration, labelled in the language of ``locale`` (the
    player's)."""
    view = discord.ui.View(timeout=None)
    for choice in _CHOICES:
        view.add_item(
            DeclareButton(
                guild=guild, channel=channel, game=game, round=round_, choice=choice, locale=locale
            )
        )
    return view
