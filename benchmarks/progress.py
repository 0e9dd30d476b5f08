"""A progress bar for the long command-line runs, on a terminal only (logs stay clean)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(items: Iterable[T], *, total: int | None = None, what: str = "") -> Iterator[T]:
    """``items``, with a bar on stderr while it runs if stderr is a terminal."""
    yield from tqdm(items, total=total, desc=what, disable=not sys.stderr.isatty(), leave=False)
