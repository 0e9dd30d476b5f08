"""A player's setting of their cards, per game: read and check it, name its hands, or make one.

Pyramid games go through the engine's arrangement rules (and the solver for a default); the
three-card game and Pai Gow are set as a low and a high hand, by the player or the house way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.arrangement import Arrangement, parse_arrangement, verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import AnyCard, Card, Joker, Rank, format_hands, parse_cards, parse_hands
from engine.errors import GameError, quote
from engine.evaluate import evaluate, evaluator
from engine.paigow import PaiGowSetting, Role
from engine.paigow import is_foul as pai_gow_fouls
from engine.paigow import verify_setting as verify_pai_gow
from engine.paigow_house_way import house_way as pai_gow_house_way
from engine.solver.model import load_model
from engine.solver.solve import solve
from engine.three_card import ThreeCardSetting
from engine.three_card import house_way as three_card_house_way
from engine.three_card import is_foul as three_card_fouls
from engine.three_card import verify_setting as verify_three_card
from engine.variants import Automatic, Variant
from tables.games import GAMES, Family, GameSpec

#: How long the solver may think for a player who let the deadline pass (Showdown's 25 cards).
SOLVER_BUDGET_S = 1.5


@dataclass(frozen=True, slots=True)
class Setting:
    """A legal setting: its canonical text (weakest hand first), hands and any automatic."""

    text: str
    hands: tuple[tuple[AnyCard, ...], ...]
    automatic: str | None = None


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The solver's (or the house way's) setting, with its expected points when there are any."""

    setting: Setting
    ev: float | None
    exact: bool


def _variant(spec: GameSpec) -> Variant:
    if spec.variant is None:
        raise GameError(f"{spec.title} is not a Pyramid game.")
    return spec.variant


def _automatic(name: str | None) -> Automatic | None:
    if not name:
        return None
    try:
        return Automatic(name.strip().lower().replace(" ", "_"))
    except ValueError:
        known = ", ".join(a.title for a in Automatic)
        raise GameError(
            f"There is no automatic called {quote(name)}; try one of: {known}."
        ) from None


def _only_cards(cards: Sequence[AnyCard], game: str) -> tuple[Card, ...]:
    if any(isinstance(card, Joker) for card in cards):
        raise GameError(f"{game} has no jokers.")
    return tuple(card for card in cards if isinstance(card, Card))


def _by_size(text: str, small: int, large: int, words: str) -> tuple[tuple[AnyCard, ...], ...]:
    hands = parse_hands(text)
    if sorted(len(hand) for hand in hands) != [small, large]:
        raise GameError(f"Set {words}, separated by `|`.")
    return tuple(sorted(hands, key=len))


def read_setting(
    spec: GameSpec, held: Sequence[AnyCard], text: str, automatic: str | None = None
) -> Setting:
    """The player's setting if it is legal for these cards; else ``GameError`` saying why."""
    if spec.family is Family.PYRAMID:
        variant = _variant(spec)
        arrangement = parse_arrangement(text)
        chosen = _automatic(automatic)
        if chosen is None:
            verify_arrangement(variant, held, arrangement)
        else:
            verify_automatic(variant, held, arrangement, chosen)
        named = None if chosen is None else chosen.value
        return Setting(str(arrangement), arrangement.hands, named)
    if automatic:
        raise GameError(f"{spec.title} has no automatics.")
    if spec.family is Family.THREE_CARD:
        low, high = _by_size(text, 1, 2, "one card low and two cards high")
        three = ThreeCardSetting(low=_only_cards(low, spec.title)[0], high=_pair(high, spec))
        verify_three_card(_only_cards(held, spec.title), three)
        if three_card_fouls(three):
            raise GameError(
                f"That fouls: your low card {three.low.pretty} outranks your two-card hand. "
                "Put the higher card in the two-card hand."
            )
        return Setting(format_hands((low, high)), (low, high))
    low, high = _by_size(text, 2, 5, "two cards low and five cards high")
    pai_gow = PaiGowSetting(high=high, low=low)
    verify_pai_gow(held, pai_gow)
    if pai_gow_fouls(pai_gow, spec.pai_gow_table):
        raise GameError("That fouls: your five-card hand must beat your two-card hand.")
    return Setting(format_hands((low, high)), (low, high))


@dataclass(frozen=True, slots=True)
class SlotShape:
    """One hand of a setting as a builder asks for it: its name and the sizes it may hold."""

    name: str
    sizes: tuple[int, ...]


