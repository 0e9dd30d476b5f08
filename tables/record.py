"""What a settled game keeps for the coach and ``/replay``: a typed, frozen `GameRecord`.

The games table keeps it as JSON (``games.result``), beside the figures the ledger adds there
(``storage.chips``: the transfers, the nets, the house's net). Format 2 is the codec's encoding
of the record; a record written before it was typed (format 1, a dict with the players' ids as
text and the showdown as an outbox event) is still read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import AnyCard, card_from_code
from engine.errors import GameError
from engine.text import tr
from tables.codec import decode_event, decode_value, encode_value
from tables.events import ShowdownSettled

#: The record's format in ``games.result`` (1: the untyped dict of earlier versions).
FORMAT: Final = 2


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A settled game as the coach and replays need it: who held what, and the showdown."""

    game: str
    ante: int
    players: tuple[int, ...]
    #: Every card each seat held at the end (discards included), by player.
    holdings: dict[int, tuple[AnyCard, ...]]
    #: The showdown as it was shown: each seat's hands, surrender and automatic, and the nets.
    showdown: ShowdownSettled
    #: The computers' levels, by their (negative) ids.
    computers: dict[int, str] = field(default_factory=dict)
    practice: bool = False
    #: The values of the game's own options at its table, by name (``tables.options``), as
    #: ``tables.games.spec_with`` reads them.
    options: dict[str, bool | int | str] = field(default_factory=dict)

    @property
    def surrendered(self) -> dict[int, int]:
        """The declaration (0-based) at which each player who surrendered did."""
        return {
            seat.user: seat.surrendered_at
            for seat in self.showdown.seats
            if seat.surrendered_at is not None
        }

    @property
    def automatics(self) -> dict[int, str]:
        """The automatic each player who declared one declared."""
        return {seat.user: seat.automatic for seat in self.showdown.seats if seat.automatic}


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The record as the games table keeps it."""
    encoded: dict[str, Any] = encode_value(record)
    return {"format": FORMAT, **encoded}


def record_from_json(data: Mapping[str, Any], game_id: int) -> GameRecord:
    """The record of game ``game_id`` from what the games table keeps (either format), or the
    sentence saying why there is none."""
    if "showdown" not in data:
        raise GameError(
            tr("Game {game} finished before the bot kept its showdown.", game=str(game_id))
        )
    try:
        if data.get("format") == FORMAT:
            return decode_value(GameRecord, data)
        return _format_1(data)
    except (GameError, KeyError, TypeError, ValueError) as error:
        raise GameError(tr("Game {game}'s record is damaged.", game=str(game_id))) from error


def _format_1(data: Mapping[str, Any]) -> GameRecord:
    """A record of the untyped kind: players' ids as text, the showdown as an outbox event."""
    showdown = decode_event(data["showdown"])
    if not isinstance(showdown, ShowdownSettled):
        raise TypeError(f"a {type(showdown).__name__} is no showdown")
    options = data.get("options")
    return GameRecord(
        game=str(data.get("game", showdown.game)),
        ante=int(data.get("ante", 0)),
        players=tuple(int(user) for user in data.get("players", ())),
        # The oldest records kept no holdings: a replay still shows them, a review refuses.
        holdings={
            int(user): tuple(card_from_code(int(code)) for code in codes)
            for user, codes in data.get("holdings", {}).items()
        },
        showdown=showdown,
        computers={int(user): str(level) for user, level in data.get("computers", {}).items()},
        practice=bool(data.get("practice", False)),
        # Records before each game kept only its own options hold every game's; older ones none.
        options=dict(options or {}),
    )
