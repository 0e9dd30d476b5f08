"""One table in one channel: its seats, phase, cards and deadline, changed only by actions.

Every action is ``verify_x`` (raises a ``GameError`` whose message is fit for the player), ``can_x``
and ``x``, which returns the frozen events it caused. The table knows nothing of chips in the
database or of time passing: the manager escrows what ``*_stakes`` name before it calls the action,
and passes ``now`` in. The whole state round-trips through ``to_state``/``from_state`` (JSON).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Final

from engine.cards import AnyCard, Shoe, card_from_code
from engine.errors import GameError
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
    Lobby,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    TableOpened,
)
from tables.games import Family, GameSpec, game_named
from tables.options import TableDefaults, check_ante, check_decks, check_wheel
from tables.rules import GameRules, rules_of
from tables.setting import Setting

#: The snapshot format; a snapshot of another format is refunded rather than guessed at.
#: Format 2 keeps each setting as card codes; format 1 (its text) is still read.
STATE_FORMAT: Final = 2


class Phase(Enum):
    """Where a table is in its game."""

    LOBBY = "lobby"
    DECLARING = "declaring"
    ARRANGING = "arranging"
    #: Every hand is in; the chips are being settled.
    SETTLING = "settling"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings, chosen by its host at ``/table create``."""

    game: str
    ante: int
    seats: int
    declaration_seconds: int = 60
    arrangement_seconds: int = 180
    #: At a declaration deadline the silent player plays on (False: surrenders).
    afk_plays_on: bool = True
    #: A lobby with no game and no one joining or leaving for this long closes.
    lobby_seconds: int = 1800
    #: The three-card game's options (RULINGS §5).
    ties_to_dealer: bool = False
    decks: int = 6
    #: Pai Gow's wheel (RULINGS §6): "nevada" (second-highest) or "california" (lowest).
    wheel: str = "nevada"

    @property
    def spec(self) -> GameSpec:
        """The game this table plays, with the table's options."""
        return game_named(self.game).with_options(
            ties_to_dealer=self.ties_to_dealer, wheel=self.wheel, decks=self.decks
        )


def make_config(
    game: str,
    *,
    ante: int | None = None,
    seats: int | None = None,
    declaration_seconds: int = 60,
    arrangement_seconds: int = 180,
    afk_plays_on: bool | None = None,
    lobby_seconds: int = 1800,
    ties_to_dealer: bool | None = None,
    decks: int | None = None,
    wheel: str | None = None,
    defaults: TableDefaults | None = None,
) -> TableConfig:
    """Checked table settings; ``GameError`` names the first setting out of range.

    Each option left out takes the server's ``defaults``; an option chosen for a game it does
    not apply to is refused with a sentence.
    """
    spec = game_named(game)
    defaults = defaults or TableDefaults()
    if ante is None:
        ante = defaults.antes.get(spec.name, spec.default_ante) if spec.default_ante else 0
    seats = spec.max_players if seats is None else seats
    if spec.default_ante:
        check_ante(ante)
    elif ante:
        raise GameError(f"{spec.title} has no ante: chips change by points only.")
    three_card = spec.family is Family.THREE_CARD
    for option, value, applies, where in (
        ("ties_to_dealer", ties_to_dealer, three_card, "the three-card game"),
        ("decks", decks, three_card, "the three-card game"),
        ("wheel", wheel, spec.family is Family.PAI_GOW, "Pai Gow"),
        ("silent", afk_plays_on, spec.declarations > 0, "games with declarations"),
    ):
        if value is not None and not applies:
            raise GameError(f"The {option} option is for {where}, not {spec.title}.")
    if not spec.min_players <= seats <= spec.max_players:
        raise GameError(
            f"{spec.title} seats {spec.min_players} to {spec.max_players} players, not {seats}."
        )
    for name, value in (("declaration", declaration_seconds), ("arrangement", arrangement_seconds)):
        if not 15 <= value <= 3600:
            raise GameError(f"The {name} deadline must be 15 seconds to an hour, not {value}s.")
    if not 60 <= lobby_seconds <= 7 * 24 * 3600:
        raise GameError("An idle lobby must close after a minute to a week.")
    return TableConfig(
        spec.name,
        ante,
        seats,
        declaration_seconds,
        arrangement_seconds,
        defaults.afk_plays_on if afk_plays_on is None else afk_plays_on,
        lobby_seconds,
        defaults.ties_to_dealer if ties_to_dealer is None else ties_to_dealer,
        check_decks(defaults.decks if decks is None else decks),
        check_wheel(defaults.wheel if wheel is None else wheel),
    )


