"""``/evaluate`` (the hand lookup) and ``/rules``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import acknowledge, answer, picture, png, say
from engine.cards import parse_cards
from engine.errors import GameError
from engine.evaluate import HAND_RULES, evaluate
from render import hand_png
from tables.games import GAMES, rules_summary

RULES = [app_commands.Choice(name=name, value=name) for name in HAND_RULES]
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
RULES_LINK = "The full rules, with every ruling: docs/rules.md in the bot's repository."


class InfoCog(commands.Cog):
    """Looking things up."""

    @app_commands.command(name="evaluate", description="Name any hand (jokers: W)")
    @app_commands.describe(cards='e.g. "As Ks Qs Js W"', variant="Whose hand ranking to use")
    @app_commands.choices(variant=RULES)
    async def evaluate_hand(
        self,
        interaction: discord.Interaction[Any],
        cards: str,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        """Name a hand and draw it."""
        await acknowledge(interaction)
        rules = HAND_RULES[variant.value if variant else "showdown"]
        try:
            hand = parse_cards(cards)
            value = evaluate(hand, rules)
        except GameError as error:
            await answer(interaction, say(error))
            return
        data = await picture(hand_png, hand, title=value.label)
        await answer(
            interaction,
            f"**{value.label}** ({value.category.value.replace('_', ' ')}, {len(hand)} cards).",
            file=png(data, "hand.png"),
        )

    @app_commands.command(name="rules", description="How a game is played")
    @app_commands.describe(variant="Which game")
    @app_commands.choices(variant=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], variant: app_commands.Choice[str] | None = None
    ) -> None:
        """Summarise one game, or list them all."""
        if variant is None:
            text = "\n".join(f"**{spec.title}** (`{name}`)" for name, spec in GAMES.items())
            text = "Games at this bot:\n" + text + "\nAsk `/rules variant:` for one of them."
        else:
            text = rules_summary(GAMES[variant.value])
        await interaction.response.send_message(f"{text}\n{RULES_LINK}", ephemeral=True)
