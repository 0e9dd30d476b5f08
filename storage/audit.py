"""The ledger's invariants, checked for tests and for an admin command."""

from __future__ import annotations

from storage.database import Database, Row, marks
from storage.ledger import MINTING_KINDS
from storage.rows import Audit

_MINTING = tuple(kind.value for kind in MINTING_KINDS)
_IN_MINTING = f"({marks(len(_MINTING))})"


def _total(column: str) -> str:
    """A column's sum as an integer, 0 over no rows (PostgreSQL sums integers as numeric)."""
    return f"CAST(COALESCE(SUM({column}), 0) AS BIGINT)"


async def audit(database: Database, guild_id: int | None = None) -> Audit:
    """Check every balance and escrow against the ledger, and that no chip appeared or vanished.

    Chips enter a server only as starting chips, daily bonuses and grants, and leave only as
    takes; so balances + escrow + the house's net always equal those rows' sum.
    """
    guild = "" if guild_id is None else " AND guild_id = ?"
    scope: tuple[int, ...] = () if guild_id is None else (guild_id,)
    problems: list[str] = []

    async with database.transaction() as connection:
        # One transaction reading one moment: the figures below are never half a settlement.
        await database.one_moment(connection)

        async def rows(sql: str, params: tuple[object, ...] = scope) -> list[Row]:
            return await connection.fetchall(sql, params)

        for g, user, cached, summed in await rows(
            f"SELECT p.guild_id, p.user_id, p.balance, {_total('l.amount')} FROM players p"
            " LEFT JOIN ledger l ON l.guild_id = p.guild_id AND l.user_id = p.user_id"
            " AND l.account = 'player'"
            f" WHERE 1 = 1{guild.replace('guild_id', 'p.guild_id')}"
            f" GROUP BY p.guild_id, p.user_id HAVING p.balance != {_total('l.amount')}"
        ):
            problems.append(f"Player {user} of server {g}: balance {cached}, ledger {summed}.")

        held = {
            (game, user): amount
            for game, user, amount in await rows(
                f"SELECT game_id, user_id, amount FROM escrow WHERE 1 = 1{guild}"
            )
        }
        booked = {
            (game, user): amount
            for game, user, amount in await rows(
                "SELECT game_id, user_id, CAST(SUM(amount) AS BIGINT) FROM ledger"
                f" WHERE account = 'escrow'{guild} GROUP BY game_id, user_id"
            )
            if amount
        }
        for key in sorted(held.keys() | booked.keys()):
            if held.get(key, 0) != booked.get(key, 0):
                problems.append(
                    f"Escrow of player {key[1]} in game {key[0]}: held {held.get(key, 0)},"
                    f" ledger {booked.get(key, 0)}."
                )
        for (game,) in await rows(
            "SELECT DISTINCT e.game_id FROM escrow e JOIN games g ON g.id = e.game_id"
            f" WHERE g.status != 'open'{guild.replace('guild_id', 'e.guild_id')}"
        ):
            problems.append(f"Game {game} is finished but still holds escrow.")
        for game, total in await rows(
            "SELECT game_id, CAST(SUM(amount) AS BIGINT) FROM ledger WHERE game_id IS NOT NULL"
            f" AND kind NOT IN {_IN_MINTING}{guild} GROUP BY game_id HAVING SUM(amount) != 0",
            (*_MINTING, *scope),
        ):
            problems.append(f"Game {game}'s chip movements sum to {total}, not 0.")

        ((balances,),) = await rows(f"SELECT {_total('balance')} FROM players WHERE 1 = 1{guild}")
        ((escrowed,),) = await rows(f"SELECT {_total('amount')} FROM escrow WHERE 1 = 1{guild}")
        ((house,),) = await rows(
            f"SELECT {_total('amount')} FROM ledger WHERE account = 'house'{guild}"
        )
        ((minted,),) = await rows(
            f"SELECT {_total('amount')} FROM ledger WHERE kind IN {_IN_MINTING}{guild}",
            (*_MINTING, *scope),
        )
    if balances + escrowed + house != minted:
        problems.append(
            f"Balances {balances} + escrow {escrowed} + house {house} != chips issued {minted}."
        )
    return Audit(balances, escrowed, house, minted, tuple(problems))
