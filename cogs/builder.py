"""Hands chosen as held-card indices: the builder's menus (one hand at a time) and Set these
hands under a preview, with the state codec that carries the choices in their custom ids, so
both survive a restart. The choices become a setting (a value) once, when they are submitted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol, Self, TypeVar

import discord

import i18n
from cogs.common import acknowledge, answer, localized, picture, png, say, services, words
from cogs.controls import Button, Control, Interaction, Select, current_table
from cogs.pictures import builder_picture
from engine.cards import AnyCard
from engine.errors import GameError
from engine.text import Term, Text, tr, tr_plural
from engine.variants import Automatic
from tables.games import GameSpec
from tables.hand_names import slot_name
from tables.hands import (
    Setting,
    SlotShape,
    chosen_setting,
    hand_labels,
    hands_so_far_problem,
    setting_problem,
    setting_shape,
)
from tables.phase import Phase
from tables.table import Table

# ----- the state codec: held-card indices per hand, base 36, in a custom id ----------------------

_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
#: No hand chosen yet.
EMPTY: Final = "_"
_STALE_BUILD: Final = tr("This builder no longer fits your cards; start it again.")


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
        raise GameError(tr("This button no longer fits your cards; set your hands again."))
    return AUTOMATICS[int(number)]


# ----- the desk: where the held cards come from and where a built setting goes ----------------


#: Undo last hand, as the builder's sentences name it.
UNDO: Final = tr("Undo")
#: What Submit does at a table, as the builder says it.
SUBMIT_HINT: Final = tr("Press **{submit}** to set them.", submit=tr("Submit"))


@dataclass(frozen=True, slots=True)
class Place:
    """Where a builder's cards are, as its controls' ids name it: the ids' fields (a table's
    game; a challenge's game and day), the family of controls whose gate finds the desk again
    from them, whether a suggestion is offered, and what Submit does, in words."""

    fields: Mapping[str, Any]
    controls: BuilderControls
    suggests: bool = True
    submit_hint: Text = SUBMIT_HINT


class Desk(Protocol):
    """Where the held cards come from and where a built setting is submitted: a seat at a table
    (``TableDesk``) or a day's challenge (cogs/challenge.py). A builder control's gate finds it
    from the control's id, so the builder survives a restart wherever it is used."""

    @property
    def spec(self) -> GameSpec:
        """The game whose hands are built."""
        ...

    @property
    def held(self) -> Sequence[AnyCard]:
        """The presser's cards."""
        ...

    @property
    def place(self) -> Place:
        """What the desk's controls name in their ids."""
        ...

    async def suggested(self, interaction: Interaction) -> Setting:
        """The solver's setting to start from (``GameError`` where none is offered)."""
        ...

    async def submit(self, interaction: Interaction, setting: Setting) -> None:
        """The builder's Submit: set the hands, or preview them before a final submission."""
        ...

    async def confirm(self, interaction: Interaction, setting: Setting) -> None:
        """Set these hands, pressed under a preview."""
        ...


async def set_hands(interaction: Interaction, key: tuple[int, int], setting: Setting) -> None:
    """Set the presser's hands and say so (an illegal setting raises the engine's sentence)."""
    await acknowledge(interaction)
    await services(interaction).tables.submit(*key, interaction.user.id, setting)
    done = tr(
        "Your hands are set: {hands}. You may replace them until everyone is in.",
        hands=f"`{setting.text}`",
    )
    await answer(interaction, words(interaction, done), view=discord.ui.View())


@dataclass(frozen=True, slots=True)
class TableDesk:
    """The presser's seat at a table setting hands, as a control's gate found it: the hands
    built are set at once (and may be replaced until everyone is in)."""

    key: tuple[int, int]
    table: Table
    user: int

    @property
    def spec(self) -> GameSpec:
        """The table's game."""
        return self.table.spec

    @property
    def held(self) -> Sequence[AnyCard]:
        """The presser's cards at the table."""
        return self.table.seat_of(self.user).held

    @property
    def place(self) -> Place:
        """The table's game, as its builder's ids name it."""
        assert self.table.game_id is not None  # the gate found the table in this game
        return table_place(self.table.game_id)

    async def suggested(self, interaction: Interaction) -> Setting:
        """The solver's setting of the presser's cards (remembered for Take it and the form)."""
        found = services(interaction)
        assert self.table.game_id is not None
        suggestion = await found.tables.suggest(*self.key, self.user)
        found.suggestions.remember(self.table.game_id, self.user, suggestion.setting)
        return suggestion.setting

    async def submit(self, interaction: Interaction, setting: Setting) -> None:
        """Set the hands built."""
        await set_hands(interaction, self.key, setting)

    async def confirm(self, interaction: Interaction, setting: Setting) -> None:
        """Set the hands previewed."""
        await set_hands(interaction, self.key, setting)


