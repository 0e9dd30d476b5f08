"""A game's rules card through the simulated Discord: `/rules game:` and the table's **Rules**
answer with its first page and a button per page; each button turns the same message to its
page, the scoring chart as a picture; the buttons work after a restart; and every page fits an
embed and speaks to players, not to the project."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from cogs.rules import (
    CHART_FILE,
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    EMBED_TOTAL,
    NO_PAGE,
    page_embed,
    pages_view,
)
from tables.games import GAMES, rules_card
from tests.cogs.helpers import Scene, board_message, forged, labels, start_game

#: Words of the project, never of a player's rules: the rule documents, the rulings, sections.
JARGON = ("seed", "ruling", "§", "docs/", "engine", "variant", "RULES_URL")
#: Discord's limit on a button's label, and on the buttons of one message.
LABEL, BUTTONS = 80, 25


def embed_of(result: Any) -> Any:
    [embed] = result.response.embeds
    return embed


async def picture_width(attachment: Any) -> int:
    with Image.open(io.BytesIO(await attachment.read())) as image:
        return int(image.width)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_of_every_card_fits_one_embed(game: str) -> None:
    card = rules_card(GAMES[game])
    assert 3 <= len(card.pages) <= BUTTONS
    for index, page in enumerate(card.pages):
        embed = page_embed(card, index)
        assert embed.title is not None and len(embed.title) <= EMBED_TITLE
        assert embed.description is not None and len(embed.description) >= 100
        assert len(embed.description) <= EMBED_DESCRIPTION
        assert len(embed) <= EMBED_TOTAL
        assert 1 <= len(str(page.name)) <= LABEL
    assert len({page.name for page in card.pages}) == len(card.pages)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_page_speaks_the_projects_jargon_or_draws_a_table_in_text(game: str) -> None:
    card = rules_card(GAMES[game])
    for page in card.pages:
        words = " ".join([str(page.name), str(page.text), *(str(c.title) for c in page.charts)])
        said = [word for word in JARGON if word.lower() in words.lower()]
        assert not said, (page.name, said)
        # Discord shows no markdown tables: a chart is a picture.
        assert not re.search(r"^\s*\|", str(page.text), re.M), page.name
    assert any(page.charts for page in card.pages)  # the scoring or payouts, drawn


async def test_rules_answers_with_the_first_page_and_a_button_per_page(scene: Scene) -> None:
    ann = scene.members[0]
    shown = await ann.slash(scene.channel, "rules", game="showdown")
    assert shown.ephemeral
    embed = embed_of(shown)
    assert embed.title == "Showdown Version: How a game goes"
    assert embed.description.splitlines()[0] == (
        "2 to 6 players, each against all the others. The shoe: 3 decks and 4 jokers (160 cards)."
    )
    assert (
        "- Declaration 1: **play on** (put 10 more chips in the pot and get 3 more cards) or "
        "**surrender**." in embed.description
    )
    assert embed.footer.text == "Page 1 of 5"
    assert labels(shown.response.message) == [
        "How a game goes",
        "Setting your hands",
        "What beats what",
        "Scoring",
        "Surrender",
    ]
    assert not shown.response.attachments
    # Was: the game's section of the rules file pasted into an embed, cut off at its end.
    assert "more in" not in embed.description


async def test_a_page_button_turns_the_same_message_to_its_page(scene: Scene) -> None:
    ann = scene.members[0]
    shown = await ann.slash(scene.channel, "rules", game="standard")
    hands = await ann.click(shown.response.message, label="Setting your hands")
    assert hands.response.id == shown.response.id  # turned, not answered anew
    embed = embed_of(hands)
    assert embed.title == "Standard (17 cards): Setting your hands"
    assert embed.description.splitlines()[:4] == [
        "Set at least 13 of your cards as three hands, weakest first:",
        "",
        "- **Front**: 3 cards; 5 if a straight or better",
        "- **Middle**: 5 cards; 6 or 7 if all one rank or a straight flush that long",
    ]
    assert embed.footer.text == "Page 2 of 6"
    # The page shown is pressed already; the others may be pressed.
    [current] = [
        child
        for row in hands.response.message.components
        for child in row.children
        if child.disabled
    ]
    assert current.label == "Setting your hands"
    scoring = await ann.click(hands.response.message, label="Scoring")
    embed = embed_of(scoring)
    assert embed.title == "Standard (17 cards): Scoring"
    assert embed.description.splitlines()[3] == "- Every point counts twice in this game."
    assert embed.image.url == f"attachment://{CHART_FILE}"
    [chart] = scoring.response.attachments
    assert chart.filename == CHART_FILE
    assert await picture_width(chart) <= 720
    # A page without a chart takes the picture away.
    surrender = await ann.click(scoring.response.message, label="Surrender")
    assert embed_of(surrender).title == "Standard (17 cards): Surrender"
    assert (
        "**A surrender costs 30 in all** (with an ante of 20), whatever the table's size."
        in embed_of(surrender).description
    )
    assert not surrender.response.attachments and not embed_of(surrender).image.url


async def test_the_tables_rules_button_shows_the_card(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    bob = players[1]
    pressed = await bob.click(board_message(scene), label="Rules")
    assert pressed.ephemeral
    assert embed_of(pressed).title == "Casino Version: How a game goes"
    payouts = await bob.click(pressed.response.message, label="Payouts")
    lines = embed_of(payouts).description.splitlines()
    # The seed's own dollar figures at a 5-chip ante, from the settlement's payout.
    assert lines[-4:] == [
        "**With a 5-chip ante**",
        "+1 wins 10 · +2 wins 15 · +3 wins 20 · +4 wins 30 · +5 wins 35 · +6 wins 40",
        "\N{MINUS SIGN}1 loses 15 · \N{MINUS SIGN}2 loses 20 · \N{MINUS SIGN}3 loses 25 · "
        "\N{MINUS SIGN}4 loses 30 · \N{MINUS SIGN}5 loses 35",
        "A fold loses 10.",
    ]


async def test_the_pages_still_turn_after_a_restart(scene: Scene) -> None:
    ann = scene.members[0]
    shown = await ann.slash(scene.channel, "rules", game="paigow")
    await scene.restart()
    payouts = await ann.click(shown.response.message, label="Payouts")
    assert embed_of(payouts).title == "Pai Gow poker: Payouts"
    assert embed_of(payouts).description.splitlines()[0] == (
        "- Beat both of the banker's hands: you win even money, less a 5% commission "
        "(rounded down to whole chips)."
    )
    assert payouts.response.attachments


async def test_a_page_button_of_no_game_or_no_page_reads_one_sentence(scene: Scene) -> None:
    ann = scene.members[0]
    for custom_id in ("pp:rulespage:poker:0", "pp:rulespage:showdown:99"):
        assert await forged(scene, ann, custom_id) == str(NO_PAGE)
    # The message the button was under is as it was.
    assert ann.user.dm_channel.last_message.content == "forged"


async def test_the_card_gives_the_published_rules_address_when_there_is_one(
    scene: Scene,
) -> None:
    ann = scene.members[0]
    scene.bot.settings = replace(scene.bot.settings, rules_url="https://example.org/rules")
    shown = await ann.slash(scene.channel, "rules", game="three-card")
    assert shown.response.content == "The full rules: https://example.org/rules"
    assert embed_of(shown).title == "Three-card table game: How a game goes"
    bonuses = await ann.click(shown.response.message, label="Bonuses")
    assert bonuses.response.content == "The full rules: https://example.org/rules"
    assert bonuses.response.attachments


def test_a_cards_buttons_are_its_pages_in_order() -> None:
    card = rules_card(GAMES["showdown"])
    view = pages_view("showdown", card, 3)
    ids = [child.custom_id for child in view.children]  # type: ignore[attr-defined]
    assert ids == [f"pp:rulespage:showdown:{index}" for index in range(len(card.pages))]
