"""A player's private hand, and an arrangement previewed hand by hand before it is final."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import ImageDraw

from engine.cards import AnyCard
from render.cards import card_height, draw_fan, fan_width
from render.style import (
    MUTED,
    TEXT,
    draw_text,
    draw_title,
    felt,
    font,
    panel,
    text_width,
    title_height,
    to_png,
    wrap,
)

_PAD: Final = 24
#: A dealt hand: cards 112 pixels wide, fanned to stay within about a thousand pixels.
_HAND_CARD: Final = 112
_HAND_MAX_WIDTH: Final = 1040
#: An arrangement: one row per hand, cards 84 pixels wide, the label to their right.
_ROW_CARD: Final = 84
_ROW_STEP: Final = 40
_LABEL_WIDTH: Final = 380
_LABEL_LINE: Final = 26


def _hand_layout(count: int) -> tuple[int, int]:
    """Card width and step: side by side while they fit, then overlapping, then smaller."""
    if count <= 1:
        return _HAND_CARD, _HAND_CARD
    # An overlapped card shows at least its corner index: 42% of its width.
    width = min(_HAND_CARD, int(_HAND_MAX_WIDTH / (1 + 0.42 * (count - 1))))
    fitting = (_HAND_MAX_WIDTH - width) // (count - 1)
    return width, max(round(width * 0.42), min(width + 10, fitting))


def hand_png(cards: Sequence[AnyCard], *, title: str = "", subtitle: str = "") -> bytes:
    """A row of cards (a player's private hand for the DM), as PNG bytes."""
    card_width, step = _hand_layout(len(cards))
    words = max(text_width(title, font(28, True)), text_width(subtitle, font(17)))
    cards_width = max(fan_width(len(cards), card_width, step), min(words, _HAND_MAX_WIDTH), 240)
    top = title_height(title, subtitle)
    width = cards_width + 2 * _PAD
    height = _PAD + top + card_height(card_width) + _PAD
    canvas = felt(width, height)
    draw_title(canvas, _PAD, _PAD - 4, title, subtitle, width=cards_width)
    draw_fan(canvas, cards, (_PAD, _PAD + top), width=card_width, step=step)
    return to_png(canvas)


def hands_png(
    hands: Sequence[Sequence[AnyCard]],
    labels: Sequence[str],
    *,
    title: str = "",
    discards: Sequence[AnyCard] = (),
) -> bytes:
    """An arrangement preview: one row per hand, weakest first, each with its label."""
    if len(hands) != len(labels):
        raise ValueError(f"{len(hands)} hands need {len(hands)} labels, not {len(labels)}")
    rows: list[tuple[Sequence[AnyCard], str, bool]] = [
        (hand, label, False) for hand, label in zip(hands, labels, strict=True)
    ]
    if discards:
        rows.append((discards, "Discards", True))
    cards_width = max([fan_width(len(hand), _ROW_CARD, _ROW_STEP) for hand, _, _ in rows] + [0])
    row_height = card_height(_ROW_CARD) + 20
    top = title_height(title)
    width = _PAD + 16 + cards_width + 24 + _LABEL_WIDTH + 16 + _PAD
    height = _PAD + top + len(rows) * (row_height + 10) - 10 + _PAD
    canvas = felt(width, max(height, 2 * _PAD))
    draw_title(canvas, _PAD, _PAD - 4, title, width=width - 2 * _PAD)
    draw = ImageDraw.Draw(canvas)
    y = _PAD + top
    for hand, label, is_discard in rows:
        panel(canvas, (_PAD, y, width - _PAD, y + row_height), radius=12)
        draw_fan(canvas, hand, (_PAD + 16, y + 10), width=_ROW_CARD, step=_ROW_STEP)
        face = font(19, not is_discard)
        lines = wrap(label, face, _LABEL_WIDTH, max_lines=3)
        text_top = y + (row_height - len(lines) * _LABEL_LINE) // 2
        for index, line in enumerate(lines):
            draw_text(
                draw,
                (_PAD + 16 + cards_width + 24, text_top + index * _LABEL_LINE),
                line,
                face=face,
                fill=MUTED if is_discard else TEXT,
            )
        y += row_height + 10
    return to_png(canvas)
