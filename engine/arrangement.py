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

from engine.cards import AnyCard, Rank, card_from_code, format_cards, format_hands, parse_hands
from engine.errors import GameError, HandError
from engine.evaluate import ACE, Category, HandValue, evaluate
from engine.text import Text, tr
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


def slot_text(slot: Slot, *, article: bool = True, start: bool = False) -> Text | str:
    """How a sentence in the reader's language names a slot: "Hand 4", "the front hand" (with
    ``article``; "The front hand" to ``start`` a sentence) or "front hand" (without)."""
    if slot.name.startswith("Hand ") and slot.name[5:].isdigit():
        return tr("Hand {number}", number=slot.name[5:])
    phrases = _SLOT_PHRASES.get(slot.name)
    if phrases is None:  # a slot no catalog names: English
        return slot.name if not article else _cap(the(slot)) if start else the(slot)
    bare, the_slot, the_slot_first = phrases
    return bare if not article else the_slot_first if start else the_slot


_SLOT_PHRASES: Final = {
    "front hand": (tr("front hand"), tr("the front hand"), tr("The front hand")),
    "middle hand": (tr("middle hand"), tr("the middle hand"), tr("The middle hand")),
    "back hand": (tr("back hand"), tr("the back hand"), tr("The back hand")),
}


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


#: Each rank's name and plural inside a sentence, in the reader's language (two to ace).
_RANK_NAMES: Final = (
    tr("two"),
    tr("three"),
    tr("four"),
    tr("five"),
    tr("six"),
    tr("seven"),
    tr("eight"),
    tr("nine"),
    tr("ten"),
    tr("jack"),
    tr("queen"),
    tr("king"),
    tr("ace"),
)
_RANK_PLURAL_NAMES: Final = (
    tr("twos"),
    tr("threes"),
    tr("fours"),
    tr("fives"),
    tr("sixes"),
    tr("sevens"),
    tr("eights"),
    tr("nines"),
    tr("tens"),
    tr("jacks"),
    tr("queens"),
    tr("kings"),
    tr("aces"),
)
#: "three of a kind" to "ten of a kind" inside a sentence.
_OF_A_KIND: Final = {
    3: tr("three of a kind"),
    4: tr("four of a kind"),
    5: tr("five of a kind"),
    6: tr("six of a kind"),
    7: tr("seven of a kind"),
    8: tr("eight of a kind"),
    9: tr("nine of a kind"),
    10: tr("ten of a kind"),
}


def _rank(rank: int) -> Text:
    return _RANK_NAMES[min(rank, ACE) - 2]


def _ranks(rank: int) -> Text:
    return _RANK_PLURAL_NAMES[min(rank, ACE) - 2]


#: A rank's name where it begins a hand's name ("Ace high").
_RANK_TITLES: Final = (
    tr("Two"),
    tr("Three"),
    tr("Four"),
    tr("Five"),
    tr("Six"),
    tr("Seven"),
    tr("Eight"),
    tr("Nine"),
    tr("Ten"),
    tr("Jack"),
    tr("Queen"),
    tr("King"),
    tr("Ace"),
)
#: "Three of a kind" to "Ten of a kind" where they begin a hand's name.
_OF_A_KIND_TITLES: Final = {
    3: tr("Three of a kind"),
    4: tr("Four of a kind"),
    5: tr("Five of a kind"),
    6: tr("Six of a kind"),
    7: tr("Seven of a kind"),
    8: tr("Eight of a kind"),
    9: tr("Nine of a kind"),
    10: tr("Ten of a kind"),
}


def hand_title(value: HandValue) -> Text:
    """A hand's name standing alone in the reader's language (a picture's caption, a list of
    hands): ``HandValue.label`` as a text, as in "Pair of aces (W→A♠)"."""
    name = _hand_title(value)
    if not value.jokers:
        return name
    became = ", ".join(f"W→{card.pretty}" for card in value.jokers)
    return tr("{hand} ({jokers})", hand=name, jokers=became)


