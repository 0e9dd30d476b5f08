"""Tournaments: their terms, who registered, their saved state, places and prizes; the prize
pool is the escrow of a game of the tournament's own, so every buy-in, refund and prize is a
ledger row (docs/architecture.md, "Tournaments")."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engine.settlement import HOUSE, POT, Transfer
from engine.text import Text, tr
from storage.chips import ChipRepository
from storage.database import Connection, Database, Row, format_time, parse_time
from storage.errors import StaleSnapshotError, StorageError
from storage.games import GameRepository
from storage.ledger import Account, Entry, Kind, move_balances, post_all
from storage.rows import (
    TournamentEntry,
    TournamentRow,
    TournamentStatus,
    TournamentWinnings,
)

#: The pool game's name in ``games.game``: no table plays it.
POOL = "tournament"

_COLUMNS = (
    "id, guild_id, channel_id, message_id, pool_game_id, host_id, game, buy_in, max_players,"
    " starts, level_hands, computers, status, state, version, created, finished"
)


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        message_id=row[3],
        pool_game_id=row[4],
        host_id=row[5],
        game=row[6],
        buy_in=row[7],
        max_players=row[8],
        starts=None if row[9] is None else parse_time(row[9]),
        level_hands=row[10],
        computers=row[11],
        status=TournamentStatus(row[12]),
        state=None if row[13] is None else json.loads(row[13]),
        version=row[14],
        created=parse_time(row[15]),
        finished=None if row[16] is None else parse_time(row[16]),
    )


def chip_scope(tournament_id: int) -> int:
    """The ledger scope of a tournament's chips (a ``guild_id`` no server has): the stacks its
    tables play live there, apart from every server's chips, with an audit of their own."""
    return -tournament_id


class RegistrationError(StorageError):
    """A registration, an unregistration or a cancellation that cannot be done; nothing moved."""


def _already(tournament_id: int, status: TournamentStatus) -> Text:
    """Why a tournament that is no longer taking registrations cannot be cancelled."""
    number = str(tournament_id)
    if status is TournamentStatus.RUNNING:
        return tr("Tournament {tournament} is running already.", tournament=number)
    if status is TournamentStatus.FINISHED:
        return tr("Tournament {tournament} is finished already.", tournament=number)
    return tr("Tournament {tournament} is cancelled already.", tournament=number)


