"""A player's private hand, and an arrangement previewed hand by hand before it is final."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from render.cards import Face, card_height, draw_fan, fan_width
from render.palette import to_png
from render.style import (
    GOLD,
    MUTED,
    draw_label,
    draw_title,
    felt,
    font,
    panel,
    text_width,
    title_height,
)

_PAD: Final = 24
#: A dealt hand: cards 112 pixels wide, fanned to stay within about a thousand pixels.
_HAND_CARD: Final = 112
_HAND_MAX_WIDTH: Final = 1040
#: An arrangement: one row per hand, cards 84 pixels wide, the label to their right.
_ROW_CARD: Final = 84
_ROW_STEP: Final = 40
_LABEL_WIDTH: Final = 380
#: Type read on a phone, where a picture is shown about 400 pixels wide.
_LABEL_SIZE: Final = 22
_TITLE_SIZE: Final = 34
_SUBTITLE_SIZE: Final = 26


def _hand_layout(count: int) -> tuple[int, int]:
    """Card width and step: side by side while they fit, then overlapping, then smaller."""
    if count <= 1:
        return _HAND_CARD, _HAND_CARD
    # An overlapped card shows at least its corner index: 42% of its width.
    width = min(_HAND_CARD, int(_HAND_MAX_WIDTH / (1 + 0.42 * (count - 1))))
    fitting = (_HAND_MAX_WIDTH - width) // (count - 1)
    return width, max(round(width * 0.42), min(width + 10, fitting))


def hand_png(cards: Sequence[Face], *, title: str = "", subtitle: str = "") -> bytes:
    """A row of cards (a player's private hand for the DM), as PNG bytes."""
    card_width, step = _hand_layout(len(cards))
    words = max(
        text_width(title, font(_TITLE_SIZE, True)), text_width(subtitle, font(_SUBTITLE_SIZE))
    )
    cards_width = max(fan_width(len(cards), card_width, step), min(words, _HAND_MAX_WIDTH), 240)
    top = title_height(
        title, subtitle, width=cards_width, size=_TITLE_SIZE, sub_size=_SUBTITLE_SIZE
    )
    width = cards_width + 2 * _PAD
    height = _PAD + top + card_height(card_width) + _PAD
    canvas = felt(width, height)
    draw_title(
        canvas,
        _PAD,
        _PAD - 4,
        title,
        subtitle,
        width=cards_width,
        size=_TITLE_SIZE,
        sub_size=_SUBTITLE_SIZE,
    )
    draw_fan(canvas, cards, (_PAD, _PAD + top), width=card_width, step=step)
    return to_png(canvas)


def hands_png(
    hands: Sequence[Sequence[Face]],
    labels: Sequence[str],
    *,
    slots: Sequence[str] = (),
    title: str = "",
    discards: Sequence[Face] = (),
) -> bytes:
    """An arrangement preview: one row per hand, weakest first, each with its slot and label
    (as in "Back · Full house, kings over fours")."""
    if len(hands) != len(labels) or (slots and len(slots) != len(hands)):
        raise ValueError(
            f"{len(hands)} hands need {len(hands)} labels and slots, not "
            f"{len(labels)} and {len(slots)}"
        )
    rows: list[tuple[Sequence[Face], str, str, bool]] = [
        (hand, slot, label, False)
        for hand, slot, label in zip(hands, slots or [""] * len(hands), labels, strict=True)
    ]
    if discards:
        rows.append((discards, "Discards", "", True))
    cards_width = max([fan_width(len(hand), _ROW_CARD, _ROW_STEP) for hand, *_ in rows] + [0])
    row_height = card_height(_ROW_CARD) + 20
    width = _PAD + 16 + cards_width + 24 + _LABEL_WIDTH + 16 + _PAD
    top = title_height(title, width=width - 2 * _PAD)
    height = _PAD + top + len(rows) * (row_height + 10) - 10 + _PAD
    canvas = felt(width, max(height, 2 * _PAD))
    draw_title(canvas, _PAD, _PAD - 4, title, width=width - 2 * _PAD)
    y = _PAD + top
    for hand, slot, label, is_discard in rows:
        panel(canvas, (_PAD, y, width - _PAD, y + row_height), radius=12)
        draw_fan(canvas, hand, (_PAD + 16, y + 10), width=_ROW_CARD, step=_ROW_STEP)
        left = _PAD + 16 + cards_width + 24
        draw_label(
            canvas,
            (left, y + row_height // 2),
            slot,
            label,
            size=_LABEL_SIZE,
            width=_LABEL_WIDTH,
            max_lines=3,
            middle=True,
            slot_fill=MUTED if is_discard else GOLD,
        )
        y += row_height + 10
    return to_png(canvas)
