"""The public showdown: every player's hands row by row, the Scoring Card and the chips moved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from engine.cards import AnyCard
from render.cards import card_height, draw_fan, fan_width
from render.style import (
    GOLD,
    MUTED,
    PANEL_EDGE,
    TEXT,
    draw_text,
    draw_title,
    ellipsize,
    felt,
    font,
    gain_colour,
    panel,
    signed,
    text_width,
    title_height,
    to_png,
    wrap,
)


@dataclass(frozen=True, slots=True)
class ShowdownRow:
    """One player at the showdown: their hands weakest first, each hand's points, net chips."""

    name: str
    hands: tuple[tuple[AnyCard, ...], ...]
    labels: tuple[str, ...]
    #: One figure per hand, or none (the house games' wagers do not belong to one hand).
    per_hand: tuple[int, ...]
    net: int
    #: A word on the seat, e.g. "surrendered at declaration 1", "dealer", "pot winner".
    note: str = ""

    def __post_init__(self) -> None:
        if len(self.hands) != len(self.labels) or (
            self.per_hand and len(self.per_hand) != len(self.hands)
        ):
            raise ValueError(
                f"{self.name}: {len(self.hands)} hands, {len(self.labels)} labels and "
                f"{len(self.per_hand)} points do not match"
            )


_PAD: Final = 24
_CARD: Final = 60
_STEP: Final = 26
_NAME_WIDTH: Final = 196
_MIN_CELL: Final = 124
_GAP: Final = 14
_INSET: Final = 12
_LABEL_LINE: Final = 17
_MAX_LABEL_LINES: Final = 3
_ROW_GAP: Final = 8
_EMPTY_ROW: Final = 58
_MATRIX_NAME: Final = 170
_MATRIX_CELL: Final = 84
_MATRIX_ROW: Final = 30
_FOOTER_LINE: Final = 25


def _cell_widths(rows: Sequence[ShowdownRow]) -> list[int]:
    columns = max((len(row.hands) for row in rows), default=0)
    widths = [_MIN_CELL] * columns
    for row in rows:
        for position, hand in enumerate(row.hands):
            widths[position] = max(widths[position], fan_width(len(hand), _CARD, _STEP))
    return widths


def _label_lines(rows: Sequence[ShowdownRow], widths: Sequence[int]) -> int:
    face = font(13)
    most = 1
    for row in rows:
        for position, label in enumerate(row.labels):
            lines = wrap(label, face, widths[position], max_lines=_MAX_LABEL_LINES)
            most = max(most, len(lines))
    return most


def _draw_name(draw: ImageDraw.ImageDraw, row: ShowdownRow, x: int, y: int, *, net: bool) -> None:
    width = _NAME_WIDTH - 2 * _INSET
    draw_text(
        draw, (x, y), ellipsize(row.name, font(20, True), width), face=font(20, True), fill=TEXT
    )
    y += 28
    if row.note:
        for line in wrap(row.note, font(14), width, max_lines=2):
            draw_text(draw, (x, y), line, face=font(14), fill=GOLD)
            y += 19
    if net:
        amount = signed(row.net)
        draw.text((x, y + 4), amount, font=font(26, True), fill=gain_colour(row.net))
        draw.text(
            (x + text_width(amount, font(26, True)) + 6, y + 14),
            "chips" if abs(row.net) != 1 else "chip",
            font=font(14),
            fill=MUTED,
        )


def _draw_row(
    canvas: Image.Image,
    row: ShowdownRow,
    *,
    y: int,
    height: int,
    widths: Sequence[int],
    right: int,
    is_top: bool,
) -> None:
    draw = ImageDraw.Draw(canvas)
    panel(canvas, (_PAD, y, right, y + height), radius=14, edge=GOLD if is_top else PANEL_EDGE)
    x = _PAD + _INSET
    if not row.hands:
        # A seat that surrendered has no hands: its name, and the note where the hands would be.
        cy = y + height // 2
        name_face = font(20, True)
        name = ellipsize(row.name, name_face, _NAME_WIDTH - 2 * _INSET)
        draw_text(draw, (x, cy), name, face=name_face, fill=TEXT, anchor="lm")
        note = ellipsize(row.note, font(16), right - _PAD - _NAME_WIDTH - 2 * _INSET)
        draw_text(draw, (_PAD + _NAME_WIDTH, cy), note, face=font(16), fill=GOLD, anchor="lm")
        return
    _draw_name(draw, row, x, y + _INSET, net=True)
    x = _PAD + _NAME_WIDTH
    label_face, points_face = font(13), font(16, True)
    points_per_hand: Sequence[int | None] = row.per_hand or [None] * len(row.hands)
    for hand, label, points, width in zip(
        row.hands, row.labels, points_per_hand, widths, strict=False
    ):
        draw_fan(canvas, hand, (x, y + _INSET), width=_CARD, step=_STEP)
        text_y = y + _INSET + card_height(_CARD) + 7
        for line in wrap(label, label_face, width, max_lines=_MAX_LABEL_LINES):
            draw_text(draw, (x, text_y), line, face=label_face, fill=TEXT)
            text_y += _LABEL_LINE
        if points is not None:
            draw.text(
                (x, y + height - _INSET - 18),
                signed(points),
                font=points_face,
                fill=gain_colour(points),
            )
        x += width + _GAP


