"""``/evaluate`` (the hand lookup), ``/help`` and ``/rules`` (the games' rules cards,
cogs/rules.py)."""

from __future__ import annotations

import string
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.common import acknowledge, answer, picture, png, words
from cogs.language import user_locale
from cogs.pictures import game_title
from cogs.rules import rules_url, show_rules
from engine.cards import parse_cards
from engine.evaluate import HAND_RULES, evaluate
from engine.hand_rules import Category
from engine.text import Term, Text, tr, tr_plural
from render import hand_png
from tables.games import GAMES
from tables.hand_names import hand_name

RULES = [app_commands.Choice(name=name, value=name) for name in HAND_RULES]
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]

#: A hand's category as /evaluate names it.
CATEGORIES: Final[dict[Category, Text]] = {
    Category.HIGH_CARD: tr("high card"),
    Category.PAIR: tr("pair"),
    Category.THREE_CARD_STRAIGHT: tr("three card straight"),
    Category.THREE_CARD_FLUSH: tr("three card flush"),
    Category.THREE_CARD_STRAIGHT_FLUSH: tr("three card straight flush"),
    Category.TWO_PAIR: tr("two pair"),
    Category.THREE_OF_A_KIND: tr("three of a kind"),
    Category.STRAIGHT: tr("straight"),
    Category.FLUSH: tr("flush"),
    Category.FULL_HOUSE: tr("full house"),
    Category.FOUR_OF_A_KIND: tr("four of a kind"),
    Category.STRAIGHT_FLUSH: tr("straight flush"),
    Category.FIVE_OF_A_KIND: tr("five of a kind"),
    Category.SIX_OF_A_KIND: tr("six of a kind"),
    Category.SEVEN_OF_A_KIND: tr("seven of a kind"),
    Category.EIGHT_OF_A_KIND: tr("eight of a kind"),
    Category.NINE_OF_A_KIND: tr("nine of a kind"),
    Category.TEN_OF_A_KIND: tr("ten of a kind"),
}

#: The longest ``RULES_URL`` the bot accepts (bot.py); /help shows it whole within Discord's limit.
RULES_URL_LIMIT: Final = 500

#: The guide; ``{word}`` is a command's name, ``{opt_word}`` an option's and ``{btn_word}`` a
#: button's label (`BUTTONS`), each filled in the reader's language.
HELP = i18n.message(
    "**Pyramid Poker: how a game goes**\n"
    "1. `/{table} {create}` opens a table in a channel (`{opt_practice}:` for no chips).\n"
    "2. Players press **{btn_join}** (the host may **{btn_computer}**); the host presses "
    "**{btn_start}**.\n"
    "3. Your cards come by DM (or `/{hand}`, or **{btn_hand}**, if your DMs are closed).\n"
    "4. Declarations (**{btn_play}** or **{btn_surrender}**) come by DM, revealed together.\n"
    "5. Set your hands, weakest first. Three ways:\n"
    "   - **{btn_build}**: choose each hand from a menu of your cards;\n"
    "   - **{btn_type}** or `/{arrange} {hands}`: typed, checked and previewed;\n"
    "   - **{btn_suggest}**: the solver's arrangement, then **{btn_take}**.\n"
    "   Set nothing by the deadline and the table sets them for you.\n"
    "6. The showdown shows everyone's hands and chips; **{btn_again}** plays on, "
    "**{btn_review}** shows your hands beside the best setting.\n"
    "\n"
    "**Commands**\n"
    "- Tables: `/{table} {create}`, `{join}`, `{leave}`, `{start}`, `{status}`, `{cancel}`, "
    "`{kick}`, `{addbot}`\n"
    "- Your hand: `/{hand}`, `/{arrange} {hands}`, `/{arrange} {build}`, `/{arrange} {suggest}`\n"
    "- Chips: `/{balance}`, `/{daily}`, `/{history}`, `/{leaderboard}`, `/{rating}`, "
    "`/{season}`, `/{profile}`\n"
    "- Past games: `/{review}`, `/{replay}`\n"
    "- Daily challenge: `/{challenge} {play}`, `{results}`; `/{tournament} {create}`, "
    "`{status}`, `{standings}`, `{leaderboard}`, `{cancel}`\n"
    "- Look-ups: `/{help}`, `/{evaluate}`, `/{rules}`\n"
    "- Server admins: `/{settings}` (`{language}`: the channels' language), `/{chips} {grant}`, "
    "`{take}`, `{ledger}`\n"
)
FULL_RULES = i18n.message("The full rules: {url}")
RULES_PAGES = i18n.message("A game's rules, page by page: `/{rules} {opt_game}:`.")
#: The prefix of a placeholder that is an option's name, not a command's.
OPTION_PREFIX = "opt_"
#: The prefix of a placeholder that is a button's label.
BUTTON_PREFIX = "btn_"
#: The buttons /help names, by placeholder: the same texts as the buttons' labels, so that
#: each language's /help names them as its players see them.
BUTTONS: Final = {
    "btn_join": tr("Join"),
    "btn_computer": tr("Add computer"),
    "btn_start": tr("Start"),
    "btn_hand": tr("Show my hand"),
    "btn_play": tr("Play"),
    "btn_surrender": tr("Surrender"),
    "btn_build": tr("Build hands"),
    "btn_type": tr("Type hands"),
    "btn_suggest": tr("Suggest"),
    "btn_take": tr("Take it"),
    "btn_again": tr("Deal again"),
    "btn_review": tr("Review"),
}


