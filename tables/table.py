"""One table in one channel: its seats, phase, cards and deadline, changed only by actions.

Every action is ``verify_x`` (raises a ``GameError`` whose message is fit for the player) and
``x``, which returns the frozen events it caused. The table knows nothing of chips in the
database or of time passing: the manager escrows what ``*_stakes`` name before it calls the action,
and passes ``now`` in. The whole state round-trips through ``to_state``/``from_state`` (JSON).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import Shoe, card_from_code
from engine.errors import GameError
from engine.stakes import DeclarationStakes, declaration_stakes
from engine.text import Term, tr
from tables.config import TableConfig
from tables.events import (
    ArrangementSubmitted,
    ArrangingOpened,
    CardsDealt,
    CardsDrawn,
    DeclarationMade,
    DeclarationsOpened,
    DeclarationsRevealed,
    Event,
    GameStarted,
    TableOpened,
)
from tables.games import GameSpec, rules_of
from tables.phase import Phase
from tables.rules import FinishedGame, PlayedSeat
from tables.seat import SeatState
from tables.seating import Seating
from tables.setting import Setting

#: The snapshot format; a snapshot of another format is refunded rather than guessed at.
#: Format 2 keeps each setting as card codes; format 1 (its text) is still read.
STATE_FORMAT: Final = 2


@dataclass(slots=True)
class Table(Seating):
    """The one mutable aggregate of a channel's game."""

    guild_id: int
    channel_id: int
    host: int
    config: TableConfig
    seats: list[SeatState] = field(default_factory=list)
    phase: Phase = Phase.LOBBY
    #: The declaration being made (0-based).
    round: int = 0
    game_id: int | None = None
    seed: int = 0
    #: Cards taken from the seeded shoe so far: the shoe is rebuilt from the seed after a restart.
    dealt: int = 0
    dealer_cards: list[int] = field(default_factory=list)
    deadline: float | None = None
    #: Seat index of the dealer button, which passes left after each game (odd chips, RULINGS §2).
    button: int = 0
    games_played: int = 0

    # ----- reading -------------------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        """The game this table plays."""
        return self.config.spec

    @property
    def scope(self) -> int:
        """The ledger scope the table's chips live in: its server's, unless its config names
        another (``TableConfig.scope``)."""
        return self.guild_id if self.config.scope is None else self.config.scope

    @property
    def active(self) -> tuple[SeatState, ...]:
        """The seats still in the game."""
        return tuple(seat for seat in self.seats if seat.is_active)

    @property
    def in_game(self) -> bool:
        """A game is between its start and its settlement."""
        return self.phase in (Phase.DECLARING, Phase.ARRANGING, Phase.SETTLING)

    def waiting_for(self) -> tuple[int, ...]:
        """Players the current phase still waits on."""
        if self.phase is Phase.DECLARING:
            return tuple(s.user for s in self.active if s.choice is None)
        if self.phase is Phase.ARRANGING:
            return tuple(s.user for s in self.active if s.setting is None)
        return ()

    def is_expired(self, now: float) -> bool:
        """The phase's deadline has passed."""
        return self.deadline is not None and now >= self.deadline

    def keep_lobby_open(self, now: float) -> None:
        """A lobby stays open for its idle time from now (every change in it counts)."""
        if self.phase is Phase.LOBBY and self.config.run_by is None:
            self.deadline = now + self.config.lobby_seconds

    # ----- lobby ---------------------------------------------------------------------------

    @classmethod
    def open(cls, guild_id: int, channel_id: int, host: int, config: TableConfig) -> Table:
        """A new table with its host seated."""
        return cls(guild_id, channel_id, host, config, [SeatState(host)])

    def opened(self) -> tuple[Event, ...]:
        """The events of opening this table."""
        return (TableOpened(self.lobby()),)

    def verify_start(self, by: int) -> None:
        """Raise unless ``by`` may start a game now."""
        if by != self.host:
            raise GameError(tr("Only the table's host can start the game."))
        if self.phase is not Phase.LOBBY:
            raise GameError(tr("The game has already started."))
        spec = self.spec
        if len(self.seats) < spec.min_players:
            raise GameError(
                tr(
                    "{game} needs at least {players} players; {seated} seated.",
                    game=Term(spec.title, "choice"),
                    players=spec.min_players,
                    seated=len(self.seats),
                )
            )
        self.verify_computers()

    def start_stakes(self) -> dict[int, int]:
        """What each player puts up at the start: the ante (each wager, in the house games), or
        in a game without an ante its cover, held until the result and then returned."""
        if self.config.practice:
            return {}
        stake = self.spec.put_up(self.config.ante)
        if not stake:
            stake = self.spec.cover_per_opponent * (len(self.seats) - 1)
        return {seat.user: stake for seat in self.staked} if stake else {}

    def start_stakes_reason(self) -> str:
        """The escrow reason of the start's stakes."""
        return "ante" if self.config.ante else "cover"

    def start(self, by: int, *, game_id: int, seed: int, now: float) -> tuple[Event, ...]:
        """Deal from a shoe shuffled by ``seed``; the stakes must already be escrowed."""
        self.verify_start(by)
        spec = self.spec
        self.game_id, self.seed, self.dealt, self.round = game_id, seed, 0, 0
        shoe = self._shoe()
        for seat in self.seats:
            seat.clear()
            seat.kicked = False
            seat.cards = [card.code for card in shoe.deal(spec.deal)]
        self.dealer_cards = [card.code for card in shoe.deal(spec.dealer_cards)]
        self.dealt = spec.deal * len(self.seats) + spec.dealer_cards
        events: list[Event] = [GameStarted(game_id, self.players, self.start_stakes())]
        events.extend(CardsDealt(seat.user, seat.held) for seat in self.seats)
        events.extend(self._open_next(now))
        return tuple(events)

    def _shoe(self) -> Shoe:
        spec = self.spec
        shoe = Shoe(decks=spec.decks, jokers=spec.jokers, rng=random.Random(self.seed))
        shoe.deal(self.dealt)
        return shoe

    def _open_next(self, now: float) -> tuple[Event, ...]:
        """Open the declaration of ``round`` if the game has one, else the arranging."""
        variant = self.spec.variant
        if variant is not None and self.round < len(variant.declarations):
            self.phase = Phase.DECLARING
            self.deadline = now + self.config.declaration_seconds
            for seat in self.active:
                # A removed player's choice is the table's default at once.
                seat.choice = self.config.afk_plays_on if seat.kicked else None
            players = tuple(s.user for s in self.active)
            draw = variant.declarations[self.round].draw
            # A practice table moves no chips: its declarations name no cost.
            stakes = None if self.config.practice else self.declaration_stakes()
            opened = DeclarationsOpened(
                self.round,
                players,
                self.deadline,
                stakes,
                draw,
                self._game_id(),
                self.config.game,
            )
            return (opened,)
        self.phase = Phase.ARRANGING
        self.deadline = now + self.config.arrangement_seconds
        players = tuple(s.user for s in self.active)
        return (ArrangingOpened(players, self.deadline, self._game_id(), self.config.game),)

    def _game_id(self) -> int:
        assert self.game_id is not None, "a phase opens only in a game"
        return self.game_id

    # ----- declarations --------------------------------------------------------------------

    def verify_declare(self, user: int) -> None:
        """Raise unless the player may declare now."""
        seat = self.seat_of(user)
        if self.phase is not Phase.DECLARING:
            raise GameError(tr("There is no declaration to make now."))
        if seat.kicked:
            raise GameError(tr("You were removed from this game; the table plays for you."))
        if not seat.is_active:
            raise GameError(tr("You have already surrendered this game."))

    def declare(self, user: int, play: bool) -> tuple[Event, ...]:
        """Record a secret choice; it may change until everyone has declared."""
        self.verify_declare(user)
        seat = self.seat_of(user)
        if seat.choice is play:
            return ()
        replaced = seat.choice is not None
        seat.choice = play
        return (DeclarationMade(user, self.round, replaced),)

    def is_reveal_due(self, now: float) -> bool:
        """Every active player has declared, or the deadline has passed."""
        return self.phase is Phase.DECLARING and (not self.waiting_for() or self.is_expired(now))

    def _choice(self, seat: SeatState) -> bool:
        return self.config.afk_plays_on if seat.choice is None else seat.choice

    def declaration_stakes(self) -> DeclarationStakes:
        """What this round's declaration costs each player still in, as the settlement moves it
        at this table (its ante, its players): playing on, and surrendering."""
        variant = self.spec.variant_at(self.config.ante)
        return declaration_stakes(variant, self.round, players=len(self.active))

    def play_cost(self) -> int:
        """What playing on in this round puts up: the stake into the pot, or the buy-in."""
        if self.spec.variant is None or self.phase is not Phase.DECLARING:
            return 0
        return self.declaration_stakes().play

    def play_stake(self) -> int:
        """What playing on in this round takes from a player's balance: nothing in practice."""
        return 0 if self.config.practice else self.play_cost()

    def reveal_stakes(self) -> dict[int, int]:
        """What each player who plays on must put up before their cards come (0: nothing)."""
        stake = self.play_stake()
        if not stake:
            return {}
        staked = {seat.user for seat in self.staked}
        return {s.user: stake for s in self.active if s.user in staked and self._choice(s)}

    def reveal_stakes_reason(self) -> str:
        """The escrow reason of this round's stakes (each stake is escrowed once)."""
        # Against the Casino dealer, playing on buys two more cards (RULINGS §3).
        variant = self.spec.variant
        buys_in = variant is not None and variant.casino is not None
        return "buy-in" if buys_in else f"stake {self.round + 1}"

    def force_surrender(self, users: Sequence[int]) -> None:
        """Players who cannot cover playing on surrender instead."""
        for user in users:
            self.seat_of(user).choice = False

    def reveal(
        self, now: float, *, short: Sequence[int] = (), escrowed: dict[int, int] | None = None
    ) -> tuple[Event, ...]:
        """Show every declaration, settle who leaves, and deal the cards of those who play on."""
        if not self.is_reveal_due(now):
            raise GameError(tr("Not every player has declared yet."))
        variant = self.spec.variant
        assert variant is not None
        declaration = variant.declarations[self.round]
        active = self.active
        defaulted = tuple(s.user for s in active if s.choice is None and not s.kicked)
        played = tuple(s.user for s in active if self._choice(s))
        surrendered = tuple(s.user for s in active if not self._choice(s))
        events: list[Event] = [
            DeclarationsRevealed(
                self.round,
                played,
                surrendered,
                defaulted,
                tuple(short),
                escrowed or {},
                game_id=self.game_id,
            )
        ]
        for seat in active:
            if not self._choice(seat):
                seat.surrendered_at = self.round
            seat.choice = None
        # RULINGS §2: one player left takes the pot; everyone surrendering ends it too. Against
        # the dealer a single player plays on.
        enough = 1 if variant.against_dealer else 2
        if len(played) < enough:
            self.phase, self.deadline = Phase.SETTLING, None
            return tuple(events)
        shoe = self._shoe()
        for seat in self.active:
            drawn = shoe.deal(declaration.draw)
            self.dealt += declaration.draw
            seat.cards.extend(card.code for card in drawn)
            events.append(CardsDrawn(seat.user, drawn, seat.held))
        self.round += 1
        events.extend(self._open_next(now))
        return tuple(events)

    # ----- arranging -----------------------------------------------------------------------

    def verify_submit(self, user: int, setting: Setting) -> None:
        """Raise unless the player may set these hands now and they are legal for their cards.

        The setting comes as a value, read once where the player made it (their text, the
        builder's choices, a suggestion); the table checks it against the cards it dealt.
        """
        seat = self.seat_of(user)
        if self.phase is not Phase.ARRANGING:
            raise GameError(tr("Hands are not being set now."))
        if seat.kicked:
            raise GameError(tr("You were removed from this game; the table plays for you."))
        if not seat.is_active:
            raise GameError(tr("You surrendered this game; there is nothing to set."))
        rules_of(self.spec).check(seat.held, setting)

    def submit(self, user: int, setting: Setting, *, by: str = "player") -> tuple[Event, ...]:
        """Set (or replace) the player's hands; the same hands again change nothing."""
        self.verify_submit(user, setting)
        return self.place(user, setting, by=by)

    def place(self, user: int, setting: Setting, *, by: str) -> tuple[Event, ...]:
        """Record a setting already checked by ``verify_submit`` or made by the solver."""
        seat = self.seat_of(user)
        if seat.setting == setting:
            return ()
        replaced = seat.setting is not None
        seat.setting, seat.set_by = setting, by
        events: list[Event] = [
            ArrangementSubmitted(user, replaced, by, setting.automatic, self.game_id)
        ]
        if not self.waiting_for():
            self.phase, self.deadline = Phase.SETTLING, None
        return tuple(events)

    def unset(self) -> tuple[SeatState, ...]:
        """Active seats without a setting: those the solver must set for at the deadline."""
        return tuple(s for s in self.active if s.setting is None)

    def finished(self) -> FinishedGame:
        """The game as its rules play it out once the hands are in (``GameRules.play``)."""
        return FinishedGame(
            tuple(PlayedSeat(s.user, s.held, s.setting, s.surrendered_at) for s in self.seats),
            tuple(card_from_code(code) for code in self.dealer_cards),
            self.config.ante,
            self.button,
        )

    # ----- the end -------------------------------------------------------------------------

    def verify_cancel(self, by: int, *, is_admin: bool = False) -> None:
        """Raise unless ``by`` may cancel the table."""
        self.verify_hosted()
        if by != self.host and not is_admin:
            raise GameError(tr("Only the table's host or a server admin can cancel the table."))
        if self.phase is Phase.CLOSED:
            raise GameError(tr("This table is already closed."))

    def close(self) -> None:
        """The table leaves the channel."""
        self.phase, self.deadline = Phase.CLOSED, None

    def finish(self) -> None:
        """After settlement: back to the lobby with the same players; the button passes left."""
        self.seats = [seat for seat in self.seats if not seat.kicked]
        run = self.config.run_by is not None
        if not self.people and not run:
            self.seats = []  # computers do not keep a table open on their own
        for seat in self.seats:
            seat.clear()
        self.phase, self.deadline, self.game_id = Phase.LOBBY, None, None
        self.dealer_cards, self.dealt, self.round = [], 0, 0
        self.games_played += 1
        self.button = (self.button + 1) % max(len(self.seats), 1)
        if not self.seats:
            self.phase = Phase.CLOSED
        elif not run and not self.is_seated(self.host):
            self.host = self.people[0].user

    def reseat(self, seats: Sequence[tuple[int, str | None]]) -> None:
        """A program-run table's players for its next game, in seat order: (user, the level of
        a computer or None). Those staying keep their seats' order; the button stays where it
        was, within the table."""
        if self.config.run_by is None:
            raise GameError(tr("Only a table a program runs is reseated."))
        if self.phase is not Phase.LOBBY:
            raise GameError(tr("A game is under way at this table; reseat it when it has ended."))
        if len(seats) > self.config.seats or len({user for user, _ in seats}) != len(seats):
            raise GameError(
                tr("This table seats up to {seats} different players.", seats=self.config.seats)
            )
        wanted = dict(seats)
        kept = [seat for seat in self.seats if seat.user in wanted]
        known = {seat.user for seat in kept}
        kept += [SeatState(u, computer=level) for u, level in seats if u not in known]
        self.seats = kept
        self.button = self.button % max(len(self.seats), 1)

    # ----- snapshots -----------------------------------------------------------------------

    def copy(self) -> Table:
        """A copy to change (an action works on one; the settings were checked when set)."""
        return copy.deepcopy(self)

    def to_state(self) -> dict[str, Any]:
        """The whole table as JSON-ready data (``tables.snapshot.table_from_state`` reads it)."""
        return {
            "format": STATE_FORMAT,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host": self.host,
            "config": self.config.to_json(),
            "seats": [seat.to_state() for seat in self.seats],
            "phase": self.phase.value,
            "round": self.round,
            "game_id": self.game_id,
            "seed": self.seed,
            "dealt": self.dealt,
            "dealer_cards": list(self.dealer_cards),
            "deadline": self.deadline,
            "button": self.button,
            "games_played": self.games_played,
        }
