"""generators: issue 26's goals for generate: linear in cells, and no generator far over the
backtracker.

Each generator (perfect: the five tree algorithms; imperfect: flood, and the backtracker as
its yardstick) at 1000x1000 and 4000x4000, seed 1, and at 3x2 (the start-up: the same
command with almost no cells). The runs go round by round, every case once a round, so a
change of load on the shared machine falls on all of them; each figure is the best CPU time
(user + system) of its runs. Per cell: the CPU time over the cells, and the same beyond the
start-up ((time - time at 3x2) / cells): the start-up is a third of a 1000x1000 run, so only
the second shows what a cell costs. Targets (specs/performance.md, "Generators and heat at
4000x4000"): beyond the start-up, a cell at 4000x4000 costs at most 1.5x a cell at
1000x1000, and at 4000x4000 at most 2x a backtracker cell of the same kind. Prints a
Markdown table.

Environment: MAZEKIT_BENCH_REPEAT (rounds, default 3), MAZEKIT_BENCH_ONLY="kruskal,flood"
(only those algorithms; the backtracker always runs: the ratios need it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, Run, load, run_once, scratch, verdict

SMALL, LARGE = 1000, 4000
START = (3, 2)  # the least maze every algorithm makes, perfect or not
GROWTH_TARGET = 1.5  # a cell at 4000x4000 over a cell at 1000x1000, beyond the start-up
BACKTRACKER_TARGET = 2.0  # a cell over a backtracker cell of the same kind, at 4000x4000
BYTES_TARGET = 150.0  # peak RSS per cell

PERFECT = ("backtracker", "prim", "kruskal", "wilson", "hunt-and-kill")
IMPERFECT = ("backtracker", "flood")


def _arguments(algorithm: str, kind: str, width: int, height: int, output: Path) -> list[str]:
    size = ["--width", str(width), "--height", str(height), "--seed", "1"]
    return [*MAZEKIT, "generate", *size, f"--{kind}", "--algorithm", algorithm, "-o", str(output)]


def _best(runs: list[Run]) -> Run:
    """The least CPU and wall time of ``runs``, and the highest peak."""
    return Run(min(r.wall for r in runs), min(r.cpu for r in runs), max(r.peak_mb for r in runs))


def main() -> None:
    repeat = int(os.environ.get("MAZEKIT_BENCH_REPEAT", "3"))
    only = [word for word in os.environ.get("MAZEKIT_BENCH_ONLY", "").split(",") if word]
    cases = [
        (algorithm, kind)
        for kind, algorithms in (("perfect", PERFECT), ("imperfect", IMPERFECT))
        for algorithm in algorithms
        if algorithm == "backtracker" or not only or any(word in algorithm for word in only)
    ]
    sizes = {"start": START, SMALL: (SMALL, SMALL), LARGE: (LARGE, LARGE)}
    print(
        f"Whole process, CPU seconds (user + system), best of {repeat} rounds (every case once "
        f"a round), seed 1. Load average at the start: {load()}.\n"
    )
    runs: dict[tuple[str, str, object], list[Run]] = {}
    with scratch() as folder:
        output = folder / "generated.txt"
        for _ in range(repeat):
            for algorithm, kind in cases:
                for size, (width, height) in sizes.items():
                    argv = _arguments(algorithm, kind, width, height, output)
                    runs.setdefault((algorithm, kind, size), []).append(run_once(argv))
        output.unlink(missing_ok=True)
    best = {key: _best(value) for key, value in runs.items()}
    print(
        f"| generate | start-up s | {SMALL}² s | ns/cell | beyond start-up | B/cell "
        f"| {LARGE}² s | ns/cell | beyond start-up | B/cell | growth / cell | <= {GROWTH_TARGET} "
        f"| / backtracker | <= {BACKTRACKER_TARGET:.0f}x | <= {BYTES_TARGET:.0f} B |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|---|---|")
    for algorithm, kind in cases:
        start = best[(algorithm, kind, "start")].cpu
        cells: list[str] = [f"--{kind} --algorithm {algorithm}", f"{start:.2f}"]
        beyond: dict[int, float] = {}
        peaks: list[float] = []
        for side in (SMALL, LARGE):
            run = best[(algorithm, kind, side)]
            count = side * side
            beyond[side] = (run.cpu - start) / count * 1e9
            peak = run.peak_mb * 2**20 / count
            peaks.append(peak)
            cells += [f"{run.cpu:.2f}", f"{run.cpu / count * 1e9:.0f}", f"{beyond[side]:.0f}"]
            cells.append(f"{peak:.0f}")
        growth = beyond[LARGE] / beyond[SMALL]
        yardstick = best[("backtracker", kind, LARGE)]
        yard_beyond = (yardstick.cpu - best[("backtracker", kind, "start")].cpu) / LARGE**2 * 1e9
        versus = beyond[LARGE] / yard_beyond
        cells += [f"{growth:.2f}", verdict(growth, GROWTH_TARGET)]
        cells += [f"{versus:.2f}x", verdict(versus, BACKTRACKER_TARGET)]
        cells.append(verdict(max(peaks), BYTES_TARGET))
        print("| " + " | ".join(cells) + " |")
        sys.stdout.flush()
    print(f"\nLoad average at the end: {load()}.")


if __name__ == "__main__":
    main()