def _hand_title(value: HandValue) -> Text:
    category, resolved = value.category, value.resolved
    ranks = value.key[1 : value.key.index(0, 1)]
    top = ranks[0]
    letters = " ".join(Rank(r).letter for r in ranks[1:])
    if category is Category.HIGH_CARD:
        first = _RANK_TITLES[min(top, ACE) - 2]
        if letters:
            return tr("{Rank} high, then {rest}", Rank=first, rest=letters)
        return tr("{Rank} high", Rank=first)
    if category is Category.PAIR:
        if letters:
            return tr("Pair of {ranks} ({kickers})", ranks=_ranks(top), kickers=letters)
        return tr("Pair of {ranks}", ranks=_ranks(top))
    if category is Category.TWO_PAIR:
        high, low = _ranks(top), _ranks(ranks[1])
        if len(ranks) > 2:
            return tr(
                "Two pair, {high} and {low} ({kicker})",
                high=high,
                low=low,
                kicker=Rank(ranks[2]).letter,
            )
        return tr("Two pair, {high} and {low}", high=high, low=low)
    if category is Category.FULL_HOUSE:
        return tr("Full house, {high} over {low}", high=_ranks(top), low=_ranks(ranks[1]))
    if category.of_a_kind:
        kind = _OF_A_KIND_TITLES[category.of_a_kind]
        if letters:
            return tr("{kind}, {ranks} ({kickers})", kind=kind, ranks=_ranks(top), kickers=letters)
        return tr("{kind}, {ranks}", kind=kind, ranks=_ranks(top))
    if category in (Category.FLUSH, Category.THREE_CARD_FLUSH):
        cards = " ".join(card.rank.letter for card in resolved)
        if len(value.cards) == 3:
            return tr("Three-card flush, {rank} high ({cards})", rank=_rank(top), cards=cards)
        return tr("Flush, {rank} high ({cards})", rank=_rank(top), cards=cards)
    return _run_title(value, ranks)


def _run_title(value: HandValue, ranks: tuple[int, ...]) -> Text:
    """A straight or a straight flush standing alone: "Straight, king high"."""
    category, resolved, size = value.category, value.resolved, len(value.cards)
    ace_high = ranks[0] == ACE + 1
    is_wheel = not ace_high and any(card.rank == Rank.ACE for card in resolved)
    run_top = Rank.ACE if ace_high else max(c.rank for c in resolved if c.rank != Rank.ACE)
    rank = _rank(run_top)
    if category is Category.STRAIGHT:
        if is_wheel:
            return tr("Wheel, ace to five")
        return tr("Straight, {rank} high", rank=rank)
    if category is Category.THREE_CARD_STRAIGHT:
        if is_wheel:
            return tr("Three-card straight, wheel, ace to {rank}", rank=rank)
        return tr("Three-card straight, {rank} high", rank=rank)
    if category is Category.THREE_CARD_STRAIGHT_FLUSH:
        if is_wheel:
            return tr("Three-card straight flush, wheel, ace to {rank}", rank=rank)
        return tr("Three-card straight flush, {rank} high", rank=rank)
    if size == 5 and run_top == Rank.ACE:
        return tr("Royal flush")
    if size == 5:
        if is_wheel:
            return tr("Straight flush, wheel, ace to {rank}", rank=rank)
        return tr("Straight flush, {rank} high", rank=rank)
    if is_wheel:
        return tr("{size}-card straight flush, wheel, ace to {rank}", size=str(size), rank=rank)
    return tr("{size}-card straight flush, {rank} high", size=str(size), rank=rank)


def hand_text(value: HandValue) -> Text:
    """A hand's name inside a sentence in the reader's language: `describe_hand` as a text, as
    in "a pair of nines (K)" (with what each joker became)."""
    name = _hand_name(value)
    if not value.jokers:
        return name
    became = ", ".join(f"W→{card.pretty}" for card in value.jokers)
    return tr("{hand} ({jokers})", hand=name, jokers=became)


def _hand_name(value: HandValue) -> Text:
    category, resolved = value.category, value.resolved
    ranks = value.key[1 : value.key.index(0, 1)]
    top = ranks[0]
    letters = " ".join(Rank(r).letter for r in ranks[1:])
    if category is Category.HIGH_CARD:
        if letters:
            return tr("{rank} high, then {rest}", rank=_rank(top), rest=letters)
        return tr("{rank} high", rank=_rank(top))
    if category is Category.PAIR:
        if letters:
            return tr("a pair of {ranks} ({kickers})", ranks=_ranks(top), kickers=letters)
        return tr("a pair of {ranks}", ranks=_ranks(top))
    if category is Category.TWO_PAIR:
        high, low = _ranks(top), _ranks(ranks[1])
        if len(ranks) > 2:
            return tr(
                "two pair, {high} and {low} ({kicker})",
                high=high,
                low=low,
                kicker=Rank(ranks[2]).letter,
            )
        return tr("two pair, {high} and {low}", high=high, low=low)
    if category is Category.FULL_HOUSE:
        return tr("a full house, {high} over {low}", high=_ranks(top), low=_ranks(ranks[1]))
    if category.of_a_kind:
        kind = _OF_A_KIND[category.of_a_kind]
        if letters:
            return tr("{kind}, {ranks} ({kickers})", kind=kind, ranks=_ranks(top), kickers=letters)
        return tr("{kind}, {ranks}", kind=kind, ranks=_ranks(top))
    if category in (Category.FLUSH, Category.THREE_CARD_FLUSH):
        cards = " ".join(card.rank.letter for card in resolved)
        if len(value.cards) == 3:
            return tr("a three-card flush, {rank} high ({cards})", rank=_rank(top), cards=cards)
        return tr("a flush, {rank} high ({cards})", rank=_rank(top), cards=cards)
    return _run_name(value, ranks)


