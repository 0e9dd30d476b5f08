"""Pictures read on a phone: slots beside the hand names, wagers in their seat's row, titles
whole, and type large enough where Discord shows a picture about 400 pixels wide."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from itertools import takewhile
from typing import Any

import pytest
from PIL import Image

from engine.cards import Shoe, parse_cards
from render import ShowdownRow, hand_png, hands_png, leaderboard_png, showdown_png
from render.hands import hand_layout
from render.showdown import Wager
from render.style import ELLIPSIS, label_lines
from tests.render.helpers import Drawn

#: Where Discord shows a picture on a phone, in pixels across.
PHONE_WIDTH = 400
SLOTS = ("Hand 1", "Hand 2", "Hand 3", "Hand 4", "Hand 5", "Hand 6")
SIZES = (1, 3, 5, 5, 5, 6)


def _words(drawn: list[Drawn]) -> str:
    """Everything drawn as one line of words (a label wraps into several texts)."""
    return " ".join(" ".join(piece.text for piece in drawn).split())


def _width(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return image.width


def _on_a_phone(size: int, width: int) -> float:
    return size * PHONE_WIDTH / width


def _showdown_rows() -> list[ShowdownRow]:
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(5))
    return [
        ShowdownRow(
            name=f"Player {seat}",
            hands=tuple(shoe.deal(size) for size in SIZES),
            labels=("Ace high", "Trips", "Full house", "Flush", "Four aces", "Straight flush"),
            per_hand=(1, -2, 3, -4, 5, -6),
            net=10 * seat - 20,
            slots=SLOTS,
        )
        for seat in range(6)
    ]


def _three_card_rows() -> list[ShowdownRow]:
    wagers = (
        Wager("Main bet", 5, "Lost the low hand and tied the high hand (ties go to the dealer)"),
        Wager("3-card bonus", -5, "High card is not on the pay table"),
        Wager("6-card bonus", 20, "Two pair pays 4 to 1"),
    )
    return [
        ShowdownRow(
            name=f"Player {seat}",
            hands=(parse_cards("9d"), parse_cards("Kh 4c")),
            labels=("Nine high", "King-four"),
            per_hand=(),
            net=10,
            slots=("Low", "High"),
            wagers=wagers,
        )
        for seat in range(6)
    ]


def test_each_hand_of_the_showdown_is_named_with_its_slot(drawn: list[Drawn]) -> None:
    showdown_png(_showdown_rows(), title="Showdown Version: game 1")
    words = _words(drawn)
    assert words.count("Hand 6 · Straight flush") == 6
    assert words.count("Hand 1 · Ace high") == 6


def test_a_slot_stands_alone_when_the_hand_name_starts_on_the_next_line() -> None:
    label = "Three-card straight flush, queen high"
    prefix, _, lines = label_lines("Hand 2", label, size=19, width=150, max_lines=3)
    assert prefix == "Hand 2" and lines[0] == ""
    assert " ".join(lines[1:]) == label
    prefix, _, lines = label_lines("Hand 2", label, size=19, width=400, max_lines=3)
    assert prefix == "Hand 2 · " and lines[0].startswith("Three-card")


def test_the_arrangement_preview_names_each_hand_with_its_slot(drawn: list[Drawn]) -> None:
    hands = [parse_cards(text) for text in ("As Kd 3c", "8h 8d 2c 2s 9h", "Qs Qh Qd 4c 4h")]
    labels = ["Ace high", "Two pair, eights and twos (9)", "Full house, queens over fours"]
    hands_png(hands, labels, slots=["Front", "Middle", "Back"], title="Suggested hands")
    texts = [piece.text for piece in drawn]
    assert [t for t in texts if t.endswith(" · ")] == ["Front · ", "Middle · ", "Back · "]
    assert "Ace high" in texts


def test_a_preview_needs_a_slot_per_hand_when_it_has_slots() -> None:
    with pytest.raises(ValueError, match="slots"):
        hands_png([parse_cards("As")], ["Ace high"], slots=["Front", "Back"])


def test_a_showdown_row_needs_a_slot_per_hand_when_it_has_slots() -> None:
    with pytest.raises(ValueError, match="do not match"):
        ShowdownRow("Ada", (parse_cards("As"),), ("Ace high",), (), 0, slots=("Low", "High"))


def test_each_wager_and_its_result_are_drawn_in_the_seat_row(drawn: list[Drawn]) -> None:
    showdown_png(_three_card_rows(), title="Three-card table game: game 1", footer=["x"])
    texts = [piece.text for piece in drawn]
    for wager in ("Main bet", "3-card bonus", "6-card bonus"):
        assert texts.count(wager) == 6
    assert _words(drawn).count("Main bet +5 Lost the low hand and tied the high hand") == 6
    assert _words(drawn).count("3-card bonus \N{MINUS SIGN}5 High card is not on the pay") == 6
    assert texts.count("+20") == 6 and texts.count("\N{MINUS SIGN}5") == 6
    # Only the footer line given is drawn under the rows: the wagers are not a footer.
    assert texts[-1] == "x"


@pytest.mark.parametrize("rows", [_showdown_rows, _three_card_rows], ids=["showdown", "three"])
def test_every_showdown_text_is_legible_on_a_phone(drawn: list[Drawn], rows: Any) -> None:
    players = rows()
    names = [row.name for row in players]
    matrix = [[0] * len(names) for _ in names]
    data = showdown_png(players, title="Showdown", matrix=matrix, matrix_names=names)
    width = _width(data)
    assert width <= 1400
    # About 9 pixels is the least a phone shows legibly; names, hands and wagers get more.
    assert min(_on_a_phone(piece.size, width) for piece in drawn) >= 8.5
    for text in ("Player 0", "Ace high", "Nine high", "Main bet", "+10"):
        sizes = [piece.size for piece in drawn if piece.text == text]
        assert not sizes or _on_a_phone(max(sizes), width) >= 10, text


def test_a_25_card_hand_keeps_its_title_and_subtitle_legible_on_a_phone(
    drawn: list[Drawn],
) -> None:
    cards = Shoe(decks=3, jokers=4, rng=random.Random(3)).deal(25)
    data = hand_png(cards, title="Your cards", subtitle="Showdown Version · declaration 2")
    width = _width(data)
    sizes = {piece.text: piece.size for piece in drawn}
    assert _on_a_phone(sizes["Your cards"], width) >= 12
    assert _on_a_phone(sizes["Showdown Version · declaration 2"], width) >= 9
    # The cards come in rows within 720 pixels, drawn in the compact design, whose suit under
    # each index is 36% of the card's width: at least 12 pixels on a phone (was 4-7).
    card_width, _, per_row = hand_layout(len(cards))
    assert width <= 720 and per_row < len(cards)
    assert _on_a_phone(round(0.36 * card_width), width) >= 12


@pytest.mark.parametrize(
    "title",
    [
        "Net winnings, week, Showdown Version",
        "Net winnings, all time, No-Surrender (17 cards)",
        "Games won, month, Three-card table game on a server with a long name",
        "Chips",
    ],
)
def test_the_leaderboard_title_is_drawn_whole(drawn: list[Drawn], title: str) -> None:
    leaderboard_png(title, [(1, "Ada", 100), (2, "Bastien", -5)])
    # The title's lines come first, in the title's type.
    title_lines = [piece.text for piece in takewhile(lambda p: p.size == drawn[0].size, drawn)]
    assert " ".join(" ".join(title_lines).split()) == title
    assert all(ELLIPSIS not in line for line in title_lines)


@pytest.mark.parametrize(
    "names",
    [
        ["Computer 1", "Computer 2", "Computer 3", "Computer 4", "Computer 5", "Bastien Olivier"],
        ["WWWWWWWWWWWW", "mmmmmmmmmmmmmmmm", "Eun-ji Park", "Ada", "Farah", "Dmitri Ivanov"],
    ],
)
def test_no_name_is_cut_below_ten_characters(drawn: list[Drawn], names: list[str]) -> None:
    players = [replace(row, name=name) for row, name in zip(_showdown_rows(), names, strict=True)]
    matrix = [[0] * len(names) for _ in names]
    showdown_png(players, title="Showdown", matrix=matrix, matrix_names=names)
    # Was "Comp…" over the Scoring Card's columns.
    cut = [piece.text for piece in drawn if piece.text.endswith(ELLIPSIS)]
    assert all(len(text) - 1 >= 10 for text in cut), cut
    for name in names:
        assert any(piece.text in (name, name[: len(piece.text) - 1] + ELLIPSIS) for piece in drawn)


def test_a_six_seat_showdown_summary_fits_a_phone_and_its_captions_read_there(
    drawn: list[Drawn],
) -> None:
    players = _showdown_rows()
    data = showdown_png(players, title="Showdown Version: game 12", summary=True)
    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
    # Was 716 by 3,227 with 7-pixel captions: the summary keeps every seat within 1,400 pixels,
    # every hand's name at least 11 pixels high on a phone, the full picture a button away.
    assert height <= 1400
    labels = [piece.size for piece in drawn if piece.text in ("Ace", "Ace high", "Trips")]
    assert labels and min(_on_a_phone(size, width) for size in labels) >= 11
    assert min(_on_a_phone(piece.size, width) for piece in drawn) >= 11


def test_a_summary_stays_within_1400_pixels_when_every_seat_has_a_note(
    drawn: list[Drawn],
) -> None:
    note = "pot winner; hands set by the table at the deadline"
    rows = [
        replace(row, name=f"A player named {seat}", note=note)
        for seat, row in enumerate(_showdown_rows())
    ]
    data = showdown_png(rows, title="Showdown Version: game 12", summary=True)
    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
    # Was 1,631 pixels: each note took two lines under its seat's name.
    assert height <= 1400, height
    # The note follows the name on its line, cut to the room left; the name is whole.
    names = [piece.text for piece in drawn if piece.text.startswith("A player named")]
    assert len(names) == 6 and all(ELLIPSIS not in name for name in names)
    notes = [piece.text for piece in drawn if piece.text.startswith("pot ")]
    assert len(notes) == 6
    assert min(_on_a_phone(piece.size, width) for piece in drawn) >= 11


@pytest.mark.parametrize("rows", [_showdown_rows, _three_card_rows])
def test_every_caption_of_a_full_showdown_reads_at_11_pixels_on_a_phone(
    drawn: list[Drawn], rows: Any
) -> None:
    players = rows()[:3]
    names = [row.name for row in players]
    matrix = [[0] * len(names) for _ in names]
    data = showdown_png(players, title="Showdown", matrix=matrix, matrix_names=names)
    width = _width(data)
    # Was about 7-10 pixels for the captions, the Scoring Card's names and the notes.
    small = sorted({(piece.size, piece.text) for piece in drawn})[:3]
    assert min(_on_a_phone(piece.size, width) for piece in drawn) >= 11, (width, small)


def test_every_text_of_the_other_pictures_reads_at_11_pixels_on_a_phone(
    drawn: list[Drawn],
) -> None:
    """The DM's hand, the arrangement's preview (the builder's live picture too) and the
    leaderboard: no text below 11 pixels where Discord shows the picture 400 pixels wide."""
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(3))
    hands = [shoe.deal(size) for size in SIZES]
    labels = ["Ace high", "Pair", "Two pair, eights and twos (9)", "Full house", "Flush", "Trips"]
    draw = {
        "hand": lambda: hand_png(shoe.deal(25), title="Your cards", subtitle="Showdown · game 1"),
        "preview": lambda: hands_png(hands, labels, slots=list(SLOTS), title="Suggested hands"),
        "leaderboard": lambda: leaderboard_png("Chips", [(n, f"P{n}", n) for n in range(1, 12)]),
    }
    smallest = {}
    for name, picture in draw.items():
        drawn.clear()
        width = _width(picture())
        smallest[name] = min(_on_a_phone(piece.size, width) for piece in drawn)
    assert min(smallest.values()) >= 11, smallest
