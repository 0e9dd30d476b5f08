"""The daily cap on chips from the house's computers: what each player won from them in a game,
and the cut the house keeps beyond the cap (docs/rules.md, "Whose chips").

A computer plays with the house's chips, and the solver's Suggest beats the weaker levels, so
without a cap a player could farm the house. The cap holds per player, per server, per UTC day,
on the player's net against the house's computers; the settlement's transaction checks it again
(storage/house.py), so it holds across tables and processes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction

from engine.settlement import HOUSE, POT, Party, Transfer, balances
from engine.text import Who, tr
from storage.rows import HouseDay
from tables.events import Note
from tables.rules import move
from tables.table import Table

#: The reason of the transfer that keeps the cut with the house.
CAP_REASON = "daily cap on chips from the house"


def is_capped(table: Table) -> bool:
    """Whether the table's chips from the house are capped: computers play against people.

    Not in the house games (the Casino dealer, the three-card dealer, the Pai Gow banker),
    where the house's edge is the game's, nor at a practice table, which moves no chips.
    """
    return (
        any(seat.computer for seat in table.seats)
        and table.config.house_computers
        and not table.spec.has_dealer
        and not table.config.practice
    )


def house_nets(transfers: Sequence[Transfer]) -> dict[int, int]:
    """Each player's net against the house over the transfers (won: positive): what passed
    between them directly, and through the pot, where what each party put in goes to the pot's
    winners in proportion to what each took out."""
    direct: dict[Party, Fraction] = defaultdict(Fraction)
    into: dict[Party, int] = defaultdict(int)
    out: dict[Party, int] = defaultdict(int)
    for transfer in transfers:
        payer, payee, amount = transfer.payer, transfer.payee, transfer.amount
        if payee == POT:
            into[payer] += amount
        elif payer == POT:
            out[payee] += amount
        elif payer == HOUSE:
            direct[payee] += amount
        elif payee == HOUSE:
            direct[payer] -= amount
    pot = sum(into.values())
    players = {p for t in transfers for p in (t.payer, t.payee) if p not in (POT, HOUSE)}
    nets = {}
    for player in sorted(players, key=str):
        net = direct[player]
        if pot:
            net += Fraction(into[HOUSE] * out[player] - into[player] * out[HOUSE], pot)
        if isinstance(player, int) and round(net):
            nets[player] = round(net)
    return nets


def cap_house(
    transfers: Sequence[Transfer], day: HouseDay, available: Mapping[int, int]
) -> tuple[tuple[Transfer, ...], tuple[Note, ...], dict[int, int]]:
    """The transfers with each player's win from the house's computers cut to what today's cap
    leaves them (the cut stays with the house), the notes saying so, and each player's net
    against the house after the cut.

    A cut never takes more than the player could cover (``available``: balance plus escrow):
    at a table of several people a player may owe the others what the house paid them.
    """
    nets = house_nets(transfers)
    totals = balances(transfers)
    result = list(transfers)
    notes: list[Note] = []
    for user, won in sorted(nets.items()):
        room = day.room(user)
        if won <= room:
            continue
        cut = min(won - room, totals.get(user, 0) + available.get(user, 0))
        if cut <= 0:
            continue
        move(result, user, HOUSE, cut, CAP_REASON)
        nets[user] = won - cut
        notes.append(
            Note(
                tr(
                    "{player} won {won} chips from the house's computers, more than today's cap"
                    " leaves ({room} of {cap} a day): the house keeps {cut}.",
                    player=Who(user),
                    won=won,
                    room=room,
                    cap=day.cap,
                    cut=cut,
                ),
                user,
            )
        )
    return tuple(result), tuple(notes), nets
