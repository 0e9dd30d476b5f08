"""The end of a game: every chip movement as the engine's transfers, and the showdown to show.

Nobody loses more than they have at the table (balance and escrow): a loss beyond that is cut to
what the player has and the winners take that much less, in proportion to what they won ("table
stakes"). The functions here are pure CPU work (the Casino dealer runs the solver); the manager
calls them in a thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.settlement import HOUSE, POT, Party, Transfer, balances
from engine.text import Text, Who, tr
from storage.rows import HouseDay, HouseNets
from tables.computers import is_computer
from tables.events import Note, Part, SeatResult, ShowdownSettled
from tables.games import rules_of
from tables.hand_names import hand_name
from tables.house_cap import CAP_REASON, cap_house
from tables.record import GameRecord
from tables.rules import move
from tables.table import Table


@dataclass(frozen=True, slots=True)
class Result:
    """A settled game: the transfers to apply, the event to show and the record to keep."""

    transfers: tuple[Transfer, ...]
    event: ShowdownSettled
    record: GameRecord
    #: What each player netted against the house's computers, where the daily cap holds.
    house: HouseNets | None = None


def _shares(total: int, weights: Mapping[Party, int]) -> dict[Party, int]:
    """``total`` split in proportion to ``weights`` (largest remainders), each share ≤ weight."""
    whole = sum(weights.values())
    shares = {name: total * weight // whole for name, weight in weights.items()}
    left = total - sum(shares.values())
    by_remainder = sorted(weights, key=lambda name: (-(total * weights[name] % whole), str(name)))
    for name in by_remainder[:left]:
        shares[name] += 1
    return shares


def cap_losses(
    transfers: Sequence[Transfer], available: Mapping[int, int]
) -> tuple[tuple[Transfer, ...], tuple[Note, ...]]:
    """The transfers with every player's loss cut to the chips they have, and why (table stakes).

    ``available`` is each player's balance plus escrow; parties not in it (the house) are never
    short. The winners give back the shortfall in proportion to their winnings.
    """
    nets = balances(transfers)
    deficits = {
        name: -net - available[name]
        for name, net in nets.items()
        if isinstance(name, int) and name in available and -net > available[name]
    }
    if not deficits:
        return tuple(transfers), ()
    winners = {name: net for name, net in nets.items() if net > 0 and name != POT}
    gives = _shares(sum(deficits.values()), winners)
    result = list(transfers)
    notes: list[Note] = []
    owed = dict(deficits)
    for winner, amount in gives.items():
        for short in sorted(owed):
            step = min(amount, owed[short])
            if step:
                move(result, winner, short, step, f"table stakes: {short} could not cover")
                amount -= step
                owed[short] -= step
    for short, deficit in sorted(deficits.items()):
        notes.append(
            Note(
                tr(
                    "{player} could cover only {available} chips, so the winners take {deficit}"
                    " less (table stakes).",
                    player=Who(short),
                    available=available[short],
                    deficit=deficit,
                ),
                short,
            )
        )
    return tuple(result), tuple(notes)


#: What a transfer's reason begins with, and the kind a player's breakdown names it by.
_KINDS = (
    ("ante", "ante"),
    ("fold", "fold"),
    ("stake ", "stakes"),
    ("surrender", "surrender"),
    ("points:", "points"),
    ("buy-in", "buy-in"),
    ("bonus", "bonus"),
    ("pot", "pot"),
    ("table stakes", "table stakes"),
    (CAP_REASON, "daily cap"),
)


def kind_of(reason: str) -> str:
    """The kind of chip movement a transfer's reason is: "ante", "points", "pot", ..., or a
    house game's wager by its name."""
    for start, kind in _KINDS:
        if reason.startswith(start):
            return kind
    if reason.endswith("points against the dealer"):
        return "points"
    return reason.split(":", 1)[0]


def breakdown(transfers: Sequence[Transfer], party: Party) -> tuple[Part, ...]:
    """A party's net by kind, in the order the kinds first moved; the parts sum to its net."""
    parts: dict[str, int] = {}
    for transfer in transfers:
        if transfer.payee == party:
            chips = transfer.amount
        elif transfer.payer == party:
            chips = -transfer.amount
        else:
            continue
        kind = kind_of(transfer.reason)
        parts[kind] = parts.get(kind, 0) + chips
    return tuple(Part(kind, chips) for kind, chips in parts.items() if chips)


