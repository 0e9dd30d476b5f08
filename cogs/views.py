"""Buttons, menus and forms that survive a restart: ``DynamicItem``s whose custom ids carry what
they act on, and the views that hold them.

Custom ids are ``pp:<feature>:<ids>`` (Discord allows 100 characters). A control pressed by
someone it does not concern, or left over from an earlier round, answers with a sentence only
its presser sees; so does any failure (see ``guarded``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, Final

import discord

from cogs.common import acknowledge, answer, guarded, picture, png, reply, run, services
from cogs.controls import Button, Control, Interaction, Select
from cogs.pictures import hand_picture, setting_picture
from engine.cards import AnyCard
from engine.errors import GameError
from engine.variants import Automatic
from tables.games import GameSpec
from tables.hands import Setting, SlotShape, read_setting, setting_shape, setting_text
from tables.table import Phase

_LOBBY_LABELS: Final = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
    # Under a showdown: the host deals the next hand to whoever is still seated.
    "again": ("Deal again", discord.ButtonStyle.success),
}


class LobbyButton(Control[Button], custom_id="pp:lobby:{action:join|leave|start|again}"):
    """Join, Leave or Start under the lobby message; Deal again, Join, Leave under a showdown."""

    def __init__(self, *, action: str) -> None:
        super().__init__(self.button(*_LOBBY_LABELS[action], action=action))
        self.action = action

    async def act(self, interaction: Interaction) -> None:
        """Sit down, stand up, or deal."""
        guild, channel = interaction.guild_id, interaction.channel_id
        if guild is None or channel is None:
            await reply(interaction, "Use this in the channel of the table.")
            return
        action = "start" if self.action == "again" else self.action
        await lobby_action(interaction, guild, channel, action)


#: What Join, Leave and Start (buttons or ``/table`` commands) say when they are done.
_LOBBY_DONE: Final = {
    "join": "You sit at the table.",
    "leave": "You left the table.",
    "start": "Dealt. Cards are on their way by DM.",
}


async def lobby_action(interaction: Interaction, guild: int, channel: int, action: str) -> None:
    """Sit down, stand up, or deal, for the button or the command alike."""
    tables = services(interaction).tables
    user = interaction.user.id
    name = interaction.user.display_name
    calls = {
        "join": lambda: tables.join(guild, channel, user, name=name),
        "leave": lambda: tables.leave(guild, channel, user),
        "start": lambda: tables.start(guild, channel, user),
    }
    await run(interaction, calls[action], done=_LOBBY_DONE[action])


_CHOICES: Final = {
    "play": ("Play", discord.ButtonStyle.success),
    "surrender": ("Surrender", discord.ButtonStyle.danger),
}


class DeclareButton(
    Control[Button],
    custom_id="pp:declare:{guild:int}:{channel:int}:{game:int}:{round:int}:{choice:play|surrender}",
):
    """Play or Surrender, sent by DM for one declaration of one game."""

    def __init__(self, *, guild: int, channel: int, game: int, round: int, choice: str) -> None:
        label, style = _CHOICES[choice]
        ids = {"guild": guild, "channel": channel, "game": game, "round": round}
        super().__init__(self.button(label, style, **ids, choice=choice))
        self.guild, self.channel, self.game = guild, channel, game
        self.round, self.play = round, choice == "play"

    async def act(self, interaction: Interaction) -> None:
        """Declare, if this button's declaration is still open."""
        tables = services(interaction).tables
        table = tables.table(self.guild, self.channel)
        if (
            table is None
            or table.game_id != self.game
            or table.phase is not Phase.DECLARING
            or table.round != self.round
        ):
            await reply(interaction, "That declaration is over; these buttons no longer count.")
            return
        word = "play on" if self.play else "surrender"
        await run(
            interaction,
            lambda: tables.declare(self.guild, self.channel, interaction.user.id, self.play),
            done=f"You declared: {word}. It stays secret until everyone has declared.",
        )


class HandButton(Control[Button], custom_id="pp:hand:{game:int}"):
    """ "Show my hand" in the channel: the presser's cards, shown only to them."""

    def __init__(self, *, game: int) -> None:
        super().__init__(self.button("Show my hand", discord.ButtonStyle.secondary, game=game))
        self.game = game

    async def act(self, interaction: Interaction) -> None:
        """Show the cards privately."""
        await show_hand(interaction, interaction.guild_id, interaction.channel_id)


