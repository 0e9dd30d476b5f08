"""The end of a game: every chip movement as the engine's transfers, and the showdown to show.

Nobody loses more than they have at the table (balance and escrow): a loss beyond that is cut to
what the player has and the winners take that much less, in proportion to what they won ("table
stakes"). The functions here are pure CPU work (the Casino dealer runs the solver); the manager
calls them in a thread.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.arrangement import parse_arrangement, verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import AnyCard, card_from_code, parse_hands
from engine.evaluate import HandValue
from engine.paigow import PaiGowSetting
from engine.paigow import settle as settle_pai_gow
from engine.payouts import Outcome, Payout
from engine.scoring import PlayedHands, matchup, net_matrix
from engine.settlement import HOUSE, POT, Seat, Transfer, balances, settle
from engine.three_card import ThreeCardSetting, settle_round
from engine.variants import Automatic, Variant
from tables.events import Note, SeatResult, ShowdownSettled
from tables.games import Family, GameSpec
from tables.hands import Setting, hand_labels, house_setting, suggest_setting
from tables.table import SeatState, Table


@dataclass(frozen=True, slots=True)
class Result:
    """A settled game: the transfers to apply, the event to show and the record to keep."""

    transfers: tuple[Transfer, ...]
    event: ShowdownSettled
    record: dict[str, Any]


def party(user: int) -> str:
    """A player's name in the engine's transfers (storage reads it back as the user id)."""
    return str(user)


def _move(transfers: list[Transfer], payer: str, payee: str, amount: int, reason: str) -> None:
    if amount < 0:
        payer, payee, amount = payee, payer, -amount
    if amount:
        transfers.append(Transfer(payer, payee, amount, reason))


def wager_chips(payout: Payout, stake: int) -> int:
    """Chips won (+) or lost (-) on a wager; a win's fraction of a chip stays with the house."""
    if payout.outcome is Outcome.WIN:
        return math.floor(stake * payout.net)
    return int(stake * payout.net)


