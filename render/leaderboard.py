"""A leaderboard: ranked names and their values, the top three in gold, silver and bronze."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import ImageDraw

from engine.text import tr
from render.palette import to_png
from render.style import (
    ENGLISH,
    MEDAL_INK,
    MEDALS,
    MUTED,
    PANEL,
    ROW_ALTERNATE,
    TEXT,
    Words,
    draw_text,
    draw_title,
    ellipsize,
    felt,
    font,
    localized,
    number,
    panel,
    text_width,
    title_height,
)

_PAD: Final = 24
_WIDTH: Final = 600
_ROW: Final = 46


def leaderboard_png(
    title: Words, lines: Sequence[tuple[int, str, int]], *, locale: str = ENGLISH
) -> bytes:
    """A leaderboard picture: one row per (rank, name, value), as PNG bytes, its words and
    numbers in the language of ``locale``."""
    title = localized(locale, title)
    top = title_height(title, width=_WIDTH - 2 * _PAD)
    rows = max(len(lines), 1)
    height = _PAD + top + rows * _ROW + 16 + _PAD
    canvas = felt(_WIDTH, height)
    draw_title(canvas, _PAD, _PAD - 4, title, width=_WIDTH - 2 * _PAD)
    y = _PAD + top
    panel(canvas, (_PAD, y, _WIDTH - _PAD, y + rows * _ROW + 16), radius=14)
    draw = ImageDraw.Draw(canvas)
    if not lines:
        middle = (_WIDTH // 2, y + 8 + _ROW // 2)
        empty = localized(locale, tr("No one yet"))
        draw_text(canvas, middle, empty, face=font(18), fill=MUTED, anchor="mm")
    value_face = font(19, True)
    widest_value = max(
        (text_width(number(value, locale), value_face) for _, _, value in lines), default=0
    )
    name_width = round(_WIDTH - 2 * _PAD - 90 - widest_value - 40)
    for index, (rank, name, value) in enumerate(lines):
        row_top = y + 8 + index * _ROW
        cy = row_top + _ROW // 2
        if index % 2:
            draw.rounded_rectangle(
                (_PAD + 8, row_top, _WIDTH - _PAD - 8, row_top + _ROW), radius=8, fill=ROW_ALTERNATE
            )
        medal = MEDALS.get(rank)
        cx = _PAD + 40
        if medal is not None:
            draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=medal, outline=PANEL, width=1)
            draw_text(canvas, (cx, cy), str(rank), face=font(17, True), fill=MEDAL_INK, anchor="mm")
        else:
            draw_text(canvas, (cx, cy), str(rank), face=font(17, True), fill=MUTED, anchor="mm")
        face = font(19, rank <= 3)
        shown = ellipsize(name, face, name_width)
        draw_text(canvas, (_PAD + 72, cy), shown, face=face, fill=TEXT, anchor="lm")
        value_x = _WIDTH - _PAD - 20
        draw_text(
            canvas, (value_x, cy), number(value, locale), face=value_face, fill=TEXT, anchor="rm"
        )
    return to_png(canvas)