class InfoCog(commands.Cog):
    """Looking things up."""

    @app_commands.command(name="evaluate", description="Name any hand (jokers: W)")
    @app_commands.describe(cards='e.g. "As Ks Qs Js W"', game="Whose hand ranking to use")
    @app_commands.choices(game=RULES)
    async def evaluate_hand(
        self,
        interaction: discord.Interaction[Any],
        cards: str,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """Name a hand and draw it."""
        await acknowledge(interaction)
        rules = HAND_RULES[game.value if game else "showdown"]
        hand = parse_cards(cards)
        value = evaluate(hand, rules)
        locale = user_locale(interaction)
        named = hand_name(value.label)
        data = await picture(hand_png, hand, title=named, locale=locale)
        text = tr_plural(
            "**{hand}** ({category}, {count} card).",
            "**{hand}** ({category}, {count} cards).",
            len(hand),
            hand=named,
            category=CATEGORIES.get(value.category, value.category.value.replace("_", " ")),
        )
        await answer(interaction, words(interaction, text), file=png(data, "hand.png"))

    @app_commands.command(name="help", description="How a game goes, and every command")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """A short guide, only to the one who asked."""
        # Fits with any RULES_URL the bot accepts (tests/cogs/test_answers.py): cutting the text
        # would cut the address.
        locale = user_locale(interaction)
        await interaction.response.send_message(
            f"{translate_help(locale, HELP)}{rules_pointer(interaction, locale)}", ephemeral=True
        )

    @app_commands.command(name="rules", description="How a game is played")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        """A game's rules card, page by page, or the list of the games."""
        if game is None:
            locale = user_locale(interaction)
            listed = "\n".join(
                f"**{game_title(spec, locale)}** (`{name}`)" for name, spec in GAMES.items()
            )
            text = (
                words(interaction, tr("Games at this bot:"))
                + f"\n{listed}\n"
                + words(
                    interaction,
                    tr(
                        "`/{rules} {opt_game}:` shows one's rules, page by page.",
                        rules=Term("rules"),
                        opt_game=Term("game", "option"),
                    ),
                )
            )
            if (url := rules_url(interaction)) is not None:
                text += "\n" + translate_help(locale, FULL_RULES, url=url)
            await interaction.response.send_message(text, ephemeral=True)
            return
        await show_rules(interaction, game.value)


def translate_help(locale: str, msgid: str, **params: object) -> str:
    """``msgid`` in ``locale``'s language, its command and option placeholders filled with the
    names that language's Discord client shows, and its buttons' with their labels."""
    names: dict[str, object] = {}
    for _, field, _, _ in string.Formatter().parse(msgid):
        if field is None or field in params:
            continue
        if field.startswith(BUTTON_PREFIX):
            names[field] = i18n.localize(locale, BUTTONS[field])
        elif field.startswith(OPTION_PREFIX):
            names[field] = i18n.translate(
                locale, field.removeprefix(OPTION_PREFIX), context=i18n.OPTION
            )
        else:
            names[field] = i18n.translate(locale, field, context=i18n.COMMAND)
    text = i18n.translations(i18n.language_of(locale)).text(msgid)
    return i18n.fill(locale, text, {**names, **params})


def rules_pointer(interaction: discord.Interaction[Any], locale: str = "en-US") -> str:
    """A line saying where the full rules are."""
    url = rules_url(interaction)
    if url is not None:
        return translate_help(locale, FULL_RULES, url=url)
    return translate_help(locale, RULES_PAGES)
