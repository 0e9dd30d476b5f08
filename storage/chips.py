"""A game's chips: escrow when a stake is owed, settlement and refund, each one transaction."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.settlement import HOUSE, POT, Party, Transfer, balances
from engine.text import tr
from storage.database import (
    Connection,
    Database,
    RefusedCallError,
    format_time,
    marks,
    parse_time,
)
from storage.errors import (
    GameStateError,
    ShortOfChipsError,
    StaleHouseDayError,
    StorageError,
)
from storage.house import day_start, house_day_of, house_day_sql, record_house_nets
from storage.ledger import (
    Account,
    Entry,
    Kind,
    change_balance,
    ensure_player,
    lock_players,
    move_balances,
    post,
    post_all,
)
from storage.outbox import Payload, queue_events
from storage.rows import GameStatus, Holdings, HouseNets, SettleCall, Settlement
from storage.settings import DEFAULT_HOUSE_CAP


@dataclass(frozen=True, slots=True)
class _Locked:
    """A game as its chips' transaction found it (its row locked until the end)."""

    guild_id: int
    channel_id: int
    status: GameStatus
    result: str | None
    #: The ledger scope of the game's chips: its server's, or the one its table names.
    scope: int


async def _open_game(connection: Connection, game_id: int) -> _Locked:
    # Locked until the transaction ends: a game's chips move in one transaction at a time.
    row = await connection.fetchone(
        "SELECT guild_id, channel_id, status, result, COALESCE(scope, guild_id) FROM games"
        " WHERE id = ? FOR UPDATE",
        (game_id,),
    )
    if row is None:
        raise GameStateError(tr("There is no game {game}.", game=str(game_id)))
    return _Locked(row[0], row[1], GameStatus(row[2]), row[3], row[4])


async def _escrowed(connection: Connection, game_id: int) -> dict[int, int]:
    rows = await connection.fetchall(
        "SELECT user_id, amount FROM escrow WHERE game_id = ? ORDER BY user_id", (game_id,)
    )
    return {row[0]: row[1] for row in rows}


def _refusal(refusal: RefusedCallError) -> Exception:
    """A chips function's refusal in the repository's words."""
    if refusal.code == "PPSHO":
        needs: dict[int, tuple[int, int]] = {}
        for line in refusal.detail.splitlines():
            user, have, need = (int(part) for part in line.split())
            needs[user] = (have, need)
        return ShortOfChipsError(needs)
    if refusal.code == "PPHOU":
        return StaleHouseDayError()
    if refusal.code == "PPOPN":
        return GameStateError(refusal.message)
    return StorageError(refusal.message)