def _run_name(value: HandValue, ranks: tuple[int, ...]) -> Text:
    """A straight or a straight flush of any size: "a straight, king high", "a wheel, ace to
    five" (an ace-low run is named from its ace, RULINGS §1.3)."""
    category, resolved, size = value.category, value.resolved, len(value.cards)
    ace_high = ranks[0] == ACE + 1
    is_wheel = not ace_high and any(card.rank == Rank.ACE for card in resolved)
    run_top = Rank.ACE if ace_high else max(c.rank for c in resolved if c.rank != Rank.ACE)
    rank = _rank(run_top)
    if category is Category.STRAIGHT:
        if is_wheel:
            return tr("a wheel, ace to five")
        return tr("a straight, {rank} high", rank=rank)
    if category is Category.THREE_CARD_STRAIGHT:
        if is_wheel:
            return tr("a three-card straight, wheel, ace to {rank}", rank=rank)
        return tr("a three-card straight, {rank} high", rank=rank)
    if category is Category.THREE_CARD_STRAIGHT_FLUSH:
        if is_wheel:
            return tr("a three-card straight flush, wheel, ace to {rank}", rank=rank)
        return tr("a three-card straight flush, {rank} high", rank=rank)
    if size == 5 and run_top == Rank.ACE:
        return tr("a royal flush")
    if size == 5:
        if is_wheel:
            return tr("a straight flush, wheel, ace to {rank}", rank=rank)
        return tr("a straight flush, {rank} high", rank=rank)
    if is_wheel:
        return tr("a {size}-card straight flush, wheel, ace to {rank}", size=str(size), rank=rank)
    return tr("a {size}-card straight flush, {rank} high", size=str(size), rank=rank)


def card_text(card: AnyCard) -> Text | str:
    """A card inside a sentence: as it is written (A♠), a joker as a word."""
    return tr("joker") if card.is_joker else card.pretty


def _not_held(code: int, count: int) -> Text:
    card = card_text(card_from_code(code))
    if count == 1:
        return tr("You do not hold a {card}.", card=card)
    if count == 2:
        return tr("You do not hold a second {card}.", card=card)
    if count == 3:
        return tr("You do not hold a third {card}.", card=card)
    if count == 4:
        return tr("You do not hold a fourth {card}.", card=card)
    if count == 5:
        return tr("You do not hold a fifth {card}.", card=card)
    if count == 6:
        return tr("You do not hold a sixth {card}.", card=card)
    return tr("You do not hold a {count}th {card}.", count=str(count), card=card)


def holding_fault(held: Sequence[AnyCard], cards: Sequence[AnyCard]) -> Text | None:
    """Why ``cards`` are not a part of what the player holds (a multiset), or None."""
    have = Counter(card.code for card in held)
    seen: Counter[int] = Counter()
    for card in cards:
        seen[card.code] += 1
        if seen[card.code] > have[card.code]:
            return _not_held(card.code, seen[card.code])
    return None


def _wrong_size(slot: Slot, size: int) -> Text:
    """A hand too small or too large for its slot."""
    sizes = sorted(slot.allowed_sizes)
    named = slot_text(slot, start=True)
    if sizes == [1]:
        return tr("{slot} holds {size}; it must hold 1 card.", slot=named, size=size)
    if len(sizes) == 1:
        return tr(
            "{slot} holds {size}; it must hold {allowed} cards.",
            slot=named,
            size=size,
            allowed=sizes[0],
        )
    return tr(
        "{slot} holds {size}; it must hold {some} or {last} cards.",
        slot=named,
        size=size,
        some=", ".join(str(allowed) for allowed in sizes[:-1]),
        last=sizes[-1],
    )