async def show_hand(interaction: Interaction, guild: int | None, channel: int | None) -> None:
    """Answer with the presser's cards at this channel's table, visible only to them, with the
    buttons of the phase (so a player whose DMs are closed can still play)."""
    await acknowledge(interaction)
    if guild is None or channel is None:
        await answer(interaction, "Use this in the channel of your table.")
        return
    found = services(interaction)
    cards = found.tables.hand(guild, channel, interaction.user.id)
    table = found.tables.table(guild, channel)
    view = None
    text = "Your cards (only you see this)."
    subtitle = "" if table is None else table.spec.title
    if table is not None and table.game_id is not None:
        seat = table.seat_of(interaction.user.id)
        if seat.is_active and table.phase is Phase.DECLARING:
            view = declare_view(guild, channel, table.game_id, table.round)
            text += f" Declaration {table.round + 1}: play on or surrender?"
            subtitle += f" · declaration {table.round + 1}"
        elif seat.is_active and table.phase is Phase.ARRANGING:
            view = arrange_view(guild, channel, table.game_id)
            text += " Set your hands: build them, type them, or ask for a suggestion."
            subtitle += " · set your hands"
    data = await picture(hand_picture, cards, subtitle=subtitle)
    await answer(interaction, text, file=png(data, "hand.png"), view=view)


class GameButton(Control[Button]):
    """A button of one game at one table: its id names the server, the channel and the game."""

    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle]

    def __init__(self, *, guild: int, channel: int, game: int) -> None:
        ids = {"guild": guild, "channel": channel, "game": game}
        super().__init__(self.button(self.LABEL, self.STYLE, **ids))
        self.guild, self.channel, self.game = guild, channel, game


class SuggestButton(GameButton, custom_id="pp:suggest:{guild:int}:{channel:int}:{game:int}"):
    """Suggest: the solver's arrangement of the presser's cards, with Take it."""

    LABEL, STYLE = "Suggest", discord.ButtonStyle.primary

    async def act(self, interaction: Interaction) -> None:
        """Show the suggestion, if this button's game is still being played."""
        await suggest(interaction, self.guild, self.channel, self.game)


async def suggest(
    interaction: Interaction, guild: int, channel: int, game: int | None = None
) -> None:
    """Answer with the solver's setting of the presser's cards and a button to take it.

    ``game`` is the game a button belongs to: a button from an earlier game says so.
    """
    await acknowledge(interaction)
    found = services(interaction)
    table = found.tables.table(guild, channel)
    if table is None or table.game_id is None or game not in (None, table.game_id):
        raise GameError("That game is over; these buttons no longer count.")
    suggestion = await found.tables.suggest(guild, channel, interaction.user.id)
    setting = suggestion.setting
    found.suggestions.remember(table.game_id, interaction.user.id, setting)
    data = await picture(setting_picture, table.spec, setting.hands, title="Suggested hands")
    ev = "" if suggestion.ev is None else f" Expected {suggestion.ev:+.2f} points per opponent."
    auto = (
        f" Declares the automatic **{setting.automatic.replace('_', ' ')}**."
        if setting.automatic
        else ""
    )
    await answer(
        interaction,
        f"`{setting.text}`{ev}{auto}\nTake it as it is, or edit it: **Type hands** starts from "
        "it, or copy it into `/arrange hands:`.",
        file=png(data, "suggestion.png"),
        view=take_view(guild, channel, table.game_id),
    )


class TakeButton(GameButton, custom_id="pp:take:{guild:int}:{channel:int}:{game:int}"):
    """Take the suggestion: submit the hands the solver showed."""

    LABEL, STYLE = "Take it", discord.ButtonStyle.success

    async def act(self, interaction: Interaction) -> None:
        """Submit the suggestion (asked again if the bot restarted since)."""
        found = services(interaction)
        user = interaction.user.id
        table = found.tables.table(self.guild, self.channel)
        if table is None or table.game_id != self.game:
            await reply(interaction, "That game is over.")
            return
        await acknowledge(interaction)
        setting: Setting | None = found.suggestions.get(self.game, user)
        if setting is None:  # the bot restarted since it showed the suggestion
            setting = (await found.tables.suggest(self.guild, self.channel, user)).setting
        await set_hands(interaction, self.guild, self.channel, setting.text, setting.automatic)


