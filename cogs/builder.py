"""Hands chosen as held-card indices: the builder's menus (one hand at a time) and Set these
hands under a preview, with the state codec that carries the choices in their custom ids, so
both survive a restart. The choices become a setting (a value) once, when they are submitted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, Final, Self

import discord

from cogs.common import acknowledge, answer, picture, png, services
from cogs.controls import Button, GameControl, Interaction, Select
from cogs.pictures import builder_picture
from engine.cards import AnyCard
from engine.errors import GameError
from engine.variants import Automatic
from tables.games import GameSpec
from tables.hands import (
    Setting,
    SlotShape,
    chosen_setting,
    hand_labels,
    hands_so_far_problem,
    setting_problem,
    setting_shape,
)
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
    custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:{action:start|undo|reset|submit|suggested}",
):
    """The builder's buttons: start (from the DM), start from the suggestion, undo a hand, start
    over, submit."""

    _LABELS: Final = {
        "start": ("Build hands", discord.ButtonStyle.secondary),
        "suggested": ("Start from the suggestion", discord.ButtonStyle.primary),
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


class BuilderMenu(GameControl[Select]):
    """A menu that mends the hands chosen; rebuilt from a click with the options it was sent
    with. A subclass names its id's format, the builder's step it takes and its prompt."""

    #: The step of ``build_step`` the choice takes, the prompt, and how many options to choose.
    ACTION: ClassVar[str]
    PROMPT: ClassVar[str]
    CHOOSE: ClassVar[int] = 1

    def __init__(
        self,
        *,
        game: int,
        state: str,
        options: Sequence[discord.SelectOption] = (),
        **fields: str,
    ) -> None:
        # Discord wants as many options as a menu asks to choose, even in a disabled one.
        blanks = [discord.SelectOption(label="—", value=f"-{i}") for i in range(self.CHOOSE)]
        super().__init__(
            discord.ui.Select(
                custom_id=self.ID.format(game=game, state=state, **fields),
                placeholder=self.PROMPT,
                min_values=self.CHOOSE,
                max_values=self.CHOOSE,
                options=list(options) if len(options) >= self.CHOOSE else blanks,
                disabled=len(options) < self.CHOOSE,
            )
        )
        self.game, self.state, self.fields = game, state, fields
        for name, value in fields.items():
            setattr(self, name, value)

    @classmethod
    def rebuild(cls, item: discord.ui.Item[Any], fields: dict[str, Any]) -> Self:
        """The menu from its custom id, with the options it was sent with."""
        return cls(**fields, options=item.options if isinstance(item, discord.ui.Select) else [])

    async def act(self, interaction: Interaction) -> None:
        """Take the builder's step with the options chosen (after the id's own fields)."""
        values = [*self.fields.values(), *self.item.values]
        await build_step(interaction, self.key, self.table, self.state, self.ACTION, values)


class MoveSelect(BuilderMenu, custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:move"):
    """Move a card: which card (a menu of the cards in the hands chosen)."""

    ACTION, PROMPT = "move", "Move a card to another hand…"


class MoveToSelect(
    BuilderMenu, custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:to:{card:[0-9a-z]}"
):
    """Move a card: to which hand (a menu of the other hands)."""

    ACTION, PROMPT = "to", "…to which hand?"


class SwapSelect(BuilderMenu, custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:swap"):
    """Swap two hands' cards (a menu of the hands chosen: pick two)."""

    ACTION, PROMPT, CHOOSE = "swap", "Swap two hands…", 2


def hand_options(
    spec: GameSpec, slots: Sequence[Sequence[int]], skip: int | None = None
) -> list[discord.SelectOption]:
    """One option per hand chosen (but ``skip``), by its name and size."""
    shape = setting_shape(spec)
    return [
        discord.SelectOption(label=f"{shape[i].name} ({len(slot)} cards)", value=_DIGITS[i])
        for i, slot in enumerate(slots)
        if i != skip
    ]


def chosen_options(held: Sequence[AnyCard], slots: Sequence[Sequence[int]]) -> list[str]:
    """The values of the cards in the hands chosen."""
    return [_DIGITS[i] for slot in slots for i in slot]


def build_view(
    spec: GameSpec,
    game: int,
    held: Sequence[AnyCard],
    slots: Sequence[Sequence[int]],
    *,
    moving: int | None = None,
) -> discord.ui.View:
    """The builder at this point: the menu of the next hand (if any) and its buttons."""
    shape = setting_shape(spec)
    state = encode_build(slots)
    view = discord.ui.View(timeout=None)
    done = len(slots) >= len(shape)
    if moving is not None:
        # The second half of a move: where the card goes (the hand it is in is left out).
        home = next(i for i, slot in enumerate(slots) if moving in slot)
        options = hand_options(spec, slots, skip=home)
        view.add_item(MoveToSelect(game=game, state=state, card=_DIGITS[moving], options=options))
    elif not done:
        taken = {i for slot in slots for i in slot}
        options = card_options(held, taken)
        view.add_item(BuildSelect(game=game, state=state, options=options, slot=shape[len(slots)]))
    if moving is None and done:
        # Every hand chosen: mend them without starting over.
        chosen = set(chosen_options(held, slots))
        cards = [o for o in card_options(held, set()) if o.value in chosen]
        view.add_item(MoveSelect(game=game, state=state, options=cards))
        view.add_item(SwapSelect(game=game, state=state, options=hand_options(spec, slots)))
    if not slots:
        view.add_item(BuildItem(game=game, state=state, action="suggested"))
    for action, disabled in (("undo", not slots), ("reset", not slots), ("submit", not done)):
        view.add_item(BuildItem(game=game, state=state, action=action, disabled=disabled))
    return view


