"""Hands chosen as held-card indices: the builder's menus (one hand at a time) and Set these
hands under a preview, with the state codec that carries the choices in their custom ids, so
both survive a restart. The choices become a setting (a value) once, when they are submitted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

import discord

from cogs.common import acknowledge, answer, services
from cogs.controls import Button, GameControl, Interaction, Select
from engine.cards import AnyCard
from engine.errors import GameError
from engine.variants import Automatic
from tables.games import GameSpec
from tables.hands import Setting, SlotShape, chosen_setting, setting_shape
from tables.table import Table

# ----- the state codec: held-card indices per hand, base 36, in a custom id ----------------------

_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
#: No hand chosen yet.
EMPTY: Final = "_"
_STALE_BUILD: Final = "This builder no longer fits your cards; start it again."


def encode_build(slots: Sequence[Sequence[int]]) -> str:
    """The choices in a custom id: held-card indices per hand, hands split by '-'."""
    return "-".join("".join(_DIGITS[i] for i in slot) for slot in slots) or EMPTY


def decode_build(state: str, held: int) -> list[list[int]]:
    """The choices back; ``GameError`` if they do not fit these cards."""
    if state == EMPTY:
        return []
    parts = state.split("-")
    if any(c not in _DIGITS for part in parts for c in part):
        raise GameError(_STALE_BUILD)
    slots = [[_DIGITS.index(c) for c in part] for part in parts]
    flat = [i for slot in slots for i in slot]
    if any(i >= held for i in flat) or len(set(flat)) != len(flat) or not all(slots):
        raise GameError(_STALE_BUILD)
    return slots


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


AUTOMATICS: Final = tuple(automatic.value for automatic in Automatic)


def _automatic_at(number: str) -> str | None:
    """The automatic a control names by its number ("" for none)."""
    if not number:
        return None
    if not number.isdigit() or int(number) >= len(AUTOMATICS):
        raise GameError("This button no longer fits your cards; set your hands again.")
    return AUTOMATICS[int(number)]


# ----- setting the hands -------------------------------------------------------------------------


async def set_hands(interaction: Interaction, key: tuple[int, int], setting: Setting) -> None:
    """Set the presser's hands and say so (an illegal setting raises the engine's sentence)."""
    await acknowledge(interaction)
    await services(interaction).tables.submit(*key, interaction.user.id, setting)
    await answer(
        interaction,
        f"Your hands are set: `{setting.text}`. You may replace them until everyone is in.",
        view=discord.ui.View(),
    )


async def _set_chosen(
    interaction: Interaction,
    key: tuple[int, int],
    table: Table,
    slots: Sequence[Sequence[int]],
    automatic: str | None,
) -> None:
    """Set the hands chosen as held-card indices; the cards left over are discarded."""
    held = table.seat_of(interaction.user.id).held
    taken = {i for slot in slots for i in slot}
    hands = [[held[i] for i in slot] for slot in slots]
    rest = [held[i] for i in range(len(held)) if i not in taken]
    await set_hands(interaction, key, chosen_setting(hands, rest, automatic))


class ConfirmButton(
    GameControl[Button], custom_id=r"pp:confirm:{game:int}:{state:[0-9a-z_-]+}:{auto:\d*}"
):
    """Set these hands: the previewed setting, carried in the custom id as held-card indices."""

    def __init__(self, *, game: int, state: str, auto: str) -> None:
        label, style = "Set these hands", discord.ButtonStyle.success
        super().__init__(self.button(label, style, game=game, state=state, auto=auto))
        self.game, self.state, self.auto = game, state, auto

    async def act(self, interaction: Interaction) -> None:
        """Set the previewed hands."""
        slots = decode_build(self.state, len(self.table.seat_of(interaction.user.id).held))
        await _set_chosen(interaction, self.key, self.table, slots, _automatic_at(self.auto))


# ----- the builder: one hand at a time from a select menu --------------------------------------


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
    GameControl[Button],
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
        await build_step(interaction, self.key, self.table, self.state, self.action)


#: A menu rebuilt from a click needs no shape: the click carries the options it was sent with.
_REBUILT_SLOT: Final = SlotShape("hand", (1,))


class BuildSelect(GameControl[Select], custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:pick"):
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
        await build_step(interaction, self.key, self.table, self.state, "pick", self.item.values)


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
    key: tuple[int, int],
    table: Table,
    state: str,
    action: str,
    values: Sequence[str] = (),
) -> None:
    """One step of the builder at the presser's table as its gate found it, redrawn in place;
    a wrong step gets a sentence, changes nothing."""
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
        await _set_chosen(interaction, key, table, slots, None)
        return
    content = build_text(spec, held, slots)
    assert table.game_id is not None  # the gate found the table in this game
    view = build_view(spec, table.game_id, held, slots)
    if action == "start":
        await interaction.response.send_message(content, view=view, ephemeral=True)
    else:
        await interaction.response.edit_message(content=content, view=view)
