"""A tournament as a value: the draw of seats, antes rising by level, knock-outs with their
finishing places, the tables balanced (and broken) between hands, and the prizes
(docs/rules.md, "Tournaments"). No I/O and no clock: the seed decides every draw."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from engine.errors import GameError
from engine.text import Who, tr
from tables.games import GAMES
from tables.spec import GameSpec

#: Seats at a tournament table (the most any Pyramid game seats).
SEATS = 6
#: The tournament chips every entrant starts with.
STACK = 1_000
#: Hands between two rises of the ante, unless the tournament says otherwise.
LEVEL_HANDS = 5
#: The ante of each level, in tenths of the game's own ante: level 1 plays the game's ante,
#: level 2 one and a half times it, and so on; past the last step the ante doubles each level.
ANTE_STEPS = (10, 15, 20, 30, 40, 60, 80, 100, 150, 200)
#: The most players a tournament takes.
MAX_ENTRANTS = 60
#: The latest a tournament may start, in minutes from its creation (a week).
MAX_START_MINUTES = 7 * 24 * 60
#: The prize structure: (most entrants it is for, each place's percentage of the pool).
PRIZE_SHARES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (6, (100,)),
    (17, (50, 30, 20)),
    (10_000, (40, 25, 15, 12, 8)),
)


def tournament_games() -> dict[str, GameSpec]:
    """The games a tournament plays: players against each other, no dealer."""
    return {
        name: spec
        for name, spec in GAMES.items()
        if spec.variant is not None and not spec.has_dealer
    }


def base_ante(spec: GameSpec) -> int:
    """The first level's ante: the game's own, or in a game without one (No-Surrender) its
    cover against a full table (what a player puts up at the start), which the levels raise
    as the stack a player needs to stay in: whoever is still in can always cover a deal."""
    return spec.default_ante or spec.cover_per_opponent * (SEATS - 1)


def start_time(text: str | None, now: datetime) -> datetime | None:
    """When registration closes: ``text`` minutes from now, or None (\"full\", or nothing said):
    as soon as the tournament is full."""
    if text is None or text.strip().lower() == "full":
        return None
    words = text.strip()
    if not (words.isascii() and words.isdigit() and 1 <= int(words) <= MAX_START_MINUTES):
        raise GameError(
            tr(
                'Start is a number of minutes from now (1 to {most}) or "full", not "{typed}".',
                most=MAX_START_MINUTES,
                typed=words[:20],
            )
        )
    return now + timedelta(minutes=int(words))


def ante_at(base: int, level: int) -> int:
    """The ante at a level (1 is the first) for a game whose ante is ``base``."""
    if level < 1:
        raise ValueError(f"Levels start at 1, not {level}.")
    steps = len(ANTE_STEPS)
    tenths = ANTE_STEPS[min(level, steps) - 1] << max(0, level - steps)
    return max(1, base * tenths // 10)


def level_after(hands: int, level_hands: int) -> int:
    """The level of the hand that follows ``hands`` hands played."""
    return 1 + hands // level_hands


def prize_shares(entrants: int) -> tuple[int, ...]:
    """Each paid place's percentage of the pool for this many entrants (first place first)."""
    for most, shares in PRIZE_SHARES:
        if entrants <= most:
            return shares[:entrants]
    return PRIZE_SHARES[-1][1]


def prizes(pool: int, entrants: int) -> tuple[int, ...]:
    """Each paid place's prize, first place first; they sum to the pool exactly (the chips a
    percentage leaves over go to first place)."""
    shares = prize_shares(entrants)
    paid = [pool * share // sum(shares) for share in shares]
    paid[0] += pool - sum(paid)
    return tuple(paid)


def tables_for(players: int, seats: int = SEATS) -> int:
    """How many tables seat this many players with no seat left over that a table could use."""
    return max(1, -(-players // seats))


@dataclass(frozen=True, slots=True)
class Move:
    """A player moved between hands from one table to another."""

    player: int
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class Knockout:
    """A player out of the tournament, with their finishing place."""

    player: int
    place: int
    stack: int


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """What the end of a hand at every table did to the tournament."""

    knockouts: tuple[Knockout, ...]
    moves: tuple[Move, ...]
    #: Tables closed, their players moved to the others.
    broken: tuple[int, ...]
    #: The tables came down to one just now.
    final_table: bool
    #: The ante of the next hand (its level: ``Tournament.level``).
    ante: int
    #: Set once one player is left.
    winner: int | None


class Tournament:
    """One tournament from its draw to its winner; each hand is played at every table at once
    (a round), and knock-outs and balancing happen between rounds."""

    def __init__(
        self,
        *,
        entrants: Sequence[int],
        seed: int,
        base_ante: int,
        stack: int = STACK,
        level_hands: int = LEVEL_HANDS,
        seats: int = SEATS,
    ) -> None:
        if len(entrants) < 2:
            raise GameError(tr("A tournament needs at least 2 players."))
        if len(set(entrants)) != len(entrants):
            raise GameError(tr("A player is registered only once."))
        if seats < 2 or stack < 1 or level_hands < 1 or base_ante < 1:
            raise ValueError("seats, stack, level_hands and base_ante must be positive")
        self.entrants = tuple(entrants)
        self.seed = seed
        self.base_ante = base_ante
        self.stack = stack
        self.level_hands = level_hands
        self.seats = seats
        self.stacks = {player: stack for player in entrants}
        self.places: dict[int, int] = {}
        self.hands = 0
        self.settled: set[int] = set()
        self.tables = self._draw()

    def _draw(self) -> dict[int, list[int]]:
        order = list(self.entrants)
        random.Random(self.seed).shuffle(order)
        count = tables_for(len(order), self.seats)
        return {number: order[number - 1 :: count] for number in range(1, count + 1)}

    # ----- reading --------------------------------------------------------------------------

    @property
    def level(self) -> int:
        """The level of the hand to play next."""
        return level_after(self.hands, self.level_hands)

    @property
    def ante(self) -> int:
        """The ante of the hand to play next."""
        return ante_at(self.base_ante, self.level)

    @property
    def players_left(self) -> list[int]:
        """The players still in, in entry order."""
        return [player for player in self.entrants if player not in self.places]

    @property
    def is_finished(self) -> bool:
        """Whether every player has a place."""
        return len(self.places) == len(self.entrants)

    @property
    def winner(self) -> int | None:
        """The player in first place, once there is one."""
        return next((p for p, place in self.places.items() if place == 1), None)

    def table_of(self, player: int) -> int | None:
        """The table where a player sits, or None once they are out."""
        return next((t for t, seated in self.tables.items() if player in seated), None)

    def standings(self) -> list[tuple[int, int, int | None]]:
        """(player, stack, place) for everyone: those still in by stack, then the places."""
        left = sorted(self.players_left, key=lambda p: (-self.stacks[p], self.entrants.index(p)))
        out = sorted(self.places, key=lambda p: self.places[p])
        if self.is_finished:
            return [(p, self.stacks[p], self.places[p]) for p in out]
        return [(p, self.stacks[p], None) for p in left] + [
            (p, self.stacks[p], self.places[p]) for p in out
        ]

    # ----- a hand ---------------------------------------------------------------------------

    def verify_settle(self, table: int, nets: Mapping[int, int]) -> None:
        """Refuse a hand's result that is not the table's, comes twice or makes chips."""
        if self.is_finished:
            raise GameError(tr("The tournament is over."))
        if table not in self.tables:
            raise GameError(tr("The tournament has no table {table}.", table=str(table)))
        if table in self.settled:
            raise GameError(tr("Table {table} has played this hand already.", table=str(table)))
        strangers = set(nets) - set(self.tables[table])
        if strangers:
            raise GameError(
                tr(
                    "{player} does not sit at table {table}.",
                    player=Who(min(strangers)),
                    table=str(table),
                )
            )
        if sum(nets.values()):
            raise GameError(tr("Tournament chips only change hands: a hand's nets sum to 0."))
        short = [p for p, net in nets.items() if self.stacks[p] + net < 0]
        if short:
            raise GameError(tr("{player} cannot lose more than their stack.", player=Who(short[0])))

    def settle(self, table: int, nets: Mapping[int, int]) -> None:
        """Take one table's hand into the stacks."""
        self.verify_settle(table, nets)
        for player, net in nets.items():
            self.stacks[player] += net
        self.settled.add(table)

    @property
    def is_round_over(self) -> bool:
        """Whether every table has played the hand."""
        return not self.is_finished and self.settled >= set(self.tables)

    def end_round(self) -> RoundEnd:
        """After every table's hand: knock out who cannot cover the next ante, then balance."""
        if not self.is_round_over:
            raise GameError(tr("Some tables are still playing the hand."))
        before = len(self.tables)
        self.hands += 1
        self.settled = set()
        ante = self.ante
        left = self.players_left
        out = [p for p in left if self.stacks[p] < ante]
        if len(out) == len(left):
            out.remove(self._ranked(out)[0])  # the best of them is the last one standing
        knockouts = []
        place = len(left)
        for player in reversed(self._ranked(out)):
            self.places[player] = place
            knockouts.append(Knockout(player, place, self.stacks[player]))
            place -= 1
        for seated in self.tables.values():
            seated[:] = [p for p in seated if p not in self.places]
        winner = None
        if len(left) - len(out) == 1:
            winner = next(p for p in left if p not in self.places)
            self.places[winner] = 1
            return RoundEnd(tuple(knockouts), (), (), False, ante, winner)
        moves, broken = self._balance()
        final = before > 1 and len(self.tables) == 1
        return RoundEnd(tuple(knockouts), tuple(moves), tuple(broken), final, ante, winner)

    def _ranked(self, players: Sequence[int]) -> list[int]:
        """Best first: the bigger stack, then the earlier seat in the draw."""
        draw = [p for seated in self._draw().values() for p in seated]
        return sorted(players, key=lambda p: (-self.stacks[p], draw.index(p)))

    def _balance(self) -> tuple[list[Move], list[int]]:
        """Break tables no longer needed, then move players from the fullest table to the
        emptiest until no two differ by more than one; whom to move is drawn from the seed."""
        rng = random.Random(f"{self.seed}:{self.hands}")
        moves: list[Move] = []
        broken: list[int] = []
        target = tables_for(len(self.players_left), self.seats)
        while len(self.tables) > target:
            closing = min(self.tables, key=lambda t: (len(self.tables[t]), -t))
            broken.append(closing)
            for player in self.tables.pop(closing):
                to = min(self.tables, key=lambda t: (len(self.tables[t]), t))
                self.tables[to].append(player)
                moves.append(Move(player, closing, to))
        while True:
            big = max(self.tables, key=lambda t: (len(self.tables[t]), -t))
            small = min(self.tables, key=lambda t: (len(self.tables[t]), t))
            if len(self.tables[big]) - len(self.tables[small]) <= 1:
                return moves, broken
            player = rng.choice(self.tables[big])
            self.tables[big].remove(player)
            self.tables[small].append(player)
            moves.append(Move(player, big, small))

    # ----- saving ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The tournament as plain JSON, for its row (read back by `from_json`)."""
        return {
            "entrants": list(self.entrants),
            "seed": self.seed,
            "base_ante": self.base_ante,
            "stack": self.stack,
            "level_hands": self.level_hands,
            "seats": self.seats,
            "stacks": [[p, s] for p, s in self.stacks.items()],
            "places": [[p, s] for p, s in self.places.items()],
            "hands": self.hands,
            "settled": sorted(self.settled),
            "tables": [[t, list(seated)] for t, seated in self.tables.items()],
        }

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> Tournament:
        """The tournament `to_json` wrote."""
        tournament = cls(
            entrants=state["entrants"],
            seed=state["seed"],
            base_ante=state["base_ante"],
            stack=state["stack"],
            level_hands=state["level_hands"],
            seats=state["seats"],
        )
        tournament.stacks = {p: s for p, s in state["stacks"]}
        tournament.places = {p: s for p, s in state["places"]}
        tournament.hands = state["hands"]
        tournament.settled = set(state["settled"])
        tournament.tables = {t: list(seated) for t, seated in state["tables"]}
        return tournament
