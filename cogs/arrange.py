"""Playing a hand: ``/hand`` and Show my hand, and setting the hands with ``/arrange`` or the
DM's buttons (Suggest and Take it, Type hands and its form, a preview with Set these hands).

The builder's menus and Set these hands itself are in ``cogs/builder.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.builder import (
    EMPTY,
    BuildItem,
    ConfirmButton,
    TableDesk,
    build_step,
    confirm_item,
    set_hands,
    table_place,
)
from cogs.common import acknowledge, answer, guarded, localized, picture, png, services, words
from cogs.controls import Button, ChannelControl, GameControl, Interaction, current_table
from cogs.declare import declare_view
from cogs.pictures import game_title, hand_picture, setting_picture
from engine.automatics import automatic_name
from engine.cards import AnyCard
from engine.errors import GameError
from engine.text import Term, Text, tr
from render.style import signed
from tables.games import GameSpec
from tables.hands import (
    Setting,
    Suggestion,
    has_automatics,
    read_setting,
    setting_shape,
    typed_strongest_first,
    unsplit_text,
)
from tables.manager import NO_GAME, NO_TABLE
from tables.phase import Phase
from tables.table import Table


class PlayCog(commands.Cog):
    """The player's own cards and hands."""

    @app_commands.command(name="hand", description="See your cards at this channel's table")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The caller's cards, shown only to them (the fallback for closed DMs)."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        await show_hand(interaction, guild, channel)

    arrange = app_commands.Group(name="arrange", description="Set your hands", guild_only=True)

    @arrange.command(name="hands", description="Set your hands, weakest first, separated by |")
    @app_commands.describe(
        hands='e.g. "As | Kh Kd 9s | Qs Qh Qd | ..."; add "|| cards" to name the discards',
        automatic="Declare an automatic (17-card games): three full houses, dragon, ...",
    )
    async def arrange_hands(
        self, interaction: discord.Interaction[Any], hands: str, automatic: str | None = None
    ) -> None:
        """Check the hands and preview them as a picture, with a button that sets them."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        await acknowledge(interaction)
        table = await typed_table(interaction, guild, channel)
        await preview_text(interaction, (guild, channel), table, hands, automatic)

    @arrange.command(name="build", description="Choose your hands card by card from menus")
    async def arrange_build(self, interaction: discord.Interaction[Any]) -> None:
        """Open the builder (only the caller sees it)."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        typed = await typed_table(interaction, guild, channel)
        assert typed.game_id is not None
        # The builder's own gate, for the typed command: its controls then find it again.
        key, table = await current_table(
            interaction, typed.game_id, phase=Phase.ARRANGING, key=(guild, channel)
        )
        await build_step(interaction, TableDesk(key, table, interaction.user.id), EMPTY, "start")

    @arrange.command(name="suggest", description="The solver's arrangement of your cards")
    async def arrange_suggest(self, interaction: discord.Interaction[Any]) -> None:
        """Show the suggestion with a Take it button."""
        guild, channel = interaction.guild_id, interaction.channel_id
        assert guild is not None and channel is not None
        await acknowledge(interaction)
        table = await typed_table(interaction, guild, channel)
        await suggest(interaction, (guild, channel), table)


# ----- the player's cards ------------------------------------------------------------------------


class HandButton(ChannelControl[Button], custom_id="pp:hand:{game:int}"):
    """ "Show my hand" in the channel: the presser's cards, shown only to them."""

    ELSEWHERE = tr("Use this in the channel of your table.")

    def __init__(self, *, game: int, locale: str = i18n.ENGLISH.discord) -> None:
        label = tr("Show my hand")
        super().__init__(
            self.button(label, discord.ButtonStyle.secondary, locale=locale, game=game)
        )
        self.game = game

    async def act(self, interaction: Interaction) -> None:
        """Show the cards privately."""
        await show_hand(interaction, *self.where)


