"""Events as JSON and back, so the outbox can keep them in the database until they are shown.

The encoding follows each event's type hints: cards become their codes, tuples lists, mappings
lists of pairs (their keys are user ids, which JSON objects would turn into text), and a nested
dataclass an object of its fields. Decoding reads the same hints, so an event comes back equal.
A field missing from the JSON takes its default: a row queued by the previous version of the bot,
before the field was added, still decodes (a new field gets a default for that reason). Any
other frozen value made of the same parts (a settled game's record) goes through
``encode_value`` and ``decode_value``.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, TypeVar

from engine.cards import AnyCard, Card, Joker, card_from_code
from engine.errors import GameError
from tables import events
from tables.events import Event

T = TypeVar("T")
#: The values JSON keeps as they are.
_PLAIN = (bool, int, float, str)
#: Every event type by name (the outbox stores the name beside the fields).
EVENT_TYPES: dict[str, type[Event]] = {
    name: value
    for name, value in vars(events).items()
    if isinstance(value, type) and issubclass(value, Event) and value is not Event
}


def encode_event(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data."""
    return {"type": type(event).__name__, "fields": _encode(event)}


def decode_event(data: dict[str, Any]) -> Event:
    """The event ``encode_event`` wrote; ``GameError`` if it is not one."""
    kind = EVENT_TYPES.get(str(data.get("type")))
    if kind is None:
        raise GameError(f"Unknown event type {data.get('type')!r}.")
    if "fields" not in data:
        raise GameError(f"A stored {kind.__name__} is damaged (no fields).")
    return decode_value(kind, data["fields"])


def encode_value(value: Any) -> Any:
    """Any value made of what events are made of (a frozen dataclass of them) as JSON-ready data."""
    return _encode(value)


def decode_value(kind: type[T], data: Any) -> T:
    """The ``kind`` that ``encode_value`` wrote; ``GameError`` if the data is not one."""
    try:
        decoded: T = _decode(kind, data)
    except (KeyError, TypeError, ValueError) as error:
        raise GameError(f"A stored {kind.__name__} is damaged ({error}).") from error
    return decoded


def _encode(value: Any) -> Any:
    if isinstance(value, Card | Joker):
        return value.code
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return [[_encode(k), _encode(v)] for k, v in value.items()]
    return value


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def _has_default(field: dataclasses.Field[Any]) -> bool:
    return (
        field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
    )


def _decode(hint: Any, value: Any) -> Any:
    if hint is AnyCard:
        return card_from_code(int(value))
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in arguments:
            return None
        arms = [a for a in arguments if a is not type(None)]
        if len(arms) == 1:
            return _decode(arms[0], value)
        # Plain values only (an option's value: bool | int | str): JSON's own type picks the arm.
        if type(value) in arms and type(value) in _PLAIN:
            return value
        raise TypeError(f"expected {hint!r}, got {type(value).__name__}")
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return tuple(_decode(arguments[0], item) for item in value)
        return tuple(_decode(a, item) for a, item in zip(arguments, value, strict=True))
    if origin is dict:
        return {_decode(arguments[0], k): _decode(arguments[1], v) for k, v in value}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        fields = {
            f.name: _decode(hints[f.name], value[f.name])
            for f in dataclasses.fields(hint)
            # A field the writer did not know yet is left to its default.
            if f.name in value or not _has_default(f)
        }
        return hint(**fields)
    if hint in (int, float, str, bool):
        if not isinstance(value, hint) and not (hint is float and isinstance(value, int)):
            raise TypeError(f"expected {hint.__name__}, got {type(value).__name__}")
        return hint(value)
    raise TypeError(f"cannot decode {hint!r}")