def chosen_from(
    held: Sequence[AnyCard], slots: Sequence[Sequence[int]], automatic: str | None
) -> Setting:
    """The setting of the hands chosen as held-card indices; the cards left over are discarded."""
    taken = {i for slot in slots for i in slot}
    hands = [[held[i] for i in slot] for slot in slots]
    rest = [held[i] for i in range(len(held)) if i not in taken]
    return chosen_setting(hands, rest, automatic)


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any], covariant=True)


class BuilderControl(Control[ItemT]):
    """A control of the builder or Set these hands. Its id names where the cards are (``where``,
    the fields of a ``Place``); its gate finds the desk there: for these, the presser's seat at
    the id's game while hands are set. A family with other ids finds its own (``find_desk``)."""

    where: Mapping[str, Any]
    #: The desk as the gate found it (set before ``act``).
    desk: Desk

    async def gate(self, interaction: Interaction) -> None:
        """The family's sentence unless the presser has hands to build here now."""
        self.desk = await self.find_desk(interaction)

    async def find_desk(self, interaction: Interaction) -> Desk:
        """`NOT_CURRENT` unless the presser sets hands in the id's game now."""
        game = int(self.where["game"])
        key, table = await current_table(interaction, game, phase=Phase.ARRANGING)
        return TableDesk(key, table, interaction.user.id)


class ConfirmButton(
    BuilderControl[Button], custom_id=r"pp:confirm:{game:int}:{state:[0-9a-z_-]+}:{auto:\d*}"
):
    """Set these hands: the previewed setting, carried in the custom id as held-card indices."""

    LABEL: ClassVar[Text] = tr("Set these hands")

    def __init__(
        self, *, state: str, auto: str, locale: str = i18n.ENGLISH.discord, **where: Any
    ) -> None:
        style = discord.ButtonStyle.success
        item = self.button(self.LABEL, style, locale=locale, state=state, auto=auto, **where)
        super().__init__(item)
        self.where, self.state, self.auto = where, state, auto

    async def act(self, interaction: Interaction) -> None:
        """Set the previewed hands."""
        held = self.desk.held
        slots = decode_build(self.state, len(held))
        await self.desk.confirm(interaction, chosen_from(held, slots, _automatic_at(self.auto)))


def confirm_item(
    place: Place,
    held: Sequence[AnyCard],
    setting: Setting,
    *,
    locale: str = i18n.ENGLISH.discord,
) -> ConfirmButton:
    """The place's Set these hands for a previewed setting of ``held``, labelled in the
    language of ``locale`` (the player's)."""
    slots = held_indices(held, setting.hands)
    auto = "" if setting.automatic is None else str(AUTOMATICS.index(setting.automatic))
    return place.controls.confirm(
        state=encode_build(slots), auto=auto, locale=locale, **place.fields
    )


# ----- the builder: one hand at a time from a select menu --------------------------------------


def card_options(
    held: Sequence[AnyCard], taken: set[int], *, locale: str = i18n.ENGLISH.discord
) -> list[discord.SelectOption]:
    """One option per card left, strongest first; equal cards (several decks) are numbered."""
    seen: Counter[str] = Counter()
    total = Counter(_name(card, locale) for card in held)
    options = []
    # Jokers first, then by the cards' own code (rank, then suit), strongest first.
    order = sorted(range(len(held)), key=lambda i: (held[i].is_joker, held[i].code), reverse=True)
    for index in order:
        name = _name(held[index], locale)
        seen[name] += 1
        if index in taken:
            continue
        label = name if total[name] == 1 else f"{name} ({seen[name]})"
        options.append(discord.SelectOption(label=label, value=_DIGITS[index]))
    return options


