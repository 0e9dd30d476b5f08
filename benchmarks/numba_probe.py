"""What numba would buy the Showdown search: its hottest kernels in pure Python against @njit.

It probes the search as it was at 80f015f (rank parts as tuples, ``material(left)``); the search
has changed since (integer rank parts, ``material(left, ranks)``), so run it in an export of
that commit, from a scratch venv that holds numba (the project never imports this module or
numba):

  git archive 80f015f | tar -x -C /tmp/at-80f015f && cd /tmp/at-80f015f
  python3 -m venv /tmp/numba-venv
  /tmp/numba-venv/bin/pip install -r requirements.txt numba==0.68.0
  PYTHONPATH=. nice -n 10 /tmp/numba-venv/bin/python -m benchmarks.numba_probe

The kernels are the two leaves of the card bound that the search calls at nearly every node:
``_Search.fit`` (the scan for the strongest rank part the cards left make at a slot below a cap)
and ``_Search.material`` (how many disjoint groups of a rank, suit or run the cards left hold).
On the 20 Showdown deals of ``bench_solver`` (no budget, every answer proven) the script

1. times each whole search as the benchmark does, then searches each deal again with the two
   methods wrapped (on that one object only) to record every call's inputs and answer and the
   time spent inside them: the kernels' share of the search;
2. replays the recorded calls through the pure-Python methods and through equivalent @njit
   kernels, checks that every answer is identical, and times both: one call at a time from
   Python (what replacing the method would cost, arguments converted included) and all calls in
   one compiled loop (the floor, reached only if the whole node loop were compiled);
3. prints the compile time of the first calls, the time to import numba, the install size of
   numba, llvmlite and numpy, and an estimate of the Showdown p50 with the kernels replaced.

The compiled ``fit`` reads each slot's hands as arrays made from the search's groups; making
them is timed per search and counted. The estimate is arithmetic, not a measurement: per deal,
the search time less the kernels' measured time, plus their calls times numba's per-call cost
and the arrays' time.

Packed cards (4 bits per distinct card) and ranks counted per rank (5 bits per rank) are Python
integers wider than 64 bits; the kernels take them as two 60-bit words, split at field
boundaries, where the guard-bit subtraction never borrows across words.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from bisect import bisect_left
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.solver_deals import deals
from engine.evaluate import evaluator
from engine.solver import search as search_module
from engine.solver.model import load_model
from engine.variants import SHOWDOWN

_WORD = 60
_MASK = (1 << _WORD) - 1
_RUNS_AT = 5  # each replay is timed this many times; the fastest counts


def _words(value: int) -> tuple[int, int]:
    """A packed integer as its low and high 60-bit words."""
    return value & _MASK, value >> _WORD


class _Recorder:
    """Wraps one search object's ``fit`` and ``material``: inputs, answers, time inside."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.fits: list[tuple[int, int, int, Any, bool, Any]] = []
        self.fit_times: list[float] = []
        self.materials: list[tuple[int, tuple[int, ...]]] = []
        self.fit_s = 0.0
        self.material_s = 0.0
        fit = state.fit
        material = state.material
        clock = time.perf_counter

        def timed_fit(position: int, left: int, ranks: int, cap: Any, *, below: bool = False):
            started = clock()
            found = fit(position, left, ranks, cap, below=below)
            spent = clock() - started
            self.fit_s += spent
            self.fit_times.append(spent)
            self.fits.append((position, left, ranks, cap, below, found))
            return found

        def timed_material(left: int) -> tuple[int, ...]:
            started = clock()
            found = material(left)
            self.material_s += clock() - started
            self.materials.append((left, found))
            return found

        state.fit = timed_fit
        state.material = timed_material


def _solve(model: Any, held: list[int], recorder: bool) -> tuple[float, Any]:
    """One search as ``search.search`` runs it (no budget); its time and the search object."""
    codes = tuple(sorted(held))
    started = time.perf_counter()
    state = search_module._Search(SHOWDOWN, model, codes, float("inf"))
    watch = _Recorder(state) if recorder else None
    state.run(len(SHOWDOWN.slots) - 1, state.held_packed, None, 0, 0.0, state.held_ranks)
    return time.perf_counter() - started, watch or state