async def show_hand(interaction: Interaction, guild: int, channel: int) -> None:
    """Answer with the presser's cards at this channel's table, visible only to them, with the
    buttons of the phase (so a player whose DMs are closed can still play)."""
    await acknowledge(interaction)
    found = services(interaction)
    cards = await found.tables.hand(guild, channel, interaction.user.id)
    table = await found.tables.table(guild, channel)
    locale = interaction.locale.value
    view = None
    text = words(interaction, tr("Your cards (only you see this)."))
    subtitle = "" if table is None else game_title(table.spec, locale)
    if table is not None and table.game_id is not None:
        seat = table.seat_of(interaction.user.id)
        if seat.is_active and table.phase is Phase.DECLARING:
            view = declare_view(guild, channel, table.game_id, table.round, locale=locale)
            number = table.round + 1
            text += " " + words(
                interaction, tr("Declaration {number}: play on or surrender?", number=number)
            )
            subtitle += " · " + words(interaction, tr("declaration {number}", number=number))
        elif seat.is_active and table.phase is Phase.ARRANGING:
            view = arrange_view(guild, channel, table.game_id, locale=locale)
            text += " " + words(
                interaction, tr("Set your hands: build them, type them, or ask for a suggestion.")
            )
            subtitle += " · " + words(interaction, tr("set your hands"))
    data = await picture(hand_picture, cards, subtitle=subtitle)
    await answer(interaction, text, file=png(data, "hand.png"), view=view)


# ----- the solver's suggestion -------------------------------------------------------------------


class GameButton(GameControl[Button]):
    """A button of one game at one table: its id names the server, the channel and the game."""

    LABEL: ClassVar[Text]
    STYLE: ClassVar[discord.ButtonStyle]

    def __init__(
        self, *, guild: int, channel: int, game: int, locale: str = i18n.ENGLISH.discord
    ) -> None:
        ids = {"guild": guild, "channel": channel, "game": game}
        super().__init__(self.button(self.LABEL, self.STYLE, locale=locale, **ids))
        self.at, self.game = (guild, channel), game


class SuggestButton(GameButton, custom_id="pp:suggest:{guild:int}:{channel:int}:{game:int}"):
    """Suggest: the solver's arrangement of the presser's cards, with Take it."""

    LABEL, STYLE = tr("Suggest"), discord.ButtonStyle.primary

    async def act(self, interaction: Interaction) -> None:
        """Show the suggestion (the gate let through a player setting hands in this game)."""
        await suggest(interaction, self.key, self.table)


async def typed_table(interaction: Interaction, guild: int, channel: int) -> Table:
    """The channel's table with a game under way, for a typed ``/arrange``; else the sentence
    that says what the channel has instead (no table, or a table in its lobby)."""
    table = await services(interaction).tables.table(guild, channel)
    if table is None:
        raise GameError(NO_TABLE)
    if not table.in_game or table.game_id is None:
        raise GameError(NO_GAME)
    return table


async def suggest(interaction: Interaction, key: tuple[int, int], table: Table) -> None:
    """Answer with the solver's setting of the presser's cards at ``table`` (found by the
    typed command or by the button's gate) and a button to take it. While the solver's best is
    still being made, a first answer (made in milliseconds) is shown at once, and the best
    replaces it in the same message when it comes."""
    await acknowledge(interaction)
    found = services(interaction)
    assert table.game_id is not None
    user = interaction.user.id
    suggestion, best = await found.tables.suggest_now(*key, user)
    await show_suggestion(interaction, key, table, suggestion, first=not best)
    if best:
        return
    try:
        better = await found.tables.suggest(*key, user)
    except GameError:
        return  # the hands are no longer to be set (the deadline came): the first answer stays
    await show_suggestion(interaction, key, table, better, first=False)


async def show_suggestion(
    interaction: Interaction,
    key: tuple[int, int],
    table: Table,
    suggestion: Suggestion,
    *,
    first: bool,
) -> None:
    """The suggestion in the interaction's answer, with its picture and Take it."""
    found = services(interaction)
    assert table.game_id is not None
    setting = suggestion.setting
    found.suggestions.remember(table.game_id, interaction.user.id, setting)
    locale = interaction.locale.value
    title = tr("A first suggestion") if first else tr("Suggested hands")
    data = await picture(setting_picture, table.spec, setting.hands, title=localized(locale, title))
    text = suggestion_text(suggestion, first=first, locale=locale)
    await answer(
        interaction,
        text,
        file=png(data, "suggestion.png"),
        view=take_view(*key, table.game_id, locale=locale),
    )


