"""Chips: antes, declarations, points, the pot and the Casino Version's payouts, as transfers.

A settlement is a list of transfers (payer, payee, amount, reason) between players, the pot and
the house. Each transfer moves chips from one party to another, so a settlement always sums to
zero, and the pot is always emptied by the end of a round.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.errors import GameError
from engine.scoring import PlayedHands, matchup, net_matrix, totals
from engine.text import tr
from engine.variants import Payee, Variant, variant_title

#: Who pays and is paid: a player (by name on the command line, by user id at a table), the pot
#: or the house.
Party = int | str
#: The party that holds the antes and stakes until someone takes them.
POT: Final = "pot"
#: The Casino Version's bank (the bot dealer).
HOUSE: Final = "house"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Chips moving from one party to another, with the rule that moves them."""

    payer: Party
    payee: Party
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at settlement, in clockwise order: where they surrendered, and their hands."""

    name: Party
    #: The declaration (0-based) at which the player surrendered (or folded); None: played on.
    surrendered_at: int | None = None
    hands: PlayedHands | None = None
    #: The Casino Version's ante, chosen by each player; other games use the variant's.
    ante: int | None = None


def clockwise_from_dealer(names: Sequence[Party], dealer: int) -> tuple[Party, ...]:
    """The players from the dealer's left round to the dealer (the odd-chip order, RULINGS §2)."""
    return tuple(names[(dealer + step) % len(names)] for step in range(1, len(names) + 1))


def split_pot(
    amount: int, winners: Sequence[Party], clockwise: Sequence[Party]
) -> dict[Party, int]:
    """Equal shares of ``amount``; odd chips go to the first winners in ``clockwise`` order."""
    order = [name for name in clockwise if name in winners]
    share, odd = divmod(amount, len(order))
    return {name: share + (index < odd) for index, name in enumerate(order)}


def casino_payout(variant: Variant, points: int, ante: int) -> int:
    """A Casino Version player's net chips on net points (RULINGS §3; negative: lost)."""
    payout = variant.casino
    if payout is None:
        raise GameError(tr("{game} is not played against the house.", game=variant_title(variant)))
    if points > 0:
        bonus = payout.bonus * ante if points >= payout.bonus_points else 0
        return points * ante + payout.buy_in * ante + bonus
    if points < 0:
        return points * ante - payout.buy_in * ante - ante
    return 0


def balances(transfers: Sequence[Transfer]) -> dict[Party, int]:
    """Each party's net change of chips over the transfers."""
    net: dict[Party, int] = defaultdict(int)
    for transfer in transfers:
        net[transfer.payer] -= transfer.amount
        net[transfer.payee] += transfer.amount
    return dict(net)


class Ledger:
    """The transfers of one settlement as the rules make them, in order."""

    def __init__(self) -> None:
        self.transfers: list[Transfer] = []

    def move(self, payer: Party, payee: Party, amount: int, reason: str) -> None:
        """Chips from ``payer`` to ``payee``; a negative amount moves the other way, 0 nothing."""
        if amount < 0:
            payer, payee, amount = payee, payer, -amount
        if amount:
            self.transfers.append(Transfer(payer, payee, amount, reason))


def _check_seats(variant: Variant, seats: Sequence[Seat]) -> None:
    names = [seat.name for seat in seats]
    if len(set(names)) != len(names) or {POT, HOUSE} & set(names):
        raise GameError(
            tr(
                "Players need different names, and none may be {pot} or {house}.",
                pot=repr(POT),
                house=repr(HOUSE),
            )
        )
    if not variant.min_players <= len(seats) <= variant.max_players:
        raise GameError(
            tr(
                "{game} is for {least} to {most} players, not {count}.",
                game=variant_title(variant),
                least=variant.min_players,
                most=variant.max_players,
                count=len(seats),
            )
        )
    for seat in seats:
        at = seat.surrendered_at
        if at is not None and not 0 <= at < len(variant.declarations):
            raise GameError(
                tr(
                    "{player} cannot surrender there: {game} has no such turn.",
                    player=seat.name,
                    game=variant_title(variant),
                )
            )


def _hands(seat: Seat) -> PlayedHands:
    if seat.hands is None:
        raise GameError(tr("{player} played on but set no hands.", player=seat.name))
    return seat.hands


