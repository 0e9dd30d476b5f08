"""The ``check`` and ``score`` commands of ``python -m engine``: JSON out, a reason on bad input."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, TextIO

from engine.arrangement import Arrangement, parse_arrangement, verify_arrangement
from engine.automatics import detect_automatics, verify_automatic
from engine.cards import AnyCard, parse_cards
from engine.cli_input import (
    MAX_LINE_CHARS,
    MAX_TABLE_CHARS,
    excerpt,
    game_argument,
    load_json,
    read_capped,
    read_lines,
    refuse_long,
    write_json,
)
from engine.errors import GameError, quote
from engine.evaluate import HandValue
from engine.scoring import PlayedHands, matchup, net_matrix, slot_points, totals
from engine.settlement import Seat, balances, settle
from engine.variants import VARIANTS, Automatic, Variant

_AUTOMATICS = {automatic.value: automatic for automatic in Automatic}
#: Discord's names hold at most 32 characters; a table's names are echoed in every sentence.
_MAX_NAME = 100


def _hand_json(variant: Variant, position: int, value: HandValue) -> dict[str, Any]:
    return {
        "slot": variant.slots[position].name,
        "cards": [str(card) for card in value.cards],
        "category": value.category.value,
        "name": value.label,
        "jokers": [str(card) for card in value.jokers],
        "key": list(value.key),
        "points": slot_points(variant, position, value),
    }


def _check_one(
    variant: Variant, held: Sequence[AnyCard] | None, text: str, automatic: Automatic | None
) -> dict[str, Any]:
    arrangement = parse_arrangement(text)
    if automatic is None:
        values = verify_arrangement(variant, held, arrangement)
    else:
        values = verify_automatic(variant, held, arrangement, automatic)
    out: dict[str, Any] = {
        "input": text,
        "legal": True,
        "hands": [_hand_json(variant, i, value) for i, value in enumerate(values)],
    }
    if held is not None and variant.automatics is not None:
        out["automatics"] = [found.value for found in detect_automatics(variant, held)]
    return out


def add_check(parser: argparse.ArgumentParser) -> None:
    """``check``: is an arrangement legal, and if not, why (one JSON object per arrangement)."""
    parser.add_argument(
        "--variant", type=game_argument, choices=tuple(VARIANTS), default="showdown", metavar="GAME"
    )
    parser.add_argument("--held", help="the cards the player holds (default: not checked)")
    parser.add_argument("--automatic", choices=tuple(_AUTOMATICS), help="declare an automatic")
    parser.add_argument(
        "arrangements", nargs="*", help="'As | Kh Kd Ks | ... || discards' (default: stdin lines)"
    )

    def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
        variant = VARIANTS[args.variant]
        automatic = _AUTOMATICS.get(args.automatic) if args.automatic else None
        status = 0
        for line, length in read_lines(args.arrangements, stdin):
            try:
                refuse_long(length, MAX_LINE_CHARS, "This line")
                held = None
                if args.held is not None:
                    refuse_long(len(args.held), MAX_LINE_CHARS, "--held")
                    held = parse_cards(args.held)
                out = _check_one(variant, held, line, automatic)
            except GameError as error:
                out = {"input": excerpt(line, length), "legal": False, "reason": str(error)}
                status = 1
            write_json(stdout, out)
        return status

    parser.set_defaults(run=run)


def _cards(raw: object) -> tuple[AnyCard, ...]:
    if isinstance(raw, str):
        return parse_cards(raw)
    if isinstance(raw, list) and all(isinstance(card, str) for card in raw):
        return parse_cards(" ".join(raw))
    raise GameError('A hand is a list of cards like ["As", "Kd"] or a string like "As Kd".')


def _name(raw: dict[str, Any], fallback: str) -> str:
    name = str(raw.get("name", fallback))
    if len(name) > _MAX_NAME:
        raise GameError(f"A name may hold at most {_MAX_NAME} characters; {quote(name)} is longer.")
    return name


def _played(variant: Variant, raw: object, fallback: str) -> PlayedHands:
    if not isinstance(raw, dict):
        raise GameError("Each player is an object with a name and hands.")
    name = _name(raw, fallback)
    hands = raw.get("hands")
    if isinstance(hands, str):
        arrangement = parse_arrangement(hands)
    elif isinstance(hands, list):
        arrangement = Arrangement(tuple(_cards(hand) for hand in hands))
    else:
        raise GameError(f"{name}: 'hands' must be a list of hands, weakest first.")
    declared = raw.get("automatic")
    try:
        if declared is None:
            values = verify_arrangement(variant, None, arrangement)
            return PlayedHands(name, values)
        automatic = _AUTOMATICS.get(str(declared))
        if automatic is None:
            raise GameError(f"There is no automatic called {quote(str(declared))}.")
        return PlayedHands(name, verify_automatic(variant, None, arrangement, automatic), automatic)
    except GameError as error:
        raise GameError(f"{name}: {error}") from None


def _seat(variant: Variant, raw: dict[str, Any], index: int) -> Seat:
    name = _name(raw, f"Player {index + 1}")
    surrendered = raw.get("surrendered")
    if raw.get("folded"):
        surrendered = 1
    ante = raw.get("ante")
    if ante is not None and (not isinstance(ante, int) or isinstance(ante, bool) or ante < 1):
        raise GameError(f"{name}: the ante is a whole number of chips, at least 1.")
    if surrendered is not None:
        if not isinstance(surrendered, int) or isinstance(surrendered, bool):
            raise GameError(f"{name}: 'surrendered' is the declaration number, 1 or 2.")
        return Seat(name, surrendered - 1, None, ante)
    played = _played(variant, raw, name)
    return Seat(name, None, played, ante)


def score_table(variant: Variant, table: object) -> dict[str, Any]:
    """The ``score`` answer for one table given as parsed JSON."""
    if not isinstance(table, dict) or not isinstance(table.get("players"), list):
        raise GameError('Give {"players": [{"name": ..., "hands": [[cards], ...]}, ...]}.')
    raw_players = table["players"]
    if not all(isinstance(raw, dict) for raw in raw_players):
        raise GameError("Each player is an object with a name and hands.")
    seats = [_seat(variant, raw, i) for i, raw in enumerate(raw_players)]
    played = [seat.hands for seat in seats if seat.hands is not None]
    dealer_hands = None
    if variant.against_dealer:
        raw_dealer = table.get("dealer")
        if raw_dealer is None:
            raise GameError('The Casino Version needs the dealer: "dealer": {"hands": [...]}.')
        dealer_hands = _played(variant, raw_dealer, "dealer")
        played.append(dealer_hands)
    if dealer_hands is not None:
        # Casino Version: each player meets only the dealer (RULINGS §3).
        matrix = tuple(
            tuple(
                matchup(variant, a, b).total if dealer_hands in (a, b) and a is not b else 0
                for b in played
            )
            for a in played
        )
    else:
        matrix = net_matrix(variant, played)
    per_hand = []
    for i, a in enumerate(played):
        for j in range(i + 1, len(played)):
            b = played[j]
            if variant.against_dealer and dealer_hands not in (a, b):
                continue
            result = matchup(variant, a, b)
            per_hand.append(
                {
                    "a": a.name,
                    "b": b.name,
                    "points": list(result.per_hand),
                    "automatic": result.automatic,
                    "total": result.total,
                }
            )
    dealer = table.get("dealer_seat", 0)
    transfers = settle(
        variant, seats, dealer=dealer if isinstance(dealer, int) else 0, dealer_hands=dealer_hands
    )
    return {
        "names": [p.name for p in played],
        "net": [list(row) for row in matrix],
        "totals": list(totals(matrix)),
        "per_hand": per_hand,
        "transfers": [
            {"from": t.payer, "to": t.payee, "amount": t.amount, "reason": t.reason}
            for t in transfers
        ],
        "chips": balances(transfers),
    }


def add_score(parser: argparse.ArgumentParser) -> None:
    """``score``: a table's net points and chip movements from JSON on stdin."""
    parser.add_argument(
        "--variant", type=game_argument, choices=tuple(VARIANTS), default="showdown", metavar="GAME"
    )

    def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
        text, length = read_capped(stdin, MAX_TABLE_CHARS)
        try:
            refuse_long(length, MAX_TABLE_CHARS, "The table")
            out = score_table(VARIANTS[args.variant], load_json(text))
            status = 0
        except GameError as error:
            out, status = {"input": excerpt(text, length), "error": str(error)}, 1
        write_json(stdout, out)
        return status

    parser.set_defaults(run=run)
