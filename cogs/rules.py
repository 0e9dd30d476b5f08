"""A game's rules card (``/rules game:``, and **Rules** under the table's message): one page at a
time in an embed, to the asker alone, with its charts drawn as a picture and a button for each
page that turns the same message to it, after a restart too.

Every answer here is seen by the asker alone, so the card reads in their Discord client's
language (``interaction.locale``): the page, its buttons and the words drawn in its charts."""

from __future__ import annotations

import functools
from typing import Any, Final

import discord

import i18n
from cogs.common import picture, png
from cogs.controls import Control
from cogs.language import user_locale
from engine.errors import GameError
from engine.text import Term, tr
from render.rules import chart_png
from tables.games import GAMES, rules_card
from tables.rules import Chart, ReadChart, RulesCard
from tables.rules.pages import Words, read

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[Any]

#: What a page button reads when its game or page is not (or no longer) the bot's.
NO_PAGE: Final = tr(
    "That page of the rules is not there any more; ask `/{rules}` again.", rules=Term("rules")
)
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
        button = self.button(
            label or str(tr("Page {number}", number=page + 1)), style, game=game, page=page
        )
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
    locale = user_locale(interaction)
    card = rules_card(GAMES[game])
    page = card.pages[index]
    embed = page_embed(card, index, locale)
    view = pages_view(game, card, index, locale)
    content = None
    if new and (url := rules_url(interaction)) is not None:
        content = i18n.localize(locale, tr("The full rules: {url}", url=url))
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
    drawn = await picture(charts_png, localized_charts(page.charts, locale))
    embed.set_image(url=f"attachment://{CHART_FILE}")
    files = [png(drawn, CHART_FILE)]
    if new:
        await interaction.edit_original_response(
            content=content, embed=embed, view=view, attachments=files
        )
    else:
        await interaction.edit_original_response(embed=embed, view=view, attachments=files)


def words(locale: str, shown: Words) -> str:
    """A card's words (a text, or texts put together) in the language of ``locale``."""
    return read(shown, lambda text: i18n.localize(locale, text))


def page_embed(card: RulesCard, index: int, locale: str = i18n.ENGLISH.discord) -> discord.Embed:
    """One page as an embed: the game and the page's name, its text, where it is in the card."""
    page = card.pages[index]
    title = tr("{game}: {page}", game=Term(card.title, "choice"), page=page.name)
    embed = discord.Embed(title=words(locale, title), description=words(locale, page.text))
    footer = tr("Page {number} of {count}", number=index + 1, count=len(card.pages))
    embed.set_footer(text=words(locale, footer))
    return embed


def pages_view(
    game: str, card: RulesCard, index: int, locale: str = i18n.ENGLISH.discord
) -> discord.ui.View:
    """A button for each page, named as the page; the page shown is pressed already."""
    view = discord.ui.View(timeout=None)
    for number, page in enumerate(card.pages):
        label = words(locale, page.name)
        view.add_item(RulesPageButton(game=game, page=number, label=label, current=number == index))
    return view


def localized_charts(charts: tuple[Chart, ...], locale: str) -> tuple[ReadChart, ...]:
    """A page's charts with their words in the language of ``locale``, to be drawn."""
    return tuple(chart.read(lambda text: i18n.localize(locale, text)) for chart in charts)


# Remembered: a card's charts are the same until the bot is upgraded, and each page turn would
# draw them again.
@functools.lru_cache(maxsize=32)
def charts_png(charts: tuple[ReadChart, ...]) -> bytes:
    """A page's charts (their words read in a language already) as one picture."""
    return chart_png(charts)


def rules_url(interaction: Interaction) -> str | None:
    """Where the server's operator published the rules (``RULES_URL``), if anywhere."""
    settings = getattr(interaction.client, "settings", None)
    url = getattr(settings, "rules_url", None)
    return str(url) if url else None
