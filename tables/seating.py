"""Who sits at a table: people joining and leaving the lobby, the host removing one, computers
seated by the host. ``Table`` is made of this and of the game's own flow (tables/table.py)."""

from __future__ import annotations

from engine.errors import GameError
from tables.config import TableConfig
from tables.events import DeclarationMade, Event, Lobby, PlayerJoined, PlayerKicked, PlayerLeft
from tables.phase import Phase
from tables.seat import SeatState


class Seating:
    """The seats of a table and the lobby actions on them (mixed into ``Table``)."""

    # The table's state these actions read and change (``Table`` holds it).
    host: int
    config: TableConfig
    seats: list[SeatState]
    phase: Phase
    round: int
    button: int

    def is_seated(self, user: int) -> bool:
        """Whether the player sits here."""
        return any(seat.user == user for seat in self.seats)

    def seat_of(self, user: int) -> SeatState:
        """The player's seat; ``GameError`` if they do not sit here."""
        for seat in self.seats:
            if seat.user == user:
                return seat
        raise GameError("You are not seated at this table.")

    @property
    def players(self) -> tuple[int, ...]:
        """Every seated player, in seat order."""
        return tuple(seat.user for seat in self.seats)

    def lobby(self) -> Lobby:
        """What the lobby message shows now."""
        config = self.config
        computers = tuple((s.user, s.computer) for s in self.seats if s.computer is not None)
        return Lobby(
            config.game,
            config.ante,
            config.seats,
            self.host,
            self.players,
            computers,
            config.computer_seats,
            config.practice,
        )

    @property
    def people(self) -> tuple[SeatState, ...]:
        """The seats of people (not computers): the ones with chips at stake."""
        return tuple(seat for seat in self.seats if seat.computer is None)

    def verify_add_computer(self, by: int) -> None:
        """Raise unless ``by`` may seat a computer now."""
        if by != self.host:
            raise GameError("Only the table's host can seat a computer.")
        if self.phase is not Phase.LOBBY:
            raise GameError("A game is under way at this table; add a computer when it has ended.")
        if len(self.seats) >= self.config.seats:
            raise GameError(f"This table is full ({self.config.seats} seats).")
        cap = self.config.computer_seats
        if len(self.seats) - len(self.people) >= cap:
            raise GameError(
                "This server does not seat computers at its tables."
                if cap == 0
                else f"This table seats at most {cap} computer{'s' if cap > 1 else ''}."
            )

    def add_computer(self, by: int, level: str) -> tuple[Event, ...]:
        """Seat a computer of this level (its id: the next free negative number)."""
        self.verify_add_computer(by)
        user = -1 - max((-s.user for s in self.seats if s.computer is not None), default=0)
        self.seats.append(SeatState(user, computer=level))
        return (PlayerJoined(user, self.lobby()),)

    def verify_join(self, user: int) -> None:
        """Raise unless the player may take a seat now."""
        if self.is_seated(user):
            return
        if self.phase is not Phase.LOBBY:
            raise GameError("A game is under way at this table; join when it has ended.")
        if len(self.seats) >= self.config.seats:
            raise GameError(f"This table is full ({self.config.seats} seats).")

    def join(self, user: int) -> tuple[Event, ...]:
        """Seat the player; a second click changes nothing."""
        self.verify_join(user)
        if self.is_seated(user):
            return ()
        self.seats.append(SeatState(user))
        return (PlayerJoined(user, self.lobby()),)

    def verify_leave(self, user: int) -> None:
        """Raise unless the player may leave now."""
        self.seat_of(user)
        if self.phase is not Phase.LOBBY:
            raise GameError("You cannot leave during a game; surrender, or wait for the end.")

    def leave(self, user: int) -> tuple[Event, ...]:
        """Give up the seat; the next player becomes host, and an empty table closes."""
        self.verify_leave(user)
        self.seats = [seat for seat in self.seats if seat.user != user]
        if not self.people:
            self.seats = []  # computers do not keep a table open on their own
        new_host = None
        if user == self.host and self.seats:
            self.host = new_host = self.people[0].user
        if not self.seats:
            self.phase = Phase.CLOSED
        self.button = self.button % max(len(self.seats), 1)
        return (PlayerLeft(user, self.lobby(), new_host),)

    def verify_kick(self, by: int, user: int) -> None:
        """Raise unless ``by`` may remove ``user`` now."""
        if by != self.host:
            raise GameError("Only the table's host can remove a player.")
        if user == by:
            raise GameError("You cannot remove yourself; leave or cancel the table instead.")
        seat = self.seat_of_other(user)
        if seat.kicked:
            raise GameError("That player was already removed from this game.")

    def seat_of_other(self, user: int) -> SeatState:
        """Another player's seat; ``GameError`` if they do not sit here."""
        for seat in self.seats:
            if seat.user == user:
                return seat
        raise GameError("That player is not seated at this table.")

    def kick(self, by: int, user: int, now: float) -> tuple[Event, ...]:
        """Remove a player: from the lobby at once; mid-game the table plays the defaults.

        A removed player's pending declaration becomes the table's default at once; their
        arrangement is set by the solver (the manager does that, as it takes time).
        """
        self.verify_kick(by, user)
        if self.phase is Phase.LOBBY:
            self.seats = [seat for seat in self.seats if seat.user != user]
            self.button = self.button % max(len(self.seats), 1)
            return (PlayerKicked(user, by, self.lobby()),)
        seat = self.seat_of(user)
        seat.kicked = True
        events: list[Event] = [PlayerKicked(user, by)]
        if self.phase is Phase.DECLARING and seat.is_active and seat.choice is None:
            seat.choice = self.config.afk_plays_on
            events.append(DeclarationMade(user, self.round))
        return tuple(events)