class TournamentRepository:
    """Create tournaments, take and return buy-ins, save their state and pay their prizes."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.chips = ChipRepository(database)
        self.games = GameRepository(database)

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        buy_in: int,
        max_players: int,
        starts: datetime | None,
        level_hands: int,
        computers: str | None = None,
    ) -> TournamentRow:
        """A new tournament taking registrations, with its pool game, in one transaction."""
        async with self.database.transaction() as connection:
            pool = await self.games.create(guild_id=guild_id, channel_id=channel_id, game=POOL)
            row = await connection.fetchone(
                "INSERT INTO tournaments (guild_id, channel_id, pool_game_id, host_id, game,"
                " buy_in, max_players, starts, level_hands, computers, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    pool.id,
                    host_id,
                    game,
                    buy_in,
                    max_players,
                    None if starts is None else format_time(starts),
                    level_hands,
                    computers,
                    self.database.now(),
                ),
            )
        assert row is not None
        created = await self.get(row[0])
        assert created is not None
        return created

    async def get(self, tournament_id: int) -> TournamentRow | None:
        """The tournament, or None."""
        row = await self.database.fetchone(
            f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return None if row is None else _tournament(row)

    async def of_guild(
        self, guild_id: int, statuses: Sequence[TournamentStatus] = ()
    ) -> list[TournamentRow]:
        """A server's tournaments (of these statuses, or all), newest first."""
        wanted = [status.value for status in statuses or TournamentStatus]
        rows = await self.database.fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? AND status IN"
            f" ({', '.join('?' for _ in wanted)}) ORDER BY id DESC",
            (guild_id, *wanted),
        )
        return [_tournament(row) for row in rows]

    async def unfinished(self) -> list[TournamentRow]:
        """Every tournament registering or running, or finished and not yet closed, on any
        server: what a start takes up."""
        rows = await self.database.fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE status IN ('registering', 'running')"
            " OR (status = 'finished' AND closed = 0) ORDER BY id"
        )
        return [_tournament(row) for row in rows]

    async def close(self, tournament_id: int) -> None:
        """A finished tournament's closing is done: its last news posted, its tables gone."""
        async with self.database.transaction() as connection:
            await connection.execute(
                "UPDATE tournaments SET closed = 1 WHERE id = ? AND status = 'finished'",
                (tournament_id,),
            )

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The registration message was posted."""
        await self.database.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )

    async def entries(self, tournament_id: int) -> list[TournamentEntry]:
        """The entrants registered now, in the order they registered."""
        rows = await self.database.fetchall(
            "SELECT user_id, registered, place, prize FROM tournament_entries"
            " WHERE tournament_id = ? AND active = 1 ORDER BY registered, user_id",
            (tournament_id,),
        )
        return [TournamentEntry(r[0], parse_time(r[1]), r[2], r[3]) for r in rows]

    async def locked(self, tournament_id: int) -> TournamentRow:
        """The tournament read under its row lock, held to the end of the caller's transaction:
        two tables' showdowns taken into one tournament at once go one after the other (on
        SQLite the transaction's write lock does as much)."""
        async with self.database.transaction() as connection:
            return await self._locked(connection, tournament_id)

    async def _locked(self, connection: Connection, tournament_id: int) -> TournamentRow:
        # Locked to the transaction's end: registrations for one tournament go one at a time,
        # so two cannot both take its last seat.
        row = await connection.fetchone(
            f"SELECT {_COLUMNS} FROM tournaments WHERE id = ? FOR UPDATE", (tournament_id,)
        )
        if row is None:
            raise RegistrationError(
                tr("There is no tournament {tournament}.", tournament=str(tournament_id))
            )
        return _tournament(row)

    async def _count(self, connection: Connection, tournament_id: int) -> int:
        row = await connection.fetchone(
            "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ? AND active = 1",
            (tournament_id,),
        )
        assert row is not None
        return int(row[0])

    async def register(self, tournament_id: int, user_id: int) -> TournamentRow:
        """Enter a person, their buy-in taken into the pool in the same transaction."""
        now = self.database.now()
        async with self.database.transaction() as connection:
            tournament = await self._locked(connection, tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationError(
                    tr(
                        "Registration for tournament {tournament} is closed: it has started.",
                        tournament=str(tournament_id),
                    )
                    if tournament.status is TournamentStatus.RUNNING
                    else tr(
                        "Registration for tournament {tournament} is closed: it has ended.",
                        tournament=str(tournament_id),
                    )
                )
            row = await connection.fetchone(
                "SELECT active, buy_ins FROM tournament_entries"
                " WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            if row is not None and row[0]:
                raise RegistrationError(
                    tr(
                        "You are already registered for tournament {tournament}.",
                        tournament=str(tournament_id),
                    )
                )
            if await self._count(connection, tournament_id) >= tournament.max_players:
                raise RegistrationError(
                    tr(
                        "Tournament {tournament} is full ({players} players).",
                        tournament=str(tournament_id),
                        players=tournament.max_players,
                    )
                )
            buy_ins = 1 if row is None else row[1] + 1
            await connection.execute(
                "INSERT INTO tournament_entries (tournament_id, user_id, registered, buy_ins)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO UPDATE"
                " SET active = 1, registered = excluded.registered, buy_ins = excluded.buy_ins",
                (tournament_id, user_id, now, buy_ins),
            )
            # Each registration is a stake of its own: one refunded does not hide the next.
            await self.chips.escrow(
                tournament.pool_game_id, {user_id: tournament.buy_in}, f"buy-in {buy_ins}"
            )
        return tournament

    async def add_computers(self, tournament_id: int, count: int) -> list[int]:
        """Fill up to ``count`` free places with computers (ids -1, -2, ...): the house's
        entries, whose buy-ins and prizes the pool's settlement books to the house."""
        now = self.database.now()
        async with self.database.transaction() as connection:
            tournament = await self._locked(connection, tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationError(
                    tr(
                        "Registration for tournament {tournament} is closed.",
                        tournament=str(tournament_id),
                    )
                )
            free = tournament.max_players - await self._count(connection, tournament_id)
            rows = await connection.fetchall(
                "SELECT MIN(user_id) FROM tournament_entries WHERE tournament_id = ?",
                (tournament_id,),
            )
            lowest = min(0, rows[0][0] or 0)
            added = [lowest - n for n in range(1, max(0, min(count, free)) + 1)]
            await connection.executemany(
                "INSERT INTO tournament_entries (tournament_id, user_id, registered)"
                " VALUES (?, ?, ?)",
                [(tournament_id, user, now) for user in added],
            )
        return added

    async def unregister(self, tournament_id: int, user_id: int) -> int:
        """Take a person out before the start, their buy-in back; the chips returned."""
        async with self.database.transaction() as connection:
            tournament = await self._locked(connection, tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationError(
                    tr(
                        "Tournament {tournament} has started: nobody can unregister now.",
                        tournament=str(tournament_id),
                    )
                )
            changed = await connection.execute(
                "UPDATE tournament_entries SET active = 0"
                " WHERE tournament_id = ? AND user_id = ? AND active = 1",
                (tournament_id, user_id),
            )
            if not changed:
                raise RegistrationError(
                    tr(
                        "You are not registered for tournament {tournament}.",
                        tournament=str(tournament_id),
                    )
                )
            return await self.chips.refund_one(
                tournament.pool_game_id, user_id, f"unregistered from tournament {tournament_id}"
            )

    async def cancel(self, tournament_id: int) -> dict[int, int]:
        """Call the tournament off and return every buy-in; who got what back."""
        async with self.database.transaction() as connection:
            tournament = await self._locked(connection, tournament_id)
            if tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
                raise RegistrationError(_already(tournament_id, tournament.status))
            await connection.execute(
                "UPDATE tournaments SET status = 'cancelled', finished = ? WHERE id = ?",
                (self.database.now(), tournament_id),
            )
            return await self.chips.refund(
                tournament.pool_game_id, f"tournament {tournament_id} cancelled"
            )

    async def start(
        self, tournament_id: int, state: Mapping[str, Any], *, stack: int
    ) -> TournamentRow:
        """Close registration, save the tournament's first state (its draw) and issue every
        entrant's ``stack`` of tournament chips in the tournament's own scope (`chip_scope`),
        each a ledger row, in one transaction."""
        now = self.database.now()
        scope = chip_scope(tournament_id)
        async with self.database.transaction() as connection:
            tournament = await self._locked(connection, tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationError(
                    tr(
                        "Tournament {tournament} has started already.",
                        tournament=str(tournament_id),
                    )
                )
            if await self._count(connection, tournament_id) < 2:
                raise RegistrationError(
                    tr(
                        "Tournament {tournament} needs at least 2 players to start.",
                        tournament=str(tournament_id),
                    )
                )
            await connection.execute(
                "UPDATE tournaments SET status = 'running', state = ?, version = 1 WHERE id = ?",
                (json.dumps(dict(state)), tournament_id),
            )
            entrants = [e.user_id for e in await self.entries(tournament_id)]
            await connection.executemany(
                "INSERT INTO players (guild_id, user_id, balance, created) VALUES (?, ?, 0, ?)",
                [(scope, user, now) for user in entrants],
            )
            await move_balances(
                connection, guild_id=scope, amounts={user: stack for user in entrants}
            )
            await post_all(
                connection,
                guild_id=scope,
                game_id=None,
                created=now,
                entries=[
                    Entry(Account.PLAYER, user, stack, Kind.GRANT, "tournament stack")
                    for user in entrants
                ],
            )
        started = await self.get(tournament_id)
        assert started is not None
        return started

    async def save(self, tournament_id: int, state: Mapping[str, Any], expected: int) -> int:
        """Save a running (or finished) tournament's state over version ``expected``; the new
        version. A save over a newer one is refused (`StaleSnapshotError`), as a table's is."""
        async with self.database.transaction() as connection:
            changed = await connection.execute(
                "UPDATE tournaments SET state = ?, version = version + 1"
                " WHERE id = ? AND version = ? AND status IN ('running', 'finished')",
                (json.dumps(dict(state)), tournament_id, expected),
            )
        if not changed:
            raise StaleSnapshotError(
                tr(
                    "Tournament {tournament} was saved since version {version}.",
                    tournament=str(tournament_id),
                    version=str(expected),
                )
            )
        return expected + 1

    async def finish(
        self,
        tournament_id: int,
        *,
        places: Mapping[int, int],
        prizes: Mapping[int, int],
        state: Mapping[str, Any],
    ) -> TournamentRow:
        """Record every place and prize, pay the pool out and take every tournament chip back
        out of the tournament's scope, in one transaction; a repeat is a no-op. Each person's
        buy-in and the house's (for its computers) go into the pot, which the prizes empty:
        they must sum to the buy-ins. No tournament game may still hold chips."""
        async with self.database.transaction() as connection:
            tournament = await self._locked(connection, tournament_id)
            if tournament.status is TournamentStatus.FINISHED:
                return tournament
            if tournament.status is not TournamentStatus.RUNNING:
                raise RegistrationError(
                    tr(
                        "Tournament {tournament} is not being played.",
                        tournament=str(tournament_id),
                    )
                )
            entrants = [entry.user_id for entry in await self.entries(tournament_id)]
            if sorted(places) != sorted(entrants):
                raise StorageError(tr("Every entrant gets a place, and only they do."))
            if sum(prizes.values()) != tournament.buy_in * len(entrants):
                raise StorageError(tr("The prizes must sum to the buy-ins."))
            transfers = [
                Transfer(
                    HOUSE if user < 0 else user,
                    POT,
                    tournament.buy_in,
                    "the house's buy-in for a computer" if user < 0 else "buy-in",
                )
                for user in entrants
            ] + [
                Transfer(POT, HOUSE if user < 0 else user, prize, f"prize, place {places[user]}")
                for user, prize in prizes.items()
                if prize
            ]
            await connection.executemany(
                "UPDATE tournament_entries SET place = ?, prize = ?"
                " WHERE tournament_id = ? AND user_id = ?",
                [(places[u], prizes.get(u, 0), tournament_id, u) for u in entrants],
            )
            await connection.execute(
                "UPDATE tournaments SET status = 'finished', finished = ?, state = ?,"
                " version = version + 1 WHERE id = ?",
                (self.database.now(), json.dumps(dict(state)), tournament_id),
            )
            await self.chips.settle(
                tournament.pool_game_id, transfers, result={"tournament": tournament_id}
            )
            await self._take_stacks(connection, tournament_id)
        finished = await self.get(tournament_id)
        assert finished is not None
        return finished

    async def _take_stacks(self, connection: Connection, tournament_id: int) -> None:
        """Take every tournament chip left back out of the tournament's scope (ledger rows)."""
        scope = chip_scope(tournament_id)
        held = await connection.fetchone("SELECT COUNT(*) FROM escrow WHERE guild_id = ?", (scope,))
        assert held is not None
        if held[0]:
            raise StorageError(
                tr(
                    "Tournament {tournament} still has chips in a game.",
                    tournament=str(tournament_id),
                )
            )
        rows = await connection.fetchall(
            "SELECT user_id, balance FROM players WHERE guild_id = ? AND balance > 0"
            " ORDER BY user_id FOR UPDATE",
            (scope,),
        )
        stacks = {row[0]: row[1] for row in rows}
        await move_balances(
            connection, guild_id=scope, amounts={user: -chips for user, chips in stacks.items()}
        )
        await post_all(
            connection,
            guild_id=scope,
            game_id=None,
            created=self.database.now(),
            entries=[
                Entry(Account.PLAYER, user, -chips, Kind.TAKE, "tournament over")
                for user, chips in stacks.items()
            ],
        )

    async def places_of(
        self, guild_id: int, user_id: int, *, limit: int | None = None
    ) -> list[tuple[int, int, int, int]]:
        """A player's finished tournaments on a server, newest first (the latest ``limit``):
        (tournament, place, prize, entrants)."""
        rows = await self.database.fetchall(
            "SELECT t.id, e.place, e.prize, (SELECT COUNT(*) FROM tournament_entries o"
            " WHERE o.tournament_id = t.id AND o.active = 1) FROM tournament_entries e"
            " JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE t.guild_id = ? AND e.user_id = ? AND t.status = 'finished' AND e.active = 1"
            " ORDER BY t.id DESC" + ("" if limit is None else f" LIMIT {int(limit)}"),
            (guild_id, user_id),
        )
        return [(row[0], row[1], row[2], row[3]) for row in rows]

    async def leaderboard(self, guild_id: int, *, limit: int = 10) -> list[TournamentWinnings]:
        """The server's people by the prizes their finished tournaments paid them, then wins."""
        rows = await self.database.fetchall(
            "SELECT e.user_id, COUNT(*),"
            " CAST(SUM(CASE WHEN e.place = 1 THEN 1 ELSE 0 END) AS BIGINT),"
            " CAST(COALESCE(SUM(e.prize), 0) AS BIGINT)"
            " FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND e.active = 1 AND e.user_id > 0"
            " GROUP BY e.user_id ORDER BY 4 DESC, 3 DESC, e.user_id LIMIT ?",
            (guild_id, limit),
        )
        return [TournamentWinnings(r[0], r[1], r[2], r[3]) for r in rows]
