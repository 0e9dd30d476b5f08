"""What a table's message shows of the game under way (cogs/board.py shows it): the game's step,
who is done and the deadline, followed from the tables' events by the publisher."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import discord

from tables.events import (
    ArrangementSubmitted,
    ArrangingOpened,
    DeclarationMade,
    DeclarationsOpened,
    Event,
    GameCancelled,
    GameStarted,
    ShowdownSettled,
    TableAbandoned,
)
from tables.games import GAMES

Key = tuple[int, int]


@dataclass(slots=True)
class Board:
    """What the table's message shows of a game under way, and the message showing it."""

    game_id: int
    players: tuple[int, ...]
    escrow: int
    #: The game's name, from its first step (tables.games).
    game: str | None = None
    step: str = "dealing the cards"
    #: Who the step waits on, and who of them is done.
    waiting_on: tuple[int, ...] = ()
    done: set[int] = field(default_factory=set)
    deadline: float | None = None
    #: How the game ended (None while it is played).
    ended: str | None = None
    #: The message that shows the board (None until the Start press posted it).
    message: discord.Message | discord.PartialMessage | None = None
    #: False for a game this process did not see start (a restart): the publisher posts its
    #: message, as no Start press will.
    started_here: bool = True
    shown: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def note(self, event: Event) -> None:
        """Follow the game by one of its events (each may come twice: noting is idempotent)."""
        if isinstance(event, DeclarationsOpened):
            total = GAMES[event.game].declarations if event.game in GAMES else 0
            of = f" of {total}" if total > 1 else ""
            self.game, self.deadline = event.game, event.deadline
            self.step = f"declaration {event.round + 1}{of}: play or surrender, by DM"
            self.waiting_on, self.done = event.players, set()
        elif isinstance(event, ArrangingOpened):
            self.game, self.deadline = event.game, event.deadline
            self.step = "setting hands, by DM"
            self.waiting_on, self.done = event.players, set()
        elif isinstance(event, DeclarationMade | ArrangementSubmitted):
            self.done.add(event.user)
        elif isinstance(event, ShowdownSettled):
            self.ended = "The game is over: the showdown is below."
        elif isinstance(event, GameCancelled):
            self.ended = "The game was cancelled; every chip held for it went back."


class Boards:
    """Each table's board while its game is played (lost on a restart: the next step posts a new
    message)."""

    def __init__(self) -> None:
        self._boards: dict[Key, Board] = {}

    def get(self, key: Key) -> Board | None:
        """The table's board, if a game is followed there."""
        return self._boards.get(key)

    def started(self, key: Key, event: GameStarted) -> Board:
        """A game started at the table: its board (the same one if this start came before)."""
        board = self._boards.get(key)
        if board is None or board.game_id != event.game_id:
            escrow = sum(event.escrowed.values())
            board = self._boards[key] = Board(event.game_id, event.players, escrow)
        return board

    def note(self, key: Key, event: Event) -> Board | None:
        """Follow the table's game by one event; the board to show again, if any."""
        if isinstance(event, GameStarted):
            return self.started(key, event)
        if isinstance(event, TableAbandoned):
            self._boards.pop(key, None)
            return None
        board = self._boards.get(key)
        game_id = getattr(event, "game_id", None)
        if isinstance(event, DeclarationsOpened | ArrangingOpened) and (
            board is None or board.game_id != event.game_id
        ):
            # A game this process did not see start (a restart): followed from here on.
            board = self._boards[key] = Board(event.game_id, event.players, 0, started_here=False)
        if board is None or (game_id is not None and game_id != board.game_id):
            return None
        board.note(event)
        if board.ended is not None:
            del self._boards[key]
        return board
