"""A cold ``python -m engine solve --cards ...``, before and after: fresh processes, in turns.

Run: .venv/bin/python -m benchmarks.bench_cli_start --before c5c57d0~1 [--runs 10]

``--before`` is a commit (exported with ``git archive`` into a temporary folder) or a folder
holding an earlier tree. Each run starts the earlier tree's command and this one's, one after
the other, each in a fresh interpreter from its own tree, and measures three things: the wall
time from start to exit (``time.perf_counter`` around the process), the process's CPU time
(user + system, ``resource.getrusage(RUSAGE_CHILDREN)``), and, in one more fresh process under
``python -X importtime``, the time spent importing (the top-level imports' cumulative times
summed, the ones a command makes when it runs included). The answers must be the same.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_simulate import ROOT, export

#: A line of ``-X importtime``: self and cumulative microseconds, then the module, indented
#: by how deep it was imported (a top-level line, not indented, holds the lines below it).
_IMPORT_LINE = re.compile(r"import time:\s+\d+ \|\s+(\d+) \| ( *)(\S+)$")
#: What only ``simulate`` needs; reported when a side imported it.
_SIMULATOR = ("numpy", "engine.simulate")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes (it is shared)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def one_run(tree: Path, command: list[str]) -> tuple[float, float, float, set[str], str]:
    """(wall s, CPU s, import ms, simulator modules imported, answer) of a cold command."""
    cpu, began = _children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=True)
    wall, cpu = time.perf_counter() - began, _children_cpu() - cpu
    traced = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    imports, modules = 0, set()
    for line in traced.stderr.splitlines():
        found = _IMPORT_LINE.match(line)
        if found:
            imports += 0 if found.group(2) else int(found.group(1))
            modules.add(found.group(3))
    return wall, cpu, imports / 1000, modules & set(_SIMULATOR), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", required=True, help="a commit or a folder with its tree")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--variant", default="casino")
    parser.add_argument("--cards", default="W Ks Kd Qs Ac Ad Ah 2c 2d")
    args = parser.parse_args()
    command = [sys.executable, "-m", "engine", "solve", "--variant", args.variant]
    command += ["--cards", args.cards, "--json"]
    with tempfile.TemporaryDirectory() as folder:
        before = Path(args.before)
        if not before.is_dir():
            before = export(args.before, Path(folder))
        print(f"python -m engine solve --variant {args.variant} --cards {args.cards!r} --json")
        print(f"before: {args.before}; {args.runs} runs, in turns")
        print(f"load average at the start: {load_average()}")
        figures: dict[str, list[tuple[float, float, float]]] = {"before": [], "after": []}
        imported: dict[str, set[str]] = {"before": set(), "after": set()}
        answers: dict[str, set[str]] = {"before": set(), "after": set()}
        for _ in range(args.runs):
            for side, tree in (("before", before), ("after", ROOT)):
                wall, cpu, imports, modules, answer = one_run(tree, command)
                figures[side].append((wall, cpu, imports))
                imported[side] |= modules
                # The search's own time ("ms") differs from run to run; the setting must not.
                answers[side].add(re.sub(r'"ms": [\d.]+', "", answer))
        assert answers["before"] == answers["after"] and len(answers["after"]) == 1, answers
        for index, what in enumerate(("wall (perf_counter)", "CPU (user + system)", "imports")):
            unit = "ms" if index == 2 else "s"
            line = f"{what:<22}"
            for side in ("before", "after"):
                values = [run[index] for run in figures[side]]
                line += f"  {side} median {statistics.median(values):7.3f} {unit}"
                line += f" (min {min(values):.3f}, max {max(values):.3f})"
            ratio = statistics.median(
                a[index] / b[index]
                for a, b in zip(figures["after"], figures["before"], strict=True)
            )
            print(f"{line}  after/before {ratio:.2f}")
        for side in ("before", "after"):
            print(f"{side} imports of the simulator: {sorted(imported[side]) or 'none'}")
        print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    main()