# ----- typing the hands into a form ------------------------------------------------------------


class TypeButton(GameButton, custom_id="pp:type:{guild:int}:{channel:int}:{game:int}"):
    """Type hands: a form with the hands as text, filled with the last suggestion if any."""

    LABEL, STYLE = "Type hands", discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Open the form (a form must be the first answer, so no deferring here)."""
        found = services(interaction)
        table = found.tables.table(self.guild, self.channel)
        if table is None or table.game_id != self.game or table.phase is not Phase.ARRANGING:
            await reply(interaction, "Hands cannot be set for that game now.")
            return
        table.seat_of(interaction.user.id)  # a stranger gets the table's sentence
        draft = found.suggestions.get(self.game, interaction.user.id)
        await interaction.response.send_modal(
            HandsModal(
                self.guild,
                self.channel,
                self.game,
                interaction.user.id,
                spec=table.spec,
                draft=draft.text if draft else "",
            )
        )


class HandsModal(discord.ui.Modal):
    """The form behind Type hands: the hands as text, and an automatic where the game has them."""

    def __init__(
        self,
        guild: int,
        channel: int,
        game: int,
        user: int,
        *,
        spec: GameSpec,
        draft: str = "",
    ) -> None:
        title = f"Your hands: {spec.title}"[:45]
        super().__init__(title=title, custom_id=f"pp:typed:{game}:{user}")
        self.guild, self.channel, self.game = guild, channel, game
        shape = setting_shape(spec)
        self.hands: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Hands, weakest first, separated by |",
            custom_id="hands",
            style=discord.TextStyle.paragraph,
            placeholder=" | ".join(f"{s.name} ({'/'.join(map(str, s.sizes))})" for s in shape)[
                :100
            ],
            default=draft or None,
            max_length=400,
        )
        self.add_item(self.hands)
        self.automatic: discord.ui.TextInput[Any] | None = None
        if spec.variant is not None and spec.variant.automatics is not None:
            self.automatic = discord.ui.TextInput(
                label="Automatic (optional)",
                custom_id="automatic",
                placeholder="e.g. three full houses",
                required=False,
                max_length=40,
            )
            self.add_item(self.automatic)

    async def on_submit(self, interaction: Interaction) -> None:
        """Check and set the hands, answering with the engine's sentence or a picture."""
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: Interaction) -> None:
        automatic = (self.automatic.value if self.automatic else "") or None
        await preview_text(interaction, self.guild, self.channel, self.hands.value, automatic)


async def preview_text(
    interaction: Interaction, guild: int, channel: int, text: str, automatic: str | None
) -> None:
    """Check the presser's hands and show them as a picture, with a button that sets them.

    Nothing is set yet: an illegal setting gets the engine's sentence, a legal one a preview.
    """
    await acknowledge(interaction)
    found = services(interaction)
    table = found.tables.table(guild, channel)
    if table is None or table.game_id is None:
        raise GameError("There is no game at this table; open one with `/table create`.")
    seat = table.seat_of(interaction.user.id)
    if table.phase is not Phase.ARRANGING or not seat.is_active:
        raise GameError("There are no hands of yours to set now.")
    setting = read_setting(table.spec, seat.held, text, automatic)
    data = await picture(
        setting_picture, table.spec, setting.hands, title="Your hands (not set yet)"
    )
    auto = (
        f" with the automatic **{setting.automatic.replace('_', ' ')}**"
        if setting.automatic
        else ""
    )
    await answer(
        interaction,
        f"Preview: `{setting.text}`{auto}. Press **Set these hands** to play them.",
        file=png(data, "preview.png"),
        view=confirm_view(guild, channel, table.game_id, seat.held, setting),
    )


