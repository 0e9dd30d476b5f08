"""The tables' activity in the log, one INFO line per table opened, game started, settled or
cancelled, and table closed, with the ids an operator looks up (``/chips ledger`` shows a game's
rows by its id). A subscriber like any feature: it hears the events after they committed, so a
line means the change is in the store; after a crash a line may come twice, never not at all."""

from __future__ import annotations

import logging

from tables.events import (
    Event,
    GameCancelled,
    GameStarted,
    ShowdownSettled,
    TableAbandoned,
    TableClosed,
    TableOpened,
)
from tables.subscribers import Delivery

log = logging.getLogger("pyramid_poker.activity")


def chips(amounts: dict[int, int]) -> str:
    """Each player's chips as ``user +15``, in the order given."""
    return ", ".join(f"{user} {amount:+d}" for user, amount in amounts.items()) or "none"


def activity_line(event: Event, where: str) -> str | None:
    """The log's line for an event (None: not activity the log keeps)."""
    if isinstance(event, TableOpened):
        lobby = event.lobby
        return f"Table opened {where}: {lobby.game}, ante {lobby.ante}, host {lobby.host}."
    if isinstance(event, GameStarted):
        held = sum(event.escrowed.values())
        return (
            f"Game {event.game_id} started {where}: {len(event.players)} players,"
            f" {held} chips escrowed."
        )
    if isinstance(event, ShowdownSettled):
        kind = "practice game" if event.practice else "game"
        return (
            f"Game {event.game_id} settled {where}: {event.game} {kind}, nets {chips(event.nets)},"
            f" house {event.house:+d}."
        )
    if isinstance(event, GameCancelled):
        by = "" if event.by is None else f" by {event.by}"
        return (
            f"Game {event.game_id} cancelled{by} {where} ({event.reason}):"
            f" returned {chips(event.refunds)}."
        )
    if isinstance(event, TableAbandoned):
        return (
            f"Table abandoned {where}: {event.game} ({event.reason}), returned"
            f" {chips(event.refunds)}."
        )
    if isinstance(event, TableClosed):
        return f"Table closed {where}: {event.reason}"
    return None


class ActivityLog:
    """Writes the tables' activity to the log."""

    name = "activity-log"
    events: tuple[type[Event], ...] = (
        TableOpened,
        GameStarted,
        ShowdownSettled,
        GameCancelled,
        TableAbandoned,
        TableClosed,
    )

    async def handle(self, event: Event, delivery: Delivery) -> None:
        """Log the event's line."""
        line = activity_line(event, f"in server {delivery.guild_id} channel {delivery.channel_id}")
        if line is not None:
            log.info(line)
