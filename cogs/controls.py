"""Buttons and menus that survive a restart: ``DynamicItem``s whose custom id carries what they
act on, each id's format written once, and the one registry the bot adds in ``setup_hook``.

Custom ids are ``pp:<feature>:<ids>`` (Discord allows 100 characters). Buttons already sent to
players keep working after an upgrade only while their ids keep their format: change one only
with a new feature name. Each family of controls has one gate, its ``interaction_check``: a
control pressed by someone it does not concern, or left over from an earlier round, answers with
a sentence only its presser sees before it acts; so does any failure (``guarded``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, TypeVar

import discord

import i18n
from cogs.common import guarded, localized, services
from engine.errors import GameError
from engine.text import Text, tr
from tables.phase import Phase

if TYPE_CHECKING:
    from tables.table import Table

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]
ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any], covariant=True)

#: A field of a format: ``{name:int}`` (digits, read as a number) or ``{name:regex}`` (text).
_FIELD: Final = re.compile(r"\{(\w+):([^{}]+)\}")
_DIGITS: Final = r"\d+"


def _weave(literals: Iterable[str], fields: Sequence[str]) -> str:
    """The literals with the fields between them."""
    return "".join(a + b for a, b in zip(literals, [*fields, ""], strict=True))


class CustomId:
    """One custom id format, e.g. ``pp:hand:{game:int}``: the template that finds a control again
    and the formatter that writes its id, both from the one pattern."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        # Split into literal, name, kind, literal, name, kind, ..., literal.
        parts = _FIELD.split(pattern)
        literals, fields = parts[0::3], list(zip(parts[1::3], parts[2::3], strict=True))
        groups = [f"(?P<{name}>{_DIGITS if kind == 'int' else kind})" for name, kind in fields]
        self.template = re.compile(_weave(map(re.escape, literals), groups))
        self._text = _weave(literals, ["{" + name + "}" for name, _ in fields])
        self.numbers = frozenset(name for name, kind in fields if kind == "int")

    def format(self, **fields: object) -> str:
        """The custom id of a control with these fields."""
        custom_id = self._text.format(**fields)
        if not self.template.fullmatch(custom_id):
            raise ValueError(f"{custom_id!r} does not fit {self.pattern!r}")
        return custom_id

    def parse(self, match: re.Match[str]) -> dict[str, Any]:
        """The fields of a custom id the template matched, numbers as numbers."""
        return {
            name: int(value) if name in self.numbers else value
            for name, value in match.groupdict().items()
        }


#: Every restart-proof control, in the order their classes were defined (``setup_hook`` adds
#: them all; a control class adds itself when it is defined).
DYNAMIC_ITEMS: list[type[Control[Any]]] = []


#: What the abstract base's template matches: nothing (only real controls are found again).
_NOTHING: Final = re.compile(r"(?!)")


class Control(discord.ui.DynamicItem[ItemT], template=_NOTHING):
    """A restart-proof control. A subclass names its id's format once, as a class argument
    (``class HandButton(Control[Button], custom_id="pp:hand:{game:int}")``), and takes the
    format's fields as its constructor's keyword arguments, so that a click rebuilds it; a
    subclass without a format is a base for others and is never found again by itself."""

    ID: ClassVar[CustomId]

    def __init_subclass__(cls, *, custom_id: str | None = None) -> None:
        if custom_id is None:
            super().__init_subclass__(template=_NOTHING)
            return
        cls.ID = CustomId(custom_id)
        super().__init_subclass__(template=cls.ID.template)
        DYNAMIC_ITEMS.append(cls)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the control from its custom id (after a restart too)."""
        return cls.rebuild(item, cls.ID.parse(match))

    @classmethod
    def rebuild(cls, item: discord.ui.Item[Any], fields: dict[str, Any]) -> Self:
        """The control with the fields of its id (a menu also keeps the options it was sent
        with: they come with the click, as ``item``)."""
        return cls(**fields)

    @classmethod
    def button(
        cls,
        label: str | Text,
        style: discord.ButtonStyle,
        *,
        locale: str = i18n.ENGLISH.discord,
        **fields: object,
    ) -> Button:
        """A button whose custom id is this control's format filled with ``fields``, its label
        in the language of ``locale``."""
        return discord.ui.Button(
            label=localized(locale, label), style=style, custom_id=cls.ID.format(**fields)
        )

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """The family's one gate (``gate``), before the control acts: a refusal answers its
        sentence to the presser alone, and nothing is done."""
        return await guarded(interaction, self.gate(interaction))

    async def gate(self, interaction: Interaction) -> None:
        """Raise the sentence the presser reads if the control is not theirs to press now."""

    async def callback(self, interaction: Interaction) -> None:
        """Act on the press; whatever fails still answers the presser."""
        await guarded(interaction, self.act(interaction))

    async def act(self, interaction: Interaction) -> None:
        """What the control does."""
        raise NotImplementedError


def is_orphan_form(interaction: Interaction) -> bool:
    """A submitted form of ours that this process never opened (it was open across a restart)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    custom_id = _custom_id(interaction)
    if not custom_id.startswith("pp:"):
        return False
    store: Any = getattr(interaction.client, "_connection", None)
    modals = getattr(getattr(store, "_view_store", None), "_modals", {})
    return custom_id not in modals


