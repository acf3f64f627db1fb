"""generators: issue 26's goals for generate: linear in cells, and no generator far over the
backtracker.

Each generator (perfect: the five tree algorithms; imperfect: flood, and the backtracker as
its yardstick) at 1000x1000 and 4000x4000, seed 1, each run a fresh process that builds the
maze and its text as ``mazekit generate`` does (generators.build, textformat.dump) and
prints the CPU time of that work. The runs go round by round, every case once a round, so a
change of load on the shared machine falls on all of them; each figure is the best of its
runs. Reported per cell: the whole process's CPU time (user + system) and that work's. The
start-up (about 0.1 s, a third of a 1000x1000 run, and the noisiest part of it on a loaded
machine) is in the first and not the second, so only the work shows what a cell costs.
Targets (specs/performance.md, "Generators and heat at 4000x4000"): the work per cell at
4000x4000 at most 1.5x that at 1000x1000, and at 4000x4000 at most 2x the backtracker's of
the same kind. Prints a Markdown table.

Environment: MAZEKIT_BENCH_REPEAT (rounds, default 3), MAZEKIT_BENCH_ONLY="kruskal,flood"
(only those algorithms; the backtracker always runs: the ratios need it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import Run, load, run_once, scratch, verdict

SMALL, LARGE = 1000, 4000
GROWTH_TARGET = 1.5  # the work of a cell at 4000x4000 over that at 1000x1000
BACKTRACKER_TARGET = 2.0  # a cell over a backtracker cell of the same kind, at 4000x4000
BYTES_TARGET = 150.0  # peak RSS per cell

PERFECT = ("backtracker", "prim", "kruskal", "wilson", "hunt-and-kill")
IMPERFECT = ("backtracker", "flood")


# The work of one run, timed inside the process: what `mazekit generate` does between
# reading its options and writing its output.
_WORK = """
import sys, time
from mazekit.__main__ import one_blas_thread
one_blas_thread()  # as `mazekit generate` does: numpy's idle BLAS threads would spin into the work
from mazekit.generators import Request, build
from mazekit.textformat import dump
side, algorithm, kind = int(sys.argv[1]), sys.argv[2], sys.argv[3]
request = Request(side, side, (0, 0), (side - 1, side - 1), kind == "perfect", 1, algorithm)
start = time.process_time()
text = dump(build(request))
print(time.process_time() - start)
"""


def _run(algorithm: str, kind: str, side: int, output: Path) -> tuple[Run, float]:
    """One run: the whole process's figures, and the CPU seconds of its work."""
    argv = [sys.executable, "-c", _WORK, str(side), algorithm, kind]
    run = run_once(argv, stdout_path=output)
    return run, float(output.read_text())


def _best(runs: list[tuple[Run, float]]) -> tuple[Run, float]:
    """The least CPU and wall time of ``runs``, their highest peak, and the least work."""
    whole = [run for run, _ in runs]
    best = Run(min(r.wall for r in whole), min(r.cpu for r in whole), max(r.peak_mb for r in whole))
    return best, min(work for _, work in runs)


def main() -> None:
    repeat = int(os.environ.get("MAZEKIT_BENCH_REPEAT", "3"))
    only = [word for word in os.environ.get("MAZEKIT_BENCH_ONLY", "").split(",") if word]
    cases = [
        (algorithm, kind)
        for kind, algorithms in (("perfect", PERFECT), ("imperfect", IMPERFECT))
        for algorithm in algorithms
        if algorithm == "backtracker" or not only or any(word in algorithm for word in only)
    ]
    print(
        f"Whole process and the work in it (build and dump), CPU seconds (user + system), "
        f"best of {repeat} rounds (every case once a round), seed 1. Load average at the "
        f"start: {load()}.\n"
    )
    runs: dict[tuple[str, str, int], list[tuple[Run, float]]] = {}
    with scratch() as folder:
        output = folder / "work.txt"
        for _ in range(repeat):
            for algorithm, kind in cases:
                for side in (SMALL, LARGE):
                    key = (algorithm, kind, side)
                    runs.setdefault(key, []).append(_run(algorithm, kind, side, output))
        output.unlink(missing_ok=True)
    best = {key: _best(value) for key, value in runs.items()}
    print(
        f"| generate | {SMALL}² s | ns/cell | work ns/cell | B/cell "
        f"| {LARGE}² s | ns/cell | work ns/cell | B/cell | growth | <= {GROWTH_TARGET} "
        f"| / backtracker | <= {BACKTRACKER_TARGET:.0f}x | <= {BYTES_TARGET:.0f} B |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|---|---|")
    for algorithm, kind in cases:
        cells: list[str] = [f"--{kind} --algorithm {algorithm}"]
        work: dict[int, float] = {}
        peaks: list[float] = []
        for side in (SMALL, LARGE):
            run, seconds = best[(algorithm, kind, side)]
            count = side * side
            work[side] = seconds / count * 1e9
            peaks.append(run.peak_mb * 2**20 / count)
            cells += [f"{run.cpu:.2f}", f"{run.cpu / count * 1e9:.0f}", f"{work[side]:.0f}"]
            cells.append(f"{peaks[-1]:.0f}")
        growth = work[LARGE] / work[SMALL]
        versus = work[LARGE] / (best[("backtracker", kind, LARGE)][1] / LARGE**2 * 1e9)
        cells += [f"{growth:.2f}", verdict(growth, GROWTH_TARGET)]
        cells += [f"{versus:.2f}x", verdict(versus, BACKTRACKER_TARGET)]
        cells.append(verdict(max(peaks), BYTES_TARGET))
        print("| " + " | ".join(cells) + " |")
        sys.stdout.flush()
    print(f"\nLoad average at the end: {load()}.")


if __name__ == "__main__":
    main()