def _matrix_width(names: Sequence[str]) -> int:
    return _MATRIX_NAME + (len(names) + 1) * _MATRIX_CELL + 2 * _INSET


def _draw_matrix(
    canvas: Image.Image, matrix: Sequence[Sequence[int]], names: Sequence[str], *, y: int
) -> int:
    """Seed 000's Scoring Card: row against column, with each row's total; returns its height."""
    draw = ImageDraw.Draw(canvas)
    draw.text((_PAD, y), "Scoring Card", font=font(20, True), fill=GOLD)
    draw.text(
        (_PAD + text_width("Scoring Card", font(20, True)) + 12, y + 5),
        "net points, row against column",
        font=font(14),
        fill=MUTED,
    )
    y += 34
    width = _matrix_width(names)
    height = (len(names) + 1) * _MATRIX_ROW + 2 * _INSET
    panel(canvas, (_PAD, y, _PAD + width, y + height), radius=12)
    left, top = _PAD + _INSET, y + _INSET
    head, cell = font(14, True), font(16, True)
    columns = [*names, "Total"]
    for index, name in enumerate(columns):
        cx = left + _MATRIX_NAME + index * _MATRIX_CELL + _MATRIX_CELL // 2
        label = ellipsize(name, head, _MATRIX_CELL - 8)
        draw.text((cx, top + _MATRIX_ROW // 2), label, font=head, fill=MUTED, anchor="mm")
    for i, (name, values) in enumerate(zip(names, matrix, strict=True)):
        row_top = top + (i + 1) * _MATRIX_ROW
        draw.line((left, row_top, left + width - 2 * _INSET, row_top), fill=PANEL_EDGE, width=1)
        cy = row_top + _MATRIX_ROW // 2
        draw.text(
            (left + 4, cy),
            ellipsize(name, head, _MATRIX_NAME - 12),
            font=head,
            fill=TEXT,
            anchor="lm",
        )
        for j, value in enumerate([*values, sum(values)]):
            cx = left + _MATRIX_NAME + j * _MATRIX_CELL + _MATRIX_CELL // 2
            if i == j:
                draw.text((cx, cy), "·", font=cell, fill=MUTED, anchor="mm")
            else:
                draw.text((cx, cy), signed(value), font=cell, fill=gain_colour(value), anchor="mm")
    total_x = left + _MATRIX_NAME + len(names) * _MATRIX_CELL
    draw.line((total_x, top + 4, total_x, top + height - 2 * _INSET - 4), fill=PANEL_EDGE, width=1)
    return 34 + height


def showdown_png(
    rows: Sequence[ShowdownRow],
    *,
    title: str,
    matrix: Sequence[Sequence[int]] = (),
    matrix_names: Sequence[str] = (),
    footer: Sequence[str] = (),
) -> bytes:
    """One picture of the showdown: hands row by row, the Scoring Card, then the footer lines."""
    if len(matrix) != len(matrix_names) or any(len(r) != len(matrix_names) for r in matrix):
        raise ValueError("the net matrix must be square, one row and column per name")
    widths = _cell_widths(rows)
    lines = _label_lines(rows, widths)
    hand_row = _INSET + card_height(_CARD) + 7 + lines * _LABEL_LINE + 24 + _INSET
    name_row = _INSET + 28 + 19 * 2 + 36 + _INSET
    row_height = max(hand_row, name_row)
    rows_width = _NAME_WIDTH + sum(widths) + _GAP * max(len(widths) - 1, 0) + _INSET
    width = 2 * _PAD + max(
        rows_width,
        _matrix_width(matrix_names) if matrix else 0,
        text_width(title, font(28, True)),
        560,
    )
    footer_lines = [
        wrapped
        for line in footer
        for wrapped in wrap(line, font(16), width - 2 * _PAD, max_lines=3)
    ]
    heights = [row_height if row.hands else _EMPTY_ROW for row in rows]
    height = _PAD + title_height(title) + sum(h + _ROW_GAP for h in heights)
    if matrix:
        height += 16 + 34 + (len(matrix) + 1) * _MATRIX_ROW + 2 * _INSET
    if footer_lines:
        height += 16 + len(footer_lines) * _FOOTER_LINE
    height += _PAD
    canvas = felt(width, height)
    draw_title(canvas, _PAD, _PAD - 4, title, width=width - 2 * _PAD)
    y = _PAD + title_height(title)
    # The biggest winner's row is edged in gold, so the eye finds it first.
    best = max((row.net for row in rows), default=0)
    for row, row_h in zip(rows, heights, strict=True):
        is_top = best > 0 and row.net == best
        _draw_row(canvas, row, y=y, height=row_h, widths=widths, right=width - _PAD, is_top=is_top)
        y += row_h + _ROW_GAP
    if matrix:
        y += 16
        y += _draw_matrix(canvas, matrix, matrix_names, y=y)
    if footer_lines:
        y += 16
        draw = ImageDraw.Draw(canvas)
        for line in footer_lines:
            draw_text(draw, (_PAD, y), line, face=font(16), fill=TEXT)
            y += _FOOTER_LINE
    return to_png(canvas)
