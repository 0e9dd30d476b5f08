"""A game's rules card (``/rules game:``, and **Rules** under the table's message): one page at a
time in an embed, to the asker alone, with its charts drawn as a picture and a button for each
page that turns the same message to it, after a restart too."""

from __future__ import annotations

import functools
from typing import Any, Final

import discord

from cogs.common import picture, png
from cogs.controls import Control
from engine.errors import GameError
from render.rules import chart_png
from tables.games import GAMES, rules_card
from tables.rules import Chart, RulesCard

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[Any]

#: What a page button reads when its game or page is not (or no longer) the bot's.
NO_PAGE: Final = "That page of the rules is not there any more; ask `/rules` again."
#: The picture's name in its message (the embed shows it as ``attachment://``).
CHART_FILE: Final = "chart.png"
#: Discord's limits on an embed: its title, its description, and everything in it together.
EMBED_TITLE: Final = 256
EMBED_DESCRIPTION: Final = 4096
EMBED_TOTAL: Final = 6000


class RulesPageButton(Control[Button], custom_id="pp:rulespage:{game:[a-z-]+}:{page:int}"):
    """One page of a game's rules card, under the card: it turns the message to its page."""

    def __init__(self, *, game: str, page: int, label: str = "", current: bool = False) -> None:
        style = discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary
        button = self.button(label or f"Page {page + 1}", style, game=game, page=page)
        button.disabled = current
        super().__init__(button)
        self.game = game
        self.page = page

    async def gate(self, interaction: Interaction) -> None:
        """``NO_PAGE`` for a game or page the bot does not have (an old or a forged id)."""
        card = card_of(self.game)
        if card is None or not 0 <= self.page < len(card.pages):
            raise GameError(NO_PAGE)

    async def act(self, interaction: Interaction) -> None:
        """Show the page in the message the button is under."""
        await show_page(interaction, self.game, self.page, new=False)


def card_of(game: str) -> RulesCard | None:
    """A game's rules card, or None for a game the bot does not have."""
    return rules_card(GAMES[game]) if game in GAMES else None


async def show_rules(interaction: Interaction, game: str) -> None:
    """Answer, to the asker alone, with the first page of a game's rules card."""
    if card_of(game) is None:
        raise GameError(NO_PAGE)
    await show_page(interaction, game, 0, new=True)


async def show_page(interaction: Interaction, game: str, index: int, *, new: bool) -> None:
    """A page of the card: a new answer (with the published rules' address, if there is one)
    or the same message turned to it. A page with charts is drawn off the loop after the
    interaction is acknowledged."""
    card = rules_card(GAMES[game])
    page = card.pages[index]
    embed = page_embed(card, index)
    view = pages_view(game, card, index)
    content = None
    if new and (url := rules_url(interaction)) is not None:
        content = f"The full rules: {url}"
    if not page.charts:
        if new:
            await interaction.response.send_message(content, embed=embed, view=view, ephemeral=True)
        else:
            await interaction.response.edit_message(embed=embed, view=view, attachments=[])
        return
    if new:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
    drawn = await picture(charts_png, page.charts)
    embed.set_image(url=f"attachment://{CHART_FILE}")
    files = [png(drawn, CHART_FILE)]
    if new:
        await interaction.edit_original_response(
            content=content, embed=embed, view=view, attachments=files
        )
    else:
        await interaction.edit_original_response(embed=embed, view=view, attachments=files)


def page_embed(card: RulesCard, index: int) -> discord.Embed:
    """One page as an embed: the game and the page's name, its text, where it is in the card."""
    page = card.pages[index]
    embed = discord.Embed(title=f"{card.title}: {page.name}", description=page.text)
    embed.set_footer(text=f"Page {index + 1} of {len(card.pages)}")
    return embed


def pages_view(game: str, card: RulesCard, index: int) -> discord.ui.View:
    """A button for each page, named as the page; the page shown is pressed already."""
    view = discord.ui.View(timeout=None)
    for number, page in enumerate(card.pages):
        view.add_item(
            RulesPageButton(game=game, page=number, label=page.name, current=number == index)
        )
    return view


# Remembered: a card's charts are the same until the bot is upgraded, and each page turn would
# draw them again.
@functools.lru_cache(maxsize=32)
def charts_png(charts: tuple[Chart, ...]) -> bytes:
    """A page's charts as one picture."""
    return chart_png(charts)


def rules_url(interaction: Interaction) -> str | None:
    """Where the server's operator published the rules (``RULES_URL``), if anywhere."""
    settings = getattr(interaction.client, "settings", None)
    url = getattr(settings, "rules_url", None)
    return str(url) if url else None
