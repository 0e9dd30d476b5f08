"""Who sits at a table: people joining and leaving the lobby, the host removing one, computers
seated by the host. ``Table`` is made of this and of the game's own flow (tables/table.py)."""

from __future__ import annotations

import itertools

from engine.errors import GameError
from engine.text import Text, tr, tr_plural
from tables.computers import is_computer
from tables.config import TableConfig
from tables.events import DeclarationMade, Event, Lobby, PlayerJoined, PlayerKicked, PlayerLeft
from tables.phase import Phase
from tables.seat import SeatState


def program_name(run_by: str) -> str | Text:
    """The program that runs a table (``TableConfig.run_by``: "tournament 12"), as a sentence
    names it."""
    kind, _, number = run_by.partition(" ")
    if kind == "tournament" and number.isdigit():
        return tr("tournament {number}", number=number)
    return run_by


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
        raise GameError(tr("You are not seated at this table."))

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
        self.verify_hosted()
        if by != self.host:
            raise GameError(tr("Only the table's host can seat a computer."))
        if self.phase is not Phase.LOBBY:
            raise GameError(
                tr("A game is under way at this table; add a computer when it has ended.")
            )
        if len(self.seats) >= self.config.seats:
            raise GameError(tr("This table is full ({seats} seats).", seats=self.config.seats))
        if len(self.computers) >= self.config.computer_seats:
            raise GameError(tr("{cap}.", cap=self._computer_cap()))

    @property
    def staked(self) -> tuple[SeatState, ...]:
        """The seats with chips of their own at stake: the people's, and the computers' where
        they do not play the house's chips (``TableConfig.house_computers``)."""
        if self.config.house_computers:
            return self.people
        return tuple(self.seats)

    def verify_hosted(self) -> None:
        """Raise if a program runs the table: it alone seats, unseats, deals and closes."""
        if self.config.run_by is not None:
            raise GameError(
                tr(
                    "This table is run by {program}: it seats the players and deals every game.",
                    program=program_name(self.config.run_by),
                )
            )

    @property
    def computers(self) -> tuple[SeatState, ...]:
        """The seats of computers, in seat order."""
        return tuple(seat for seat in self.seats if seat.computer is not None)

    def _computer_cap(self) -> Text:
        """The server's cap on computers, as a sentence says it."""
        cap = self.config.computer_seats
        if cap == 0:
            return tr("This server does not seat computers at its tables")
        return tr_plural(
            "This table seats at most {count} computer",
            "This table seats at most {count} computers",
            cap,
        )

    def verify_computers(self) -> None:
        """Raise unless the computers seated keep to the server's cap as it is now (an admin
        may have lowered it, or forbidden computers, since they sat down)."""
        computers = self.computers
        extra = len(computers) - self.config.computer_seats
        if extra <= 0:
            return
        if extra == len(computers):
            which = (
                tr("Computer {number}", number=str(-computers[0].user))
                if extra == 1
                else tr("its {count} computers", count=extra)
            )
        else:
            which = tr_plural("one of its computers", "{count} of its computers", extra)
        raise GameError(
            tr("{cap}; remove {which} before you start.", cap=self._computer_cap(), which=which)
        )

    def add_computer(self, by: int, level: str) -> tuple[Event, ...]:
        """Seat a computer of this level: Computer 1, 2, ..., the lowest number free here.

        Its id (the number, negated) is the table's own: other tables number theirs alike.
        """
        self.verify_add_computer(by)
        taken = {seat.user for seat in self.computers}
        user = next(-number for number in itertools.count(1) if -number not in taken)
        self.seats.append(SeatState(user, computer=level))
        return (PlayerJoined(user, self.lobby()),)

    def verify_join(self, user: int) -> None:
        """Raise unless the player may take a seat now."""
        self.verify_hosted()
        if self.is_seated(user):
            return
        if self.phase is not Phase.LOBBY:
            raise GameError(tr("A game is under way at this table; join when it has ended."))
        if len(self.seats) >= self.config.seats:
            raise GameError(tr("This table is full ({seats} seats).", seats=self.config.seats))

    def join(self, user: int) -> tuple[Event, ...]:
        """Seat the player; a second click changes nothing."""
        self.verify_join(user)
        if self.is_seated(user):
            return ()
        self.seats.append(SeatState(user))
        return (PlayerJoined(user, self.lobby()),)

    def verify_leave(self, user: int) -> None:
        """Raise unless the player may leave now."""
        self.verify_hosted()
        self.seat_of(user)
        if self.phase is not Phase.LOBBY:
            raise GameError(tr("You cannot leave during a game; surrender, or wait for the end."))

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

    def verify_kick(self, by: int, user: int, *, is_admin: bool = False) -> None:
        """Raise unless ``by`` (a server admin when ``is_admin``) may remove ``user`` now."""
        self.verify_hosted()
        if by != self.host and not is_admin:
            raise GameError(
                tr("Only the table's host or a server admin can remove a computer.")
                if is_computer(user)
                else tr("Only the table's host or a server admin can remove a player.")
            )
        if user == by:
            raise GameError(tr("You cannot remove yourself; leave or cancel the table instead."))
        seat = self.seat_of_other(user)
        if seat.kicked:
            raise GameError(tr("That player was already removed from this game."))

    def seat_of_other(self, user: int) -> SeatState:
        """Another player's seat; ``GameError`` if they do not sit here."""
        for seat in self.seats:
            if seat.user == user:
                return seat
        if is_computer(user):
            raise GameError(tr("There is no Computer {number} at this table.", number=str(-user)))
        raise GameError(tr("That player is not seated at this table."))

    def kick(self, by: int, user: int, now: float, *, is_admin: bool = False) -> tuple[Event, ...]:
        """Remove a player: from the lobby at once; mid-game the table plays the defaults.

        A removed player's pending declaration becomes the table's default at once; their
        arrangement is set by the solver (the manager does that, as it takes time). A removed
        host (an admin may remove one) hands the table to the first person left; a lobby left
        with no person closes.
        """
        self.verify_kick(by, user, is_admin=is_admin)
        if self.phase is Phase.LOBBY:
            self.seats = [seat for seat in self.seats if seat.user != user]
            if not self.people:
                self.seats, self.phase = [], Phase.CLOSED
            elif user == self.host:
                self.host = self.people[0].user
            self.button = self.button % max(len(self.seats), 1)
            return (PlayerKicked(user, by, self.lobby()),)
        seat = self.seat_of(user)
        seat.kicked = True
        if user == self.host:
            # The table's next host, now: the first person still playing (else at the finish).
            self.host = next((s.user for s in self.people if not s.kicked), self.host)
        events: list[Event] = [PlayerKicked(user, by)]
        if self.phase is Phase.DECLARING and seat.is_active and seat.choice is None:
            seat.choice = self.config.afk_plays_on
            events.append(DeclarationMade(user, self.round))
        return tuple(events)
