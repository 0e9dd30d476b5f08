"""What ``python -m engine`` reads and writes: capped lines and JSON, short excerpts, sentences."""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any, Final, TextIO

from engine.errors import GameError
from engine.names import game_name

#: The longest line read: a 25-card arrangement with its discards takes about 100 characters.
MAX_LINE_CHARS: Final = 1_000
#: The longest table ``score`` reads: six players, pretty-printed, take a few thousand.
MAX_TABLE_CHARS: Final = 50_000
#: A table nests five deep (table, players, player, hands, hand); deeper JSON is refused
#: before parsing, since Python's parser recurses once per level.
MAX_JSON_DEPTH: Final = 10
#: How much of a refused input is echoed back.
EXCERPT_CHARS: Final = 80
_CHUNK: Final = 1 << 16
#: JSON strings (whose brackets do not nest) and brackets.
_NESTING: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def excerpt(text: str, length: int | None = None) -> str:
    """An input fit to echo back: all of a short one, else its start, "…" and its length."""
    total = len(text) if length is None else length
    if total <= EXCERPT_CHARS:
        return text
    return f"{text[:EXCERPT_CHARS]}… ({total:,} characters)"


def refuse_long(length: int, limit: int, what: str) -> None:
    """Raise ``GameError`` naming the limit when an input is longer than ``limit``."""
    if length > limit:
        raise GameError(
            f"{what} is {length:,} characters long, over the limit of {limit:,} characters."
        )


def _skip_line(stdin: TextIO) -> int:
    """Read to the end of the line without keeping it; the characters skipped, newline aside."""
    skipped = 0
    while chunk := stdin.readline(_CHUNK):
        if chunk.endswith("\n"):
            return skipped + len(chunk) - 1
        skipped += len(chunk)
    return skipped


def read_lines(arguments: Sequence[str], stdin: TextIO) -> Iterator[tuple[str, int]]:
    """Each non-blank line, stripped, with its length: the arguments if any, else stdin's lines.

    A line longer than ``MAX_LINE_CHARS`` is never held whole: only its start (enough for an
    excerpt) comes back, with its full length, which the caller refuses.
    """
    if arguments:
        for raw in arguments:
            text = raw.strip()
            if text:
                yield text[: MAX_LINE_CHARS + 1], len(text)
        return
    while raw := stdin.readline(MAX_LINE_CHARS + 1):
        if len(raw) > MAX_LINE_CHARS and not raw.endswith("\n"):
            yield raw, len(raw) + _skip_line(stdin)
            continue
        text = raw.strip()
        if text:
            yield text, len(text)


def read_capped(stdin: TextIO, limit: int) -> tuple[str, int]:
    """At most ``limit`` + 1 characters of stdin, and how many it held in all."""
    text = stdin.read(limit + 1)
    length = len(text)
    if length > limit:
        while chunk := stdin.read(_CHUNK):
            length += len(chunk)
    return text, length


def load_json(text: str) -> object:
    """The JSON value of ``text``; a ``GameError`` sentence for anything that is not one."""
    depth = 0
    for match in _NESTING.finditer(text):
        mark = match.group()
        if mark in ("[", "{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise GameError(
                    f"The input is nested more than {MAX_JSON_DEPTH} levels deep;"
                    " a table needs five."
                )
        elif mark in ("]", "}"):
            depth -= 1
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise GameError(f"The input is not JSON: {error.msg} at line {error.lineno}.") from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise GameError("The input holds a number too long to read.") from None


def write_json(stdout: TextIO, answer: dict[str, Any]) -> None:
    """One JSON line, escaped to ASCII when the output cannot carry every character."""
    text = json.dumps(answer, ensure_ascii=False)
    try:
        text.encode(getattr(stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(answer)
    stdout.write(text + "\n")


def game_argument(text: str) -> str:
    """A ``--variant`` argument as the game's one name (argparse reports the sentence)."""
    try:
        return game_name(text)
    except GameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def at_least_one(text: str) -> int:
    """An argument that is a whole number, at least 1 (argparse reports the sentence)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"give a whole number of at least 1, not {text!r}")
    return value


def milliseconds(text: str) -> float:
    """An argument that is a time in milliseconds: a number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"give a number of milliseconds, 0 or more, not {text!r}")
    return value