def _nets(transfers: Sequence[Transfer]) -> tuple[dict[int, int], int]:
    """Each player's net and the house's; the pot must be emptied."""
    nets = balances(transfers)
    if nets.get(POT, 0):
        raise StorageError(
            tr("The pot must be emptied by the settlement, not {chips}.", chips=nets[POT])
        )
    house = nets.get(HOUSE, 0)
    return {player_id(p): n for p, n in nets.items() if p not in (POT, HOUSE)}, house


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a settlement writes, worked out from the game's escrow and the transfers' nets."""

    players: list[int]
    #: user id -> the change to the balance: the escrow back, plus the net.
    deltas: dict[int, int]
    entries: list[Entry]
    record: str


def _plan(
    game_id: int,
    transfers: Sequence[Transfer],
    held: Mapping[int, int],
    player_nets: Mapping[int, int],
    house: int,
    result: Mapping[str, Any] | None,
    recorded: str | None,
) -> _Plan:
    players = sorted(held.keys() | player_nets.keys())
    entries: list[Entry] = []
    for user_id in players:
        escrowed, net = held.get(user_id, 0), player_nets.get(user_id, 0)
        entries += [
            Entry(Account.ESCROW, user_id, -escrowed, Kind.RELEASE, "escrow returned"),
            Entry(Account.PLAYER, user_id, escrowed, Kind.RELEASE, "escrow returned"),
            Entry(
                Account.PLAYER,
                user_id,
                net,
                Kind.RESULT,
                f"game {game_id}: {'won' if net > 0 else 'lost'} {abs(net)}"
                if net
                else f"game {game_id}: even",
            ),
        ]
    if house:
        # The house is a party like any player: its wins and losses are rows too.
        entries.append(
            Entry(
                Account.HOUSE,
                None,
                house,
                Kind.RESULT,
                f"game {game_id}: house {'won' if house > 0 else 'lost'} {abs(house)}",
            )
        )
    # Keep what save_result recorded earlier (arrangements, the net matrix).
    record = {} if recorded is None else dict(json.loads(recorded))
    record.update(result or {})
    record["transfers"] = [[t.payer, t.payee, t.amount, t.reason] for t in transfers]
    record["nets"] = {str(user): player_nets.get(user, 0) for user in players}
    record["house"] = house
    return _Plan(
        players,
        {u: held.get(u, 0) + player_nets.get(u, 0) for u in players},
        entries,
        json.dumps(record),
    )


def player_id(party: Party) -> int:
    """The user id a settlement party names (tables name their players by user id)."""
    if isinstance(party, bool) or not isinstance(party, int):
        raise StorageError(tr("{party} is not a player, the pot or the house.", party=repr(party)))
    return party


class ChipRepository:
    """Moves chips between balances, a game's escrow and the house."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def escrowed(self, game_id: int) -> dict[int, int]:
        """Chips held for the game, per player."""
        rows = await self.database.fetchall(
            "SELECT user_id, amount FROM escrow WHERE game_id = ? ORDER BY user_id", (game_id,)
        )
        return {row[0]: row[1] for row in rows}

    async def holdings(
        self, game_id: int, guild_id: int, users: Sequence[int], *, house_day: bool = False
    ) -> Holdings:
        """The game (its status and record), its escrow and these players' balances, and with
        ``house_day`` their `HouseDay` (at a table whose computers play them), read with one
        statement. A player never seen is given the starting chips first."""
        wanted = sorted(set(users))
        sql = (
            "SELECT 'game', status, result, CAST(NULL AS BIGINT), CAST(NULL AS BIGINT)"
            " FROM games WHERE id = ?"
            " UNION ALL SELECT 'escrow', NULL, NULL, user_id, amount FROM escrow WHERE game_id = ?"
        )
        params: list[object] = [game_id, game_id]
        if wanted:
            sql += (
                " UNION ALL SELECT 'player', NULL, NULL, user_id, balance FROM players"
                f" WHERE guild_id = ? AND user_id IN ({marks(len(wanted))})"
            )
            params += [guild_id, *wanted]
        if house_day:
            day_sql, day_params = house_day_sql(guild_id, wanted, day_start(self.database.clock()))
            # The house's rows as (kind, NULL, NULL, user, amount), beside the others.
            sql += f" UNION ALL SELECT kind, NULL, NULL, user_id, amount FROM ({day_sql}) AS day"
            params += day_params
        rows = await self.database.fetchall(sql, params)
        status: GameStatus | None = None
        result: str | None = None
        escrow: dict[int, int] = {}
        found: dict[int, int] = {}
        for kind, game_status, recorded, user_id, amount in rows:
            if kind == "game":
                status, result = GameStatus(game_status), recorded
            elif kind == "escrow":
                escrow[int(user_id)] = int(amount)
            elif kind == "player":
                found[int(user_id)] = int(amount)
        for user_id in wanted:
            if user_id not in found:  # rare: the tables meet their players when they sit down
                async with self.database.transaction() as connection:
                    player = await ensure_player(connection, guild_id, user_id, self.database.now())
                found[user_id] = player.balance
        day = (
            house_day_of(wanted, [(kind, amount, user_id) for kind, _, _, user_id, amount in rows])
            if house_day
            else None
        )
        return Holdings(game_id, status, result, escrow, found, day)

    async def escrow(
        self, game_id: int, stakes: Mapping[int, int], reason: str, *, scoped: bool = False
    ) -> dict[int, int]:
        """Take each player's stake into the game's escrow: all of them, or none if one is short.

        ``reason`` names the stake within the game ("ante", "stake 1", "buy-in"): a player
        already escrowed under it is skipped, so a double click or a table resumed after a
        crash never takes the same stake twice. Returns the stakes taken now.
        ``scoped``: the game's chips live in a ledger scope of their own (``games.scope``).
        """
        if any(amount <= 0 for amount in stakes.values()):
            raise StorageError(tr("A stake must be at least 1 chip."))
        now = self.database.now()
        # PostgreSQL's one-statement escrow knows only a server's chips.
        if self.database.functions and not scoped:
            users = list(stakes)
            params = (game_id, reason, users, [stakes[user] for user in users], now)
            try:
                rows = await self.database.call("pp_escrow", params)
            except RefusedCallError as refusal:
                if refusal.code != "PPNEW":
                    raise _refusal(refusal) from None
                # A player never seen: the slower way below creates them first.
            else:
                taken, amounts = rows[0]
                return dict(zip(taken, amounts, strict=True))
        async with self.database.transaction() as connection:
            game = await _open_game(connection, game_id)
            if game.status is not GameStatus.OPEN:
                raise GameStateError(
                    tr("Game {game} is over; it takes no more chips.", game=str(game_id))
                )
            rows = await connection.fetchall(
                "SELECT user_id FROM ledger WHERE game_id = ? AND account = 'escrow'"
                " AND kind = 'escrow' AND reason = ?",
                (game_id, reason),
            )
            paid = {row[0] for row in rows}
            stakes = {user: amount for user, amount in stakes.items() if user not in paid}
            stakes = dict(sorted(stakes.items()))
            players = await lock_players(connection, game.scope, list(stakes), now)
            short = {
                user_id: (players[user_id].balance, amount)
                for user_id, amount in stakes.items()
                if players[user_id].balance < amount
            }
            if short:
                raise ShortOfChipsError(short)
            # A statement per kind of row, not per player: each holds the writing connection.
            await move_balances(
                connection,
                guild_id=game.scope,
                amounts={user_id: -amount for user_id, amount in stakes.items()},
            )
            if stakes:
                await connection.executemany(
                    "INSERT INTO escrow (game_id, guild_id, user_id, amount) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (game_id, user_id) DO UPDATE SET amount = escrow.amount + ?",
                    [(game_id, game.scope, u, amount, amount) for u, amount in stakes.items()],
                )
            await post_all(
                connection,
                guild_id=game.scope,
                game_id=game_id,
                created=now,
                entries=[
                    entry
                    for user_id, amount in stakes.items()
                    for entry in (
                        Entry(Account.PLAYER, user_id, -amount, Kind.ESCROW, reason),
                        Entry(Account.ESCROW, user_id, amount, Kind.ESCROW, reason),
                    )
                ],
            )
        return dict(stakes)

    async def settle(
        self,
        game_id: int,
        transfers: Sequence[Transfer],
        *,
        result: Mapping[str, Any] | None = None,
        outbox: Sequence[Payload] = (),
        house_nets: HouseNets | None = None,
        expected: Holdings | None = None,
        scoped: bool = False,
    ) -> Settlement:
        """Apply the engine's transfers against the escrow and close the game; a repeat is a no-op.

        ``outbox`` (the showdown to publish) is queued in the same transaction, so a settled game
        is always shown, even if the process dies right after; a repeat queues nothing.
        ``house_nets`` (at a table with computers): the day the cut of the daily cap on chips from
        the house's computers was reckoned on, and what each player netted against them; the
        day is checked and the nets recorded in the same transaction (`StaleHouseDayError`).
        ``expected``: the game as the caller read it before (`holdings`), from which PostgreSQL
        works out the whole settlement and applies it with one statement, which checks under
        the game's lock that the game is still so.

        Players are named by their user id, beside the engine's POT and HOUSE. Each
        player gets back their escrow plus their net; a loss beyond the escrow comes from the
        balance, and if a balance cannot cover it nothing moves.
        """
        if expected is not None:
            call = self.settle_call(
                game_id,
                transfers,
                result=result,
                outbox=outbox,
                house_nets=house_nets,
                expected=expected,
                scoped=scoped,
            )
            if call is not None:
                settled = await self._settle_at_once(call)
                if settled is not None:
                    return settled
        player_nets, house = _nets(transfers)
        moment = self.database.clock()
        now = format_time(moment)
        async with self.database.transaction() as connection:
            game = await _open_game(connection, game_id)
            if game.status is GameStatus.SETTLED:
                return await self._repeat(connection, game_id)
            if game.status is GameStatus.REFUNDED:
                raise GameStateError(
                    tr(
                        "Game {game} was cancelled and refunded; it cannot settle.",
                        game=str(game_id),
                    )
                )
            held = await _escrowed(connection, game_id)
            plan = _plan(game_id, transfers, held, player_nets, house, result, game.result)
            found = await lock_players(connection, game.scope, plan.players, now)
            short: dict[int, tuple[int, int]] = {}
            for user_id in plan.players:
                if found[user_id].balance + plan.deltas[user_id] < 0:
                    short[user_id] = (
                        found[user_id].balance + held.get(user_id, 0),
                        -player_nets[user_id],
                    )
            if short:
                raise ShortOfChipsError(short)
            if house_nets is not None:
                await record_house_nets(
                    connection,
                    guild_id=game.scope,
                    game_id=game_id,
                    day=house_nets.day,
                    nets=house_nets.nets,
                    moment=moment,
                )
            if held:
                # Every escrow row of the game is in held: all of it is returned below.
                await connection.execute("DELETE FROM escrow WHERE game_id = ?", (game_id,))
            # The escrow and the net come back to a balance in one change; each is its own row.
            await move_balances(connection, guild_id=game.scope, amounts=plan.deltas)
            await post_all(
                connection,
                guild_id=game.scope,
                game_id=game_id,
                entries=plan.entries,
                created=now,
            )
            await connection.execute(
                "UPDATE games SET status = 'settled', finished = ?, result = ? WHERE id = ?",
                (now, plan.record, game_id),
            )
            queued = await queue_events(
                connection,
                guild_id=game.guild_id,
                channel_id=game.channel_id,
                game_id=game_id,
                events=outbox,
                created=now,
            )
        return Settlement(
            game_id, {u: player_nets.get(u, 0) for u in plan.players}, house, queued=queued
        )

    def settle_call(
        self,
        game_id: int,
        transfers: Sequence[Transfer],
        *,
        result: Mapping[str, Any] | None = None,
        outbox: Sequence[Payload] = (),
        house_nets: HouseNets | None = None,
        expected: Holdings,
        scoped: bool = False,
    ) -> SettleCall | None:
        """The settlement as PostgreSQL's one statement (``pp_settle``) takes it, worked out
        from the game as ``expected`` says it was (`holdings`), which the statement checks under
        the game's lock; None where there is none (SQLite, a game whose chips live in a scope of
        their own, a game not read). `settle` sends it, or a table's save with its own
        (`SnapshotRepository.save`), so that the settlement and the save are one round trip."""
        if not self.database.functions or scoped or expected.status is None:
            return None
        player_nets, house = _nets(transfers)
        now = format_time(self.database.clock())
        held = expected.escrow
        plan = _plan(game_id, transfers, held, player_nets, house, result, expected.result)
        entries = [e for e in plan.entries if e.amount or e.kind is Kind.RESULT]
        day = None if house_nets is None else house_nets.day
        won = {} if day is None else day.won
        house_net = {} if house_nets is None else house_nets.nets
        params = (
            game_id,
            expected.result,
            sorted(held),
            [held[user] for user in sorted(held)],
            plan.players,
            [plan.deltas[user] for user in plan.players],
            [e.account.value for e in entries],
            [e.user_id for e in entries],
            [e.amount for e in entries],
            [e.kind.value for e in entries],
            [e.reason for e in entries],
            plan.record,
            now,
            None if day is None else day.cap,
            DEFAULT_HOUSE_CAP,
            format_time(day_start(parse_time(now))),
            list(won),
            [won[user] for user in won],
            list(house_net),
            [house_net[user] for user in house_net],
            [json.dumps(dict(event)) for event in outbox],
        )
        nets = {u: player_nets.get(u, 0) for u in plan.players}
        planned = Settlement(game_id, nets, house)
        return SettleCall(game_id, params, planned, now, dict(sorted(expected.balances.items())))

    async def _settle_at_once(self, call: SettleCall) -> Settlement | None:
        """The settlement as one server-side statement; None if the game changed since it was
        read (or a player is new), for the slower way to settle."""
        try:
            rows = await self.database.call("pp_settle", call.params)
        except RefusedCallError as refusal:
            if refusal.code in ("PPSTA", "PPNEW"):
                return None
            raise _refusal(refusal) from None
        repeated, users, amounts, house_won, previous, ids = rows[0]
        if repeated:
            return Settlement(call.game_id, dict(zip(users, amounts, strict=True)), house_won, True)
        return call.settled(previous, ids)

    async def _repeat(self, connection: Connection, game_id: int) -> Settlement:
        rows = await connection.fetchall(
            "SELECT account, user_id, amount FROM ledger WHERE game_id = ? AND kind = 'result'",
            (game_id,),
        )
        nets = {row[1]: row[2] for row in rows if row[0] == Account.PLAYER.value}
        house = sum(row[2] for row in rows if row[0] == Account.HOUSE.value)
        return Settlement(game_id, nets, house, repeated=True)

    async def _release(
        self,
        connection: Connection,
        guild_id: int,
        game_id: int,
        user_id: int,
        amount: int,
        now: str,
        kind: Kind = Kind.RELEASE,
        reason: str = "escrow returned",
    ) -> None:
        if not amount:
            return
        await connection.execute(
            "DELETE FROM escrow WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        await post(
            connection,
            guild_id=guild_id,
            account=Account.ESCROW,
            user_id=user_id,
            game_id=game_id,
            kind=kind,
            amount=-amount,
            reason=reason,
            created=now,
        )
        await change_balance(
            connection,
            guild_id=guild_id,
            user_id=user_id,
            amount=amount,
            kind=kind,
            reason=reason,
            created=now,
            game_id=game_id,
        )

    async def refund_one(self, game_id: int, user_id: int, reason: str) -> int:
        """Return one player's escrow while the game stays open (a player leaving before it
        is played: a tournament's unregistration); the chips returned, 0 if none were held."""
        now = self.database.now()
        async with self.database.transaction() as connection:
            game = await _open_game(connection, game_id)
            if game.status is not GameStatus.OPEN:
                raise GameStateError(
                    tr("Game {game} is over; its chips have moved already.", game=str(game_id))
                )
            held = (await _escrowed(connection, game_id)).get(user_id, 0)
            await self._release(
                connection, game.scope, game_id, user_id, held, now, Kind.REFUND, reason
            )
        return held

    async def refund(self, game_id: int, reason: str = "game cancelled") -> dict[int, int]:
        """Return every escrowed chip and close the game as refunded; a repeat returns nothing."""
        now = self.database.now()
        async with self.database.transaction() as connection:
            game = await _open_game(connection, game_id)
            if game.status is GameStatus.REFUNDED:
                return {}
            if game.status is GameStatus.SETTLED:
                raise GameStateError(
                    tr("Game {game} is already settled; it cannot be refunded.", game=str(game_id))
                )
            held = await _escrowed(connection, game_id)
            for user_id, amount in held.items():
                await self._release(
                    connection, game.scope, game_id, user_id, amount, now, Kind.REFUND, reason
                )
            await connection.execute(
                "UPDATE games SET status = 'refunded', finished = ? WHERE id = ?", (now, game_id)
            )
        return held
