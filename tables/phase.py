"""Where a table is in its game."""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """Where a table is in its game."""

    LOBBY = "lobby"
    DECLARING = "declaring"
    ARRANGING = "arranging"
    #: Every hand is in; the chips are being settled.
    SETTLING = "settling"
    CLOSED = "closed"