class _DealTables:
    """One deal's scans, recorded calls and cards as the arrays the @njit kernels read."""

    def __init__(self, np: Any, watch: _Recorder) -> None:
        state = watch.state
        self.union = sorted({rp for rps, _, _, _ in state.groups for rp in rps})
        #: Each rank part's odd code (2 x index + 1): caps between two get the even between.
        self.codes = {rp: 2 * i + 1 for i, rp in enumerate(self.union)}
        self.shift = state.joker_shift
        self.big_tail = state.big_tail
        self.glo, self.ghi = _words(state.guards)
        #: The slots and jokers left whose flat lists the search made (after enough scans).
        self.flat = set(state.scans)
        #: Per slot, the time to make its arrays, which a compiled ``fit`` needs in every search.
        self.setup_of: dict[int, float] = {}
        # The scans of the slots that the recorded calls use, as ``_Search.fit`` makes them (one
        # item per rank part and ranks, ascending, with the packed cards of its hands), one per
        # slot rather than per slot and jokers left: jokers count in rank 0's field, so a hand
        # needing more jokers than are left already fails the test of its ranks.
        self.scan_of: dict[int, int] = {}
        scans: list[int] = []  # flat rows: first item, end
        items: list[int] = []  # flat rows: rank part's code, ranks (two words), packs' range
        packs: list[int] = []  # flat rows: packed cards (two words)
        rank_of = state.rank_of
        for position in sorted({call[0] for call in watch.fits}):
            started = time.perf_counter()
            self.scan_of[position] = len(scans) // 2
            first = len(items) // 5
            rps, _, _, members = state.groups[position]
            for rp, group in zip(rps, members, strict=True):
                by_ranks: dict[int, list[int]] = {}
                for entry in group:
                    need = rank_of(entry)
                    found = by_ranks.get(need)
                    if found is None:
                        by_ranks[need] = [entry[2]]
                    else:
                        found.append(entry[2])
                code = self.codes[rp]
                for need, hands in by_ranks.items():
                    at = len(packs) // 2
                    items += (code, need & _MASK, need >> _WORD, at, at + len(hands))
                    for pack in hands:
                        packs += (pack & _MASK, pack >> _WORD)
            scans += (first, len(items) // 5)
            self.setup_of[position] = time.perf_counter() - started
        started = time.perf_counter()
        self.scans = np.array(scans, dtype=np.int64).reshape(-1, 2)
        self.items = np.array(items, dtype=np.int64).reshape(-1, 5)
        self.packs = np.array(packs, dtype=np.int64).reshape(-1, 2)
        self.fields = np.array(state.real_shifts, dtype=np.int64).reshape(-1, 3)
        self.setup_s = time.perf_counter() - started + sum(self.setup_of.values())
        self.fit_calls = np.array(
            [
                (
                    self.scan_of[position],
                    *_words(left),
                    *_words(ranks),
                    self.cap_code(cap),
                    below,
                )
                for position, left, ranks, cap, below, _ in watch.fits
            ],
            dtype=np.int64,
        ).reshape(-1, 7)
        self.fit_expected = np.array(
            [-1 if found is None else self.codes[found] for *_, found in watch.fits],
            dtype=np.int64,
        )
        self.material_calls = np.array(
            [_words(left) for left, _ in watch.materials], dtype=np.int64
        ).reshape(-1, 2)
        self.material_expected = np.array(
            [found for _, found in watch.materials], dtype=np.int64
        ).reshape(-1, 5)

    def cap_code(self, cap: Any) -> int:
        """A cap as an integer in the order of rank parts: odd if a rank part, even between."""
        if cap is None:
            return 2 * len(self.union) + 2
        found = self.codes.get(cap)
        return found if found is not None else 2 * bisect_left(self.union, cap)


def _kernels(njit: Callable[..., Any]) -> tuple[Any, ...]:
    """The @njit kernels: ``fit`` for one call and for many, ``material`` likewise."""
    rg_lo, rg_hi = _words(sum(16 << 5 * rank for rank in range(15)))
    windows = tuple(0b11111 << low for low in range(1, 11))
    run_bits = search_module._RANK_BITS

    @njit(cache=False)
    def fit_one(s, lo, hi, rlo, rhi, glo, ghi, cap, below, scans, items, packs):
        first = scans[s, 0]
        a = first
        b = scans[s, 1]
        while a < b:  # the first item above the cap (at or above it when ``below``)
            mid = (a + b) // 2
            c = items[mid, 0]
            if c < cap or (c == cap and not below):
                a = mid + 1
            else:
                b = mid
        held_lo = rlo | rg_lo
        held_hi = rhi | rg_hi
        gl = lo | glo
        gh = hi | ghi
        for k in range(a - 1, first - 1, -1):
            if (held_lo - items[k, 1]) & rg_lo == rg_lo and (
                held_hi - items[k, 2]
            ) & rg_hi == rg_hi:
                for m in range(items[k, 3], items[k, 4]):
                    if (gl - packs[m, 0]) & glo == glo and (gh - packs[m, 1]) & ghi == ghi:
                        return items[k, 0]
        return -1

    @njit(cache=False)
    def fit_many(calls, glo, ghi, out, scans, items, packs):
        for n in range(calls.shape[0]):
            out[n] = fit_one(
                calls[n, 0],
                calls[n, 1],
                calls[n, 2],
                calls[n, 3],
                calls[n, 4],
                glo,
                ghi,
                calls[n, 5],
                calls[n, 6] != 0,
                scans,
                items,
                packs,
            )

    @njit(cache=False)
    def groups(counts, a, b, size, jokers):
        # ``search._groups`` over counts[a:b]: whole groups, then jokers complete the largest
        # remainders first.
        whole = 0
        for i in range(a, b):
            whole += counts[i] // size
        for rest in range(size - 1, 0, -1):
            for i in range(a, b):
                if counts[i] % size == rest:
                    if jokers < size - rest:
                        return whole + jokers // size
                    jokers -= size - rest
                    whole += 1
        return whole + jokers // size

    @njit(cache=False)
    def material_one(lo, hi, fields, joker_at, big_tail, scratch):
        # scratch: cards per rank (15), per suit (4), ranks per suit as run masks (4)
        scratch[:] = 0
        jokers = 0
        if joker_at >= 0:
            jokers = ((lo if joker_at < 60 else hi) >> (joker_at % 60)) & 15
        for f in range(fields.shape[0]):
            at = fields[f, 2]
            n = ((lo if at < 60 else hi) >> (at % 60)) & 15
            if n:
                rank = fields[f, 0]
                suit = fields[f, 1]
                scratch[rank] += n
                scratch[15 + suit] += n
                scratch[19 + suit] |= run_bits[rank]
        flushes = 0
        for suit in range(4):
            cards = scratch[15 + suit] + jokers
            if cards >= 5:
                for window in windows:
                    mask = scratch[19 + suit] & window
                    bits = 0
                    while mask:
                        mask &= mask - 1
                        bits += 1
                    if bits + jokers >= 5:
                        flushes += cards // 5
                        break
        in_tail = min(flushes, big_tail)
        suited = 0
        for used in range(jokers + 1):
            both = groups(scratch, 0, 15, 3, used) + groups(scratch, 15, 19, 3, jokers - used)
            suited = max(suited, both)
        return (
            groups(scratch, 0, 15, 3, jokers) + in_tail,
            in_tail + suited,
            groups(scratch, 0, 15, 4, jokers) + flushes,
            groups(scratch, 0, 15, 5, jokers) + flushes,
            groups(scratch, 0, 15, 6, jokers) + flushes,
        )

    @njit(cache=False)
    def material_many(calls, fields, joker_at, big_tail, scratch, out):
        for n in range(calls.shape[0]):
            found = material_one(calls[n, 0], calls[n, 1], fields, joker_at, big_tail, scratch)
            for i in range(5):
                out[n, i] = found[i]

    return fit_one, fit_many, material_one, material_many


def _best(run: Callable[[], object]) -> float:
    """The fastest of several timings of ``run``, in seconds."""
    times = []
    for _ in range(_RUNS_AT):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def _install_size(*modules: Any) -> tuple[float, list[str]]:
    """Megabytes on disk of these packages (their folders, ``.libs`` and ``dist-info``)."""
    site = Path(modules[0].__file__).parent.parent
    names = []
    total = 0
    for entry in sorted(site.iterdir()):
        if not any(entry.name.lower().startswith(m.__name__) for m in modules):
            continue
        names.append(entry.name)
        for root, _, files in os.walk(entry):
            total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total / 1e6, names


def main() -> None:
    """Measure and print the figures."""
    started = time.perf_counter()
    try:
        import numba
        import numpy as np
    except ImportError:
        sys.exit(
            "numba is not installed here: run this probe from a scratch venv holding numba "
            "(see the module docstring), never from the project's venv."
        )
    import_s = time.perf_counter() - started
    load = os.getloadavg()
    print(f"numba {numba.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")

    model = load_model(SHOWDOWN)
    evaluator(SHOWDOWN.hand_rules)
    held_sets = deals(SHOWDOWN, 25, 20, seed=1, max_jokers=4)
    # 1. The searches as the benchmark times them, then again with the kernels recorded.
    plain = [_solve(model, held, False)[0] for held in held_sets]
    recorded: list[tuple[float, _Recorder]] = [_solve(model, held, True) for held in held_sets]
    watches = [watch for _, watch in recorded]
    tables = [_DealTables(np, watch) for watch in watches]
    fit_count = sum(len(w.fits) for w in watches)
    material_count = sum(len(w.materials) for w in watches)
    material_distinct = sum(len({left for left, _ in w.materials}) for w in watches)

    # 2. The kernels; compile times are the first calls.
    fit_one, fit_many, material_one, material_many = _kernels(numba.njit)
    scratch = np.zeros(23, dtype=np.int64)
    t = tables[0]
    row = t.fit_calls[0].tolist()
    clock = time.perf_counter
    t0 = clock()
    fit_one(*row[:5], t.glo, t.ghi, row[5], row[6] != 0, t.scans, t.items, t.packs)
    compile_fit = clock() - t0
    t0 = clock()
    fit_many(t.fit_calls[:1], t.glo, t.ghi, np.zeros(1, np.int64), t.scans, t.items, t.packs)
    compile_fit_many = clock() - t0
    row = t.material_calls[0].tolist()
    t0 = clock()
    material_one(row[0], row[1], t.fields, t.shift, t.big_tail, scratch)
    compile_material = clock() - t0
    t0 = clock()
    out = np.zeros((1, 5), np.int64)
    material_many(t.material_calls[:1], t.fields, t.shift, t.big_tail, scratch, out)
    compile_material_many = clock() - t0

    # Identical answers, every recorded call: compiled, and the Python method replayed.
    fit_outs = [np.zeros(len(t.fit_calls), np.int64) for t in tables]
    material_outs = [np.zeros((len(t.material_calls), 5), np.int64) for t in tables]
    fit_wrong = material_wrong = python_wrong = 0
    for t, fit_out, material_out, watch in zip(
        tables, fit_outs, material_outs, watches, strict=True
    ):
        fit_many(t.fit_calls, t.glo, t.ghi, fit_out, t.scans, t.items, t.packs)
        material_many(t.material_calls, t.fields, t.shift, t.big_tail, scratch, material_out)
        fit_wrong += int((fit_out != t.fit_expected).sum())
        material_wrong += int((material_out != t.material_expected).any(axis=1).sum())
        fit = search_module._Search.fit
        for position, left, ranks, cap, below, found in watch.fits:
            python_wrong += fit(watch.state, position, left, ranks, cap, below=below) != found

    # 3. Per-call times, each the fastest of several passes over every recorded call.
    def python_fit() -> None:
        # The method again on the same search objects (their flat lists made by now).
        fit = search_module._Search.fit
        for watch in watches:
            state = watch.state
            for position, left, ranks, cap, below, _ in watch.fits:
                fit(state, position, left, ranks, cap, below=below)

    def numba_fit_from_python() -> None:
        # As a compiled drop-in ``fit`` would run: words split, cap coded, answer decoded.
        for watch, t in zip(watches, tables, strict=True):
            scan_of, cap_code, union = t.scan_of, t.cap_code, t.union
            glo, ghi, scans, items, packs = t.glo, t.ghi, t.scans, t.items, t.packs
            for position, left, ranks, cap, below, _ in watch.fits:
                found = fit_one(
                    scan_of[position],
                    left & _MASK,
                    left >> _WORD,
                    ranks & _MASK,
                    ranks >> _WORD,
                    glo,
                    ghi,
                    cap_code(cap),
                    below,
                    scans,
                    items,
                    packs,
                )
                _ = None if found < 0 else union[found >> 1]

    rows_of = [t.fit_calls.tolist() for t in tables]

    def numba_fit_dispatch() -> None:
        # The same calls with every argument converted beforehand: the call itself.
        for t, rows in zip(tables, rows_of, strict=True):
            glo, ghi, scans, items, packs = t.glo, t.ghi, t.scans, t.items, t.packs
            for s, lo, hi, rlo, rhi, cap, below in rows:
                fit_one(s, lo, hi, rlo, rhi, glo, ghi, cap, below != 0, scans, items, packs)

    def numba_fit_loop() -> None:
        for t, fit_out in zip(tables, fit_outs, strict=True):
            fit_many(t.fit_calls, t.glo, t.ghi, fit_out, t.scans, t.items, t.packs)

    def numba_material_from_python() -> None:
        for watch, t in zip(watches, tables, strict=True):
            fields, shift, tail = t.fields, t.shift, t.big_tail
            for left, _ in watch.materials:
                material_one(left & _MASK, left >> _WORD, fields, shift, tail, scratch)

    def numba_material_loop() -> None:
        for t, material_out in zip(tables, material_outs, strict=True):
            material_many(t.material_calls, t.fields, t.shift, t.big_tail, scratch, material_out)

    py_fit_s = _best(python_fit)
    nb_fit_s = _best(numba_fit_from_python)
    nb_dispatch_s = _best(numba_fit_dispatch)
    nb_fit_loop_s = _best(numba_fit_loop)
    nb_material_s = _best(numba_material_from_python)
    nb_material_loop_s = _best(numba_material_loop)
    load_end = os.getloadavg()

    # 4. Shares and the estimate.
    fit_in_search = sum(w.fit_s for w in watches)
    material_in_search = sum(w.material_s for w in watches)
    recorded_total = sum(total for total, _ in recorded)
    setup = [t.setup_s for t in tables]
    estimate: list[float] = []
    without_arrays: list[float] = []
    hybrid: list[float] = []
    hybrid_calls = 0
    floor: list[float] = []
    for base, (total, watch), t in zip(plain, recorded, tables, strict=True):
        rest = base * (1 - (watch.fit_s + watch.material_s) / total)
        fits, materials = len(watch.fits), len(watch.materials)
        called = fits * nb_fit_s / fit_count + materials * nb_material_s / material_count
        without_arrays.append(rest + called)
        estimate.append(rest + called + t.setup_s)
        # Compiled only where the search made flat lists; elsewhere its scans of the groups stay.
        flat = [
            (call[0], 0 if t.shift < 0 else (call[1] >> t.shift) & 15) in t.flat
            for call in watch.fits
        ]
        replaced = sum(spent for spent, f in zip(watch.fit_times, flat, strict=True) if f)
        hybrid.append(
            base * (1 - (replaced + watch.material_s) / total)
            + sum(flat) * nb_fit_s / fit_count
            + materials * nb_material_s / material_count
            + sum(t.setup_of[p] for p in {p for p, _ in t.flat})
        )
        hybrid_calls += sum(flat)
        floor.append(
            rest
            + fits * nb_fit_loop_s / fit_count
            + materials * nb_material_loop_s / material_count
        )
    numba_mb, names = _install_size(numba, sys.modules["llvmlite"], np)

    def us(seconds: float, calls: int) -> str:
        return f"{seconds / calls * 1e6:.2f} µs"

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.0f} ms"

    p50 = statistics.median(plain)
    print(f"load average at end: {load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f}")
    print(
        f"Showdown, 20 deals, no budget: search p50 {ms(p50)}, total {sum(plain):.2f} s; "
        f"searched again with the kernels recorded: {recorded_total:.2f} s"
    )
    print(
        f"identical answers: fit {fit_count - fit_wrong:,} of {fit_count:,} (numba) and "
        f"{fit_count - python_wrong:,} (Python replayed); material "
        f"{material_count - material_wrong:,} of {material_count:,} (numba; "
        f"{material_distinct:,} distinct cards left, the rest answered by the search's memo)"
    )
    print()
    print(
        "| kernel | calls, 20 deals | share of search | pure Python per call "
        "| numba per call, called from Python | numba per call, in one compiled loop "
        "| first call (compile) |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        f"| `_Search.fit` (scan) | {fit_count:,} | {fit_in_search / recorded_total:.0%} "
        f"| {us(fit_in_search, fit_count)} in the search, {us(py_fit_s, fit_count)} replayed "
        f"| {us(nb_fit_s, fit_count)} ({us(nb_dispatch_s, fit_count)} with arguments ready) "
        f"| {us(nb_fit_loop_s, fit_count)} | {compile_fit:.2f} s (loop +{compile_fit_many:.2f} s) |"
    )
    print(
        f"| `_Search.material` | {material_count:,} | {material_in_search / recorded_total:.0%} "
        f"| {us(material_in_search, material_count)} in the search (memo hits included) "
        f"| {us(nb_material_s, material_count)} | {us(nb_material_loop_s, material_count)} "
        f"| {compile_material:.2f} s (loop +{compile_material_many:.2f} s) |"
    )
    print()
    print(
        f"speed-up against the time in the search: fit x{fit_in_search / nb_fit_s:.1f} called "
        f"from Python (x{py_fit_s / nb_fit_s:.2f} against the replay), "
        f"x{fit_in_search / nb_fit_loop_s:.0f} in one compiled loop; material "
        f"x{material_in_search / nb_material_s:.1f} called from Python, "
        f"x{material_in_search / nb_material_loop_s:.0f} in one compiled loop"
    )
    print(
        f"arrays for the compiled fit, made per search: p50 {ms(statistics.median(setup))}, "
        f"max {ms(max(setup))} (counted in the estimate)"
    )
    print(f"import numba and numpy: {import_s:.2f} s")
    print(f"install size: {numba_mb:.0f} MB ({', '.join(names)})")
    both = (fit_in_search + material_in_search) / recorded_total
    print()
    print(
        "ESTIMATE, arithmetic from the figures above and not a measurement (per deal: the "
        f"search time less the kernels' share, {both:.0%} in all, plus their calls at numba's "
        "per-call time and the arrays made for it), Showdown p50 without a budget:"
    )
    for label, values in (
        ("pure Python, as measured", plain),
        ("fit and material compiled, called from Python, arrays made per search", estimate),
        (
            f"the same, fit compiled only where the search makes flat lists "
            f"({hybrid_calls / fit_count:.0%} of its calls)",
            hybrid,
        ),
        ("the same, every slot's arrays free", without_arrays),
        ("kernels at the compiled-loop speed, arrays free (a floor)", floor),
    ):
        print(f"  {label}: {ms(statistics.median(values))}")
    print(
        f"  plus {compile_fit + compile_material:.1f} s of compiling (the first calls) in every "
        "new process"
    )


if __name__ == "__main__":
    main()