def _name(card: AnyCard, locale: str) -> str:
    return localized(locale, tr("Joker")) if card.is_joker else card.pretty


class BuildItem(
    BuilderControl[Button],
    custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:{action:start|undo|reset|submit|suggested}",
):
    """The builder's buttons: start (from the DM), start from the suggestion, undo a hand, start
    over, submit."""

    _LABELS: Final = {
        "start": (tr("Build hands"), discord.ButtonStyle.secondary),
        "suggested": (tr("Start from the suggestion"), discord.ButtonStyle.primary),
        "undo": (tr("Undo last hand"), discord.ButtonStyle.secondary),
        "reset": (tr("Start over"), discord.ButtonStyle.secondary),
        "submit": (tr("Submit"), discord.ButtonStyle.success),
    }

    def __init__(
        self,
        *,
        state: str,
        action: str,
        disabled: bool = False,
        locale: str = i18n.ENGLISH.discord,
        **where: Any,
    ) -> None:
        label, style = self._LABELS[action]
        item = self.button(label, style, locale=locale, state=state, action=action, **where)
        item.disabled = disabled
        super().__init__(item)
        self.where, self.state, self.action = where, state, action

    @classmethod
    def label(cls, action: str) -> Text:
        """The label of the button of ``action``."""
        return cls._LABELS[action][0]

    async def act(self, interaction: Interaction) -> None:
        """Move the builder on."""
        await build_step(interaction, self.desk, self.state, self.action)


#: A menu rebuilt from a click needs no shape: the click carries the options it was sent with.
_REBUILT_SLOT: Final = SlotShape("hand", (1,))


class BuildSelect(BuilderControl[Select], custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:pick"):
    """The builder's menu: the cards of the next hand."""

    def __init__(
        self,
        *,
        state: str,
        options: Sequence[discord.SelectOption] = (),
        slot: SlotShape = _REBUILT_SLOT,
        locale: str = i18n.ENGLISH.discord,
        **where: Any,
    ) -> None:
        low = min(slot.sizes)
        high = min(max(slot.sizes), len(options))
        sizes = "/".join(str(size) for size in slot.sizes)
        placeholder = tr("Cards for the {hand} ({sizes})", hand=slot_name(slot.name), sizes=sizes)
        nothing = discord.SelectOption(label=localized(locale, tr("no cards left")), value="-")
        super().__init__(
            discord.ui.Select(
                custom_id=self.ID.format(state=state, **where),
                placeholder=localized(locale, placeholder)[:150],
                min_values=min(low, high),
                max_values=high,
                options=list(options) or [nothing],
                disabled=not options,
            )
        )
        self.where, self.state = where, state

    @classmethod
    def rebuild(cls, item: discord.ui.Item[Any], fields: dict[str, Any]) -> Self:
        """The menu from its custom id, with the options it was sent with."""
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(**fields, options=options)

    async def act(self, interaction: Interaction) -> None:
        """Take the chosen cards as the next hand."""
        await build_step(interaction, self.desk, self.state, "pick", self.item.values)


class BuilderMenu(BuilderControl[Select]):
    """A menu that mends the hands chosen; rebuilt from a click with the options it was sent
    with. A subclass names its id's format, the builder's step it takes and its prompt."""

    #: The step of ``build_step`` the choice takes, the prompt, and how many options to choose.
    ACTION: ClassVar[str]
    PROMPT: ClassVar[Text]
    CHOOSE: ClassVar[int] = 1
    #: The fields of the id that are the step's own (the rest name where the cards are).
    OWN: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        *,
        state: str,
        options: Sequence[discord.SelectOption] = (),
        locale: str = i18n.ENGLISH.discord,
        **fields: Any,
    ) -> None:
        own = {name: str(fields.pop(name)) for name in self.OWN}
        # Discord wants as many options as a menu asks to choose, even in a disabled one.
        blanks = [discord.SelectOption(label="—", value=f"-{i}") for i in range(self.CHOOSE)]
        super().__init__(
            discord.ui.Select(
                custom_id=self.ID.format(state=state, **fields, **own),
                placeholder=localized(locale, self.PROMPT),
                min_values=self.CHOOSE,
                max_values=self.CHOOSE,
                options=list(options) if len(options) >= self.CHOOSE else blanks,
                disabled=len(options) < self.CHOOSE,
            )
        )
        self.where, self.state, self.own = fields, state, own
        for name, value in own.items():
            setattr(self, name, value)

    @classmethod
    def rebuild(cls, item: discord.ui.Item[Any], fields: dict[str, Any]) -> Self:
        """The menu from its custom id, with the options it was sent with."""
        return cls(**fields, options=item.options if isinstance(item, discord.ui.Select) else [])

    async def act(self, interaction: Interaction) -> None:
        """Take the builder's step with the options chosen (after the id's own fields)."""
        values = [*self.own.values(), *self.item.values]
        await build_step(interaction, self.desk, self.state, self.ACTION, values)


