"""Events as JSON and back, so the outbox can keep them in the database until they are shown.

The encoding follows each event's type hints: cards become their codes, tuples lists, mappings
lists of pairs (their keys are user ids, which JSON objects would turn into text), and a nested
dataclass an object of its fields; a `Text` (a sentence in no language yet) an object of its
message id, values, plural and count, so a text read back after a restart is still translated in
each reader's language. Decoding reads the same hints, so an event comes back equal.
A field missing from the JSON takes its default: a row queued by the previous version of the bot,
before the field was added, still decodes (a new field gets a default for that reason), and a
field that became a `Text` (typed ``str | Text``) still reads an older row's plain string. Any
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
from engine.text import Text, Where, Who, tr
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
        raise GameError(tr("Unknown event type {kind}.", kind=repr(data.get("type"))))
    if "fields" not in data:
        raise GameError(tr("A stored {kind} is damaged (no fields).", kind=kind.__name__))
    return decode_value(kind, data["fields"])


def encode_value(value: Any) -> Any:
    """Any value made of what events are made of (a frozen dataclass of them) as JSON-ready data."""
    return _encode(value)


def decode_value(kind: type[T], data: Any) -> T:
    """The ``kind`` that ``encode_value`` wrote; ``GameError`` if the data is not one."""
    try:
        decoded: T = _decode(kind, data)
    except (KeyError, TypeError, ValueError) as error:
        raise GameError(
            tr("A stored {kind} is damaged ({error}).", kind=kind.__name__, error=str(error))
        ) from error
    return decoded


#: The keys that mark a text and the players and channels it speaks of (no field has them).
TEXT_KEY = "$text"
WHO_KEY = "$who"
WHERE_KEY = "$where"


def encode_text(text: Text) -> dict[str, Any]:
    """A text as JSON-ready data: its message id, its values (texts, players, channels, lists
    and plain values), and its plural and count where it has them."""
    data: dict[str, Any] = {TEXT_KEY: text.msgid}
    if text.values:
        data["values"] = [[name, _encode_text_value(value)] for name, value in text.values]
    if text.plural is not None:
        data["plural"] = text.plural
        data["count"] = text.count
    return data


def decode_text(data: dict[str, Any]) -> Text:
    """The text ``encode_text`` wrote."""
    msgid = data[TEXT_KEY]
    if not isinstance(msgid, str):
        raise TypeError(f"expected a message id, got {type(msgid).__name__}")
    values = tuple((str(name), _decode_text_value(value)) for name, value in data.get("values", ()))
    plural = data.get("plural")
    count = data.get("count")
    return Text(
        msgid,
        values,
        None if plural is None else str(plural),
        None if count is None else int(count),
    )


def _encode_text_value(value: object) -> Any:
    if isinstance(value, Text):
        return encode_text(value)
    if isinstance(value, Who):
        return {WHO_KEY: value.user_id}
    if isinstance(value, Where):
        return {WHERE_KEY: value.channel_id}
    if isinstance(value, tuple | list):
        return [_encode_text_value(item) for item in value]
    if value is None or isinstance(value, _PLAIN):
        return value
    # Anything else a text shows with str() reads the same from its string.
    return str(value)


def _decode_text_value(value: Any) -> object:
    if isinstance(value, dict):
        if TEXT_KEY in value:
            return decode_text(value)
        if WHO_KEY in value:
            return Who(int(value[WHO_KEY]))
        if WHERE_KEY in value:
            return Where(int(value[WHERE_KEY]))
        raise TypeError("expected a text's value")
    if isinstance(value, list):
        return tuple(_decode_text_value(item) for item in value)
    return value


def _encode(value: Any) -> Any:
    if isinstance(value, Card | Joker):
        return value.code
    if isinstance(value, Text):
        return encode_text(value)
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
    if hint is Text:
        return decode_text(value)
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in arguments:
            return None
        arms = [a for a in arguments if a is not type(None)]
        if Text in arms:
            # A text, or the plain string an older row (or a not yet translated value) holds.
            if isinstance(value, dict):
                return decode_text(value)
            if isinstance(value, str) and str in arms:
                return value
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