def is_unknown_control(interaction: Interaction) -> bool:
    """A pressed button or menu of ours that no restart-proof control recognises (forged, or
    from a version of the bot that made other ids): discord.py would leave it unanswered."""
    if interaction.type is not discord.InteractionType.component:
        return False
    custom_id = _custom_id(interaction)
    if not custom_id.startswith("pp:"):
        return False
    return not any(control.ID.template.fullmatch(custom_id) for control in DYNAMIC_ITEMS)


def _custom_id(interaction: Interaction) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id", ""))


#: What a control of a game says when it is not the presser's to press now: from an earlier game
#: or step, pressed by a player it does not concern, or forged. One sentence for every case, so
#: an id naming another server's table tells the presser nothing of that table.
NOT_CURRENT: Final = tr("That button is not yours, or its game or step is over; nothing was done.")


async def current_table(
    interaction: Interaction,
    game: int,
    *,
    phase: Phase,
    key: tuple[int, int] | None = None,
    round_: int | None = None,
) -> tuple[tuple[int, int], Table]:
    """The gate of a game's controls and forms: the table (at ``key``, else wherever ``game``
    is played) while ``game`` is at ``phase`` (and declaration ``round_``) and the presser is in
    it; else `NOT_CURRENT`, whatever the reason."""
    tables = services(interaction).tables
    if key is None:
        key = await tables.find_game(game)
    table = None if key is None else await tables.table(*key)
    user = interaction.user.id
    if (
        key is None
        or table is None
        or table.game_id != game
        or table.phase is not phase
        or (round_ is not None and table.round != round_)
        or not table.is_seated(user)
        or not table.seat_of(user).is_active
    ):
        raise GameError(NOT_CURRENT)
    return key, table


class GameControl(Control[ItemT]):
    """A control of one step of one game (Play and Surrender, Suggest, Take it, Type hands, the
    builder, Set these hands). Its gate lets through only a player of that game at that step,
    and leaves them the table it found (``key``, ``table``) to act on."""

    #: The step the control belongs to.
    PHASE: ClassVar[Phase] = Phase.ARRANGING
    #: What the id names: the game, and where it is played and its declaration, if it says.
    game: int
    at: tuple[int, int] | None = None
    round_: int | None = None
    #: The table as the gate found it (set before ``act``).
    key: tuple[int, int]
    table: Table

    async def gate(self, interaction: Interaction) -> None:
        """`NOT_CURRENT` unless the presser plays this control's game at its step."""
        self.key, self.table = await current_table(
            interaction, self.game, phase=self.PHASE, key=self.at, round_=self.round_
        )


class ChannelControl(Control[ItemT]):
    """A control under a message of a table's channel (the lobby, the table's message, a showdown):
    its gate lets through a press made in a server's channel, and leaves the act ``where`` it
    was."""

    #: What a press outside a server's channel reads.
    ELSEWHERE: ClassVar[Text] = tr("Use this in the channel of the table.")
    where: tuple[int, int]

    async def gate(self, interaction: Interaction) -> None:
        """``ELSEWHERE`` unless the press came from a server's channel."""
        guild, channel = interaction.guild_id, interaction.channel_id
        if guild is None or channel is None:
            raise GameError(self.ELSEWHERE)
        self.where = (guild, channel)
