"""Benchmark ``mazekit generate``: every algorithm at 100, 500 and 1000 cells a side.

Whole-process wall time writing a file (the median of 9 runs, each with its own seed, so that a
lucky or unlucky seed of wilson does not decide alone: its time at 1000x1000 ranges from 1.5 s
to 7 s with the seed), the growth ratio time(1000)/time(500)
(linear growth gives 4; the target is at most 5), and the backtracker's 1000x1000 time and
peak memory against the targets of specs/generate.md. Prints Markdown tables.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, run_once, verdict

SIZES = (100, 500, 1000)
RUNS = {100: 5, 500: 9, 1000: 9}
TIME_TARGET = 2.0  # seconds, backtracker 1000x1000 perfect
MEMORY_TARGET = 200.0  # MB
RATIO_TARGET = 5.0
CASES = (
    ("backtracker", True),
    ("prim", True),
    ("kruskal", True),
    ("wilson", True),
    ("hunt-and-kill", True),
    ("backtracker", False),
    ("prim", False),
    ("flood", False),
)


def timed(algorithm: str, perfect: bool, size: int, output: Path) -> tuple[float, float]:
    """(median seconds over seeds 1..RUNS, peak MB) for one case, after one warm-up run."""

    def argv(seed: int) -> list[str]:
        return [
            *MAZEKIT, "generate", "--width", str(size), "--height", str(size),
            "--algorithm", algorithm, "--perfect" if perfect else "--imperfect",
            "--seed", str(seed), "-o", str(output),
        ]  # fmt: skip

    run_once(argv(0))
    results = [run_once(argv(seed)) for seed in range(1, RUNS[size] + 1)]
    return statistics.median(t for t, _ in results), max(m for _, m in results)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "maze.txt"
        print("Whole process, writing a file; median over seeds 1-5 (100x100) and 1-9.\n")
        print("| algorithm | kind | 100x100 | 500x500 | 1000x1000 | 1000/500 | peak MB (1000) |")
        print("|-----------|------|--------:|--------:|----------:|---------:|---------------:|")
        backtracker: tuple[float, float] | None = None
        for algorithm, perfect in CASES:
            times: dict[int, float] = {}
            peak = 0.0
            for size in SIZES:
                times[size], peak = timed(algorithm, perfect, size, output)
            ratio = times[1000] / times[500]
            kind = "perfect" if perfect else "imperfect"
            print(
                f"| {algorithm} | {kind} | {times[100]:.2f} s | {times[500]:.2f} s | "
                f"{times[1000]:.2f} s | {ratio:.2f} ({verdict(ratio, RATIO_TARGET)}) | "
                f"{peak:.0f} |"
            )
            if algorithm == "backtracker" and perfect:
                backtracker = (times[1000], peak)
        assert backtracker is not None
        seconds, peak = backtracker
        print()
        print("| target: backtracker 1000x1000 perfect | measured | target | verdict |")
        print("|---------------------------------------|---------:|-------:|---------|")
        print(f"| time | {seconds:.2f} s | {TIME_TARGET:.1f} s | {verdict(seconds, TIME_TARGET)} |")
        print(
            f"| peak memory | {peak:.0f} MB | {MEMORY_TARGET:.0f} MB | "
            f"{verdict(peak, MEMORY_TARGET)} |"
        )


if __name__ == "__main__":
    main()
