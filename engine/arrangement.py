"""Arrangements: reading a player's hands and deciding whether they may be set so, and why not.

A player sets hands weakest slot first (Hand 1 … Hand 6; front | middle | back). The checks run
in the order a player would fix them: the number of hands, the cards held, each hand's size, how
many cards are used, what each hand must be at its size (power hands), and last the order rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import AnyCard, card_from_code, format_cards, format_hands, parse_hands
from engine.errors import GameError, HandError
from engine.evaluate import Category, HandValue, evaluate
from engine.variants import OrderRule, Slot, Variant

#: Separates the discards from the hands in the written form of an arrangement.
DISCARD_MARK: Final = "||"


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A player's hands, weakest slot first, and the discards (None: whatever is not played)."""

    hands: tuple[tuple[AnyCard, ...], ...]
    discards: tuple[AnyCard, ...] | None = None

    @property
    def used(self) -> tuple[AnyCard, ...]:
        """Every card played in a hand, slot by slot."""
        return tuple(card for hand in self.hands for card in hand)

    @property
    def sizes(self) -> tuple[int, ...]:
        """How many cards each hand holds."""
        return tuple(len(hand) for hand in self.hands)

    def __str__(self) -> str:
        text = format_hands(self.hands)
        if self.discards:
            text += f" {DISCARD_MARK} {format_cards(self.discards)}"
        return text


def parse_arrangement(text: str) -> Arrangement:
    """Read ``"As | Kh Kd Ks | ... || 2c 3d"``: hands weakest first, then optional discards."""
    hands_text, mark, discard_text = text.partition(DISCARD_MARK)
    hands = parse_hands(hands_text)
    return Arrangement(hands, parse_hands(discard_text)[0] if mark else None)


def the(slot: Slot) -> str:
    """How a sentence names a slot: "Hand 4" or "the front hand"."""
    return slot.name if slot.name[0].isupper() else f"the {slot.name}"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _a(size: int) -> str:
    return "An" if size in (8, 11, 18) else "A"


_WITH_ARTICLE: Final = frozenset(
    {
        Category.PAIR,
        Category.THREE_CARD_STRAIGHT,
        Category.THREE_CARD_FLUSH,
        Category.THREE_CARD_STRAIGHT_FLUSH,
        Category.STRAIGHT,
        Category.FLUSH,
        Category.FULL_HOUSE,
        Category.STRAIGHT_FLUSH,
    }
)


def describe_hand(value: HandValue) -> str:
    """A hand's label inside a sentence, as in "a pair of nines (K)"."""
    label = value.label[0].lower() + value.label[1:]
    return f"a {label}" if value.category in _WITH_ARTICLE else label


_ORDINALS: Final = ("a", "a second", "a third", "a fourth", "a fifth", "a sixth")


def _card_words(code: int, count: int) -> str:
    ordinal = _ORDINALS[count - 1] if count <= len(_ORDINALS) else f"a {count}th"
    card = card_from_code(code)
    return f"{ordinal} joker" if card.is_joker else f"{ordinal} {card.pretty}"


def holding_fault(held: Sequence[AnyCard], cards: Sequence[AnyCard]) -> str | None:
    """Why ``cards`` are not a part of what the player holds (a multiset), or None."""
    have = Counter(card.code for card in held)
    seen: Counter[int] = Counter()
    for card in cards:
        seen[card.code] += 1
        if seen[card.code] > have[card.code]:
            return f"You do not hold {_card_words(card.code, seen[card.code])}."
    return None