@dataclass(slots=True)
class SeatState:
    """One player at the table and their part of the current game."""

    user: int
    cards: list[int] = field(default_factory=list)
    #: This round's secret declaration: True plays on, False surrenders, None not yet.
    choice: bool | None = None
    surrendered_at: int | None = None
    setting: Setting | None = None
    set_by: str | None = None
    kicked: bool = False

    @property
    def held(self) -> tuple[AnyCard, ...]:
        """The cards the player holds."""
        return tuple(card_from_code(code) for code in self.cards)

    @property
    def is_active(self) -> bool:
        """Still in the game: has not surrendered or folded."""
        return self.surrendered_at is None

    def clear(self) -> None:
        """Forget the finished game's cards and choices."""
        self.cards, self.choice, self.surrendered_at = [], None, None
        self.setting, self.set_by = None, None

    def to_state(self) -> dict[str, Any]:
        """The seat as snapshot data."""
        return {
            "user": self.user,
            "cards": list(self.cards),
            "choice": self.choice,
            "surrendered_at": self.surrendered_at,
            "setting": None if self.setting is None else self.setting.to_json(),
            "set_by": self.set_by,
            "kicked": self.kicked,
        }

    @classmethod
    def from_state(cls, data: dict[str, Any], rules: GameRules | None) -> SeatState:
        """A seat ``to_state`` saved; with ``rules`` its setting is checked again."""
        seat = cls(
            user=int(data["user"]),
            cards=[int(code) for code in data["cards"]],
            choice=data["choice"],
            surrendered_at=data["surrendered_at"],
            set_by=data["set_by"],
            kicked=bool(data["kicked"]),
        )
        saved = data["setting"]
        if isinstance(saved, str):
            # Format 1 kept the setting as its text, with the automatic beside it.
            assert rules is not None, "a format-1 setting is read by its rules"
            seat.setting = rules.read(seat.held, saved, data.get("automatic"))
        elif saved is not None:
            seat.setting = Setting.from_json(saved)
            if rules is not None:
                rules.check(seat.held, seat.setting)
        return seat