async def set_hands(
    interaction: Interaction, guild: int, channel: int, text: str, automatic: str | None
) -> None:
    """Set the presser's hands and say so (an illegal setting raises the engine's sentence)."""
    await acknowledge(interaction)
    await services(interaction).tables.submit(guild, channel, interaction.user.id, text, automatic)
    await answer(
        interaction,
        f"Your hands are set: `{text}`. You may replace them until everyone is in.",
        view=discord.ui.View(),
    )


class ConfirmButton(
    Control[Button], custom_id=r"pp:confirm:{game:int}:{state:[0-9a-z_-]+}:{auto:\d*}"
):
    """Set these hands: the previewed setting, carried in the custom id as held-card indices."""

    def __init__(self, *, game: int, state: str, auto: str) -> None:
        label, style = "Set these hands", discord.ButtonStyle.success
        super().__init__(self.button(label, style, game=game, state=state, auto=auto))
        self.game, self.state, self.auto = game, state, auto

    async def act(self, interaction: Interaction) -> None:
        """Set the previewed hands."""
        found = services(interaction)
        key = found.tables.find_game(self.game)
        table = None if key is None else found.tables.table(*key)
        if key is None or table is None or table.phase is not Phase.ARRANGING:
            await reply(interaction, "That game is not setting hands any more.")
            return
        held = table.seat_of(interaction.user.id).held
        slots = decode_build(self.state, len(held))
        taken = {i for slot in slots for i in slot}
        hands = [[held[i] for i in slot] for slot in slots]
        rest = [held[i] for i in range(len(held)) if i not in taken]
        automatic = _automatic_at(self.auto)
        await set_hands(interaction, *key, setting_text(table.spec, hands, rest), automatic)


_AUTOMATICS: Final = tuple(automatic.value for automatic in Automatic)


def _automatic_at(number: str) -> str | None:
    """The automatic a control names by its number ("" for none)."""
    if not number:
        return None
    if not number.isdigit() or int(number) >= len(_AUTOMATICS):
        raise GameError("This button no longer fits your cards; set your hands again.")
    return _AUTOMATICS[int(number)]


def held_indices(held: Sequence[AnyCard], hands: Sequence[Sequence[AnyCard]]) -> list[list[int]]:
    """Which of the held cards make each hand (equal cards from several decks taken once each)."""
    free = list(range(len(held)))
    slots = []
    for hand in hands:
        chosen = []
        for card in hand:
            index = next(i for i in free if held[i] == card)
            free.remove(index)
            chosen.append(index)
        slots.append(chosen)
    return slots


def confirm_view(
    guild: int, channel: int, game: int, held: Sequence[AnyCard], setting: Setting
) -> discord.ui.View:
    """Set these hands (and Type hands to change them) under a preview."""
    slots = held_indices(held, setting.hands)
    auto = "" if setting.automatic is None else str(_AUTOMATICS.index(setting.automatic))
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(game=game, state=encode_build(slots), auto=auto))
    view.add_item(TypeButton(guild=guild, channel=channel, game=game))
    return view


# ----- the builder: one hand at a time from a select menu --------------------------------------

_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
_EMPTY: Final = "_"


def encode_build(slots: Sequence[Sequence[int]]) -> str:
    """The builder's choices in a custom id: held-card indices per hand, hands split by '-'."""
    return "-".join("".join(_DIGITS[i] for i in slot) for slot in slots) or _EMPTY


def decode_build(state: str, held: int) -> list[list[int]]:
    """The choices back; ``GameError`` if they do not fit these cards."""
    if state == _EMPTY:
        return []
    parts = state.split("-")
    if any(c not in _DIGITS for part in parts for c in part):
        raise GameError(_STALE_BUILD)
    slots = [[_DIGITS.index(c) for c in part] for part in parts]
    flat = [i for slot in slots for i in slot]
    if any(i >= held for i in flat) or len(set(flat)) != len(flat) or not all(slots):
        raise GameError(_STALE_BUILD)
    return slots


_STALE_BUILD: Final = "This builder no longer fits your cards; start it again."


def card_options(held: Sequence[AnyCard], taken: set[int]) -> list[discord.SelectOption]:
    """One option per card left, strongest first; equal cards (several decks) are numbered."""
    seen: Counter[str] = Counter()
    total = Counter(_name(card) for card in held)
    options = []
    # Jokers first, then by the cards' own code (rank, then suit), strongest first.
    order = sorted(range(len(held)), key=lambda i: (held[i].is_joker, held[i].code), reverse=True)
    for index in order:
        name = _name(held[index])
        seen[name] += 1
        if index in taken:
            continue
        label = name if total[name] == 1 else f"{name} ({seen[name]})"
        options.append(discord.SelectOption(label=label, value=_DIGITS[index]))
    return options