def settle_table(
    table: Table, available: Mapping[int, int], house: HouseDay | None = None
) -> Result:
    """Settle a table whose hands are all in; ``available``: each player's balance + escrow;
    ``house``: the daily cap on chips from the house's computers, where the table has one."""
    spec = table.spec
    assert table.game_id is not None
    rules = rules_of(spec)
    played = rules.play(table.finished())
    practice = table.config.practice
    # A practice table moves no chips, so nobody's loss is capped by them.
    capped, notes = cap_losses(played.transfers, {} if practice else available)
    nets_by_party = balances(capped)
    moved = house_plays_computers(capped) if table.config.house_computers else capped
    won_from_house = None
    if house is not None and not practice:
        moved, cut, nets_from_house = cap_house(moved, house, available)
        won_from_house = HouseNets(house, nets_from_house)
        notes += cut
        # A person's net is what reaches them once the house kept its cut.
        nets_by_party |= {user: net for user, net in balances(moved).items() if user in available}
    nets = {seat.user: nets_by_party.get(seat.user, 0) for seat in table.seats}
    # A person's chips moved as ``moved`` says (the house's cut included); a computer's as the
    # game settled them (``moved`` gives them to the house).
    final = {
        seat.user: moved
        if house is not None and not practice and seat.user in available
        else capped
        for seat in table.seats
    }
    pot = sum(t.amount for t in capped if t.payee == POT)
    pot_winners = tuple(sorted({int(t.payee) for t in capped if t.payer == POT}))
    seats = tuple(
        SeatResult(
            user=seat.user,
            surrendered_at=seat.surrendered_at,
            hands=() if seat.setting is None else seat.setting.hands,
            labels=() if seat.setting is None else _names(rules.labels(seat.setting.hands)),
            automatic=None if seat.setting is None else seat.setting.automatic,
            net=nets[seat.user],
            per_hand=played.per_hand.get(seat.user, ()),
            wagers=played.wagers.get(seat.user, ()),
            set_by=seat.set_by,
            computer=seat.computer,
            breakdown=breakdown(final[seat.user], seat.user),
            points=(
                sum(played.per_hand[seat.user])
                if spec.variant is not None and played.per_hand.get(seat.user)
                else None
            ),
        )
        for seat in table.seats
    )
    dealer = played.dealer
    event = ShowdownSettled(
        game_id=table.game_id,
        game=spec.name,
        seats=seats,
        matrix=played.matrix,
        matrix_players=played.matrix_players,
        nets=nets,
        house=nets_by_party.get(HOUSE, 0),
        pot=pot,
        pot_winners=pot_winners,
        dealer_hands=() if dealer is None else dealer.hands,
        dealer_labels=() if dealer is None else _names(rules.labels(dealer.hands)),
        dealer_per_hand=played.dealer_per_hand,
        notes=notes,
        practice=practice,
        scope=table.config.scope,
    )
    record = GameRecord(
        game=spec.name,
        ante=table.config.ante,
        players=table.players,
        # For the coach: what each seat held (the showdown shows what it set).
        holdings={s.user: s.held for s in table.seats},
        showdown=event,
        computers={s.user: s.computer for s in table.seats if s.computer},
        practice=practice,
        options=table.config.options.own(),
    )
    return Result(() if practice else moved, event, record, won_from_house)


def house_plays_computers(transfers: Sequence[Transfer]) -> tuple[Transfer, ...]:
    """The transfers with each computer's part paid from and to the house (a computer plays
    with the house's chips); what the house would pay itself drops out."""
    moved = []
    for transfer in transfers:
        payer = (
            HOUSE
            if isinstance(transfer.payer, int) and is_computer(transfer.payer)
            else transfer.payer
        )
        payee = (
            HOUSE
            if isinstance(transfer.payee, int) and is_computer(transfer.payee)
            else transfer.payee
        )
        if payer != payee:
            moved.append(replace(transfer, payer=payer, payee=payee))
    return tuple(moved)


def _names(labels: Sequence[str]) -> tuple[Text, ...]:
    """The hands' names as texts, read in each reader's language where they are shown."""
    return tuple(hand_name(label) for label in labels)