class MoveSelect(BuilderMenu, custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:move"):
    """Move a card: which card (a menu of the cards in the hands chosen)."""

    ACTION, PROMPT = "move", tr("Move a card to another hand…")


class MoveToSelect(
    BuilderMenu, custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:to:{card:[0-9a-z]}"
):
    """Move a card: to which hand (a menu of the other hands)."""

    ACTION, PROMPT, OWN = "to", tr("…to which hand?"), ("card",)


class SwapSelect(BuilderMenu, custom_id="pp:build:{game:int}:{state:[0-9a-z_-]+}:swap"):
    """Swap two hands' cards (a menu of the hands chosen: pick two)."""

    ACTION, PROMPT, CHOOSE = "swap", tr("Swap two hands…"), 2


@dataclass(frozen=True, slots=True)
class BuilderControls:
    """One family of the builder's controls (a table's; the challenge's): the same steps, each
    family with its own ids and its own gate."""

    item: type[BuildItem]
    pick: type[BuildSelect]
    move: type[MoveSelect]
    move_to: type[MoveToSelect]
    swap: type[SwapSelect]
    confirm: type[ConfirmButton]


#: The builder of a table's game.
TABLE_CONTROLS: Final = BuilderControls(
    BuildItem, BuildSelect, MoveSelect, MoveToSelect, SwapSelect, ConfirmButton
)


def table_place(game: int) -> Place:
    """A table's game, as its builder's ids name it."""
    return Place({"game": game}, TABLE_CONTROLS)


def hand_options(
    spec: GameSpec,
    slots: Sequence[Sequence[int]],
    skip: int | None = None,
    *,
    locale: str = i18n.ENGLISH.discord,
) -> list[discord.SelectOption]:
    """One option per hand chosen (but ``skip``), by its name and size."""
    shape = setting_shape(spec)
    return [
        discord.SelectOption(
            label=localized(
                locale,
                tr_plural(
                    "{hand} ({count} card)", "{hand} ({count} cards)", len(slot), hand=shape[i].name
                ),
            ),
            value=_DIGITS[i],
        )
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
    locale: str = i18n.ENGLISH.discord,
) -> discord.ui.View:
    """The builder of a table's game at this point (``place_view`` at the table's place)."""
    return place_view(spec, table_place(game), held, slots, moving=moving, locale=locale)


def place_view(
    spec: GameSpec,
    place: Place,
    held: Sequence[AnyCard],
    slots: Sequence[Sequence[int]],
    *,
    moving: int | None = None,
    locale: str = i18n.ENGLISH.discord,
) -> discord.ui.View:
    """The builder at this point: the menu of the next hand (if any) and its buttons, the
    place's family of controls naming the place, in the language of ``locale`` (the
    player's)."""
    shape = setting_shape(spec)
    state = encode_build(slots)
    controls, where = place.controls, place.fields
    view = discord.ui.View(timeout=None)
    done = len(slots) >= len(shape)
    if moving is not None:
        # The second half of a move: where the card goes (the hand it is in is left out).
        home = next(i for i, slot in enumerate(slots) if moving in slot)
        options = hand_options(spec, slots, skip=home, locale=locale)
        card = _DIGITS[moving]
        view.add_item(
            controls.move_to(state=state, card=card, options=options, locale=locale, **where)
        )
    elif not done:
        taken = {i for slot in slots for i in slot}
        options = card_options(held, taken, locale=locale)
        slot = shape[len(slots)]
        view.add_item(
            controls.pick(state=state, options=options, slot=slot, locale=locale, **where)
        )
    if moving is None and done:
        # Every hand chosen: mend them without starting over.
        chosen = set(chosen_options(held, slots))
        cards = [o for o in card_options(held, set(), locale=locale) if o.value in chosen]
        view.add_item(controls.move(state=state, options=cards, locale=locale, **where))
        hands = hand_options(spec, slots, locale=locale)
        view.add_item(controls.swap(state=state, options=hands, locale=locale, **where))
    if not slots and place.suggests:
        view.add_item(controls.item(state=state, action="suggested", locale=locale, **where))
    for action, disabled in (("undo", not slots), ("reset", not slots), ("submit", not done)):
        view.add_item(
            controls.item(state=state, action=action, disabled=disabled, locale=locale, **where)
        )
    return view


def hand_names(
    spec: GameSpec, hands: Sequence[Sequence[AnyCard]], *, locale: str = i18n.ENGLISH.discord
) -> list[str]:
    """Each hand's name as the builder shows it, or why it is no hand of its size ("⚠ ..."); a
    game against the house names its two hands once both are chosen; in the language of
    ``locale``."""
    if spec.variant is None:
        complete = len(hands) == len(setting_shape(spec))
        labels = hand_labels(spec, hands) if complete else [""] * len(hands)
        return [localized(locale, label) for label in labels]
    names = []
    for hand in hands:
        try:
            names.append(localized(locale, hand_labels(spec, [hand])[0]))
        except GameError as error:
            names.append(f"⚠ {say(error, locale)}")
    return names


def build_text(
    spec: GameSpec,
    held: Sequence[AnyCard],
    slots: Sequence[Sequence[int]],
    *,
    moving: int | None = None,
    submit_hint: Text | None = None,
    locale: str = i18n.ENGLISH.discord,
) -> str:
    """What the builder message says in the language of ``locale`` (the player's): the hands
    chosen so far, each with its name, and what comes next; once every hand is chosen, whether
    the table would take them (and ``submit_hint``, what Submit then does)."""

    def said(text: Text) -> str:
        return localized(locale, text)

    shape = setting_shape(spec)
    lines = [
        said(
            tr("**Building your hands** ({game}), weakest first.", game=Term(spec.title, "choice"))
        )
    ]
    hands = [[held[i] for i in chosen] for chosen in slots]
    for slot, hand, name in zip(shape, hands, hand_names(spec, hands, locale=locale), strict=False):
        named = f" · {name}" if name else ""
        lines.append(
            f"{said_name(locale, slot_name(slot.name))}: "
            + " ".join(c.pretty for c in hand)
            + named
        )
    taken = {i for slot in slots for i in slot}
    left = [held[i] for i in range(len(held)) if i not in taken]
    undo = UNDO
    if moving is not None:
        lines.append(said(tr("Move the **{card}** to which hand?", card=held[moving].pretty)))
    elif len(slots) < len(shape):
        slot = shape[len(slots)]
        problem = hands_so_far_problem(spec, hands)
        if problem is not None:
            mend = tr(
                "⚠ {problem} {undo}, or mend it once every hand is chosen.",
                problem=problem,
                undo=undo,
            )
            lines.append(said(mend))
        choose = tr(
            "Now choose the **{hand}**: {sizes} cards, from the {left} left.",
            hand=slot_name(slot.name),
            sizes=either(slot.sizes),
            left=len(left),
        )
        lines.append(said(choose))
    else:
        rest = " ".join(card.pretty for card in left)
        refused = setting_problem(spec, held, chosen_setting(hands, left))
        hint = submit_hint or SUBMIT_HINT
        if refused is None and left:
            done = tr(
                "Every hand is chosen. The rest is discarded: {rest}. {hint}", rest=rest, hint=hint
            )
        elif refused is None:
            done = tr("Every hand is chosen. {hint}", hint=hint)
        elif left:
            done = tr(
                "Every hand is chosen. The rest is discarded: {rest}. ⚠ Not yet: {problem}",
                rest=rest,
                problem=refused,
            )
        else:
            done = tr("Every hand is chosen. ⚠ Not yet: {problem}", problem=refused)
        lines.append(said(done))
        if refused is not None:
            lines.append(
                said(tr("Move a card or swap two hands to mend it, or {undo}.", undo=undo))
            )
    return "\n".join(lines)


def either(sizes: Sequence[int]) -> Text | int:
    """Sizes a hand may have: "3", "3 or 5"."""
    found: Text | int = sizes[0]
    for size in sizes[1:]:
        found = tr("{first} or {second}", first=found, second=size)
    return found


def said_name(locale: str, name: str | Text) -> str:
    """A hand's name (the game's own word for it) in the language of ``locale``."""
    return localized(locale, name)


async def build_step(
    interaction: Interaction,
    desk: Desk,
    state: str,
    action: str,
    values: Sequence[str] = (),
) -> None:
    """One step of the builder at the desk its gate found (a table's seat, a challenge), redrawn
    in place; a wrong step gets a sentence, changes nothing."""
    held, spec = desk.held, desk.spec
    shape = setting_shape(spec)
    slots = [] if action in ("start", "reset") else decode_build(state, len(held))
    moving = None
    if action == "suggested":
        await interaction.response.defer()  # the solver may take a moment
        slots = held_indices(held, (await desk.suggested(interaction)).hands)
    elif action == "move":
        moving = _card_in(values, slots)
    elif action == "to":
        card, target = _card_in(values[:1], slots), _hand_in(values[1:], slots)
        for hand in slots:
            if card in hand:
                hand.remove(card)
        slots[target] = sorted([*slots[target], card])
        if not all(slots):
            raise GameError(
                tr(
                    "That would leave a hand empty; swap the hands or {undo} instead.",
                    undo=UNDO,
                )
            )
    elif action == "swap":
        if len(values) != 2 or values[0] == values[1]:
            raise GameError(tr("Choose two different hands to swap."))
        first, second = (_hand_in([value], slots) for value in values)
        slots[first], slots[second] = slots[second], slots[first]
    elif action == "undo" and slots:
        slots.pop()
    elif action == "pick":
        if len(slots) >= len(shape):
            raise GameError(
                tr(
                    "Every hand is chosen already; press {submit} or {undo}.",
                    submit=BuildItem.label("submit"),
                    undo=UNDO,
                )
            )
        chosen = [_DIGITS.index(v) for v in values if v in _DIGITS and len(v) == 1]
        taken = {i for slot in slots for i in slot}
        slot = shape[len(slots)]
        if any(i >= len(held) or i in taken for i in chosen) or len(set(chosen)) != len(chosen):
            raise GameError(tr("Those cards are not all yours to choose; start the builder again."))
        if len(chosen) not in slot.sizes:
            raise GameError(
                tr(
                    "The {hand} holds {sizes} cards, not {chosen}.",
                    hand=slot_name(slot.name),
                    sizes=either(slot.sizes),
                    chosen=len(chosen),
                )
            )
        slots.append(sorted(chosen))
    elif action == "submit":
        if len(slots) < len(shape):
            raise GameError(tr("Choose every hand before submitting."))
        await desk.submit(interaction, chosen_from(held, slots, None))
        return
    place, locale = desk.place, interaction.locale.value
    content = build_text(
        spec, held, slots, moving=moving, submit_hint=place.submit_hint, locale=locale
    )
    view = place_view(spec, place, held, slots, moving=moving, locale=locale)
    hands = [[held[i] for i in slot] for slot in slots]
    names = hand_names(spec, hands, locale=locale)
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
        raise GameError(tr("That card is in none of your hands; start the builder again."))
    return _DIGITS.index(values[0])


def _hand_in(values: Sequence[str], slots: Sequence[Sequence[int]]) -> int:
    """The hand a menu names: one of the hands chosen."""
    if len(values) != 1 or values[0] not in _DIGITS or _DIGITS.index(values[0]) >= len(slots):
        raise GameError(tr("That hand is not chosen yet; start the builder again."))
    return _DIGITS.index(values[0])