def size_fault(variant: Variant, sizes: Sequence[int]) -> Text | None:
    """Why these hand sizes are not allowed (count of hands, each size, cards used), or None."""
    slots = variant.slots
    if len(sizes) != len(slots):
        return tr(
            "Set {count} hands ({first} to {last}), weakest first; you set {given}.",
            count=len(slots),
            first=slot_text(slots[0], article=False),
            last=slot_text(slots[-1], article=False),
            given=len(sizes),
        )
    for slot, size in zip(slots, sizes, strict=True):
        if slot.size_rule(size) is None:
            return _wrong_size(slot, size)
    used = sum(sizes)
    if not variant.min_used <= used <= variant.max_used:
        if variant.min_used == variant.max_used:
            return tr(
                "Use exactly {wanted} cards in your hands; you used {used}.",
                wanted=variant.min_used,
                used=used,
            )
        if used < variant.min_used:
            return tr(
                "Use at least {wanted} cards in your hands; you used {used}.",
                wanted=variant.min_used,
                used=used,
            )
        return tr(
            "Use at most {wanted} cards in your hands; you used {used}.",
            wanted=variant.max_used,
            used=used,
        )
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
) -> tuple[Text | None, HandValue | None]:
    slot = variant.slots[position]
    size = len(cards)
    rule = slot.size_rule(size)
    assert rule is not None  # sizes were checked first
    named = slot_text(slot, article=False)
    try:
        value = evaluate(cards, variant.hand_rules)
    except HandError:
        if size in (8, 11, 18):
            return tr(
                "An {size}-card {slot} must be {requirement}.",
                size=str(size),
                slot=named,
                requirement=rule.requirement,
            ), None
        return tr(
            "A {size}-card {slot} must be {requirement}.",
            size=str(size),
            slot=named,
            requirement=rule.requirement,
        ), None
    if value.ladder < rule.min_ladder:
        if size in (8, 11, 18):
            return tr(
                "An {size}-card {slot} must be {requirement}; yours is {hand}.",
                size=str(size),
                slot=named,
                requirement=rule.requirement,
                hand=hand_text(value),
            ), value
        return tr(
            "A {size}-card {slot} must be {requirement}; yours is {hand}.",
            size=str(size),
            slot=named,
            requirement=rule.requirement,
            hand=hand_text(value),
        ), value
    return None, value


def _order_fault(
    variant: Variant, slots: Sequence[Slot], values: Sequence[HandValue]
) -> Text | None:
    for position in range(1, len(values)):
        low, high = values[position - 1], values[position]
        if is_ordered(variant, low.key, high.key):
            continue
        lower, upper = slot_text(slots[position - 1]), slot_text(slots[position])
        first = slot_text(slots[position], start=True)
        if high.key == low.key:
            return tr(
                "{Upper} must be stronger than {lower}, but both are {hand}; "
                "equal hands are a foul.",
                Upper=first,
                lower=lower,
                hand=hand_text(high),
            )
        if variant.order is OrderRule.STRICT:
            return tr(
                "{Upper} must be stronger than {lower}: {upper} is {high}, {lower} is {low}.",
                Upper=first,
                lower=lower,
                upper=upper,
                high=hand_text(high),
                low=hand_text(low),
            )
        return tr(
            "{Upper} must be at least as strong as {lower}: {upper} is {high}, {lower} is {low}.",
            Upper=first,
            lower=lower,
            upper=upper,
            high=hand_text(high),
            low=hand_text(low),
        )
    return None


def partial_fault(variant: Variant, hands: Sequence[Sequence[AnyCard]]) -> Text | None:
    """Why the hands chosen so far (weakest first, from the first slot) cannot stand as they
    are, each in its slot and each stronger than the one before; None while they can. What a
    builder says as the player goes, before the whole arrangement can be checked."""
    values: list[HandValue] = []
    for position, cards in enumerate(hands[: len(variant.slots)]):
        slot = variant.slots[position]
        if slot.size_rule(len(cards)) is None:
            return _wrong_size(slot, len(cards))
        fault, value = _hand_fault(variant, position, tuple(cards))
        if fault:
            return fault
        assert value is not None
        values.append(value)
    return _order_fault(variant, variant.slots, values)


def arrangement_fault(
    variant: Variant, arrangement: Arrangement, held: Sequence[AnyCard] | None = None
) -> tuple[Text | None, tuple[HandValue, ...]]:
    """The first reason the arrangement is refused (None if legal), and the hands' values."""
    if held is not None:
        fault = holding_fault(held, arrangement.used + (arrangement.discards or ()))
        if fault:
            return fault, ()
        if arrangement.discards is not None:
            placed = Counter(card.code for card in arrangement.used + arrangement.discards)
            missing = Counter(card.code for card in held) - placed
            if missing:
                missed = card_from_code(min(missing))
                card = tr("a joker") if missed.is_joker else missed.pretty
                return tr(
                    "Play or discard every card you hold; {card} is in neither.", card=card
                ), ()
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
                    tr(
                        "{slot} may hold {size} cards only when {other} holds {needed} or more.",
                        slot=slot_text(slot, start=True),
                        size=size,
                        other=slot_text(other),
                        needed=rule.needs_size,
                    ),
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
