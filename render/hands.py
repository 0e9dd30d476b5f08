"""A player's private hand, and an arrangement previewed hand by hand before it is final."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.text import tr
from render.cards import Face, card_height, draw_fan, fan_width
from render.palette import to_png
from render.style import (
    ENGLISH,
    GOLD,
    MUTED,
    Words,
    draw_label,
    draw_title,
    felt,
    font,
    localized,
    panel,
    text_width,
    title_height,
)

_PAD: Final = 24
#: A dealt hand: cards 112 pixels wide, fanned in rows no wider than 672 pixels, so that the
#: picture is at most 720 wide: a phone shows it about 400 wide, its suits still 22 pixels.
_HAND_CARD: Final = 112
_HAND_MAX_WIDTH: Final = 672
#: An overlapped card shows at least its corner index: 42% of its width.
_HAND_SHOWN: Final = 0.42
_HAND_ROW_GAP: Final = 14
#: An arrangement: one row per hand, cards 84 pixels wide, the label to their right.
_ROW_CARD: Final = 84
_ROW_STEP: Final = 40
_LABEL_WIDTH: Final = 380
#: Type read on a phone, where a picture is shown about 400 pixels wide.
_LABEL_SIZE: Final = 22
_TITLE_SIZE: Final = 34
_SUBTITLE_SIZE: Final = 26


def hand_layout(count: int) -> tuple[int, int, int]:
    """Card width, step and cards a row: side by side while they fit, then overlapping, then
    in as few rows as keep each within the width, the cards shared out evenly."""
    if count <= 1:
        return _HAND_CARD, _HAND_CARD, 1
    least = round(_HAND_CARD * _HAND_SHOWN)
    most_a_row = 1 + (_HAND_MAX_WIDTH - _HAND_CARD) // least
    rows = -(-count // most_a_row)
    per_row = -(-count // rows)
    fitting = (_HAND_MAX_WIDTH - _HAND_CARD) // max(per_row - 1, 1)
    return _HAND_CARD, max(least, min(_HAND_CARD + 10, fitting)), per_row


def hand_png(
    cards: Sequence[Face], *, title: Words = "", subtitle: Words = "", locale: str = ENGLISH
) -> bytes:
    """A player's private hand for the DM, in rows of cards, as PNG bytes; its title and
    subtitle in the language of ``locale``."""
    title, subtitle = localized(locale, title), localized(locale, subtitle)
    card_width, step, per_row = hand_layout(len(cards))
    rows = [cards[start : start + per_row] for start in range(0, len(cards), per_row)] or [[]]
    words = max(
        text_width(title, font(_TITLE_SIZE, True)), text_width(subtitle, font(_SUBTITLE_SIZE))
    )
    fanned = max(fan_width(len(row), card_width, step) for row in rows)
    cards_width = max(fanned, min(words, _HAND_MAX_WIDTH), 240)
    top = title_height(
        title, subtitle, width=cards_width, size=_TITLE_SIZE, sub_size=_SUBTITLE_SIZE
    )
    width = cards_width + 2 * _PAD
    row_height = card_height(card_width) + _HAND_ROW_GAP
    height = _PAD + top + len(rows) * row_height - _HAND_ROW_GAP + _PAD
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
    for index, row in enumerate(rows):
        y = _PAD + top + index * row_height
        # Several rows are a phone's picture: the compact design's suits stay large there.
        draw_fan(canvas, row, (_PAD, y), width=card_width, step=step, compact=len(rows) > 1)
    return to_png(canvas)


def hands_png(
    hands: Sequence[Sequence[Face]],
    labels: Sequence[Words],
    *,
    slots: Sequence[Words] = (),
    title: Words = "",
    discards: Sequence[Face] = (),
    locale: str = ENGLISH,
) -> bytes:
    """An arrangement preview: one row per hand, weakest first, each with its slot and label
    (as in "Back · Full house, kings over fours"), its words in the language of ``locale``."""
    if len(hands) != len(labels) or (slots and len(slots) != len(hands)):
        raise ValueError(
            f"{len(hands)} hands need {len(hands)} labels and slots, not "
            f"{len(labels)} and {len(slots)}"
        )
    title = localized(locale, title)
    rows: list[tuple[Sequence[Face], str, str, bool]] = [
        (hand, localized(locale, slot), localized(locale, label), False)
        for hand, slot, label in zip(hands, slots or [""] * len(hands), labels, strict=True)
    ]
    if discards:
        rows.append((discards, localized(locale, tr("Discards")), "", True))
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
