"""The public showdown: every player's hands seat by seat, the Scoring Card and the chips moved.

Laid out for a phone, where Discord shows a picture about 400 pixels wide: at most three hands
side by side (Showdown's six hands take two lines), so the picture stays about 700 pixels wide
and its type large enough to read there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from engine.text import tr, tr_plural
from render.cards import Face, card_height, draw_fan, fan_width
from render.palette import to_png
from render.style import (
    ELLIPSIS,
    ENGLISH,
    GOLD,
    MUTED,
    PANEL_EDGE,
    TEXT,
    Words,
    draw_label,
    draw_text,
    draw_title,
    ellipsize,
    felt,
    font,
    gain_colour,
    label_height,
    localized,
    panel,
    signed,
    text_width,
    title_height,
    wrap,
)


@dataclass(frozen=True, slots=True)
class Wager:
    """One wager of a house game's seat: its name, the chips it won (+) or lost (-), and why."""

    name: Words
    chips: int
    reason: Words


@dataclass(frozen=True, slots=True)
class ShowdownRow:
    """One seat at the showdown: its hands weakest first, each hand's points, net chips."""

    name: Words
    hands: tuple[tuple[Face, ...], ...]
    labels: tuple[Words, ...]
    #: One figure per hand, or none (the house games' wagers do not belong to one hand).
    per_hand: tuple[int, ...]
    net: int
    #: A word on the seat, e.g. "surrendered at declaration 1", "dealer", "pot winner".
    note: Words = ""
    #: Each hand's place in the setting, drawn before its label: "Hand 6", "Back", "Low".
    slots: tuple[Words, ...] = ()
    #: The house games' wagers with their results, drawn beside the hands.
    wagers: tuple[Wager, ...] = ()

    def __post_init__(self) -> None:
        if (
            len(self.hands) != len(self.labels)
            or (self.per_hand and len(self.per_hand) != len(self.hands))
            or (self.slots and len(self.slots) != len(self.hands))
        ):
            raise ValueError(
                f"{self.name}: {len(self.hands)} hands, {len(self.labels)} labels, "
                f"{len(self.slots)} slots and {len(self.per_hand)} points do not match"
            )


_PAD: Final = 20
_INSET: Final = 14
_CARD: Final = 64
_STEP: Final = 28
#: Hands side by side on one line of a seat; more go on the next line.
_PER_LINE: Final = 3
_MIN_CELL: Final = 150
_HOUSE_CELL: Final = 170
_GAP: Final = 18
_LINE_GAP: Final = 12
_ROW_GAP: Final = 10
_WAGER_WIDTH: Final = 280
_MIN_WIDTH: Final = 560
#: Type sizes, for a picture shown about 400 pixels wide (a little over half size).
_TITLE: Final = 30
_NAME: Final = 26
_NOTE: Final = 21
_NET: Final = 30
_LABEL: Final = 21
_MAX_LABEL_LINES: Final = 3
_HOUSE_LABEL_LINES: Final = 4
_POINTS: Final = 21
_POINTS_HEIGHT: Final = 28
_WAGER: Final = 21
_REASON: Final = 21
_REASON_LINE: Final = 25
_MAX_REASON_LINES: Final = 3
_FOOTER: Final = 21
_FOOTER_LINE: Final = 27
#: The least room for a note after a seat's name in the summary (else it is left to the text).
_INLINE_NOTE: Final = 90
#: A row's number and name: room for "6 " and ten characters of any name in the row's type.
_MATRIX_NAME: Final = 150
_MATRIX_CELL: Final = 76
_MATRIX_ROW: Final = 40
#: The Scoring Card's type: 11 pixels or more on a phone showing the picture 400 wide.
_MATRIX_TYPE: Final = 21


@dataclass(frozen=True, slots=True)
class _Style:
    """How a seat's hands are drawn: the full picture, or the summary a phone reads whole."""

    card: int
    step: int
    #: Hands a line (None: every hand on one line).
    per_line: int | None
    label: int
    label_lines: int
    min_cell: int
    #: Whether a label begins with its slot ("Hand 6 · ..."); the summary's order says it.
    slots: bool
    #: Between two hands, under the hands for their points, and between two seats.
    gap: int
    points_height: int
    row_gap: int
    #: The narrowest picture: a summary's names wrap less, and a phone scales it the same.
    min_width: int
    #: Lines of a seat's note under its name; 0: the note follows the name on its line, cut to
    #: the room left (the full picture and the message's text give it whole).
    note_lines: int = 2


