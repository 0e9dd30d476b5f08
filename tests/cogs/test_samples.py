"""The sample pictures in docs/ are what the bot's own picture code draws today."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from cogs.samples import DOCS, main

SAMPLES = ("sample-showdown.png", "sample-hand.png")


def _pixels(path: Path) -> tuple[tuple[int, int], bytes]:
    with Image.open(path) as image:
        return image.size, image.convert("RGB").tobytes()


@pytest.mark.slow
def test_the_committed_samples_are_current(tmp_path: Path) -> None:
    assert main([str(tmp_path)]) == 0
    for name in SAMPLES:
        # Pixels, not bytes: another zlib may pack the same picture differently.
        is_current = _pixels(tmp_path / name) == _pixels(DOCS / name)
        assert is_current, f"docs/{name} is out of date: run python -m cogs.samples"