def suggestion_text(suggestion: Suggestion, *, first: bool, locale: str) -> str:
    """What the suggestion's answer says in the language of ``locale``: the hands as typed, the
    expected points (the solver's best), the automatic it declares, and how to take or edit it
    (Type hands and the ``/arrange hands`` command named as the reader's client names them)."""
    setting = suggestion.setting
    text = f"`{setting.text}`"
    if suggestion.ev is not None and not first:
        text += " " + localized(
            locale,
            tr(
                "Expected {points} points per opponent.",
                points=signed(suggestion.ev, 2, locale=locale),
            ),
        )
    if setting.automatic:
        text += " " + localized(
            locale,
            tr(
                "Declares the automatic **{automatic}**.",
                automatic=automatic_name(setting.automatic),
            ),
        )
    if first:
        lead = tr(
            "**A first suggestion**, made at once; the solver's best replaces it here in a moment."
        )
        text = localized(locale, lead) + "\n" + text
    how = tr(
        "Take it as it is, or edit it: **{type}** starts from it, or copy it into "
        "`/{arrange} {hands}:`.",
        type=TypeButton.LABEL,
        arrange=Term("arrange"),
        hands=Term("hands"),
    )
    return text + "\n" + localized(locale, how)


class TakeButton(GameButton, custom_id="pp:take:{guild:int}:{channel:int}:{game:int}"):
    """Take the suggestion: submit the hands the solver showed."""

    LABEL, STYLE = tr("Take it"), discord.ButtonStyle.success

    async def act(self, interaction: Interaction) -> None:
        """Submit the suggestion as shown (asked again if the bot restarted since)."""
        found = services(interaction)
        user = interaction.user.id
        await acknowledge(interaction)
        setting: Setting | None = found.suggestions.get(self.game, user)
        if setting is None:  # the bot restarted since it showed the suggestion
            setting = (await found.tables.suggest(*self.key, user)).setting
        await set_hands(interaction, self.key, setting)


# ----- typing the hands into a form, and the preview ---------------------------------------------


class TypeButton(GameButton, custom_id="pp:type:{guild:int}:{channel:int}:{game:int}"):
    """Type hands: a form with the hands as text, never empty: the player's last legal setting
    previewed, else the suggestion (shown, or computed already), else their cards in one line."""

    LABEL, STYLE = tr("Type hands"), discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Open the form (a form must be the first answer, so no deferring here)."""
        found, user = services(interaction), interaction.user.id
        draft = found.suggestions.draft(self.game, user)
        if draft is None and (ready := found.tables.suggestions.ready(self.game, user)):
            draft = ready.setting
        seat = self.table.seat_of(user)
        await interaction.response.send_modal(
            HandsModal(
                *self.key,
                self.game,
                user,
                spec=self.table.spec,
                draft=draft.text if draft else unsplit_text(seat.held),
                locale=interaction.locale.value,
            )
        )


def add_hands_inputs(
    form: discord.ui.Modal, spec: GameSpec, draft: str, *, locale: str = i18n.ENGLISH.discord
) -> tuple[discord.ui.TextInput[Any], discord.ui.TextInput[Any] | None]:
    """The Type hands form's fields, added to ``form``: the hands as text (started from
    ``draft``), and the automatic where the game has them (a table's form and the challenge's),
    in the language of ``locale`` (the player's)."""
    hands: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label=localized(locale, tr("Hands, weakest or strongest first, split by |"))[:45],
        custom_id="hands",
        style=discord.TextStyle.paragraph,
        placeholder=" | ".join(
            f"{localized(locale, s.name)} ({'/'.join(map(str, s.sizes))})"
            for s in setting_shape(spec)
        )[:100],
        default=draft or None,
        max_length=400,
    )
    form.add_item(hands)
    automatic: discord.ui.TextInput[Any] | None = None
    if has_automatics(spec):
        automatic = discord.ui.TextInput(
            label=localized(locale, tr("Automatic (optional)")),
            custom_id="automatic",
            placeholder=localized(locale, tr("e.g. three full houses")),
            required=False,
            max_length=40,
        )
        form.add_item(automatic)
    return hands, automatic