_FULL: Final = _Style(
    _CARD,
    _STEP,
    _PER_LINE,
    _LABEL,
    _MAX_LABEL_LINES,
    _MIN_CELL,
    True,
    _GAP,
    _POINTS_HEIGHT,
    _ROW_GAP,
    _MIN_WIDTH,
)
#: Every hand on one line in small cards, its name in type a phone shows at 11 pixels or more
#: (20 pixels in a picture about 700 wide), so six Showdown seats stay within 1,400 pixels.
_SUMMARY: Final = _Style(34, 12, None, 20, 2, 60, False, 10, 22, 4, 700, note_lines=0)


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where a seat's parts go: the width of each hand's cell and of the wager column."""

    cells: tuple[int, ...]
    wagers: int
    inner: int
    style: _Style = _FULL
    #: The language the seats' words are drawn in.
    locale: str = ENGLISH

    def say(self, text: Words) -> str:
        """A seat's text in the picture's language."""
        return localized(self.locale, text)


def _natural_cells(rows: Sequence[ShowdownRow], style: _Style) -> list[int]:
    """Each column's width: its widest fan, and room for a label."""
    most = max((len(row.hands) for row in rows), default=0)
    columns = min(most, style.per_line or most)
    # The house games' two hands have room to spare beside the wagers.
    cells = [_HOUSE_CELL if any(row.wagers for row in rows) else style.min_cell] * columns
    for row in rows:
        for position, hand in enumerate(row.hands):
            column = position % columns
            cells[column] = max(cells[column], fan_width(len(hand), style.card, style.step))
    return cells


