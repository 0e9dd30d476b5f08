"""A bounded memory of computed values that evicts what was not used lately, rather than
forgetting everything when full.

Two generations of dicts: new values go into the young one; when it holds ``limit`` values it
becomes the old one (the previous old one is dropped) and a new young one starts; a value found
in the old generation moves back into the young one. So whatever was used within the last
``limit`` stores stays, a working set of up to ``limit`` values stays warm however long it runs,
and a hit costs one dict lookup (the young generation) or two. It holds at most ``2 * limit``
values. (A dict cleared when full, as before, made a working set just above its limit miss on
every pass.)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Remembered values by key, at most ``2 * limit`` of them; ``young`` is read first.

    Values must not be None (None is "not remembered"). Hot paths read ``memo.young.get(key)``
    themselves and call ``recall`` on a miss.
    """

    __slots__ = ("limit", "old", "young")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a memo's limit is at least 1, not {limit}")
        self.limit = limit
        self.young: dict[K, V] = {}
        self.old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        """The value remembered for ``key``, or None."""
        found = self.young.get(key)
        return found if found is not None else self.recall(key)

    def recall(self, key: K) -> V | None:
        """The value the old generation remembers for ``key`` (moved into the young one), or
        None: what a reader does after missing the young generation."""
        found = self.old.pop(key, None)
        if found is not None:
            self.put(key, found)
        return found

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key``; the value, for ``found = memo.put(key, make())``."""
        young = self.young
        if len(young) >= self.limit:
            self.old = young
            young = self.young = {}
        young[key] = value
        return value

    def clear(self) -> None:
        """Forget everything."""
        self.young = {}
        self.old = {}

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def __contains__(self, key: object) -> bool:
        return key in self.young or key in self.old
