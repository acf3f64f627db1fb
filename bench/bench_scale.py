"""scale: issue 17's table: every command and generate algorithm at 1000x1000 and 4000x4000.

For each case, at 1000x1000: the best of REPEAT runs, each after one run of the baseline
``python -c "import numpy, click"`` (taken in turns, so a change of load on the shared machine
hits both), and the ratio to the baseline, the median over the pairs of run / baseline run
(target <= 2.5x); at 4000x4000: one run, the growth
time(4000)/time(1000) (16 times the cells: target <= 20) and the peak memory per cell (target
<= 150 B). At both sizes the CPU time per cell (start-up included) and the peak memory per
cell (issue 26); bench_generators.py and bench_heat.py hold the stricter per-cell goals.
Times are CPU seconds (user + system) with the wall time beside; the verdicts use CPU time
(specs/performance.md, "Benchmarks"). The inputs are made once by ``mazekit
generate`` (backtracker, seed 1) and shared. Prints a Markdown table as each row is measured.

Environment, for quick checks: MAZEKIT_BENCH_SIZES=1000 (only that size), MAZEKIT_BENCH_ONLY=
"validate,solve" (only cases whose name contains one of these), MAZEKIT_BENCH_REPEAT=5.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, Run, interleaved, load, maze_input, run_once, scratch, verdict

SMALL, LARGE = 1000, 4000
RATIO_TARGET = 2.5  # x `import numpy, click`, at 1000x1000
GROWTH_TARGET = 20.0  # time(4000) / time(1000)
BYTES_TARGET = 150.0  # peak RSS per cell, at 4000x4000
# The largest PNG cell 4000x4000 cells fit in (MAX_PIXELS: 200 million pixels); the same
# cell at both sizes, so the growth compares the same work per cell.
PNG_CELL = ["--cell", "3", "--wall", "1"]

PERFECT = ("backtracker", "prim", "kruskal", "wilson", "hunt-and-kill")
IMPERFECT = (*PERFECT, "flood")
SOLVERS = ("bfs", "astar", "dead-end-fill")

# A case's arguments, given the side, the scratch folder and an output path.
Arguments = Callable[[int, Path, Path], list[str]]


@dataclass(frozen=True)
class Case:
    """One row: its name and how to build its arguments for a side."""

    name: str
    arguments: Arguments


def _generate(algorithm: str, kind: str) -> Arguments:
    def arguments(side: int, folder: Path, output: Path) -> list[str]:
        size = ["--width", str(side), "--height", str(side), "--seed", "1"]
        return ["generate", *size, f"--{kind}", "--algorithm", algorithm, "-o", str(output)]

    return arguments


def _on(kind: str, *options: str, output: str | None = None) -> Arguments:
    """A command over the shared ``kind`` maze of the side; ``output`` the -o file's suffix."""

    def arguments(side: int, folder: Path, target: Path) -> list[str]:
        written = ["-o", str(target.with_suffix(output))] if output else []
        return [*options, str(maze_input(folder, side, kind)), *written]

    return arguments


def _edit(side: int, folder: Path, output: Path) -> list[str]:
    """Open one closed inner wall of the perfect maze (a loop; the path is found anew)."""
    maze = maze_input(folder, side, "perfect")
    with open(maze, "rb") as handle:
        first, second = handle.readline(), handle.readline()
    for x in range(side - 1):  # a closed east wall in row 0, between two cells not of the "42"
        if int(first[x : x + 1], 16) & 2 and b"F" not in first[x : x + 2] + second[x : x + 2]:
            return ["edit", "--open", f"{x},0,E", str(maze), "-o", str(output)]
    raise SystemExit("no closed east wall in the first row: change the benchmark")


