"""The field model: what a hand is worth at each position against the hands a field sets there.

Per variant and position p the field is a sorted sample of opponents' keys. Against one opponent,
v_p(key) = P(win) · points_won(p, key) - E[points lost], where a lost position costs the
opponent's own special points (seed 000 "Individual Showdown": the winner scores its own hand's
points); ties score nothing. Both parts are read off the sample with bisect.

The model reads a key's ranks only (``rank_part``): hands equal in ranks count as a tie against
the field. Suits decide very few matchups, and without them the values of one deal's hands are
mostly already known from earlier deals, which makes a solve several times faster. Legality
(the order rule) still uses the full keys.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from engine.cards import JOKER_CODE
from engine.evaluate import evaluator
from engine.lookups import encode, ladder_of
from engine.scoring import slot_points
from engine.variants import CASINO, NO_SURRENDER, SHOWDOWN, STANDARD, Variant

Key = tuple[int, ...]

DATA_DIR: Final = Path(__file__).resolve().parent / "data"
#: Standard deals the same 17 cards under the same rules as No-Surrender; only the x2 differs,
#: and points are applied from the variant at load, so both read one field file.
#: Keys whose values are remembered before the memory is cleared and refilled.
_MEMO_LIMIT: Final = 1 << 17
_DATA_NAME: Final = {
    SHOWDOWN.name: "showdown",
    CASINO.name: "casino",
    STANDARD.name: "no-surrender",
    NO_SURRENDER.name: "no-surrender",
}


#: Above every suit: ``rank_part + (_ABOVE,)`` sorts after every key with those ranks.
_ABOVE: Final = 99


def rank_part(key: Key) -> Key:
    """The key up to its rank/suit separator: category and ranks, no suits."""
    return key[: key.index(0, 1) + 1]


@dataclass(frozen=True, slots=True)
class PositionField:
    """The field's keys at one position, sorted, with the points of every key from each on."""

    keys: tuple[Key, ...]
    #: ``points_from[i]`` = points the hands ``keys[i:]`` score when they win (length n + 1).
    points_from: tuple[int, ...]
    #: Best points a winner can score with a hand whose ladder is at most the index.
    best_points: tuple[int, ...]


