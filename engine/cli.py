"""The engine's command line: JSON lines in and out, a sentence (never a traceback) on bad input."""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from engine.cards import parse_cards
from engine.cli_input import (
    MAX_LINE_CHARS,
    excerpt,
    game_argument,
    read_lines,
    refuse_long,
    write_json,
)
from engine.errors import GameError
from engine.evaluate import HAND_RULES, HandRules, HandValue, compare_values, evaluate
from engine.names import GAME_NAMES


def value_json(value: HandValue) -> dict[str, Any]:
    """A hand value as the JSON object of ``python -m engine evaluate``."""
    return {
        "cards": [str(card) for card in value.cards],
        "size": value.size,
        "category": value.category.value,
        "key": list(value.key),
        "jokers": [str(card) for card in value.jokers],
        "name": value.name,
    }


def _evaluate_line(line: str, rules: HandRules) -> dict[str, Any]:
    return {"input": line, **value_json(evaluate(parse_cards(line), rules))}


def _compare_line(line: str, rules: HandRules) -> dict[str, Any]:
    parts = line.split("|")
    if len(parts) != 2:
        raise GameError("Write two hands separated by one |, like: As Ks | Qh Qd.")
    a = evaluate(parse_cards(parts[0]), rules)
    b = evaluate(parse_cards(parts[1]), rules)
    return {
        "input": line,
        "result": compare_values(a, b, rules),
        "a": value_json(a),
        "b": value_json(b),
    }


def _run_lines(
    handler: Callable[[str, HandRules], dict[str, Any]],
    arguments: Sequence[str],
    rules: HandRules,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    status = 0
    for line, length in read_lines(arguments, stdin):
        try:
            refuse_long(length, MAX_LINE_CHARS, "This line")
            out = handler(line, rules)
        except GameError as error:
            out = {"input": excerpt(line, length), "error": str(error)}
            status = 1
        write_json(stdout, out)
    return status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


#: A command: fills its parser; the parser's ``run`` default takes (args, stdin, stdout).
Command = Callable[[argparse.ArgumentParser], None]
Runner = Callable[[argparse.Namespace, TextIO, TextIO], int]


def _add_hand_command(
    handler: Callable[[str, HandRules], dict[str, Any]],
) -> Command:
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--variant", type=game_argument, choices=GAME_NAMES, default="showdown", metavar="GAME"
        )
        parser.add_argument("hands", nargs="*", help="hands (default: read lines from stdin)")

        def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
            return _run_lines(handler, args.hands, HAND_RULES[args.variant], stdin, stdout)

        parser.set_defaults(run=run)

    return add


# The other commands' modules are imported only when their command runs: the simulator brings
# numpy and process pools, which `solve` and `check` never use (a cold start pays for imports).
def _add_check(parser: argparse.ArgumentParser) -> None:
    from engine.cli_rules import add_check

    add_check(parser)


def _add_score(parser: argparse.ArgumentParser) -> None:
    from engine.cli_rules import add_score

    add_score(parser)


def _add_simulate(parser: argparse.ArgumentParser) -> None:
    from engine.cli_simulate import add_simulate_command

    add_simulate_command(parser)


def _add_solve(parser: argparse.ArgumentParser) -> None:
    from engine.solver.cli import add_solve

    add_solve(parser)


def commands() -> dict[str, tuple[str, Command]]:
    """Every subcommand of ``python -m engine``: name -> (help, how to add it)."""
    return {
        "evaluate": (
            "evaluate one hand per line (stdin) or per argument",
            _add_hand_command(_evaluate_line),
        ),
        "compare": ("compare lines 'HAND_A | HAND_B'", _add_hand_command(_compare_line)),
        "check": ("is an arrangement legal, and if not why", _add_check),
        "score": ("score a table read as JSON from stdin", _add_score),
        "simulate": ("measure a house game's edge by simulation", _add_simulate),
        "solve": ("the best arrangement of a Pyramid holding", _add_solve),
    }


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``python -m engine`` for these arguments.

    Only the command that ``argv`` names gets its arguments (and imports its module); the
    others are listed by name and help. Without ``argv``, every command gets its arguments.
    """
    parser = _Parser(prog="python -m engine", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    # The top-level parser has no option that takes a value, so the command is the first
    # argument that is not an option, as argparse reads it.
    chosen = None if argv is None else next((a for a in argv if not a.startswith("-")), "")
    for name, (help_text, add) in commands().items():
        command = subparsers.add_parser(name, help=help_text)
        if chosen is None or name == chosen:
            add(command)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser(argv).parse_args(argv)
    run: Runner = args.run
    if stdin is None:
        stdin = sys.stdin
        if isinstance(stdin, io.TextIOWrapper):
            # Bytes that are not text become U+FFFD, which no card or JSON accepts: a sentence.
            stdin.reconfigure(errors="replace")
    return run(args, stdin, stdout or sys.stdout)