def _settle_casino(
    variant: Variant, seats: Sequence[Seat], dealer_hands: PlayedHands | None, ledger: Ledger
) -> None:
    payout = variant.casino
    assert payout is not None
    for seat in seats:
        ante = variant.ante if seat.ante is None else seat.ante
        if seat.surrendered_at is not None:
            ledger.move(seat.name, HOUSE, (1 + payout.fold_match) * ante, "fold: ante and match")
            continue
        if dealer_hands is None:
            raise GameError(tr("The dealer's hands are needed to settle the Casino Version."))
        points = matchup(variant, _hands(seat), dealer_hands).total
        ledger.move(HOUSE, seat.name, points * ante, f"{points:+d} points against the dealer")
        if points:
            won = 1 if points > 0 else -1
            ledger.move(HOUSE, seat.name, won * payout.buy_in * ante, "buy-in")
        if points >= payout.bonus_points:
            ledger.move(HOUSE, seat.name, payout.bonus * ante, f"bonus for {points} points")
        elif points < 0:
            ledger.move(seat.name, HOUSE, ante, "ante")


def _award_pot(
    ledger: Ledger, winners: Sequence[Party], clockwise: Sequence[Party], why: str
) -> None:
    pot = balances(ledger.transfers).get(POT, 0)
    for name, share in split_pot(pot, winners, clockwise).items():
        ledger.move(POT, name, share, why)


def settle_showdown(
    variant: Variant,
    names: Sequence[Party],
    matrix: Sequence[Sequence[int]],
    *,
    pot: int = 0,
    clockwise: Sequence[Party] | None = None,
) -> tuple[Transfer, ...]:
    """Each pair's net points change hands, then the highest total takes the pot (RULINGS §2).

    ``clockwise`` is the odd-chip order (by default ``names`` as given); ``pot`` is what it holds.
    """
    ledger = Ledger()
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            chips = matrix[a][b] * variant.chips_per_point
            ledger.move(names[b], names[a], chips, f"points: {names[a]} against {names[b]}")
    if pot:
        scores = totals(matrix)
        winners = [name for name, score in zip(names, scores, strict=True) if score == max(scores)]
        for name, share in split_pot(pot, winners, clockwise or names).items():
            ledger.move(POT, name, share, "pot: highest net score")
    return tuple(ledger.transfers)


def pay_antes(variant: Variant, seats: Sequence[Seat], ledger: Ledger) -> None:
    """Every player's ante into the pot, in the games with one."""
    if variant.has_pot:
        for seat in seats:
            ledger.move(seat.name, POT, variant.ante, "ante")


def declare(
    variant: Variant,
    turn: int,
    seats: Sequence[Seat],
    active: Sequence[int],
    ledger: Ledger,
    clockwise: Sequence[Party],
) -> list[int] | None:
    """One declaration of the seats still ``active`` (indices): surrenders paid, then the stakes
    of those who play on; the seats left, or None when the round ended there (RULINGS §2, §4)."""
    declaration = variant.declarations[turn]
    quitting = [i for i in active if seats[i].surrendered_at == turn]
    staying = [i for i in active if seats[i].surrendered_at != turn]
    if not staying:
        # RULINGS §2: everyone surrendered at once; nobody pays, they share the pot.
        names = [seats[i].name for i in quitting]
        _award_pot(ledger, names, clockwise, "pot shared: everyone surrendered")
        return None
    for i in quitting:
        reason = f"surrender at declaration {turn + 1}"
        if declaration.paid_to is Payee.EACH_PLAYER:
            for j in staying:
                ledger.move(seats[i].name, seats[j].name, declaration.surrender_cost, reason)
        else:
            ledger.move(seats[i].name, POT, declaration.surrender_cost, reason)
    if len(staying) == 1:
        # RULINGS §2: the last player left takes the pot at once.
        _award_pot(ledger, [seats[staying[0]].name], clockwise, "pot: everyone else surrendered")
        return None
    for i in staying:
        ledger.move(seats[i].name, POT, declaration.play_stake, f"stake {turn + 1}")
    return staying


def settle(
    variant: Variant,
    seats: Sequence[Seat],
    *,
    dealer: int = 0,
    dealer_hands: PlayedHands | None = None,
) -> tuple[Transfer, ...]:
    """Every chip movement of one round, in the order the rules make them."""
    _check_seats(variant, seats)
    ledger = Ledger()
    if variant.against_dealer:
        _settle_casino(variant, seats, dealer_hands, ledger)
        return tuple(ledger.transfers)
    pay_antes(variant, seats, ledger)
    clockwise = clockwise_from_dealer([seat.name for seat in seats], dealer)
    active: list[int] | None = list(range(len(seats)))
    for turn in range(len(variant.declarations)):
        assert active is not None
        active = declare(variant, turn, seats, active, ledger, clockwise)
        if active is None:
            return tuple(ledger.transfers)
    assert active is not None
    played = [_hands(seats[i]) for i in active]
    pot = balances(ledger.transfers).get(POT, 0)
    names = [seats[i].name for i in active]
    matrix = net_matrix(variant, played)
    ledger.transfers.extend(settle_showdown(variant, names, matrix, pot=pot, clockwise=clockwise))
    return tuple(ledger.transfers)
