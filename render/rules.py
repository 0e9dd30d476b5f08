"""A rules card's charts as one picture: each a title, a row of headings and rows of words and
numbers, the first column naming the rows.

A phone shows a picture at about 400 pixels wide: the picture is at most 720 wide and its text
never under 21 pixels, so no text reads under 11. Columns that do not fit beside the rows' names
go on below, under the names again, rather than shrinking the type.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from PIL import Image, ImageFont

from render.palette import to_png
from render.style import (
    GOLD,
    MUTED,
    ROW_ALTERNATE,
    TEXT,
    draw_text,
    ellipsize,
    felt,
    font,
    length,
    panel,
    wrap,
)

#: The widest picture (a phone shrinks it to about 400 pixels) and the type's sizes in it.
MAX_WIDTH: Final = 720
TITLE_SIZE: Final = 26
TEXT_SIZE: Final = 22
NOTE_SIZE: Final = 21
_PAD: Final = 20  # around the picture
_INSET: Final = 14  # inside a table's panel
_GAP: Final = 22  # between columns
_ROW: Final = 38
_BETWEEN: Final = 16  # between one table (or block of columns) and the next
#: The rows' names take at most this share of the picture's width; longer ones are cut.
_NAMES_SHARE: Final = 0.5
#: The narrowest picture, so that a short table's title has room.
_NARROWEST: Final = 360


class Chart(Protocol):
    """What a chart gives to be drawn (tables/rules/__init__.py's ``Chart``)."""

    @property
    def title(self) -> str:
        """Above the table."""

    @property
    def headings(self) -> tuple[str, ...]:
        """The columns' headings, the naming column's first."""

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """One per line: the row's name, then its cells."""

    @property
    def over(self) -> str:
        """A heading over every column but the first, or nothing."""

    @property
    def note(self) -> str:
        """A line under the table, or nothing."""


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where one chart's columns go: the width of each, and the blocks of value columns
    (indices from 1) drawn one under the other, each beside the rows' names."""

    widths: tuple[int, ...]
    blocks: tuple[tuple[int, ...], ...]


def _span(widths: Sequence[int], block: Sequence[int]) -> int:
    """How wide the rows' names and a block of value columns are, with the gaps between."""
    return widths[0] + sum(_GAP + widths[column] for column in block)


def _faces() -> tuple[ImageFont.FreeTypeFont, ImageFont.FreeTypeFont]:
    return font(TEXT_SIZE), font(TEXT_SIZE, True)


def _measure(text: str, face: ImageFont.FreeTypeFont) -> int:
    """A width that holds the text whole (``ellipsize`` cuts what is a fraction wider), each
    run measured in the font that draws it (Chinese in the CJK fallback)."""
    return math.ceil(length(text, face))


def _layout(chart: Chart) -> _Layout:
    regular, bold = _faces()
    inner = MAX_WIDTH - 2 * _PAD - 2 * _INSET
    columns = len(chart.headings)
    widths = []
    for column in range(columns):
        cells = [row[column] for row in chart.rows if column < len(row)]
        widest = max((_measure(cell, regular) for cell in cells), default=0)
        widths.append(max(widest, _measure(chart.headings[column], bold)))
    widths[0] = min(widths[0], round(inner * _NAMES_SHARE))
    blocks: list[list[int]] = []
    for column in range(1, columns):
        if blocks and _span(widths, [*blocks[-1], column]) <= inner:
            blocks[-1].append(column)
        else:
            blocks.append([column])
    return _Layout(tuple(widths), tuple(tuple(block) for block in blocks))


def _title_lines(chart: Chart, width: int) -> list[str]:
    return wrap(chart.title, font(TITLE_SIZE, True), width, max_lines=2) if chart.title else []


def _note_lines(chart: Chart, width: int) -> list[str]:
    return wrap(chart.note, font(NOTE_SIZE), width, max_lines=3) if chart.note else []


def _block_height(chart: Chart) -> int:
    headings = 2 if chart.over else 1
    return 2 * _INSET + (headings + len(chart.rows)) * _ROW


def _height(chart: Chart, layout: _Layout, width: int) -> int:
    height = len(_title_lines(chart, width)) * round(TITLE_SIZE * 1.35)
    height += len(layout.blocks) * (_block_height(chart) + _BETWEEN)
    height += len(_note_lines(chart, width)) * round(NOTE_SIZE * 1.4)
    return height + _BETWEEN


def chart_png(charts: Sequence[Chart]) -> bytes:
    """The charts one under the other, as PNG bytes, at most ``MAX_WIDTH`` pixels wide."""
    layouts = [_layout(chart) for chart in charts]
    needed = [
        _span(layout.widths, block) + 2 * _INSET for layout in layouts for block in layout.blocks
    ]
    needed += [_measure(chart.title, font(TITLE_SIZE, True)) for chart in charts]
    width = min(MAX_WIDTH, max([*needed, _NARROWEST]) + 2 * _PAD)
    inner = width - 2 * _PAD
    heights = [_height(chart, layout, inner) for chart, layout in zip(charts, layouts, strict=True)]
    # The last chart's space below is the picture's padding instead.
    canvas = felt(width, _PAD + sum(heights) - _BETWEEN + _PAD)
    y = _PAD
    for chart, layout, height in zip(charts, layouts, heights, strict=True):
        _draw_chart(canvas, chart, layout, (_PAD, y), inner)
        y += height
    return to_png(canvas)


def _draw_chart(
    canvas: Image.Image, chart: Chart, layout: _Layout, at: tuple[int, int], width: int
) -> None:
    x, y = at
    title_face = font(TITLE_SIZE, True)
    for line in _title_lines(chart, width):
        draw_text(canvas, (x, y), line, face=title_face, fill=TEXT)
        y += round(TITLE_SIZE * 1.35)
    for block in layout.blocks:
        _draw_block(canvas, chart, layout, block, (x, y), width)
        y += _block_height(chart) + _BETWEEN
    note_face = font(NOTE_SIZE)
    for line in _note_lines(chart, width):
        draw_text(canvas, (x, y), line, face=note_face, fill=MUTED)
        y += round(NOTE_SIZE * 1.4)


def _draw_block(
    canvas: Image.Image,
    chart: Chart,
    layout: _Layout,
    block: Sequence[int],
    at: tuple[int, int],
    width: int,
) -> None:
    """The rows' names and a block of the value columns, in one panel."""
    x, y = at
    regular, bold = _faces()
    panel(canvas, (x, y, x + width, y + _block_height(chart)), radius=12)
    left = x + _INSET
    # Each value column's centre, spread over the room the names leave.
    room = width - 2 * _INSET - layout.widths[0]
    spread = max(0, room - sum(_GAP + layout.widths[column] for column in block)) // len(block)
    centres = []
    edge = left + layout.widths[0]
    for column in block:
        edge += _GAP + spread
        centres.append(edge + layout.widths[column] // 2)
        edge += layout.widths[column]
    top = y + _INSET
    if chart.over:
        middle = (centres[0] + centres[-1]) // 2
        draw_text(canvas, (middle, top + _ROW // 2), chart.over, face=bold, fill=GOLD, anchor="mm")
        top += _ROW
    heading = ellipsize(chart.headings[0], bold, layout.widths[0])
    draw_text(canvas, (left, top + _ROW // 2), heading, face=bold, fill=GOLD, anchor="lm")
    for column, centre in zip(block, centres, strict=True):
        draw_text(
            canvas,
            (centre, top + _ROW // 2),
            chart.headings[column],
            face=bold,
            fill=GOLD,
            anchor="mm",
        )
    top += _ROW
    for index, row in enumerate(chart.rows):
        if index % 2:
            canvas.paste(ROW_ALTERNATE, (x + 6, top, x + width - 6, top + _ROW))
        middle_y = top + _ROW // 2
        name = ellipsize(row[0], regular, layout.widths[0])
        draw_text(canvas, (left, middle_y), name, face=regular, fill=TEXT, anchor="lm")
        for column, centre in zip(block, centres, strict=True):
            cell = row[column] if column < len(row) else ""
            draw_text(canvas, (centre, middle_y), cell, face=regular, fill=TEXT, anchor="mm")
        top += _ROW
