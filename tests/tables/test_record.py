"""A settled game's record is a typed value: it survives the games table, and a record written
before it was typed (a plain dict) still reads."""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_cards
from engine.errors import GameError
from tables.codec import encode_event
from tables.events import Note, SeatResult, ShowdownSettled
from tables.record import GameRecord, record_from_json, record_to_json

HELD = tuple(parse_cards("As Kh W 2c 2d 3s"))
SHOWDOWN = ShowdownSettled(
    game_id=7,
    game="showdown",
    seats=(
        SeatResult(11, None, (HELD[:1], HELD[1:3]), ("Hand 1", "Hand 2"), "six pairs", 5, (1, 4)),
        SeatResult(-1, 0, (), (), None, -5, computer="steady"),
    ),
    matrix=((0, 5), (-5, 0)),
    matrix_players=(11, -1),
    nets={11: 5, -1: -5},
    house=0,
    pot=30,
    pot_winners=(11,),
    notes=(Note("could cover only 3 chips.", 11),),
)
RECORD = GameRecord(
    game="showdown",
    ante=10,
    players=(11, -1),
    holdings={11: HELD[:3], -1: HELD[3:]},
    showdown=SHOWDOWN,
    computers={-1: "steady"},
    # A game's own options are plain values of three kinds.
    options={"ties_to_dealer": False, "decks": 1, "wheel": "second"},
)


def test_a_record_comes_back_equal_from_the_games_table() -> None:
    # The ledger adds its own figures beside the record's (storage/chips.py).
    kept = {**record_to_json(RECORD), "transfers": [], "nets": {"11": 5}, "house": 0}
    assert record_from_json(json.loads(json.dumps(kept)), 7) == RECORD


def test_a_record_says_who_surrendered_where_and_who_declared_an_automatic() -> None:
    assert RECORD.surrendered == {-1: 0}
    assert RECORD.automatics == {11: "six pairs"}


def test_a_record_written_before_records_were_typed_still_reads() -> None:
    # What the previous version kept: ids as text, cards as codes, the showdown as an event.
    untyped = {
        "game": "showdown",
        "ante": 10,
        "players": [11, -1],
        "settings": {"11": "As | Kh W"},
        "automatics": {"11": "six pairs"},
        "surrendered": {"-1": 0},
        "holdings": {"11": [c.code for c in HELD[:3]], "-1": [c.code for c in HELD[3:]]},
        "computers": {"-1": "steady"},
        "practice": False,
        "options": {"ties_to_dealer": False, "decks": 1, "wheel": "second"},
        "showdown": encode_event(SHOWDOWN),
        "transfers": [],
        "nets": {"11": 5},
        "house": 0,
    }
    assert record_from_json(json.loads(json.dumps(untyped)), 7) == RECORD


def test_a_record_without_a_showdown_or_damaged_is_a_sentence() -> None:
    with pytest.raises(GameError) as missing:
        record_from_json({"game": "showdown"}, 7)
    assert str(missing.value) == "Game 7 finished before the bot kept its showdown."
    damaged = {**record_to_json(RECORD), "holdings": "lost"}
    with pytest.raises(GameError) as broken:
        record_from_json(damaged, 7)
    assert str(broken.value) == "Game 7's record is damaged."
