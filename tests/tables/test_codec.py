"""Events survive the outbox: every event type encodes to JSON and decodes equal."""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_cards
from engine.errors import GameError
from tables.codec import EVENT_TYPES, decode_event, encode_event
from tables.events import (
    CardsDrawn,
    DeclarationsRevealed,
    Event,
    GameStarted,
    Lobby,
    Note,
    PlayerLeft,
    SeatResult,
    ShowdownSettled,
)

CARDS = tuple(parse_cards("As Kh W 2c 2c"))

SAMPLES: list[Event] = [
    PlayerLeft(12, Lobby("showdown", 10, 6, 11, (11,)), None),
    PlayerLeft(12, Lobby("casino", 5, 4, 13, (13, 14)), 13),
    GameStarted(7, (11, 12), {11: 10, 12: 10}),
    CardsDrawn(11, CARDS[:2], CARDS),
    DeclarationsRevealed(0, (11,), (12,), (), (12,), {11: 10}),
    ShowdownSettled(
        game_id=7,
        game="showdown",
        seats=(
            SeatResult(11, None, (CARDS[:1], CARDS[1:]), ("Hand 1", "Hand 2"), None, 5, (1, -2)),
        ),
        matrix=((0, 5), (-5, 0)),
        matrix_players=(11, 12),
        nets={11: 5, 12: -5},
        house=0,
        pot=30,
        pot_winners=(11,),
        notes=(Note("a note"), Note("could cover only 3 chips.", 11)),
    ),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_an_event_round_trips_through_json(event: Event) -> None:
    text = json.dumps(encode_event(event))
    assert decode_event(json.loads(text)) == event


def test_every_event_type_is_known_by_name() -> None:
    assert {"ShowdownSettled", "CardsDealt", "TableClosed", "GameCancelled"} <= set(EVENT_TYPES)


def test_a_damaged_event_is_a_sentence() -> None:
    with pytest.raises(GameError, match="damaged"):
        decode_event({"type": "PlayerLeft", "fields": {"user": "x", "new_host": None}})
    with pytest.raises(GameError, match="Unknown event"):
        decode_event({"type": "Nothing", "fields": {}})


def test_a_row_queued_before_a_field_was_added_decodes_with_its_default() -> None:
    # As the previous version queued it: no escrowed (nor game id) among the fields.
    revealed = DeclarationsRevealed(0, (11,), (12,), game_id=7)
    data = encode_event(revealed)
    del data["fields"]["escrowed"], data["fields"]["game_id"]
    assert decode_event(json.loads(json.dumps(data))) == DeclarationsRevealed(0, (11,), (12,))


def test_a_field_without_a_default_is_still_required() -> None:
    data = encode_event(GameStarted(7, (11, 12), {11: 10}))
    del data["fields"]["players"]
    with pytest.raises(GameError, match="damaged"):
        decode_event(data)