def setting_shape(spec: GameSpec) -> tuple[SlotShape, ...]:
    """The hands a player sets in this game, weakest first."""
    if spec.family is Family.PYRAMID:
        return tuple(SlotShape(slot.name, slot.allowed_sizes) for slot in _variant(spec).slots)
    if spec.family is Family.THREE_CARD:
        return (SlotShape("low card", (1,)), SlotShape("two-card hand", (2,)))
    return (SlotShape("low hand", (2,)), SlotShape("high hand", (5,)))


def setting_text(
    spec: GameSpec, hands: Sequence[Sequence[AnyCard]], discards: Sequence[AnyCard] = ()
) -> str:
    """The text ``read_setting`` reads for these hands (and discards, in a Pyramid game)."""
    chosen = tuple(tuple(hand) for hand in hands)
    if spec.family is Family.PYRAMID:
        return str(Arrangement(chosen, tuple(discards) or None))
    if discards:
        raise GameError(f"{spec.title} uses every card: there is nothing to discard.")
    return format_hands(chosen)


def _pair(cards: Sequence[AnyCard], spec: GameSpec) -> tuple[Card, Card]:
    first, second = _only_cards(cards, spec.title)
    return first, second


def house_setting(spec: GameSpec, held: Sequence[AnyCard], *, banker: bool = False) -> Setting:
    """The house way's setting of a three-card or Pai Gow hand (RULINGS §5, §6)."""
    if spec.family is Family.THREE_CARD:
        three = three_card_house_way(_only_cards(held, spec.title), spec.three_card_table)
        low, high = (three.low,), three.high
        return Setting(format_hands((low, high)), (low, high))
    if spec.family is Family.PAI_GOW:
        role = Role.BANKER if banker else Role.PLAYER
        pai_gow = pai_gow_house_way(held, role=role, table=spec.pai_gow_table)
        return Setting(format_hands((pai_gow.low, pai_gow.high)), (pai_gow.low, pai_gow.high))
    raise GameError(f"{spec.title} has no house way.")


def suggest_setting(
    spec: GameSpec, held: Sequence[AnyCard], *, budget_s: float | None = SOLVER_BUDGET_S
) -> Suggestion:
    """The solver's best setting (an automatic when it pays more), or the house way's.

    This is CPU work of up to ``budget_s``: callers on an event loop run it in a thread.
    """
    if spec.family is not Family.PYRAMID:
        return Suggestion(house_setting(spec, held), None, True)
    solution = solve(_variant(spec), held, budget_s=budget_s)
    arrangement: Arrangement = solution.arrangement
    automatic = None if solution.automatic is None else solution.automatic.value
    setting = Setting(str(arrangement), arrangement.hands, automatic)
    return Suggestion(setting, solution.ev, solution.exact)


def warm_up() -> None:
    """Load the evaluator's tables and every solver model (a worker process does it once)."""
    for spec in GAMES.values():
        if spec.variant is not None:
            load_model(spec.variant)
            evaluator(spec.variant.hand_rules)
    assert GAMES["paigow"].pai_gow_table.keys is not None  # builds Pai Gow's hand keys
    house_setting(GAMES["three-card"], parse_cards("As Kd 7c"))


def default_setting(spec: GameSpec, held: Sequence[AnyCard]) -> Setting:
    """What the table sets for a player who let the arrangement deadline pass."""
    return suggest_setting(spec, held).setting


def hand_labels(spec: GameSpec, hands: Sequence[Sequence[AnyCard]]) -> tuple[str, ...]:
    """Each hand's name for the showdown (with what each joker became)."""
    if spec.family is Family.PYRAMID:
        rules = _variant(spec).hand_rules
        return tuple(evaluate(hand, rules).label for hand in hands)
    if spec.family is Family.THREE_CARD:
        low, high = hands
        return (f"{_rank_of(low[0]).word.capitalize()} high", _two_card_label(high))
    low, high = hands
    return (_two_card_label(low), evaluate(high, spec.pai_gow_table.rules).label)


def _rank_of(card: AnyCard) -> Rank:
    # In Pai Gow's low hand the joker is an ace (seed 003); the three-card game has none.
    return card.rank if isinstance(card, Card) else Rank.ACE


def _two_card_label(cards: Sequence[AnyCard]) -> str:
    big, small = sorted((_rank_of(card) for card in cards), reverse=True)
    if big == small:
        return f"Pair of {big.plural}"
    return f"{big.word.capitalize()}-{small.word}"
