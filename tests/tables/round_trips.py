"""Counting what a click waits for on PostgreSQL: each call of asyncpg's protocol that sends a
message and waits for the server's answer is one round trip, on whichever connection it runs
(the pool's, a lock session's)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest

#: The protocol's calls that each send one batch of messages and wait for its answer.
ROUND_TRIPS = frozenset(
    {
        "prepare",
        "bind_execute",
        "bind_execute_many",
        "bind",
        "execute",
        "close_portal",
        "query",
        "copy_out",
        "copy_in",
        "close_statement",
    }
)


@dataclass(frozen=True, slots=True)
class RoundTrip:
    """One wait for the server: the part of the click it belongs to, the call and its SQL."""

    part: str
    call: str
    sql: str


@dataclass
class RoundTrips:
    """Every round trip since the counting began, each noted with the part under way."""

    calls: list[RoundTrip] = field(default_factory=list)
    #: What the round trips are counted as now ("own": the action; "outbox": its lanes after).
    part: str = "own"

    def of(self, part: str) -> list[RoundTrip]:
        return [call for call in self.calls if call.part == part]

    def clear(self) -> None:
        self.calls.clear()

    def shown(self) -> str:
        """One line per round trip, for an assertion's message."""
        return "\n".join(
            f"{call.part:>6} {call.call}: {' '.join(call.sql.split())[:120]}" for call in self.calls
        )


class _CountingProtocol:
    """A connection's protocol, each round trip counted on its way to the real one."""

    def __init__(self, protocol: Any, counted: RoundTrips) -> None:
        object.__setattr__(self, "_protocol", protocol)
        object.__setattr__(self, "_counted", counted)

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._protocol, name)
        if name not in ROUND_TRIPS:
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            counted_ = self._counted
            counted_.calls.append(RoundTrip(counted_.part, name, _sql_of(name, args, kwargs)))
            return found(*args, **kwargs)

        return counted

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._protocol, name, value)


def _sql_of(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """The SQL a protocol call sends: a statement's query, or the text itself."""
    if name == "prepare":
        return str(args[1] if len(args) > 1 else kwargs.get("query", ""))
    first = args[0] if args else kwargs.get("state", kwargs.get("query", ""))
    return first if isinstance(first, str) else str(getattr(first, "query", ""))


@contextlib.contextmanager
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[RoundTrips]:
    """Count the round trips of every asyncpg connection opened from now on."""
    counted = RoundTrips()
    opened = asyncpg.connection.Connection.__init__

    def init(self: asyncpg.Connection, protocol: Any, *args: Any, **kwargs: Any) -> None:
        opened(self, protocol, *args, **kwargs)
        self._protocol = _CountingProtocol(self._protocol, counted)

    monkeypatch.setattr(asyncpg.connection.Connection, "__init__", init)
    yield counted