def _shares(total: int, weights: Mapping[str, int]) -> dict[str, int]:
    """``total`` split in proportion to ``weights`` (largest remainders), each share ≤ weight."""
    whole = sum(weights.values())
    shares = {name: total * weight // whole for name, weight in weights.items()}
    left = total - sum(shares.values())
    by_remainder = sorted(weights, key=lambda name: (-(total * weights[name] % whole), name))
    for name in by_remainder[:left]:
        shares[name] += 1
    return shares


def cap_losses(
    transfers: Sequence[Transfer], available: Mapping[str, int]
) -> tuple[tuple[Transfer, ...], tuple[Note, ...]]:
    """The transfers with every player's loss cut to the chips they have, and why (table stakes).

    ``available`` is each player's balance plus escrow; parties not in it (the house) are never
    short. The winners give back the shortfall in proportion to their winnings.
    """
    nets = balances(transfers)
    deficits = {
        name: -net - available[name]
        for name, net in nets.items()
        if name in available and -net > available[name]
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
                _move(result, winner, short, step, f"table stakes: {short} could not cover")
                amount -= step
                owed[short] -= step
    for short, deficit in sorted(deficits.items()):
        notes.append(
            Note(
                f"could cover only {available[short]} chips, so the winners take "
                f"{deficit} less (table stakes).",
                int(short),
            )
        )
    return tuple(result), tuple(notes)


def _values(variant: Variant, seat: SeatState) -> PlayedHands:
    assert seat.setting is not None
    arrangement = parse_arrangement(seat.setting)
    automatic = None if seat.automatic is None else Automatic(seat.automatic)
    values: tuple[HandValue, ...]
    if automatic is None:
        values = verify_arrangement(variant, seat.held, arrangement)
    else:
        values = verify_automatic(variant, seat.held, arrangement, automatic)
    return PlayedHands(party(seat.user), values, automatic)


def _cards(codes: Sequence[int]) -> tuple[AnyCard, ...]:
    return tuple(card_from_code(code) for code in codes)


def _hands(seat: SeatState) -> tuple[tuple[AnyCard, ...], ...]:
    return () if seat.setting is None else parse_hands(seat.setting.split("||")[0])


def _pyramid(table: Table, spec: GameSpec) -> tuple[list[Transfer], dict[str, Any]]:
    assert spec.variant is not None
    variant = spec.variant
    if spec.default_ante:
        variant = replace(variant, ante=table.config.ante)
    # A game that ended at a declaration (one player left) has no hands to compare.
    played = {s.user: _values(variant, s) for s in table.active if s.setting is not None}
    dealer: PlayedHands | None = None
    dealer_setting: Setting | None = None
    if variant.against_dealer and played:
        # RULINGS §3: the dealer sets its 9 cards with the solver.
        dealer_setting = suggest_setting(spec, _cards(table.dealer_cards)).setting
        dealer_values = verify_arrangement(
            variant, _cards(table.dealer_cards), parse_arrangement(dealer_setting.text)
        )
        dealer = PlayedHands("dealer", dealer_values)
    seats = [
        Seat(party(s.user), s.surrendered_at, played.get(s.user), table.config.ante)
        for s in table.seats
    ]
    transfers = list(settle(variant, seats, dealer=table.button, dealer_hands=dealer))
    per_hand: dict[int, tuple[int, ...]] = {}
    matrix: tuple[tuple[int, ...], ...] = ()
    players = tuple(played)
    dealer_per_hand: tuple[int, ...] = ()
    if dealer is not None:
        dealer_points = [0] * len(variant.slots)
        for user, hands in played.items():
            per_hand[user] = matchup(variant, hands, dealer).per_hand
            for i, points in enumerate(per_hand[user]):
                dealer_points[i] -= points
        dealer_per_hand = tuple(dealer_points)
    elif len(played) > 1:
        matrix = net_matrix(variant, list(played.values()))
        for user, hands in played.items():
            sums = [0] * len(variant.slots)
            for other, theirs in played.items():
                if other != user:
                    for i, points in enumerate(matchup(variant, hands, theirs).per_hand):
                        sums[i] += points
            per_hand[user] = tuple(sums)
    extra = {
        "matrix": matrix,
        "matrix_players": players if matrix else (),
        "per_hand": per_hand,
        "dealer": dealer_setting,
        "dealer_per_hand": dealer_per_hand,
    }
    return transfers, extra


def _house(table: Table, spec: GameSpec) -> tuple[list[Transfer], dict[str, Any]]:
    dealer_cards = _cards(table.dealer_cards)
    dealer_setting = house_setting(spec, dealer_cards, banker=True)
    ante = table.config.ante
    transfers: list[Transfer] = []
    per_hand: dict[int, tuple[int, ...]] = {}
    lines: list[Note] = []
    for seat in table.active:
        if seat.setting is None:
            continue
        low, high = _hands(seat)
        name = party(seat.user)
        wagers: tuple[tuple[str, Payout], ...]
        if spec.family is Family.THREE_CARD:
            d_low, d_high = dealer_setting.hands
            mine = ThreeCardSetting(low=low[0], high=(high[0], high[1]))  # type: ignore[arg-type]
            theirs = ThreeCardSetting(low=d_low[0], high=(d_high[0], d_high[1]))  # type: ignore[arg-type]
            round_ = settle_round(mine, theirs, spec.three_card_table)
            wagers = (
                ("main bet", round_.main),
                ("3-card bonus", round_.three_card_bonus),
                ("6-card bonus", round_.six_card_bonus),
            )
        else:
            d_low, d_high = dealer_setting.hands
            payout = settle_pai_gow(
                PaiGowSetting(high=high, low=low),
                PaiGowSetting(high=d_high, low=d_low),
                spec.pai_gow_table,
            )
            wagers = (("bet", payout),)
        chips = []
        for wager, payout in wagers:
            amount = wager_chips(payout, ante)
            chips.append(amount)
            _move(transfers, HOUSE, name, amount, f"{wager}: {payout.reason}")
            lines.append(Note(f"{wager}: {payout.reason} ({amount:+d}).", seat.user))
        per_hand[seat.user] = tuple(chips)
    extra = {
        "matrix": (),
        "matrix_players": (),
        "per_hand": per_hand,
        "dealer": dealer_setting,
        "lines": lines,
    }
    return transfers, extra


def settle_table(table: Table, available: Mapping[int, int]) -> Result:
    """Settle a table whose hands are all in; ``available``: each player's balance + escrow."""
    spec = table.spec
    assert table.game_id is not None
    if spec.family is Family.PYRAMID:
        transfers, extra = _pyramid(table, spec)
    else:
        transfers, extra = _house(table, spec)
    capped, notes = cap_losses(
        transfers, {party(user): amount for user, amount in available.items()}
    )
    nets_by_party = balances(capped)
    nets = {seat.user: nets_by_party.get(party(seat.user), 0) for seat in table.seats}
    pot = sum(t.amount for t in capped if t.payee == POT)
    pot_winners = tuple(sorted({int(t.payee) for t in capped if t.payer == POT}))
    per_hand: dict[int, tuple[int, ...]] = extra["per_hand"]
    seats = tuple(
        SeatResult(
            user=seat.user,
            surrendered_at=seat.surrendered_at,
            hands=_hands(seat),
            labels=hand_labels(spec, _hands(seat)) if seat.setting else (),
            automatic=seat.automatic,
            net=nets[seat.user],
            per_hand=per_hand.get(seat.user, ()),
        )
        for seat in table.seats
    )
    dealer: Setting | None = extra["dealer"]
    event = ShowdownSettled(
        game_id=table.game_id,
        game=spec.name,
        seats=seats,
        matrix=extra["matrix"],
        matrix_players=extra["matrix_players"],
        nets=nets,
        house=nets_by_party.get(HOUSE, 0),
        pot=pot,
        pot_winners=pot_winners,
        dealer_hands=() if dealer is None else dealer.hands,
        dealer_labels=() if dealer is None else hand_labels(spec, dealer.hands),
        dealer_per_hand=extra.get("dealer_per_hand", ()),
        notes=(*extra.get("lines", ()), *notes),
    )
    record = {
        "game": spec.name,
        "ante": table.config.ante,
        "players": list(table.players),
        "settings": {str(s.user): s.setting for s in table.seats if s.setting},
        "automatics": {str(s.user): s.automatic for s in table.seats if s.automatic},
        "surrendered": {
            str(s.user): s.surrendered_at for s in table.seats if s.surrendered_at is not None
        },
        "matrix": [list(row) for row in event.matrix],
        "matrix_players": list(event.matrix_players),
        "pot": pot,
        "pot_winners": list(pot_winners),
        "dealer": None if dealer is None else dealer.text,
        "notes": [{"user": note.user, "text": note.text} for note in notes],
    }
    return Result(capped, event, record)
