"""A rules card's charts as a picture a phone shows whole: at most 720 pixels wide, no text under
21 pixels (11 where Discord shows it 400 wide), every cell drawn, and columns that do not fit
beside the rows' names going on below rather than shrinking."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

from render.rules import MAX_WIDTH, chart_png
from tables.games import GAMES, rules_card
from tests.render.helpers import Drawn

#: Where Discord shows a picture on a phone, in pixels across.
PHONE_WIDTH = 400


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart as the pictures take it (tables/rules/__init__.py's has the same fields)."""

    title: str
    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    over: str = ""
    note: str = ""


def size_of(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


CHARTED = [
    (name, str(page.name), tuple(chart.read(str) for chart in page.charts))
    for name, spec in GAMES.items()
    for page in rules_card(spec).pages
    if page.charts
]


@pytest.mark.parametrize(
    ("game", "page", "charts"), CHARTED, ids=[f"{g}-{p}" for g, p, _ in CHARTED]
)
def test_every_cards_chart_fits_a_phone_and_reads_there(
    drawn: list[Drawn], game: str, page: str, charts: Any
) -> None:
    data = chart_png(charts)
    width, height = size_of(data)
    assert width <= MAX_WIDTH and height <= 1400, (width, height)
    assert len(data) < 200_000  # far under Discord's 10 MiB
    assert min(piece.size for piece in drawn) >= 21
    assert min(piece.size for piece in drawn) * PHONE_WIDTH / width >= 11
    texts = {piece.text for piece in drawn}
    for chart in charts:
        cells = {cell for row in chart.rows for cell in row} | set(chart.headings)
        assert cells <= texts, cells - texts  # every cell whole, none cut


def test_columns_that_do_not_fit_go_on_below_beside_the_names_again(drawn: list[Drawn]) -> None:
    # Sixteen columns, as the printed scoring chart has them.
    kinds = (f"{n} of a kind" for n in range(4, 11))
    headings = ("Hand", "Trips", "Full house", *kinds, *(f"SF{n}" for n in range(5, 11)))
    assert len(headings) == 16
    rows = tuple((f"Hand {h}", *(str(h * n) for n in range(1, len(headings)))) for h in (6, 5, 4))
    one_row = chart_png([Chart("Narrow", headings[:3], tuple(row[:3] for row in rows))])
    wide = chart_png([Chart("Points", headings, rows)])
    width, height = size_of(wide)
    assert width <= MAX_WIDTH
    assert height > 2 * size_of(one_row)[1]  # in several blocks, one under the other
    texts = [piece.text for piece in drawn]
    assert set(headings) <= set(texts)
    # Each block names its rows again.
    blocks = texts.count("Hand 6") - 1  # the narrow chart's
    assert blocks >= 3 and texts.count("Hand") == blocks + 1
    assert min(piece.size for piece in drawn) >= 21


def test_a_heading_over_the_columns_is_drawn_once_above_them(drawn: list[Drawn]) -> None:
    chart = Chart("Points", ("Winning hand", "6", "5"), (("Trips", "1", "1"),), over="Hand")
    chart_png([chart])
    texts = [piece.text for piece in drawn]
    assert texts.count("Hand") == 1 and texts.index("Hand") < texts.index("6")
