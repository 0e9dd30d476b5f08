"""A player's setting of their cards, asked of the game's rules object (tables/rules/).

These are the table's questions in the words the cogs and the manager use; each is answered by
``rules_of(spec)``, so nothing here tells the games apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.arrangement import DISCARD_MARK, partial_fault
from engine.cards import AnyCard, format_cards, parse_hands, sort_cards
from engine.errors import GameError
from engine.text import Text
from tables.games import GAMES, GameSpec, rules_of
from tables.hand_names import hand_name, slot_name
from tables.rules import SOLVER_BUDGET_S
from tables.setting import Setting, SlotShape, Suggestion, hands_of, strongest_first

__all__ = [
    "SOLVER_BUDGET_S",
    "Setting",
    "SlotShape",
    "Suggestion",
    "chosen_setting",
    "default_setting",
    "hand_labels",
    "has_automatics",
    "read_setting",
    "setting_shape",
    "slot_names",
    "suggest_setting",
    "warm_up",
]


def read_setting(
    spec: GameSpec, held: Sequence[AnyCard], text: str, automatic: str | None = None
) -> Setting:
    """The player's setting if it is legal for these cards; else ``GameError`` saying why."""
    return rules_of(spec).read(held, text, automatic)


def typed_strongest_first(spec: GameSpec, text: str) -> bool:
    """Whether ``read_setting`` reads this text's hands as written strongest first (the sizes
    typed fit the game's hands only reversed); what a preview says it read."""
    try:
        hands = parse_hands(text.partition(DISCARD_MARK)[0])
    except GameError:
        return False
    return strongest_first(setting_shape(spec), [len(hand) for hand in hands])


def unsplit_text(held: Sequence[AnyCard]) -> str:
    """A player's cards weakest first, as one line for them to split into hands with ``|``: what
    the form starts from when no setting of theirs is known yet."""
    return format_cards(sort_cards(held)[::-1])


def setting_shape(spec: GameSpec) -> tuple[SlotShape, ...]:
    """The hands a player sets in this game, weakest first."""
    return rules_of(spec).shape()


def has_automatics(spec: GameSpec) -> bool:
    """Whether a player may declare an automatic with their hands in this game."""
    return rules_of(spec).has_automatics()


def chosen_setting(
    hands: Sequence[Sequence[AnyCard]],
    discards: Sequence[AnyCard] = (),
    automatic: str | None = None,
) -> Setting:
    """The setting of hands chosen card by card (the builder, Set these hands), as a value:
    the table checks it when it is submitted, as it checks one read from text."""
    return Setting(hands_of(hands), tuple(discards), automatic)


def suggest_setting(
    spec: GameSpec, held: Sequence[AnyCard], *, budget_s: float | None = SOLVER_BUDGET_S
) -> Suggestion:
    """The solver's best setting (an automatic when it pays more), or the house way's.

    This is CPU work of up to ``budget_s``: callers on an event loop run it elsewhere.
    """
    return rules_of(spec).suggest(held, budget_s=budget_s)


def default_setting(spec: GameSpec, held: Sequence[AnyCard]) -> Setting:
    """What the table sets for a player who let the arrangement deadline pass."""
    return suggest_setting(spec, held).setting


def setting_problem(spec: GameSpec, held: Sequence[AnyCard], setting: Setting) -> str | Text | None:
    """Why the table would refuse this setting of these cards (the engine's sentence, a `Text`
    where the engine gives one, read in the player's language), or None if it is legal: what
    the builder says before Submit."""
    try:
        rules_of(spec).check(held, setting)
    except GameError as error:
        return error.text
    return None


def hands_so_far_problem(spec: GameSpec, hands: Sequence[Sequence[AnyCard]]) -> str | None:
    """Why the hands a player chose so far cannot stand (a hand its slot cannot hold, or weaker
    than the one before), or None; a game against the house is checked whole only."""
    if spec.variant is None:
        return None
    return None if (fault := partial_fault(spec.variant, hands)) is None else str(fault)


def hand_labels(spec: GameSpec, hands: Sequence[Sequence[AnyCard]]) -> tuple[Text, ...]:
    """Each hand's name for the showdown (with what each joker became), as a text read in the
    reader's language (``str()``: the English)."""
    return tuple(hand_name(label) for label in rules_of(spec).labels(hands))


def slot_names(spec: GameSpec) -> tuple[Text, ...]:
    """Each hand's short name, weakest first ("Hand 1", "Front", "Low"), as a text."""
    return tuple(slot_name(name) for name in rules_of(spec).slot_names())


def warm_up() -> None:
    """Load the evaluator's lookups, every solver model and the house ways' keys."""
    for spec in GAMES.values():
        rules_of(spec).warm_up()
