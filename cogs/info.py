"""``/evaluate`` (the hand lookup) and ``/rules``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import acknowledge, answer, picture, png
from engine.cards import parse_cards
from engine.evaluate import HAND_RULES, evaluate
from render import hand_png
from tables.games import GAMES, entry_of, rules_summary

RULES = [app_commands.Choice(name=name, value=name) for name in HAND_RULES]
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
#: The rules as players read them, shipped with the bot; ``RULES_URL`` may name a published copy.
RULES_FILE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
#: Discord's limit on an embed's description.
EMBED_LIMIT = 4096

#: The longest ``RULES_URL`` the bot accepts (bot.py); /help shows it whole within Discord's limit.
RULES_URL_LIMIT: Final = 500

HELP = """**Pyramid Poker: how a game goes**
1. `/table create` opens a table in a channel (options default to the server's; `practice:`
   plays for no chips, `fill:` seats computers in the empty seats).
2. Players press **Join** (the host may **Add computer**); the host presses **Start**.
3. Your cards come by DM (or `/hand`, or **Show my hand**, if your DMs are closed).
4. Games with declarations ask **Play** or **Surrender** by DM; choices are revealed together.
5. Set your hands, weakest first. Three ways:
   - **Build hands**: choose each hand from a menu of your cards;
   - **Type hands** or `/arrange hands:"As | Kh Kd 9s | ..."`: text, checked and previewed;
   - **Suggest**: the solver's arrangement, then **Take it**.
   If you set nothing before the deadline, the table sets your hands for you.
6. The showdown shows everyone's hands and chips; **Deal again** plays on, and **Review**
   shows you your hands beside the best setting of the same cards.

**Commands**
- Tables: `/table create`, `join`, `leave`, `start`, `status`, `cancel`, `kick`, `addbot`
- Your hand: `/hand`, `/arrange hands`, `/arrange build`, `/arrange suggest`
- Chips: `/balance`, `/daily`, `/history`, `/leaderboard`
- Past games: `/review` (your hands beside the best), `/replay` (a showdown again)
- Looking things up: `/help` (this), `/evaluate` names any hand, `/rules` explains a game
- Server admins: `/settings` (`status`: the bot's processes), `/chips grant`, `take`, `ledger`
"""


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
        data = await picture(hand_png, hand, title=value.label)
        await answer(
            interaction,
            f"**{value.label}** ({value.category.value.replace('_', ' ')}, {len(hand)} cards).",
            file=png(data, "hand.png"),
        )

    @app_commands.command(name="help", description="How a game goes, and every command")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """A short guide, only to the one who asked."""
        # Fits with any RULES_URL the bot accepts (tests/cogs/test_answers.py): cutting the text
        # would cut the address.
        await interaction.response.send_message(
            f"{HELP}{rules_pointer(interaction)}", ephemeral=True
        )

    @app_commands.command(name="rules", description="How a game is played")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        """Summarise one game (with its full rules), or list them all."""
        if game is None:
            text = "\n".join(f"**{spec.title}** (`{name}`)" for name, spec in GAMES.items())
            text = "Games at this bot:\n" + text + "\nAsk `/rules game:` for one of them."
            await interaction.response.send_message(
                f"{text}\n{rules_pointer(interaction)}", ephemeral=True
            )
            return
        await show_rules(interaction, game.value)


async def show_rules(interaction: discord.Interaction[Any], game: str) -> None:
    """Answer, to the presser alone, with a game's summary and its full rules (the published
    page, or the game's section of the rules the bot ships)."""
    summary = rules_summary(GAMES[game])
    url = rules_url(interaction)
    if url is not None:
        await interaction.response.send_message(f"{summary}\nThe full rules: {url}", ephemeral=True)
        return
    embed = discord.Embed(title=GAMES[game].title, description=rules_section(game))
    await interaction.response.send_message(summary, embed=embed, ephemeral=True)


def rules_url(interaction: discord.Interaction[Any]) -> str | None:
    """Where the server's operator published the rules (``RULES_URL``), if anywhere."""
    settings = getattr(interaction.client, "settings", None)
    url = getattr(settings, "rules_url", None)
    return str(url) if url else None


def rules_pointer(interaction: discord.Interaction[Any]) -> str:
    """A line saying where the full rules are."""
    url = rules_url(interaction)
    if url is not None:
        return f"The full rules: {url}"
    return "The full rules of a game: `/rules game:`."


def rules_section(game: str) -> str:
    """A game's section of docs/rules.md, cut to fit an embed."""
    text = RULES_FILE.read_text("utf-8")
    # Each game's entry names the heading its section starts with.
    start = text.index(entry_of(game).section)
    following = text.find("\n## ", start + 1)
    section = text[start : following if following != -1 else len(text)].strip()
    section = section.split("\n", 1)[1].strip() if "\n" in section else section
    if len(section) > EMBED_LIMIT:
        section = section[: EMBED_LIMIT - 80].rsplit("\n", 1)[0] + "\n\n…(more in docs/rules.md)"
    return section
