"""What a declaration costs, read off the settlement's own steps (engine/settlement.py).

A sentence that names what playing on or surrendering costs takes its figures from here, so it
says what the settlement will move: the same antes, surrender payments and stakes, made by the
same functions for a table of the same size, never a second copy of the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from engine.errors import GameError
from engine.settlement import (
    HOUSE,
    POT,
    Ledger,
    Seat,
    Transfer,
    balances,
    clockwise_from_dealer,
    declare,
    pay_antes,
    settle,
)
from engine.text import tr
from engine.variants import Payee, Variant, variant_title

#: Whom a surrender pays: each other player who plays on, the pot, or the house (the dealer).
PLAYERS: Final = "players"

#: The player whose declaration is read off (seat 0 of a table of the size asked about).
_ME: Final = 0
_PAYEES: Final = {Payee.EACH_PLAYER: PLAYERS, Payee.POT: POT, Payee.HOUSE: HOUSE}


@dataclass(frozen=True, slots=True)
class SurrenderCost:
    """What a surrender moves from the surrendering player."""

    #: Chips the player had staked already (the ante, earlier stakes), lost with the surrender:
    #: in the pot, or (the Casino Version) the ante the fold gives the dealer.
    put_in: int
    #: Chips the surrender moves beyond those.
    paid: int
    #: Who is paid: ``PLAYERS`` (each who plays on), ``"pot"`` or ``"house"``.
    payee: str

    @property
    def total(self) -> int:
        """Everything the surrender costs the player."""
        return self.put_in + self.paid


@dataclass(frozen=True, slots=True)
class DeclarationStakes:
    """What one declaration costs a player at a table of a given size."""

    #: Chips playing on puts into the pot (Showdown), or up as the buy-in (Casino Version).
    play: int
    #: Chips a surrender pays each other player who plays on (0 when it pays the pot or house).
    each: int
    #: What a surrender moves when every other player plays on.
    surrender: SurrenderCost


def surrender_cost(
    variant: Variant, round_: int, *, players: int, staying: int, ante: int | None = None
) -> SurrenderCost:
    """What surrendering at declaration ``round_`` (0-based) moves, among ``players`` still in,
    when ``staying`` of the others play on: the settlement's steps run for such a table."""
    if ante is not None:
        variant = replace(variant, ante=ante)
    if not 0 <= round_ < len(variant.declarations):
        raise GameError(
            tr(
                "{game} has no declaration {number}.",
                game=variant_title(variant),
                number=round_ + 1,
            )
        )
    payee = _PAYEES[variant.declarations[round_].paid_to]
    if variant.against_dealer:
        # A fold settles alone against the house: its ante and the match (RULINGS §3).
        folded = settle(variant, [Seat(_ME, round_, ante=variant.ante)])
        total = -balances(folded).get(_ME, 0)
        return SurrenderCost(variant.ante, total - variant.ante, payee)
    if not 0 <= staying < players:
        raise GameError(
            tr(
                "{staying} of {others} other players cannot play on.",
                staying=staying,
                others=players - 1,
            )
        )
    before, moved = _declared(variant, round_, players, staying, surrenders=True)
    # What the player pays; when everyone surrenders they pay nothing and share the pot.
    paid = sum(t.amount for t in moved if t.payer == _ME)
    return SurrenderCost(before, paid, payee)


def declaration_stakes(
    variant: Variant, round_: int, *, players: int, ante: int | None = None
) -> DeclarationStakes:
    """What declaration ``round_`` (0-based) costs a player among ``players`` still in."""
    if ante is not None:
        variant = replace(variant, ante=ante)
    if variant.against_dealer:
        casino = variant.casino
        assert casino is not None
        # Playing on escrows the buy-in; the settlement wins or loses it with the points.
        fold = surrender_cost(variant, round_, players=1, staying=0)
        return DeclarationStakes(casino.buy_in * variant.ante, 0, fold)
    most = surrender_cost(variant, round_, players=players, staying=players - 1)
    each = 0
    if most.payee == PLAYERS:
        each = surrender_cost(variant, round_, players=players, staying=1).paid
    _, played = _declared(variant, round_, players, players - 1, surrenders=False)
    stake = sum(t.amount for t in played if t.payer == _ME and t.payee == POT)
    return DeclarationStakes(stake, each, most)


def _declared(
    variant: Variant, round_: int, players: int, staying: int, *, surrenders: bool
) -> tuple[int, list[Transfer]]:
    """Chips the player put in before declaration ``round_``, and that declaration's transfers,
    at a table of ``players`` where everyone played on before and ``staying`` others play on
    at it (the rest surrender), the player surrendering or not."""
    seats = [
        Seat(index, round_ if (index == _ME and surrenders) or index > staying else None)
        for index in range(players)
    ]
    ledger = Ledger()
    pay_antes(variant, seats, ledger)
    clockwise = clockwise_from_dealer([seat.name for seat in seats], 0)
    active: list[int] | None = list(range(players))
    for turn in range(round_):
        assert active is not None  # nobody surrendered before: the round goes on
        active = declare(variant, turn, seats, active, ledger, clockwise)
    assert active is not None
    before = -balances(ledger.transfers).get(_ME, 0)
    start = len(ledger.transfers)
    declare(variant, round_, seats, active, ledger, clockwise)
    return before, ledger.transfers[start:]
