"""A table back from the snapshot it saved: every value read and checked again."""

from __future__ import annotations

from typing import Any

from engine.errors import GameError
from engine.text import tr
from tables.config import TableConfig
from tables.games import rules_of
from tables.phase import Phase
from tables.seat import SeatState
from tables.table import STATE_FORMAT, Table


def table_from_state(state: dict[str, Any]) -> Table:
    """The table ``Table.to_state`` saved; ``GameError`` if the snapshot cannot be read.

    Each seat's setting is checked again against its cards, so a damaged snapshot is refused
    (and its game refunded) rather than played. Format 1 kept settings as text; it is read too.
    """
    if state.get("format") not in (1, STATE_FORMAT):
        raise GameError(
            tr(
                "This table was saved in another format ({format}).",
                format=str(state.get("format")),
            )
        )
    try:
        config = TableConfig.from_json(state["config"])
        rules = rules_of(config.spec)
        return Table(
            guild_id=int(state["guild_id"]),
            channel_id=int(state["channel_id"]),
            host=int(state["host"]),
            config=config,
            seats=[SeatState.from_state(seat, rules) for seat in state["seats"]],
            phase=Phase(state["phase"]),
            round=int(state["round"]),
            game_id=state["game_id"],
            seed=int(state["seed"]),
            dealt=int(state["dealt"]),
            dealer_cards=list(state["dealer_cards"]),
            deadline=state["deadline"],
            button=int(state["button"]),
            games_played=int(state["games_played"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise GameError(
            tr("This table's snapshot is damaged ({error}).", error=str(error))
        ) from error