class FieldModel:
    """v_p(key) for every position of one variant, and upper bounds on it below a cap."""

    def __init__(self, variant: Variant, samples: Sequence[Sequence[Key]]) -> None:
        if len(samples) != len(variant.slots) or not all(samples):
            raise ValueError("a field model needs a non-empty sample for every position")
        self.variant = variant
        self.fields = tuple(
            _position_field(variant, position, sample) for position, sample in enumerate(samples)
        )
        self._values: dict[tuple[int, Key], float] = {}
        self._rank_values: list[dict[Key, float]] = [{} for _ in self.fields]
        self._values_by_rank: list[dict[int, float]] = [{} for _ in self.fields]
        self._rank_ints: list[list[int] | None] = [None for _ in self.fields]
        self._bounds_by_rank: list[dict[int, float]] = [{} for _ in self.fields]
        self._bounds_at: list[dict[Key, float]] = [{} for _ in self.fields]
        self._bounds: dict[tuple[int, Key], float] = {}
        self._scores: dict[Key, tuple[tuple[float, float], ...]] = {}

    def value(self, position: int, key: Key) -> float:
        """v_p(key): expected points against one player of the field at this position."""
        ranks = rank_part(key)
        memo = (position, ranks)
        found = self._values.get(memo)
        if found is None:
            field = self.fields[position]
            below = bisect_left(field.keys, ranks)
            above = bisect_right(field.keys, (*ranks, _ABOVE))
            won = below * slot_points(self.variant, position, ranks)
            found = (won - field.points_from[above]) / len(field.keys)
            self._values[memo] = found
        return found

    def values(self, position: int, rank_parts: Sequence[Key]) -> list[float]:
        """v_p of each of these rank parts (keys cut after their ranks), remembered per position."""
        memo = self._rank_values[position]
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        out = []
        for ranks in rank_parts:
            found = memo.get(ranks)
            if found is None:
                found = memo[ranks] = self.value(position, ranks)
            out.append(found)
        return out

    def rank_ints(self, position: int) -> list[int]:
        """The field's keys at a position as rank part integers (``engine.lookups.encode``),
        in the keys' order (made when first needed)."""
        found = self._rank_ints[position]
        if found is None:
            keys = self.fields[position].keys
            found = self._rank_ints[position] = [encode(rank_part(key)) for key in keys]
        return found

    def value_of_rank(self, position: int, rank: int) -> float:
        """``value`` of a rank part integer (``Evaluator.rank``), the same sums on integers."""
        field = self.fields[position]
        ranks = self.rank_ints(position)
        below = bisect_left(ranks, rank)
        above = bisect_right(ranks, rank)
        # The ladder place and the first rank are all slot_points reads of a key.
        won = below * slot_points(self.variant, position, (ladder_of(rank), rank >> 20 & 15))
        return (won - field.points_from[above]) / len(field.keys)

    def values_of_ranks(self, position: int, ranks: Sequence[int]) -> list[float]:
        """v_p of rank part integers (``Evaluator.rank``), remembered per position by integer:
        a solve meets thousands, mostly known."""
        memo = self._values_by_rank[position]
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        get = memo.get
        out = [get(rank) for rank in ranks]
        if None in out:
            for i, rank in enumerate(ranks):
                if out[i] is None:
                    out[i] = memo[rank] = self.value_of_rank(position, rank)
        return out  # type: ignore[return-value]

    def bound_at_rank(self, position: int, cap: int) -> float:
        """``bound_at`` of a rank part integer, the same sums on integers (remembered)."""
        bounds = self._bounds_by_rank[position]
        found = bounds.get(cap)
        if found is not None:
            return found
        if len(bounds) >= _MEMO_LIMIT:
            bounds.clear()
        field = self.fields[position]
        below = bisect_left(self.rank_ints(position), cap)
        best = field.best_points[min(ladder_of(cap), len(field.best_points) - 1)]
        lower = (below * best - field.points_from[below]) / len(field.keys)
        memo = self._values_by_rank[position]
        value = memo.get(cap)
        if value is None:
            value = memo[cap] = self.value_of_rank(position, cap)
        found = bounds[cap] = value if value > lower else lower
        return found

    def bound(self, position: int, cap: Key | None) -> float:
        """An upper bound of v_p(key) over every key ≤ cap (None: any key).

        For key ≤ cap, the key's ranks are at most the cap's: wins ≤ #(sample with ranks ≤ the
        cap's), points won ≤ the best points of a ladder ≤ the cap's, and the loss ≥ the points of
        the sample with ranks above the cap's; so the bound holds for every such key.
        """
        cap = None if cap is None else rank_part(cap)
        memo = (position, cap or ())
        found = self._bounds.get(memo)
        if found is None:
            field = self.fields[position]
            if cap is None:
                at_most, best = len(field.keys), field.best_points[-1]
            else:
                at_most = bisect_right(field.keys, (*cap, _ABOVE))
                best = field.best_points[min(cap[0], len(field.best_points) - 1)]
            found = (at_most * best - field.points_from[at_most]) / len(field.keys)
            self._bounds[memo] = found
        return found

    def bound_at(self, position: int, cap: Key) -> float:
        """A tighter ``bound``: the most v_p can be for a key whose rank part is at most cap's.

        A key with the cap's rank part is worth v_p(cap) exactly; one whose rank part is lower
        wins at most against the sample strictly below the cap, scores at most the best points
        of a ladder ≤ the cap's, and loses at least the points of the sample from the cap up.
        Remembered per position and cap.
        """
        memo = self._bounds_at[position]
        found = memo.get(cap)
        if found is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            ranks = rank_part(cap)
            field = self.fields[position]
            below = bisect_left(field.keys, ranks)
            best = field.best_points[min(ranks[0], len(field.best_points) - 1)]
            lower = (below * best - field.points_from[below]) / len(field.keys)
            value = self.value(position, ranks)
            found = memo[cap] = value if value > lower else lower
        return found

    def scores(self, key: Key) -> tuple[tuple[float, float], ...]:
        """Per position: (v_p(key) + Σ_{q<p} bound_q(key), v_p(key)), remembered per key.

        The first is the search's bound for an arrangement whose slot p holds this key: every
        weaker slot lies below it under the order rule.
        """
        ranks = key[: key.index(0, 1) + 1]
        found = self._scores.get(ranks)
        if found is None:
            out = []
            below = 0.0
            top = (*ranks, _ABOVE)
            # value() and bound() inlined: one pair of bisects per position on this hot path.
            for position, field in enumerate(self.fields):
                keys, points_from = field.keys, field.points_from
                at_most = bisect_right(keys, top)
                won = bisect_left(keys, ranks, 0, at_most) * slot_points(
                    self.variant, position, ranks
                )
                value = (won - points_from[at_most]) / len(keys)
                out.append((value + below, value))
                best = field.best_points[min(ranks[0], len(field.best_points) - 1)]
                below += (at_most * best - points_from[at_most]) / len(keys)
            found = tuple(out)
            if len(self._scores) >= _MEMO_LIMIT:
                self._scores.clear()
                self._values.clear()
                self._bounds.clear()
            self._scores[ranks] = found
        return found

    def to_json(self) -> list[list[list[int]]]:
        """The samples, as stored in a data file."""
        return [[list(key) for key in field.keys] for field in self.fields]


