"""Rebuild the fallback fonts (the names in any script) and their coverage, from Debian's packages.

Run from the project's root with the development requirements installed (fontTools) on a machine
that reaches Debian's package registry::

    .venv/bin/python assets/fonts/build.py

It downloads the packages with ``apt-get download``, unpacks them with ``dpkg-deb``, cuts each
font to what names need (below), writes the fonts, each package's copyright file beside them, and
``coverage.json``: which characters each font of the chain draws, as ranges, which the pictures
read to choose a font for each character (render/fonts.py). tests/render/test_fonts.py checks
that the JSON matches the fonts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
PACKAGES = ("fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji")

#: Arabic letters, drawn by Noto Sans Arabic rather than DejaVu Sans (whose Arabic is partial).
ARABIC = [(0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFC)]
#: The CJK a name is written in: the unified ideographs of the basic plane (not the rare
#: Extension A), the kana, every Hangul syllable and jamo, and CJK punctuation and full-width
#: forms (about 33,000 characters).
CJK = [
    (0x1100, 0x11FF),
    (0x3000, 0x303F),
    (0x3040, 0x30FF),
    (0x3130, 0x318F),
    (0x31F0, 0x31FF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7A3),
    (0xF900, 0xFAFF),
    (0xFF00, 0xFFEF),
]
#: Skin tones are left out of the emoji (they would double the font): a name's 👍🏽 is drawn 👍.
SKIN_TONES = range(0x1F3FB, 0x1F400)


def codepoints(ranges: list[tuple[int, int]]) -> set[int]:
    """Every code point of the inclusive ranges."""
    return {point for low, high in ranges for point in range(low, high + 1)}


def ranges_of(points: set[int]) -> list[list[int]]:
    """Sorted code points as inclusive ``[low, high]`` ranges."""
    found: list[list[int]] = []
    for point in sorted(points):
        if found and found[-1][1] == point - 1:
            found[-1][1] = point
        else:
            found.append([point, point])
    return found


def cut(source: Path, target: Path, points: set[int], *, index: int = 0, layout: bool) -> None:
    """Keep only ``points`` of a font (and, with ``layout``, the shaping that joins them)."""
    font = TTFont(source, fontNumber=index)
    options = subset.Options()
    options.layout_features = ["*"] if layout else []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=points & set(font.getBestCmap()))
    subsetter.subset(font)
    font.save(target)


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        subprocess.run(["apt-get", "download", *PACKAGES], cwd=work, check=True)
        for deb in work.glob("*.deb"):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(work / "x")], check=True)
        root = work / "x" / "usr" / "share"
        noto = root / "fonts" / "truetype" / "noto"
        for weight in ("Regular", "Bold"):
            name = f"NotoSansArabic-{weight}.ttf"
            shutil.copyfile(noto / name, HERE / name)
        cut(
            root / "fonts" / "opentype" / "noto" / "NotoSansCJK-Regular.ttc",
            HERE / "NotoSansCJK-Subset.otf",
            codepoints(CJK),
            layout=False,
        )
        emoji = noto / "NotoColorEmoji.ttf"
        every = set(TTFont(emoji, lazy=True).getBestCmap())
        cut(emoji, HERE / "NotoColorEmoji-Subset.ttf", every - set(SKIN_TONES), layout=True)
        for package in PACKAGES:
            shutil.copyfile(root / "doc" / package / "copyright", HERE / f"LICENSE-{package}.txt")
    coverage = {}
    for path in sorted(HERE.glob("*.[ot]tf")):
        points = set(TTFont(path, lazy=True).getBestCmap())
        if path.name.startswith("DejaVuSans"):
            points -= codepoints(ARABIC)
        coverage[path.name] = ranges_of(points)
    (HERE / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n")
    for path in sorted(HERE.glob("*.[ot]tf")):
        print(f"{path.name}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