def _name(card: AnyCard) -> str:
    return "Joker" if card.is_joker else card.pretty


class BuildItem(
    Control[Button],
    custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:{action:start|undo|reset|submit}",
):
    """The builder's buttons: start (from the DM), undo a hand, start over, submit."""

    _LABELS: Final = {
        "start": ("Build hands", discord.ButtonStyle.secondary),
        "undo": ("Undo last hand", discord.ButtonStyle.secondary),
        "reset": ("Start over", discord.ButtonStyle.secondary),
        "submit": ("Submit", discord.ButtonStyle.success),
    }

    def __init__(self, *, game: int, state: str, action: str, disabled: bool = False) -> None:
        label, style = self._LABELS[action]
        item = self.button(label, style, game=game, state=state, action=action)
        item.disabled = disabled
        super().__init__(item)
        self.game, self.state, self.action = game, state, action

    async def act(self, interaction: Interaction) -> None:
        """Move the builder on."""
        await build_step(interaction, self.game, self.state, self.action)


#: A menu rebuilt from a click needs no shape: the click carries the options it was sent with.
_REBUILT_SLOT: Final = SlotShape("hand", (1,))


class BuildSelect(Control[Select], custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:pick"):
    """The builder's menu: the cards of the next hand."""

    def __init__(
        self,
        *,
        game: int,
        state: str,
        options: Sequence[discord.SelectOption] = (),
        slot: SlotShape = _REBUILT_SLOT,
    ) -> None:
        low = min(slot.sizes)
        high = min(max(slot.sizes), len(options))
        sizes = "/".join(str(size) for size in slot.sizes)
        super().__init__(
            discord.ui.Select(
                custom_id=self.ID.format(game=game, state=state),
                placeholder=f"Cards for the {slot.name} ({sizes})"[:150],
                min_values=min(low, high),
                max_values=high,
                options=list(options) or [discord.SelectOption(label="no cards left", value="-")],
                disabled=not options,
            )
        )
        self.game, self.state = game, state

    @classmethod
    def rebuild(cls, item: discord.ui.Item[Any], fields: dict[str, Any]) -> BuildSelect:
        """The menu from its custom id, with the options it was sent with."""
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(**fields, options=options)

    async def act(self, interaction: Interaction) -> None:
        """Take the chosen cards as the next hand."""
        await build_step(interaction, self.game, self.state, "pick", self.item.values)


def build_view(
    spec: GameSpec, game: int, held: Sequence[AnyCard], slots: Sequence[Sequence[int]]
) -> discord.ui.View:
    """The builder at this point: the menu of the next hand (if any) and its buttons."""
    shape = setting_shape(spec)
    state = encode_build(slots)
    view = discord.ui.View(timeout=None)
    done = len(slots) >= len(shape)
    if not done:
        taken = {i for slot in slots for i in slot}
        options = card_options(held, taken)
        view.add_item(BuildSelect(game=game, state=state, options=options, slot=shape[len(slots)]))
    for action, disabled in (("undo", not slots), ("reset", not slots), ("submit", not done)):
        view.add_item(BuildItem(game=game, state=state, action=action, disabled=disabled))
    return view


def build_text(spec: GameSpec, held: Sequence[AnyCard], slots: Sequence[Sequence[int]]) -> str:
    """What the builder message says: the hands chosen so far and what comes next."""
    shape = setting_shape(spec)
    lines = [f"**Building your hands** ({spec.title}), weakest first."]
    for slot, chosen in zip(shape, slots, strict=False):
        lines.append(f"{slot.name}: " + " ".join(held[i].pretty for i in chosen))
    taken = {i for slot in slots for i in slot}
    left = [held[i].pretty for i in range(len(held)) if i not in taken]
    if len(slots) < len(shape):
        slot = shape[len(slots)]
        sizes = " or ".join(str(size) for size in slot.sizes)
        lines.append(f"Now choose the **{slot.name}**: {sizes} cards, from the {len(left)} left.")
    else:
        rest = f" The rest is discarded: {' '.join(left)}." if left else ""
        lines.append(f"Every hand is chosen.{rest} Press **Submit** to set them.")
    return "\n".join(lines)


async def build_step(
    interaction: Interaction,
    game: int,
    state: str,
    action: str,
    values: Sequence[str] = (),
) -> None:
    """One step of the builder, redrawn in place; a wrong step gets a sentence, changes nothing."""
    found = services(interaction)
    key = found.tables.find_game(game)
    table = None if key is None else found.tables.table(*key)
    if key is None or table is None or table.phase is not Phase.ARRANGING:
        await reply(interaction, "That game is not setting hands any more; this builder is done.")
        return
    guild, channel = key
    held = table.seat_of(interaction.user.id).held
    spec = table.spec
    shape = setting_shape(spec)
    slots = [] if action in ("start", "reset") else decode_build(state, len(held))
    if action == "undo" and slots:
        slots.pop()
    elif action == "pick":
        if len(slots) >= len(shape):
            raise GameError("Every hand is chosen already; press Submit or Undo.")
        chosen = [_DIGITS.index(v) for v in values if v in _DIGITS and len(v) == 1]
        taken = {i for slot in slots for i in slot}
        slot = shape[len(slots)]
        if any(i >= len(held) or i in taken for i in chosen) or len(set(chosen)) != len(chosen):
            raise GameError("Those cards are not all yours to choose; start the builder again.")
        if len(chosen) not in slot.sizes:
            sizes = " or ".join(str(size) for size in slot.sizes)
            raise GameError(f"The {slot.name} holds {sizes} cards, not {len(chosen)}.")
        slots.append(sorted(chosen))
    elif action == "submit":
        if len(slots) < len(shape):
            raise GameError("Choose every hand before submitting.")
        taken = {i for slot in slots for i in slot}
        hands = [[held[i] for i in slot] for slot in slots]
        rest = [held[i] for i in range(len(held)) if i not in taken]
        await set_hands(interaction, guild, channel, setting_text(spec, hands, rest), None)
        return
    content = build_text(spec, held, slots)
    view = build_view(spec, game, held, slots)
    if action == "start":
        await interaction.response.send_message(content, view=view, ephemeral=True)
    else:
        await interaction.response.edit_message(content=content, view=view)


# ----- the views ---------------------------------------------------------------------------------


def lobby_view() -> discord.ui.View:
    """Join, Leave and Start: buttons that work after a restart too."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start"):
        view.add_item(LobbyButton(action=action))
    return view


def next_hand_view() -> discord.ui.View:
    """Under a showdown: Deal again (the host), Join (a newcomer), Leave (a player done)."""
    view = discord.ui.View(timeout=None)
    for action in ("again", "join", "leave"):
        view.add_item(LobbyButton(action=action))
    return view


def hand_view(game: int) -> discord.ui.View:
    """Show my hand, under the channel's phase messages (the way in for closed DMs)."""
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game=game))
    return view


def declare_view(guild: int, channel: int, game: int, round_: int) -> discord.ui.View:
    """Play and Surrender for one declaration."""
    view = discord.ui.View(timeout=None)
    for choice in _CHOICES:
        view.add_item(
            DeclareButton(guild=guild, channel=channel, game=game, round=round_, choice=choice)
        )
    return view


def arrange_view(guild: int, channel: int, game: int) -> discord.ui.View:
    """Suggest, Build hands and Type hands for the arranging phase."""
    view = discord.ui.View(timeout=None)
    view.add_item(SuggestButton(guild=guild, channel=channel, game=game))
    view.add_item(BuildItem(game=game, state=_EMPTY, action="start"))
    view.add_item(TypeButton(guild=guild, channel=channel, game=game))
    return view


def take_view(guild: int, channel: int, game: int) -> discord.ui.View:
    """Take it, under a suggestion; Type hands to edit it."""
    view = discord.ui.View(timeout=None)
    view.add_item(TakeButton(guild=guild, channel=channel, game=game))
    view.add_item(TypeButton(guild=guild, channel=channel, game=game))
    return view