def _position_field(variant: Variant, position: int, sample: Sequence[Key]) -> PositionField:
    keys = tuple(sorted(tuple(key) for key in sample))
    points_from = [0] * (len(keys) + 1)
    for i in range(len(keys) - 1, -1, -1):
        points_from[i] = points_from[i + 1] + slot_points(variant, position, keys[i])
    top = max(key[0] for key in keys)
    slot = variant.slots[position]
    ladders = max(top, *(special.ladder for special in slot.specials), 0) + 1
    win = variant.win_points * variant.multiplier
    best: list[int] = []
    for ladder in range(ladders):
        fitting = [s.points * variant.multiplier for s in slot.specials if s.ladder <= ladder]
        best.append(max([win, *fitting]))
    return PositionField(keys, tuple(points_from), tuple(best))


def thin(sample: Sequence[Key], size: int) -> list[Key]:
    """Every k-th key of the sorted sample (its quantiles), so data files stay small."""
    ordered = sorted(sample)
    if len(ordered) <= size:
        return ordered
    step = len(ordered) / size
    return [ordered[int(i * step + step / 2)] for i in range(size)]


def data_path(variant: Variant) -> Path:
    """Where the variant's field data file lives."""
    return DATA_DIR / f"{_DATA_NAME[variant.name]}.json"


def save_model(model: FieldModel, path: Path, meta: dict[str, int | str]) -> None:
    """Write the field samples (keys only: points come from the variant at load)."""
    payload = {**meta, "positions": model.to_json()}
    path.write_text(json.dumps(payload, separators=(",", ":")) + "\n", encoding="utf-8")


_LOADED: dict[str, FieldModel] = {}


def load_model(variant: Variant) -> FieldModel:
    """The variant's learned field model (or the bootstrap field if no data file exists)."""
    found = _LOADED.get(variant.name)
    if found is None:
        path = data_path(variant)
        if path.exists():
            payload = json.loads(path.read_text(encoding="utf-8"))
            samples = [[tuple(key) for key in keys] for keys in payload["positions"]]
            found = FieldModel(variant, samples)
        else:
            found = bootstrap_model(variant, random.Random(0))
        _LOADED[variant.name] = found
    return found


def bootstrap_model(variant: Variant, rng: random.Random, deals: int = 400) -> FieldModel:
    """Round 0 of training: each deal, random hands of each slot's base size, sorted into slots.

    A crude field, but ordered like a real one (weakest slot lowest); self-play refits it.
    """
    shoe = [JOKER_CODE] * variant.jokers + [
        rank * 4 + suit for _ in range(variant.decks) for rank in range(2, 15) for suit in range(4)
    ]
    keyer = evaluator(variant.hand_rules)
    sizes = [min(slot.allowed_sizes) for slot in variant.slots]
    samples: list[list[Key]] = [[] for _ in sizes]
    for _ in range(deals):
        dealt = rng.sample(shoe, sum(sizes))
        keys: list[Key] = []
        start = 0
        for size in sizes:
            keys.append(keyer.key(dealt[start : start + size]))
            start += size
        # Sort within each size so a 3-card hand never lands in a 5-card slot.
        for size in set(sizes):
            where = [i for i, s in enumerate(sizes) if s == size]
            for i, key in zip(where, sorted(keys[i] for i in where), strict=True):
                samples[i].append(key)
    return FieldModel(variant, samples)
