"""A leaderboard: ranked names and their values, the top three in gold, silver and bronze."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import ImageDraw

from render.palette import to_png
from render.style import (
    MEDAL_INK,
    MEDALS,
    MINUS,
    MUTED,
    PANEL,
    ROW_ALTERNATE,
    TEXT,
    draw_text,
    draw_title,
    ellipsize,
    felt,
    font,
    panel,
    text_width,
    title_height,
)

_PAD: Final = 24
_WIDTH: Final = 600
_ROW: Final = 46


def _number(value: int) -> str:
    return f"{value:,}".replace("-", MINUS)


def leaderboard_png(title: str, lines: Sequence[tuple[int, str, int]]) -> bytes:
    """A leaderboard picture: one row per (rank, name, value), as PNG bytes."""
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
        draw_text(canvas, middle, "No one yet", face=font(18), fill=MUTED, anchor="mm")
    value_face = font(19, True)
    widest_value = max((text_width(_number(value), value_face) for _, _, value in lines), default=0)
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
        draw_text(canvas, (value_x, cy), _number(value), face=value_face, fill=TEXT, anchor="rm")
    return to_png(canvas)