def _layout(rows: Sequence[ShowdownRow], width: int, style: _Style, locale: str) -> _Layout:
    """The columns, widened to fill the picture (wider labels wrap less)."""
    cells = _natural_cells(rows, style)
    wagers = _WAGER_WIDTH if any(row.wagers for row in rows) else 0
    if wagers:
        # The house games' two hands stand beside their wagers, which take more height than
        # they do: their names take a line more than the other games', in the summary too
        # ("High · Full house, aces over fives (W→A♠)" in a narrow cell).
        style = replace(style, label_lines=_HOUSE_LABEL_LINES)
    inner = width - 2 * _PAD - 2 * _INSET
    spare = inner - _content_width(cells, wagers, style.gap)
    if wagers:
        wagers += spare
    elif cells:
        cells = [cell + spare // len(cells) for cell in cells]
    return _Layout(tuple(cells), wagers, inner, style, locale)


def _content_width(cells: Sequence[int], wagers: int, gap: int) -> int:
    hands = sum(cells) + gap * max(len(cells) - 1, 0)
    return hands + (gap + wagers if wagers else 0)


def _net_text(net: int, locale: str) -> tuple[str, str]:
    word = tr_plural("chip", "chips", abs(net))
    return signed(net, locale=locale), localized(locale, word)


def _net_width(net: int, locale: str) -> int:
    amount, word = _net_text(net, locale)
    return text_width(amount, font(_NET, True)) + 6 + text_width(word, font(_NOTE))


def _note_lines(row: ShowdownRow, layout: _Layout) -> list[str]:
    lines = layout.style.note_lines
    note = layout.say(row.note)
    return wrap(note, font(_NOTE), layout.inner, max_lines=lines) if note and lines else []


def _header_height(row: ShowdownRow, layout: _Layout) -> int:
    notes = len(_note_lines(row, layout))
    return 38 + (6 + notes * 23 if notes else 0)


def _hand_lines(row: ShowdownRow, layout: _Layout) -> list[range]:
    per_line = layout.style.per_line or max(len(row.hands), 1)
    return [
        range(start, min(start + per_line, len(row.hands)))
        for start in range(0, len(row.hands), per_line)
    ]


def _slot(row: ShowdownRow, position: int, layout: _Layout) -> str:
    return layout.say(row.slots[position]) if row.slots and layout.style.slots else ""


def _line_height(row: ShowdownRow, positions: range, layout: _Layout) -> int:
    style = layout.style
    labels = max(
        label_height(
            _slot(row, i, layout),
            layout.say(row.labels[i]),
            size=style.label,
            width=layout.cells[i % len(layout.cells)],
            max_lines=style.label_lines,
        )
        for i in positions
    )
    return card_height(style.card) + 8 + labels + (style.points_height if row.per_hand else 0)


def _wager_height(wager: Wager, layout: _Layout) -> int:
    reason = wrap(
        layout.say(wager.reason), font(_REASON), layout.wagers, max_lines=_MAX_REASON_LINES
    )
    return 28 + len(reason) * _REASON_LINE + 10


def _hands_height(row: ShowdownRow, layout: _Layout) -> int:
    hands = sum(_line_height(row, line, layout) + _LINE_GAP for line in _hand_lines(row, layout))
    wagers = sum(_wager_height(wager, layout) for wager in row.wagers)
    return max(hands - _LINE_GAP if hands else 0, wagers)


def _row_height(row: ShowdownRow, layout: _Layout) -> int:
    body = _hands_height(row, layout)
    return _INSET + _header_height(row, layout) + (body + 6 if body else 0) + _INSET


def _draw_header(
    canvas: Image.Image, row: ShowdownRow, layout: _Layout, x: int, y: int, right: int
) -> None:
    """The seat's name and its net chips at the right; in the summary (no lines for the note),
    its note after the name, in the room left (none if too little is)."""
    inline_note = not layout.style.note_lines
    amount, word = _net_text(row.net, layout.locale)
    net_width = _net_width(row.net, layout.locale)
    word_x = right - text_width(word, font(_NOTE))
    draw_text(canvas, (word_x, y + 30), word, face=font(_NOTE), fill=MUTED, anchor="ls")
    net_fill = gain_colour(row.net)
    draw_text(
        canvas, (word_x - 6, y + 30), amount, face=font(_NET, True), fill=net_fill, anchor="rs"
    )
    name = ellipsize(layout.say(row.name), font(_NAME, True), right - x - net_width - 16)
    draw_text(canvas, (x, y + 30), name, face=font(_NAME, True), fill=TEXT, anchor="ls")
    if inline_note and row.note:
        start = x + text_width(name, font(_NAME, True)) + 14
        room = right - net_width - 16 - start
        if room >= _INLINE_NOTE:
            note = ellipsize(layout.say(row.note), font(_NOTE), room)
            draw_text(canvas, (start, y + 30), note, face=font(_NOTE), fill=GOLD, anchor="ls")


def _draw_hands(canvas: Image.Image, row: ShowdownRow, layout: _Layout, x0: int, y: int) -> None:
    style = layout.style
    for line in _hand_lines(row, layout):
        height = _line_height(row, line, layout)
        x = x0
        for position in line:
            cell = layout.cells[position % len(layout.cells)]
            draw_fan(canvas, row.hands[position], (x, y), width=style.card, step=style.step)
            text_y = y + card_height(style.card) + 8
            draw_label(
                canvas,
                (x, text_y),
                _slot(row, position, layout),
                layout.say(row.labels[position]),
                size=style.label,
                width=cell,
                max_lines=style.label_lines,
            )
            if row.per_hand:
                points = row.per_hand[position]
                draw_text(
                    canvas,
                    (x, y + height - 4),
                    signed(points, locale=layout.locale),
                    face=font(_POINTS, True),
                    fill=gain_colour(points),
                    anchor="ls",
                )
            x += cell + style.gap
        y += height + _LINE_GAP


def _draw_wagers(canvas: Image.Image, row: ShowdownRow, layout: _Layout, x: int, y: int) -> None:
    """Each wager: its name and chips on one line, the reason under them."""
    right = x + layout.wagers
    for wager in row.wagers:
        amount = signed(wager.chips, locale=layout.locale)
        room = layout.wagers - text_width(amount, font(_POINTS, True)) - 12
        name = ellipsize(layout.say(wager.name), font(_WAGER, True), room)
        draw_text(canvas, (x, y + 22), name, face=font(_WAGER, True), fill=TEXT, anchor="ls")
        draw_text(
            canvas,
            (right, y + 22),
            amount,
            face=font(_POINTS, True),
            fill=gain_colour(wager.chips),
            anchor="rs",
        )
        text_y = y + 28
        reason = layout.say(wager.reason)
        for line in wrap(reason, font(_REASON), layout.wagers, max_lines=_MAX_REASON_LINES):
            draw_text(canvas, (x, text_y), line, face=font(_REASON), fill=MUTED)
            text_y += _REASON_LINE
        y += _wager_height(wager, layout)


def _draw_row(
    canvas: Image.Image, row: ShowdownRow, layout: _Layout, *, y: int, right: int, is_top: bool
) -> None:
    height = _row_height(row, layout)
    panel(canvas, (_PAD, y, right, y + height), radius=14, edge=GOLD if is_top else PANEL_EDGE)
    x = _PAD + _INSET
    y += _INSET
    _draw_header(canvas, row, layout, x, y, right - _INSET)
    for index, line in enumerate(_note_lines(row, layout)):
        draw_text(canvas, (x, y + 42 + index * 23), line, face=font(_NOTE), fill=GOLD)
    y += _header_height(row, layout) + 6
    _draw_hands(canvas, row, layout, x, y)
    if row.wagers:
        gap = layout.style.gap
        wagers_x = x + _content_width(layout.cells, layout.wagers, gap) - layout.wagers
        _draw_wagers(canvas, row, layout, wagers_x, y)


def _name_column(names: Sequence[str]) -> int:
    """The width of the Scoring Card's names: each row's number and at least ten characters of
    its name (more where the name is short), however wide its letters."""
    face = font(_MATRIX_TYPE, True)
    widest = max(
        (
            text_width(f"{i} {name[:10]}{ELLIPSIS if len(name) > 10 else ''}", face)
            for i, name in enumerate(names, 1)
        ),
        default=0,
    )
    return max(_MATRIX_NAME, widest + 14)


def _matrix_width(names: Sequence[str]) -> int:
    return _name_column(names) + (len(names) + 1) * _MATRIX_CELL + 2 * _INSET


def _matrix_height(names: Sequence[str]) -> int:
    return 40 + (len(names) + 1) * _MATRIX_ROW + 2 * _INSET


def fitted(text: str, size: int, width: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The face a short text (a heading, a column's name) is drawn in to fit ``width``: its
    size, else smaller down to two thirds of it (the caller cuts what still does not fit)."""
    for step in range(size, round(size * 2 / 3) - 1, -1):
        if text_width(text, font(step, bold)) <= width:
            return font(step, bold)
    return font(round(size * 2 / 3), bold)


def _draw_matrix(
    canvas: Image.Image,
    matrix: Sequence[Sequence[int]],
    names: Sequence[str],
    *,
    y: int,
    locale: str,
) -> None:
    """Seed 000's Scoring Card: row against column, with each row's total."""
    draw = ImageDraw.Draw(canvas)
    room = canvas.width - 2 * _PAD
    heading = ellipsize(localized(locale, tr("Scoring Card")), font(22, True), room)
    draw_text(canvas, (_PAD, y), heading, face=font(22, True), fill=GOLD)
    after = _PAD + text_width(heading, font(22, True)) + 12
    aside = localized(locale, tr("net points, row against column"))
    if room + _PAD - after >= _INLINE_NOTE:
        aside = ellipsize(aside, font(_MATRIX_TYPE), room + _PAD - after)
        draw_text(canvas, (after, y + 6), aside, face=font(_MATRIX_TYPE), fill=MUTED)
    y += 40
    width = _matrix_width(names)
    height = (len(names) + 1) * _MATRIX_ROW + 2 * _INSET
    panel(canvas, (_PAD, y, _PAD + width, y + height), radius=12)
    left, top = _PAD + _INSET, y + _INSET
    column = _name_column(names)
    cell = font(_MATRIX_TYPE, True)
    # Columns go by the rows' numbers: a name in a column's width would be cut to a few letters.
    total = localized(locale, tr("Total"))
    for index, label in enumerate([*(str(n) for n in range(1, len(names) + 1)), total]):
        cx = left + column + index * _MATRIX_CELL + _MATRIX_CELL // 2
        face = fitted(label, _MATRIX_TYPE, _MATRIX_CELL - 6, bold=True)
        label = ellipsize(label, face, _MATRIX_CELL - 6)
        draw_text(canvas, (cx, top + _MATRIX_ROW // 2), label, face=face, fill=MUTED, anchor="mm")
    for i, (name, values) in enumerate(zip(names, matrix, strict=True)):
        row_top = top + (i + 1) * _MATRIX_ROW
        draw.line((left, row_top, left + width - 2 * _INSET, row_top), fill=PANEL_EDGE, width=1)
        cy = row_top + _MATRIX_ROW // 2
        name_face = font(_MATRIX_TYPE, True)
        number = f"{i + 1} "
        draw_text(canvas, (left + 4, cy), number, face=name_face, fill=MUTED, anchor="lm")
        indent = text_width(number, name_face)
        shown = ellipsize(name, name_face, column - 10 - indent)
        draw_text(canvas, (left + 4 + indent, cy), shown, face=name_face, fill=TEXT, anchor="lm")
        for j, value in enumerate([*values, sum(values)]):
            cx = left + column + j * _MATRIX_CELL + _MATRIX_CELL // 2
            if i == j:
                draw_text(canvas, (cx, cy), "·", face=cell, fill=MUTED, anchor="mm")
            else:
                shown = signed(value, locale=locale)
                draw_text(canvas, (cx, cy), shown, face=cell, fill=gain_colour(value), anchor="mm")
    total_x = left + column + len(names) * _MATRIX_CELL
    draw.line((total_x, top + 4, total_x, top + height - 2 * _INSET - 4), fill=PANEL_EDGE, width=1)


def _width(rows: Sequence[ShowdownRow], matrix_names: Sequence[str], style: _Style) -> int:
    wagers = _WAGER_WIDTH if any(row.wagers for row in rows) else 0
    content = _content_width(_natural_cells(rows, style), wagers, style.gap)
    widest = max(content + 2 * _INSET, _matrix_width(matrix_names) if matrix_names else 0)
    return max(2 * _PAD + max(widest, _MIN_WIDTH), style.min_width)


def _plan(
    rows: Sequence[ShowdownRow],
    title: str,
    matrix_names: Sequence[str],
    footer: Sequence[str],
    summary: bool,
    locale: str,
) -> tuple[int, int, _Layout, int, list[str], list[int]]:
    """The picture's width and height, its layout, the title's height, the footer's lines and
    each seat's height: what drawing it needs, measured without drawing."""
    style = _SUMMARY if summary else _FULL
    width = _width(rows, matrix_names, style)
    layout = _layout(rows, width, style, locale)
    inside = width - 2 * _PAD
    top = title_height(title, width=inside, size=_TITLE)
    footer_lines = [
        wrapped for line in footer for wrapped in wrap(line, font(_FOOTER), inside, max_lines=3)
    ]
    heights = [_row_height(row, layout) for row in rows]
    height = _PAD + top + sum(h + style.row_gap for h in heights)
    if matrix_names:
        height += 16 + _matrix_height(matrix_names)
    if footer_lines:
        height += 16 + len(footer_lines) * _FOOTER_LINE
    return width, height + _PAD, layout, top, footer_lines, heights


def showdown_size(
    rows: Sequence[ShowdownRow],
    *,
    title: Words,
    matrix_names: Sequence[str] = (),
    footer: Sequence[Words] = (),
    summary: bool = False,
    locale: str = ENGLISH,
) -> tuple[int, int]:
    """How large ``showdown_png`` draws this showdown (width, height), without drawing it."""
    shown = localized(locale, title), [localized(locale, line) for line in footer]
    width, height, *_ = _plan(rows, shown[0], matrix_names, shown[1], summary, locale)
    return width, height


def showdown_png(
    rows: Sequence[ShowdownRow],
    *,
    title: Words,
    matrix: Sequence[Sequence[int]] = (),
    matrix_names: Sequence[str] = (),
    footer: Sequence[Words] = (),
    summary: bool = False,
    locale: str = ENGLISH,
) -> bytes:
    """One picture of the showdown: seat by seat, the Scoring Card, then the footer lines. The
    ``summary`` a phone reads whole draws each seat's hands on one line in small cards, their
    names in larger type (give it no matrix: the Scoring Card is shown on request). Its words
    (the seats' labels, notes and slots, the title and footer, the picture's own) and numbers
    are drawn in the language of ``locale``."""
    if len(matrix) != len(matrix_names) or any(len(r) != len(matrix_names) for r in matrix):
        raise ValueError("the net matrix must be square, one row and column per name")
    title = localized(locale, title)
    lines = [localized(locale, line) for line in footer]
    plan = _plan(rows, title, matrix_names if matrix else (), lines, summary, locale)
    width, height, layout, top, footer_lines, heights = plan
    style = layout.style
    inside = width - 2 * _PAD
    canvas = felt(width, height)
    draw_title(canvas, _PAD, _PAD - 4, title, width=inside, size=_TITLE)
    y = _PAD + top
    # The biggest winner's seat is edged in gold, so the eye finds it first.
    best = max((row.net for row in rows), default=0)
    for row, row_height in zip(rows, heights, strict=True):
        is_top = best > 0 and row.net == best
        _draw_row(canvas, row, layout, y=y, right=width - _PAD, is_top=is_top)
        y += row_height + style.row_gap
    if matrix:
        y += 16
        _draw_matrix(canvas, matrix, matrix_names, y=y, locale=locale)
        y += _matrix_height(matrix_names)
    if footer_lines:
        y += 16
        for line in footer_lines:
            draw_text(canvas, (_PAD, y), line, face=font(_FOOTER), fill=TEXT)
            y += _FOOTER_LINE
    return to_png(canvas)