CASES: list[Case] = [
    *(Case(f"generate --perfect --algorithm {a}", _generate(a, "perfect")) for a in PERFECT),
    *(Case(f"generate --imperfect --algorithm {a}", _generate(a, "imperfect")) for a in IMPERFECT),
    Case("validate --perfect (perfect maze)", _on("perfect", "validate", "-q", "--perfect")),
    Case("validate (imperfect maze)", _on("imperfect", "validate", "-q")),
    *(
        Case(f"solve --algorithm {s}", _on("perfect", "solve", "--algorithm", s, output=".txt"))
        for s in SOLVERS
    ),
    Case("render png --cell 3", _on("perfect", "render", *PNG_CELL, output=".png")),
    Case("render svg", _on("perfect", "render", output=".svg")),
    Case("render text", _on("perfect", "render", output=".txt")),
    Case(
        "render --heat betweenness png --cell 3",
        _on("perfect", "render", "--heat", "betweenness", *PNG_CELL, output=".png"),
    ),
    Case(
        "render --heat distance svg", _on("perfect", "render", "--heat", "distance", output=".svg")
    ),
    Case("pacmanize", _on("perfect", "pacmanize", output=".txt")),
    Case("stats", _on("perfect", "stats")),
    Case("stats --graph (perfect maze)", _on("perfect", "stats", "--graph")),
    Case("stats --graph (imperfect maze)", _on("imperfect", "stats", "--graph")),
    Case("edit --open", _edit),
    Case(
        "edit --close-bottleneck 1 (imperfect maze)",
        _on("imperfect", "edit", "--close-bottleneck", "1", output=".txt"),
    ),
]


def _row(case: Case, folder: Path, sizes: tuple[int, ...], repeat: int) -> str:
    """Measure one case at every size and format its table row."""
    output = folder / "output.out"
    cells = [case.name]
    small: Run | None = None
    if SMALL in sizes:
        argv = [*MAZEKIT, *case.arguments(SMALL, folder, output)]
        paired = interleaved(argv, repeat)
        small, ratio = paired.mine, paired.cpu_ratio
        cells += [
            f"{small.cpu:.2f} ({small.wall:.2f})",
            f"{small.cpu / SMALL**2 * 1e9:.0f}",
            f"{small.peak_mb * 2**20 / SMALL**2:.0f}",
            f"{ratio:.2f}x ({paired.wall_ratio:.2f}x)",
            verdict(ratio, RATIO_TARGET),
        ]
    else:
        cells += ["", "", "", "", ""]
    if LARGE in sizes:
        argv = [*MAZEKIT, *case.arguments(LARGE, folder, output)]
        large = run_once(argv)
        per_cell = large.peak_mb * 2**20 / LARGE**2
        cells.append(f"{large.cpu:.1f} ({large.wall:.1f})")
        cells.append(f"{large.cpu / LARGE**2 * 1e9:.0f}")
        if small is not None:
            growth = large.cpu / small.cpu
            cells += [
                f"{growth:.1f} ({large.wall / small.wall:.1f})",
                verdict(growth, GROWTH_TARGET),
            ]
        else:
            cells += ["", ""]
        cells += [f"{per_cell:.0f}", verdict(per_cell, BYTES_TARGET)]
    else:
        cells += ["", "", "", "", "", ""]
    for suffix in (".out", ".txt", ".png", ".svg"):
        output.with_suffix(suffix).unlink(missing_ok=True)
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    sizes = tuple(int(s) for s in os.environ.get("MAZEKIT_BENCH_SIZES", "1000,4000").split(","))
    only = [word for word in os.environ.get("MAZEKIT_BENCH_ONLY", "").split(",") if word]
    repeat = int(os.environ.get("MAZEKIT_BENCH_REPEAT", "3"))
    cases = [case for case in CASES if not only or any(word in case.name for word in only)]
    print(
        f"Whole process; CPU seconds (user + system), wall seconds in brackets. {SMALL}x{SMALL}: "
        f'best of {repeat}, each run after one of `python -c "import numpy, click"`, ratio the '
        "median of run / baseline run; "
        f"{LARGE}x{LARGE}: one run. Verdicts on CPU time. Load average at the start: {load()}.\n"
    )
    print(
        f"| command | {SMALL}² s | ns/cell | B/cell | / import numpy, click | <= {RATIO_TARGET}x "
        f"| {LARGE}² s | ns/cell | {LARGE}/{SMALL} | <= {GROWTH_TARGET:.0f} "
        f"| B/cell ({LARGE}²) | <= {BYTES_TARGET:.0f} |"
    )
    print("|---|--:|--:|--:|--:|---|--:|--:|--:|---|--:|---|")
    sys.stdout.flush()
    with scratch() as folder:
        for case in cases:
            print(_row(case, folder, sizes, repeat))
            sys.stdout.flush()
    print(f"\nLoad average at the end: {load()}.")


if __name__ == "__main__":
    main()
