"""``python -m engine solve``: the best arrangement of a holding, as JSON or text.

With ``--cards`` it sets one holding; without, it reads one holding per line from stdin and
answers each with one JSON line as soon as it is set (as ``evaluate`` does), so a tool solves
many holdings in one warm process: the evaluator's lookups and the field model load once.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from engine.arrangement import the
from engine.cards import format_cards, parse_cards
from engine.cli_input import (
    MAX_LINE_CHARS,
    excerpt,
    milliseconds,
    read_lines,
    refuse_long,
    write_json,
)
from engine.errors import GameError
from engine.evaluate import evaluate
from engine.solver.solve import Solution, solve
from engine.variants import variant_named

#: A Discord interaction must be answered within a few seconds: stop searching after this.
DEFAULT_BUDGET_S = 1.5


def solution_json(solution: Solution, variant_name: str) -> dict[str, Any]:
    """A solution as the JSON object of ``solve --json`` (slots weakest first)."""
    variant = variant_named(variant_name)
    arrangement = solution.arrangement
    jokers: dict[str, list[str]] = {}
    for slot, hand in zip(variant.slots, arrangement.hands, strict=True):
        value = evaluate(hand, variant.hand_rules)
        if value.jokers:
            jokers[slot.name] = [str(card) for card in value.jokers]
    return {
        "hands": [[str(card) for card in hand] for hand in arrangement.hands],
        "discards": [str(card) for card in arrangement.discards or ()],
        "jokers": jokers,
        "automatic": solution.automatic.value if solution.automatic else None,
        "ev": round(solution.ev, 4),
        "exact": solution.exact,
        "ms": round(solution.ms, 1),
    }


def _text(solution: Solution, variant_name: str) -> str:
    variant = variant_named(variant_name)
    lines = [f"{solution.arrangement}"]
    for slot, hand in zip(variant.slots, solution.arrangement.hands, strict=True):
        lines.append(
            f"  {the(slot)}: {format_cards(hand)} ({evaluate(hand, variant.hand_rules).label})"
        )
    if solution.automatic:
        lines.append(f"  declare the automatic: {solution.automatic.title}")
    proof = "best under the model" if solution.exact else "best found in the time allowed"
    lines.append(f"  EV {solution.ev:+.3f} points per opponent, {proof}, {solution.ms:.0f} ms")
    return "\n".join(lines) + "\n"


def _solve_lines(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """One JSON answer per holding read from stdin, flushed at once; 1 if any line failed."""
    status = 0
    for line, length in read_lines((), stdin):
        try:
            refuse_long(length, MAX_LINE_CHARS, "This line")
            variant = variant_named(args.variant)
            solution = solve(variant, parse_cards(line), budget_s=args.budget_ms / 1000)
            answer = {"input": line, **solution_json(solution, args.variant)}
        except GameError as error:
            answer = {"input": excerpt(line, length), "error": str(error)}
            status = 1
        write_json(stdout, answer)
        stdout.flush()  # a tool waiting on this line's answer gets it before the next is read
    return status


def add_solve(parser: argparse.ArgumentParser) -> None:
    """Fill the parser of the ``solve`` subcommand."""
    parser.add_argument("--variant", default="showdown", help="showdown, casino, standard, …")
    parser.add_argument(
        "--cards", help='the holding, e.g. "As Kd W ..." (default: one holding per stdin line)'
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--budget-ms",
        type=milliseconds,
        default=DEFAULT_BUDGET_S * 1000,
        help="search time limit (per holding)",
    )

    def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
        if args.cards is None:
            return _solve_lines(args, stdin, stdout)
        try:
            variant = variant_named(args.variant)
            refuse_long(len(args.cards), MAX_LINE_CHARS, "--cards")
            held = parse_cards(args.cards)
            solution = solve(variant, held, budget_s=args.budget_ms / 1000)
        except GameError as error:
            write_json(stdout, {"input": excerpt(args.cards), "error": str(error)})
            return 1
        if args.json:
            write_json(stdout, solution_json(solution, args.variant))
        else:
            stdout.write(_text(solution, args.variant))
        return 0

    parser.set_defaults(run=run)