class HandsModal(discord.ui.Modal):
    """The form behind Type hands: the hands as text, and an automatic where the game has them."""

    #: The table as the gate found it (set before ``on_submit``).
    key: tuple[int, int]
    table: Table

    def __init__(
        self,
        guild: int,
        channel: int,
        game: int,
        user: int,
        *,
        spec: GameSpec,
        draft: str = "",
        locale: str = i18n.ENGLISH.discord,
    ) -> None:
        title = localized(locale, tr("Your hands: {game}", game=Term(spec.title, "choice")))[:45]
        super().__init__(title=title, custom_id=f"pp:typed:{game}:{user}")
        self.guild, self.channel, self.game = guild, channel, game
        self.hands, self.automatic = add_hands_inputs(self, spec, draft, locale=locale)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """The gate of the game's controls: a form sent once its game or step is over, or by
        someone else, reads their one sentence."""
        return await guarded(interaction, self._gate(interaction))

    async def _gate(self, interaction: Interaction) -> None:
        self.key, self.table = await current_table(
            interaction, self.game, phase=Phase.ARRANGING, key=(self.guild, self.channel)
        )

    async def on_submit(self, interaction: Interaction) -> None:
        """Check the hands, answering with the engine's sentence or a preview."""
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: Interaction) -> None:
        automatic = (self.automatic.value if self.automatic else "") or None
        await preview_text(interaction, self.key, self.table, self.hands.value, automatic)


async def preview_text(
    interaction: Interaction,
    key: tuple[int, int],
    table: Table,
    text: str,
    automatic: str | None,
) -> None:
    """Read the presser's hands from their text, once, and show them as a picture, with a
    button that sets them.

    Nothing is set yet: an illegal setting gets the engine's sentence, a legal one a preview.
    ``table`` is what the typed command or the form's gate found.
    """
    await acknowledge(interaction)
    assert table.game_id is not None
    seat = table.seat_of(interaction.user.id)
    if table.phase is not Phase.ARRANGING or not seat.is_active:
        raise GameError(tr("There are no hands of yours to set now."))
    setting = read_setting(table.spec, seat.held, text, automatic)
    services(interaction).suggestions.remember_draft(table.game_id, interaction.user.id, setting)
    locale = interaction.locale.value
    title = localized(locale, tr("Your hands (not set yet)"))
    data = await picture(setting_picture, table.spec, setting.hands, title=title)
    shown = f"`{setting.text}`"
    if setting.automatic:
        shown = words(
            interaction,
            tr(
                "{hands} with the automatic **{automatic}**",
                hands=shown,
                automatic=automatic_name(setting.automatic),
            ),
        )
    if typed_strongest_first(table.spec, text):
        preview = tr(
            "Preview (read strongest first): {hands}. Press **{set}** to play them.",
            hands=shown,
            set=ConfirmButton.LABEL,
        )
    else:
        preview = tr(
            "Preview: {hands}. Press **{set}** to play them.", hands=shown, set=ConfirmButton.LABEL
        )
    await answer(
        interaction,
        words(interaction, preview),
        file=png(data, "preview.png"),
        view=confirm_view(*key, table.game_id, seat.held, setting, locale=locale),
    )


# ----- the views ---------------------------------------------------------------------------------


def arrange_view(
    guild: int, channel: int, game: int, *, locale: str = i18n.ENGLISH.discord
) -> discord.ui.View:
    """Suggest, Build hands and Type hands for the arranging phase, labelled in the language of
    ``locale`` (the player's)."""
    view = discord.ui.View(timeout=None)
    view.add_item(SuggestButton(guild=guild, channel=channel, game=game, locale=locale))
    view.add_item(BuildItem(game=game, state=EMPTY, action="start", locale=locale))
    view.add_item(TypeButton(guild=guild, channel=channel, game=game, locale=locale))
    return view


def take_view(
    guild: int, channel: int, game: int, *, locale: str = i18n.ENGLISH.discord
) -> discord.ui.View:
    """Take it, under a suggestion; Type hands to edit it."""
    view = discord.ui.View(timeout=None)
    view.add_item(TakeButton(guild=guild, channel=channel, game=game, locale=locale))
    view.add_item(TypeButton(guild=guild, channel=channel, game=game, locale=locale))
    return view


def confirm_view(
    guild: int,
    channel: int,
    game: int,
    held: Sequence[AnyCard],
    setting: Setting,
    *,
    locale: str = i18n.ENGLISH.discord,
) -> discord.ui.View:
    """Set these hands (and Type hands to change them) under a preview."""
    view = discord.ui.View(timeout=None)
    view.add_item(confirm_item(table_place(game), held, setting, locale=locale))
    view.add_item(TypeButton(guild=guild, channel=channel, game=game, locale=locale))
    return view
