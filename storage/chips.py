"""A game's chips: escrow when a stake is owed, settlement and refund, each one transaction."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.settlement import HOUSE, POT, Party, Transfer, balances
from storage.database import Connection, Database
from storage.errors import GameStateError, ShortOfChipsError, StorageError
from storage.ledger import Account, Kind, change_balance, ensure_player, post
from storage.outbox import Payload, queue_events
from storage.rows import GameStatus, Settlement


async def _open_game(connection: Connection, game_id: int) -> tuple[int, GameStatus]:
    # Locked until the transaction ends: a game's chips move in one transaction at a time.
    row = await connection.fetchone(
        "SELECT guild_id, status FROM games WHERE id = ? FOR UPDATE", (game_id,)
    )
    if row is None:
        raise GameStateError(f"There is no game {game_id}.")
    return row[0], GameStatus(row[1])


async def _escrowed(connection: Connection, game_id: int) -> dict[int, int]:
    rows = await connection.fetchall(
        "SELECT user_id, amount FROM escrow WHERE game_id = ? ORDER BY user_id", (game_id,)
    )
    return {row[0]: row[1] for row in rows}


def player_id(party: Party) -> int:
    """The user id a settlement party names (tables name their players by user id)."""
    if isinstance(party, bool) or not isinstance(party, int):
        raise StorageError(f"{party!r} is not a player, the pot or the house.")
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

    async def escrow(self, game_id: int, stakes: Mapping[int, int], reason: str) -> dict[int, int]:
        """Take each player's stake into the game's escrow: all of them, or none if one is short.

        ``reason`` names the stake within the game ("ante", "stake 1", "buy-in"): a player
        already escrowed under it is skipped, so a double click or a table resumed after a
        crash never takes the same stake twice. Returns the stakes taken now.
        """
        if any(amount <= 0 for amount in stakes.values()):
            raise StorageError("A stake must be at least 1 chip.")
        now = self.database.now()
        async with self.database.transaction() as connection:
            guild_id, status = await _open_game(connection, game_id)
            if status is not GameStatus.OPEN:
                raise GameStateError(f"Game {game_id} is over; it takes no more chips.")
            rows = await connection.fetchall(
                "SELECT user_id FROM ledger WHERE game_id = ? AND account = 'escrow'"
                " AND kind = 'escrow' AND reason = ?",
                (game_id, reason),
            )
            paid = {row[0] for row in rows}
            stakes = {user: amount for user, amount in stakes.items() if user not in paid}
            short: dict[int, tuple[int, int]] = {}
            # In user order, as every transaction locks players: two cannot wait on each other.
            stakes = dict(sorted(stakes.items()))
            for user_id, amount in stakes.items():
                player = await ensure_player(connection, guild_id, user_id, now, lock=True)
                if player.balance < amount:
                    short[user_id] = (player.balance, amount)
            if short:
                raise ShortOfChipsError(short)
            for user_id, amount in stakes.items():
                await change_balance(
                    connection,
                    guild_id=guild_id,
                    user_id=user_id,
                    amount=-amount,
                    kind=Kind.ESCROW,
                    reason=reason,
                    created=now,
                    game_id=game_id,
                )
                await connection.execute(
                    "INSERT INTO escrow (game_id, guild_id, user_id, amount) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (game_id, user_id) DO UPDATE SET amount = escrow.amount + ?",
                    (game_id, guild_id, user_id, amount, amount),
                )
                await post(
                    connection,
                    guild_id=guild_id,
                    account=Account.ESCROW,
                    user_id=user_id,
                    game_id=game_id,
                    kind=Kind.ESCROW,
                    amount=amount,
                    reason=reason,
                    created=now,
                )
        return dict(stakes)

    async def settle(
        self,
        game_id: int,
        transfers: Sequence[Transfer],
        *,
        result: Mapping[str, Any] | None = None,
        outbox: Sequence[Payload] = (),
    ) -> Settlement:
        """Apply the engine's transfers against the escrow and close the game; a repeat is a no-op.

        ``outbox`` (the showdown to publish) is queued in the same transaction, so a settled game
        is always shown, even if the process dies right after; a repeat queues nothing.

        Players are named by their user id, beside the engine's POT and HOUSE. Each
        player gets back their escrow plus their net; a loss beyond the escrow comes from the
        balance, and if a balance cannot cover it nothing moves.
        """
        nets = balances(transfers)
        if nets.get(POT, 0):
            raise StorageError(f"The pot must be emptied by the settlement, not {nets[POT]}.")
        house = nets.get(HOUSE, 0)
        player_nets = {player_id(p): n for p, n in nets.items() if p not in (POT, HOUSE)}
        now = self.database.now()
        async with self.database.transaction() as connection:
            guild_id, status = await _open_game(connection, game_id)
            if status is GameStatus.SETTLED:
                return await self._repeat(connection, game_id)
            if status is GameStatus.REFUNDED:
                raise GameStateError(
                    f"Game {game_id} was cancelled and refunded; it cannot settle."
                )
            held = await _escrowed(connection, game_id)
            players = sorted(held.keys() | player_nets.keys())
            short: dict[int, tuple[int, int]] = {}
            for user_id in players:
                back = held.get(user_id, 0) + player_nets.get(user_id, 0)
                player = await ensure_player(connection, guild_id, user_id, now, lock=True)
                if player.balance + back < 0:
                    short[user_id] = (player.balance + held.get(user_id, 0), -player_nets[user_id])
            if short:
                raise ShortOfChipsError(short)
            for user_id in players:
                await self._release(
                    connection, guild_id, game_id, user_id, held.get(user_id, 0), now
                )
                net = player_nets.get(user_id, 0)
                await change_balance(
                    connection,
                    guild_id=guild_id,
                    user_id=user_id,
                    amount=net,
                    kind=Kind.RESULT,
                    reason=f"game {game_id}: {'won' if net > 0 else 'lost'} {abs(net)}"
                    if net
                    else f"game {game_id}: even",
                    created=now,
                    game_id=game_id,
                )
            if house:
                # The house is a party like any player: its wins and losses are rows too.
                await post(
                    connection,
                    guild_id=guild_id,
                    account=Account.HOUSE,
                    user_id=None,
                    game_id=game_id,
                    kind=Kind.RESULT,
                    amount=house,
                    reason=f"game {game_id}: house {'won' if house > 0 else 'lost'} {abs(house)}",
                    created=now,
                )
            # Keep what save_result recorded earlier (arrangements, the net matrix).
            saved = await connection.fetchone("SELECT result FROM games WHERE id = ?", (game_id,))
            record = {} if saved is None or saved[0] is None else dict(json.loads(saved[0]))
            record.update(result or {})
            record["transfers"] = [[t.payer, t.payee, t.amount, t.reason] for t in transfers]
            record["nets"] = {str(user): player_nets.get(user, 0) for user in players}
            record["house"] = house
            await connection.execute(
                "UPDATE games SET status = 'settled', finished = ?, result = ? WHERE id = ?",
                (now, json.dumps(record), game_id),
            )
            row = await connection.fetchone("SELECT channel_id FROM games WHERE id = ?", (game_id,))
            assert row is not None
            await queue_events(
                connection,
                guild_id=guild_id,
                channel_id=row[0],
                game_id=game_id,
                events=outbox,
                created=now,
            )
        return Settlement(game_id, {u: player_nets.get(u, 0) for u in players}, house)

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

    async def refund(self, game_id: int, reason: str = "game cancelled") -> dict[int, int]:
        """Return every escrowed chip and close the game as refunded; a repeat returns nothing."""
        now = self.database.now()
        async with self.database.transaction() as connection:
            guild_id, status = await _open_game(connection, game_id)
            if status is GameStatus.REFUNDED:
                return {}
            if status is GameStatus.SETTLED:
                raise GameStateError(f"Game {game_id} is already settled; it cannot be refunded.")
            held = await _escrowed(connection, game_id)
            for user_id, amount in held.items():
                await self._release(
                    connection, guild_id, game_id, user_id, amount, now, Kind.REFUND, reason
                )
            await connection.execute(
                "UPDATE games SET status = 'refunded', finished = ? WHERE id = ?", (now, game_id)
            )
        return held