def hand_names(spec: GameSpec, hands: Sequence[Sequence[AnyCard]]) -> list[str]:
    """Each hand's name as the builder shows it, or why it is no hand of its size ("⚠ ..."); a
    game against the house names its two hands once both are chosen."""
    if spec.variant is None:
        complete = len(hands) == len(setting_shape(spec))
        return list(hand_labels(spec, hands)) if complete else [""] * len(hands)
    names = []
    for hand in hands:
        try:
            names.append(hand_labels(spec, [hand])[0])
        except GameError as error:
            names.append(f"⚠ {error}")
    return names


def build_text(
    spec: GameSpec,
    held: Sequence[AnyCard],
    slots: Sequence[Sequence[int]],
    *,
    moving: int | None = None,
) -> str:
    """What the builder message says: the hands chosen so far, each with its name, and what
    comes next; once every hand is chosen, whether the table would take them."""
    shape = setting_shape(spec)
    lines = [f"**Building your hands** ({spec.title}), weakest first."]
    hands = [[held[i] for i in chosen] for chosen in slots]
    for slot, hand, name in zip(shape, hands, hand_names(spec, hands), strict=False):
        named = f" · {name}" if name else ""
        lines.append(f"{slot.name}: " + " ".join(card.pretty for card in hand) + named)
    taken = {i for slot in slots for i in slot}
    left = [held[i] for i in range(len(held)) if i not in taken]
    if moving is not None:
        lines.append(f"Move the **{held[moving].pretty}** to which hand?")
    elif len(slots) < len(shape):
        slot = shape[len(slots)]
        sizes = " or ".join(str(size) for size in slot.sizes)
        problem = hands_so_far_problem(spec, hands)
        if problem is not None:
            lines.append(f"⚠ {problem} Undo, or mend it once every hand is chosen.")
        lines.append(f"Now choose the **{slot.name}**: {sizes} cards, from the {len(left)} left.")
    else:
        rest = " ".join(card.pretty for card in left)
        problem = setting_problem(spec, held, chosen_setting(hands, left))
        discarded = f" The rest is discarded: {rest}." if left else ""
        if problem is None:
            lines.append(f"Every hand is chosen.{discarded} Press **Submit** to set them.")
        else:
            lines.append(f"Every hand is chosen.{discarded} ⚠ Not yet: {problem}")
            lines.append("Move a card or swap two hands to mend it, or Undo.")
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
    moving = None
    if action == "suggested":
        await interaction.response.defer()  # the solver may take a moment
        found = services(interaction)
        assert table.game_id is not None
        suggestion = await found.tables.suggest(*key, interaction.user.id)
        found.suggestions.remember(table.game_id, interaction.user.id, suggestion.setting)
        slots = held_indices(held, suggestion.setting.hands)
    elif action == "move":
        moving = _card_in(values, slots)
    elif action == "to":
        card, target = _card_in(values[:1], slots), _hand_in(values[1:], slots)
        for hand in slots:
            if card in hand:
                hand.remove(card)
        slots[target] = sorted([*slots[target], card])
        if not all(slots):
            raise GameError("That would leave a hand empty; swap the hands or Undo instead.")
    elif action == "swap":
        if len(values) != 2 or values[0] == values[1]:
            raise GameError("Choose two different hands to swap.")
        first, second = (_hand_in([value], slots) for value in values)
        slots[first], slots[second] = slots[second], slots[first]
    elif action == "undo" and slots:
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
    content = build_text(spec, held, slots, moving=moving)
    assert table.game_id is not None  # the gate found the table in this game
    view = build_view(spec, table.game_id, held, slots, moving=moving)
    hands = [[held[i] for i in slot] for slot in slots]
    names = hand_names(spec, hands)
    drawn = await picture(builder_picture, spec, hands, names) if hands else None
    files = [png(drawn, "hands.png")] if drawn else []
    if action == "start":
        await interaction.response.send_message(content, view=view, ephemeral=True)
    elif interaction.response.is_done():
        await interaction.edit_original_response(content=content, view=view, attachments=files)
    else:
        await interaction.response.edit_message(content=content, view=view, attachments=files)


def _card_in(values: Sequence[str], slots: Sequence[Sequence[int]]) -> int:
    """The card a move names: one of the cards in the hands chosen."""
    chosen = {i for slot in slots for i in slot}
    if len(values) != 1 or values[0] not in _DIGITS or _DIGITS.index(values[0]) not in chosen:
        raise GameError("That card is in none of your hands; start the builder again.")
    return _DIGITS.index(values[0])


def _hand_in(values: Sequence[str], slots: Sequence[Sequence[int]]) -> int:
    """The hand a menu names: one of the hands chosen."""
    if len(values) != 1 or values[0] not in _DIGITS or _DIGITS.index(values[0]) >= len(slots):
        raise GameError("That hand is not chosen yet; start the builder again.")
    return _DIGITS.index(values[0])