@dataclass(slots=True)
class Table:
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
    def players(self) -> tuple[int, ...]:
        """Every seated player, in seat order."""
        return tuple(seat.user for seat in self.seats)

    @property
    def active(self) -> tuple[SeatState, ...]:
        """The seats still in the game."""
        return tuple(seat for seat in self.seats if seat.is_active)

    @property
    def in_game(self) -> bool:
        """A game is between its start and its settlement."""
        return self.phase in (Phase.DECLARING, Phase.ARRANGING, Phase.SETTLING)

    def seat_of(self, user: int) -> SeatState:
        """The player's seat; ``GameError`` if they do not sit here."""
        for seat in self.seats:
            if seat.user == user:
                return seat
        raise GameError("You are not seated at this table.")

    def is_seated(self, user: int) -> bool:
        """Whether the player sits here."""
        return any(seat.user == user for seat in self.seats)

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
        if self.phase is Phase.LOBBY:
            self.deadline = now + self.config.lobby_seconds

    # ----- lobby ---------------------------------------------------------------------------

    @classmethod
    def open(cls, guild_id: int, channel_id: int, host: int, config: TableConfig) -> Table:
        """A new table with its host seated."""
        return cls(guild_id, channel_id, host, config, [SeatState(host)])

    def opened(self) -> tuple[Event, ...]:
        """The events of opening this table."""
        return (TableOpened(self.lobby()),)

    def lobby(self) -> Lobby:
        """What the lobby message shows now."""
        config = self.config
        return Lobby(config.game, config.ante, config.seats, self.host, self.players)

    def verify_join(self, user: int) -> None:
        """Raise unless the player may take a seat now."""
        if self.is_seated(user):
            return
        if self.phase is not Phase.LOBBY:
            raise GameError("A game is under way at this table; join when it has ended.")
        if len(self.seats) >= self.config.seats:
            raise GameError(f"This table is full ({self.config.seats} seats).")

    def can_join(self, user: int) -> bool:
        """Whether ``join`` would succeed."""
        return _can(self.verify_join, user)

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
        new_host = None
        if user == self.host and self.seats:
            self.host = new_host = self.seats[0].user
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

    def verify_start(self, by: int) -> None:
        """Raise unless ``by`` may start a game now."""
        if by != self.host:
            raise GameError("Only the table's host can start the game.")
        if self.phase is not Phase.LOBBY:
            raise GameError("The game has already started.")
        spec = self.spec
        if len(self.seats) < spec.min_players:
            raise GameError(
                f"{spec.title} needs at least {spec.min_players} players; {len(self.seats)} seated."
            )

    def can_start(self, by: int) -> bool:
        """Whether ``start`` would succeed."""
        return _can(self.verify_start, by)

    def start_stakes(self) -> dict[int, int]:
        """What each player puts up at the start: the ante (each wager, in the house games), or
        in a game without an ante its cover, held until the result and then returned."""
        stake = self.config.ante * self.spec.wagers
        if not stake:
            stake = self.spec.cover_per_opponent * (len(self.seats) - 1)
        return {seat.user: stake for seat in self.seats} if stake else {}

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
            declaration = variant.declarations[self.round]
            casino = variant.casino
            play = declaration.play_stake
            surrender = declaration.surrender_cost
            if casino is not None:
                play = casino.buy_in * self.config.ante
                surrender = casino.fold_match * self.config.ante
            for seat in self.active:
                seat.choice = None
                if seat.kicked:
                    seat.choice = self.config.afk_plays_on
            return (
                DeclarationsOpened(
                    self.round,
                    tuple(s.user for s in self.active),
                    self.deadline,
                    play,
                    surrender,
                    declaration.draw,
                    self._game_id(),
                    self.config.game,
                ),
            )
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
            raise GameError("There is no declaration to make now.")
        if seat.kicked:
            raise GameError("The host removed you from this game; the table plays for you.")
        if not seat.is_active:
            raise GameError("You have already surrendered this game.")

    def can_declare(self, user: int) -> bool:
        """Whether ``declare`` would succeed."""
        return _can(self.verify_declare, user)

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

    def play_cost(self) -> int:
        """What playing on in this round puts up: the stake into the pot, or the buy-in."""
        variant = self.spec.variant
        if variant is None or self.phase is not Phase.DECLARING:
            return 0
        if variant.casino is not None:
            return variant.casino.buy_in * self.config.ante
        return variant.declarations[self.round].play_stake

    def reveal_stakes(self) -> dict[int, int]:
        """What each player who plays on must put up before their cards come (0: nothing)."""
        stake = self.play_cost()
        if not stake:
            return {}
        return {seat.user: stake for seat in self.active if self._choice(seat)}

    def reveal_stakes_reason(self) -> str:
        """The escrow reason of this round's stakes (each stake is escrowed once)."""
        return "buy-in" if self.spec.name == "casino" else f"stake {self.round + 1}"

    def force_surrender(self, users: Sequence[int]) -> None:
        """Players who cannot cover playing on surrender instead."""
        for user in users:
            self.seat_of(user).choice = False

    def reveal(
        self, now: float, *, short: Sequence[int] = (), escrowed: dict[int, int] | None = None
    ) -> tuple[Event, ...]:
        """Show every declaration, settle who leaves, and deal the cards of those who play on."""
        if not self.is_reveal_due(now):
            raise GameError("Not every player has declared yet.")
        variant = self.spec.variant
        assert variant is not None
        declaration = variant.declarations[self.round]
        active = self.active
        defaulted = tuple(s.user for s in active if s.choice is None and not s.kicked)
        played = tuple(s.user for s in active if self._choice(s))
        surrendered = tuple(s.user for s in active if not self._choice(s))
        events: list[Event] = [
            DeclarationsRevealed(
                self.round, played, surrendered, defaulted, tuple(short), escrowed or {}
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

    def verify_submit(self, user: int, text: str, automatic: str | None = None) -> Setting:
        """The player's setting if they may submit it now; else ``GameError`` saying why."""
        seat = self.seat_of(user)
        if self.phase is not Phase.ARRANGING:
            raise GameError("Hands are not being set now.")
        if seat.kicked:
            raise GameError("The host removed you from this game; the table plays for you.")
        if not seat.is_active:
            raise GameError("You surrendered this game; there is nothing to set.")
        return rules_of(self.spec).read(seat.held, text, automatic)

    def can_submit(self, user: int, text: str, automatic: str | None = None) -> bool:
        """Whether ``submit`` would succeed."""
        try:
            self.verify_submit(user, text, automatic)
        except GameError:
            return False
        return True

    def submit(
        self, user: int, text: str, automatic: str | None = None, *, by: str = "player"
    ) -> tuple[Event, ...]:
        """Set (or replace) the player's hands; the same hands again change nothing."""
        setting = self.verify_submit(user, text, automatic)
        return self.place(user, setting, by=by)

    def place(self, user: int, setting: Setting, *, by: str) -> tuple[Event, ...]:
        """Record a setting already checked by ``verify_submit`` or made by the solver."""
        seat = self.seat_of(user)
        if seat.setting == setting:
            return ()
        replaced = seat.setting is not None
        seat.setting, seat.set_by = setting, by
        events: list[Event] = [ArrangementSubmitted(user, replaced, by, setting.automatic)]
        if not self.waiting_for():
            self.phase, self.deadline = Phase.SETTLING, None
        return tuple(events)

    def unset(self) -> tuple[SeatState, ...]:
        """Active seats without a setting: those the solver must set for at the deadline."""
        return tuple(s for s in self.active if s.setting is None)

    # ----- the end -------------------------------------------------------------------------

    def verify_cancel(self, by: int, *, is_admin: bool = False) -> None:
        """Raise unless ``by`` may cancel the table."""
        if by != self.host and not is_admin:
            raise GameError("Only the table's host or a server admin can cancel the table.")
        if self.phase is Phase.CLOSED:
            raise GameError("This table is already closed.")

    def close(self) -> None:
        """The table leaves the channel."""
        self.phase, self.deadline = Phase.CLOSED, None

    def finish(self) -> None:
        """After settlement: back to the lobby with the same players; the button passes left."""
        self.seats = [seat for seat in self.seats if not seat.kicked]
        for seat in self.seats:
            seat.clear()
        self.phase, self.deadline, self.game_id = Phase.LOBBY, None, None
        self.dealer_cards, self.dealt, self.round = [], 0, 0
        self.games_played += 1
        self.button = (self.button + 1) % max(len(self.seats), 1)
        if not self.seats:
            self.phase = Phase.CLOSED
        elif not self.is_seated(self.host):
            self.host = self.seats[0].user

    # ----- snapshots -----------------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """The whole table as JSON-ready data."""
        return {
            "format": STATE_FORMAT,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host": self.host,
            "config": asdict(self.config),
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

    def copy(self) -> Table:
        """A copy to change (an action works on one; the settings were checked when set)."""
        return Table.from_state(self.to_state(), check=False)

    @classmethod
    def from_state(cls, state: dict[str, Any], *, check: bool = True) -> Table:
        """The table a snapshot saved; ``GameError`` if the snapshot cannot be read.

        With ``check`` (a snapshot loaded from the database) each seat's setting is checked
        again against its cards, so a damaged snapshot is refused rather than played.
        """
        if state.get("format") not in (1, STATE_FORMAT):
            raise GameError(f"This table was saved in another format ({state.get('format')}).")
        try:
            # Saved by this table, so checked already: only the game must still exist.
            config = TableConfig(**state["config"])
            rules = rules_of(config.spec) if check or state["format"] == 1 else None
            table = cls(
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
            raise GameError(f"This table's snapshot is damaged ({error}).") from error
        return table

    @property
    def family(self) -> Family:
        """How the game is played out."""
        return self.spec.family


def _can(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except GameError:
        return False
    return True