def _count_phrase(sizes: Sequence[int]) -> str:
    words = [str(size) for size in sorted(sizes)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def size_fault(variant: Variant, sizes: Sequence[int]) -> str | None:
    """Why these hand sizes are not allowed (count of hands, each size, cards used), or None."""
    slots = variant.slots
    if len(sizes) != len(slots):
        names = f"{slots[0].name} to {slots[-1].name}"
        return f"Set {len(slots)} hands ({names}), weakest first; you set {len(sizes)}."
    for slot, size in zip(slots, sizes, strict=True):
        if slot.size_rule(size) is None:
            allowed = _count_phrase(slot.allowed_sizes)
            plural = "card" if slot.allowed_sizes == (1,) else "cards"
            return f"{_cap(the(slot))} holds {size}; it must hold {allowed} {plural}."
    used = sum(sizes)
    if not variant.min_used <= used <= variant.max_used:
        if variant.min_used == variant.max_used:
            wanted = f"exactly {variant.min_used}"
        elif used < variant.min_used:
            wanted = f"at least {variant.min_used}"
        else:
            wanted = f"at most {variant.max_used}"
        return f"Use {wanted} cards in your hands; you used {used}."
    return None


def fits_slot(variant: Variant, position: int, size: int, key: tuple[int, ...]) -> bool:
    """Whether a hand of this size and strength key may stand at this position (power hands)."""
    rule = variant.slots[position].size_rule(size)
    return rule is not None and key[0] >= rule.min_ladder


def needs_met(variant: Variant, sizes: Sequence[int]) -> bool:
    """Whether every power hand that leans on another slot's size has it (seed 000, Hand 3)."""
    for slot, size in zip(variant.slots, sizes, strict=True):
        rule = slot.size_rule(size)
        if (
            rule is not None
            and rule.needs_slot is not None
            and sizes[rule.needs_slot] < rule.needs_size
        ):
            return False
    return True


def is_ordered(variant: Variant, weaker: tuple[int, ...], stronger: tuple[int, ...]) -> bool:
    """Whether ``stronger`` may stand right after ``weaker`` (strictly, or ≥ where allowed)."""
    if variant.order is OrderRule.STRICT:
        return stronger > weaker
    return stronger >= weaker


def is_legal_keys(
    variant: Variant, sizes: Sequence[int], keys: Sequence[tuple[int, ...] | None]
) -> bool:
    """The solver's fast check: sizes, power hands and order from the keys (None: not a hand)."""
    if size_fault(variant, sizes) is not None or not needs_met(variant, sizes):
        return False
    for position, key in enumerate(keys):
        if key is None or not fits_slot(variant, position, sizes[position], key):
            return False
        if position and not is_ordered(variant, keys[position - 1] or (), key):
            return False
    return True


def _hand_fault(
    variant: Variant, position: int, cards: tuple[AnyCard, ...]
) -> tuple[str | None, HandValue | None]:
    slot = variant.slots[position]
    size = len(cards)
    rule = slot.size_rule(size)
    assert rule is not None  # sizes were checked first
    try:
        value = evaluate(cards, variant.hand_rules)
    except HandError:
        return f"{_a(size)} {size}-card {slot.name} must be {rule.requirement}.", None
    if value.ladder < rule.min_ladder:
        fault = f"{_a(size)} {size}-card {slot.name} must be {rule.requirement}"
        return f"{fault}; yours is {describe_hand(value)}.", value
    return None, value


def _order_fault(
    variant: Variant, slots: Sequence[Slot], values: Sequence[HandValue]
) -> str | None:
    for position in range(1, len(values)):
        low, high = values[position - 1], values[position]
        if is_ordered(variant, low.key, high.key):
            continue
        lower, upper = the(slots[position - 1]), the(slots[position])
        wanted = "stronger than" if variant.order is OrderRule.STRICT else "at least as strong as"
        if high.key == low.key:
            return (
                f"{_cap(upper)} must be stronger than {lower}, but both are "
                f"{describe_hand(high)}; equal hands are a foul."
            )
        return (
            f"{_cap(upper)} must be {wanted} {lower}: {upper} is {describe_hand(high)}, "
            f"{lower} is {describe_hand(low)}."
        )
    return None


def partial_fault(variant: Variant, hands: Sequence[Sequence[AnyCard]]) -> str | None:
    """Why the hands chosen so far (weakest first, from the first slot) cannot stand as they
    are, each in its slot and each stronger than the one before; None while they can. What a
    builder says as the player goes, before the whole arrangement can be checked."""
    values: list[HandValue] = []
    for position, cards in enumerate(hands[: len(variant.slots)]):
        slot = variant.slots[position]
        if slot.size_rule(len(cards)) is None:
            allowed = _count_phrase(slot.allowed_sizes)
            plural = "card" if slot.allowed_sizes == (1,) else "cards"
            return f"{_cap(the(slot))} holds {len(cards)}; it must hold {allowed} {plural}."
        fault, value = _hand_fault(variant, position, tuple(cards))
        if fault:
            return fault
        assert value is not None
        values.append(value)
    return _order_fault(variant, variant.slots, values)


def arrangement_fault(
    variant: Variant, arrangement: Arrangement, held: Sequence[AnyCard] | None = None
) -> tuple[str | None, tuple[HandValue, ...]]:
    """The first reason the arrangement is refused (None if legal), and the hands' values."""
    if held is not None:
        fault = holding_fault(held, arrangement.used + (arrangement.discards or ()))
        if fault:
            return fault, ()
        if arrangement.discards is not None:
            placed = Counter(card.code for card in arrangement.used + arrangement.discards)
            missing = Counter(card.code for card in held) - placed
            if missing:
                card = card_from_code(min(missing)).pretty.replace("W", "a joker")
                return f"Play or discard every card you hold; {card} is in neither.", ()
    fault = size_fault(variant, arrangement.sizes)
    if fault:
        return fault, ()
    values: list[HandValue] = []
    for position, cards in enumerate(arrangement.hands):
        fault, value = _hand_fault(variant, position, cards)
        if fault:
            return fault, ()
        assert value is not None
        values.append(value)
    for slot, size in zip(variant.slots, arrangement.sizes, strict=True):
        rule = slot.size_rule(size)
        if rule is not None and rule.needs_slot is not None:
            other = variant.slots[rule.needs_slot]
            if arrangement.sizes[rule.needs_slot] < rule.needs_size:
                return (
                    f"{_cap(the(slot))} may hold {size} cards only when {the(other)} holds "
                    f"{rule.needs_size} or more.",
                    (),
                )
    fault = _order_fault(variant, variant.slots, values)
    return fault, tuple(values) if fault is None else ()


def verify_arrangement(
    variant: Variant, held: Sequence[AnyCard] | None, arrangement: Arrangement
) -> tuple[HandValue, ...]:
    """The hands' values if the arrangement is legal; else raises ``GameError`` saying why."""
    fault, values = arrangement_fault(variant, arrangement, held)
    if fault is not None:
        raise GameError(fault)
    return values


def is_legal(
    variant: Variant, arrangement: Arrangement, held: Sequence[AnyCard] | None = None
) -> bool:
    """Whether the arrangement may be set (and, given ``held``, uses only held cards)."""
    return arrangement_fault(variant, arrangement, held)[0] is None
