"""What a table's message shows of the game under way (cogs/board.py shows it): the game's step,
who is done and the deadline, followed from the tables' events by the publisher."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import discord

import i18n
from engine.text import Text, tr
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
from tables.phase import Phase
from tables.table import Table

Key = tuple[int, int]


@dataclass(slots=True)
class Board:
    """What the table's message shows of a game under way, and the message showing it."""

    game_id: int
    players: tuple[int, ...]
    escrow: int
    #: The game's name, from its first step (tables.games).
    game: str | None = None
    step: str | Text = field(default_factory=lambda: tr("dealing the cards"))
    #: Who the step waits on, and who of them is done.
    waiting_on: tuple[int, ...] = ()
    done: set[int] = field(default_factory=set)
    deadline: float | None = None
    #: How the game ended (None while it is played).
    ended: str | Text | None = None
    #: The message that shows the board (None until the Start press posted it).
    message: discord.Message | discord.PartialMessage | None = None
    #: False for a game this process did not see start (a restart): the publisher posts its
    #: message, as no Start press will.
    started_here: bool = True
    shown: str | None = None
    #: The language the message is written in: the channel's (the publisher sets it).
    locale: str = i18n.ENGLISH.discord
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def note(self, event: Event) -> None:
        """Follow the game by one of its events (each may come twice: noting is idempotent)."""
        if isinstance(event, DeclarationsOpened):
            self.game, self.deadline = event.game, event.deadline
            self.step = _declaring(event.game, event.round)
            self.waiting_on, self.done = event.players, set()
        elif isinstance(event, ArrangingOpened):
            self.game, self.deadline = event.game, event.deadline
            self.step = _ARRANGING
            self.waiting_on, self.done = event.players, set()
        elif isinstance(event, DeclarationMade | ArrangementSubmitted):
            self.done.add(event.user)
        elif isinstance(event, ShowdownSettled):
            self.ended = tr("The game is over: the showdown is below.")
        elif isinstance(event, GameCancelled):
            self.ended = tr("The game was cancelled; every chip held for it went back.")

    def take_state(self, other: Board) -> None:
        """Show what ``other`` (the same game, read from its table) says of the step."""
        self.game, self.step, self.deadline = other.game, other.step, other.deadline
        self.waiting_on, self.done = other.waiting_on, set(other.done)


_ARRANGING = tr("setting hands, by DM")


def _declaring(game: str, round_: int) -> Text:
    total = GAMES[game].declarations if game in GAMES else 0
    if total > 1:
        return tr(
            "declaration {number} of {total}: play or surrender, by DM",
            number=str(round_ + 1),
            total=str(total),
        )
    return tr("declaration {number}: play or surrender, by DM", number=str(round_ + 1))


def board_of(table: Table) -> Board | None:
    """What the table's message shows of the game a table is playing, read from the table
    itself (as any process of the bot reads it from the store); None between games."""
    if table.game_id is None or not table.in_game:
        return None
    held = sum(table.start_stakes().values())
    board = Board(table.game_id, table.players, held, game=table.config.game)
    board.deadline = table.deadline
    if table.phase is Phase.DECLARING:
        board.step = _declaring(table.config.game, table.round)
    elif table.phase is Phase.ARRANGING:
        board.step = _ARRANGING
    else:
        board.step = tr("settling")
        return board
    waiting = set(table.waiting_for())
    board.waiting_on = tuple(seat.user for seat in table.active)
    board.done = {user for user in board.waiting_on if user not in waiting}
    return board


def ended_board(event: ShowdownSettled | GameCancelled) -> Board:
    """The board of a game this process did not follow, at its end."""
    if isinstance(event, ShowdownSettled):
        board = Board(event.game_id, tuple(s.user for s in event.seats), 0, game=event.game)
    else:
        board = Board(event.game_id, tuple(event.refunds), 0)
    board.note(event)
    return board


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

    def adopt(self, key: Key, board: Board) -> Board:
        """Follow a game from a board read from its table; the board already followed keeps
        its message and takes the table's state."""
        known = self._boards.get(key)
        if known is None or known.game_id != board.game_id:
            self._boards[key] = board
            return board
        known.take_state(board)
        return known

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
