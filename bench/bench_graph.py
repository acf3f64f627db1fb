"""Benchmark ``mazekit stats --graph`` against issue 13's targets.

Whole-process time (best and median of 3 runs after a warm-up): a 100x100 Pac-Man board
(exact Brandes, the largest size that is still exact) and a 20x15 Pac-Man board (the two-cop
game solved); the 1000x1000 perfect maze (the tree formula) is in bench_scale.py. Verdicts on
CPU time (specs/performance.md). Prints a Markdown table.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, ROOT, measure, scratch, verdict


def mazekit(*args: str) -> None:
    """Run one preparation command, failing loudly."""
    subprocess.run([*MAZEKIT, *args], check=True, cwd=ROOT)


def main() -> None:
    with scratch() as folder:
        board, small = (folder / f"graph-{n}.txt" for n in ("board", "small"))
        for path, (width, height) in ((board, (100, 100)), (small, (20, 15))):
            size = ["--width", str(width), "--height", str(height), "--seed", "1"]
            mazekit("generate", *size, "--imperfect", "--max-dead-ends", "0", "-o", str(path))
        cases = [
            ("100x100 Pac-Man board (exact Brandes)", board, 5.0),
            ("20x15 Pac-Man board (cop number solved)", small, 10.0),
        ]
        print("Whole process, `stats --graph`, best and median of 3 runs after a warm-up.\n")
        print("| case | CPU s | wall s (best, median) | peak MB | target | verdict |")
        print("|------|------:|-------:|--------:|-------:|---------|")
        for name, path, target in cases:
            result = measure([*MAZEKIT, "stats", "--graph", str(path)], repeat=3)
            print(
                f"| {name} | {result.cpu:.2f} | {result.best:.2f}, {result.median:.2f} | "
                f"{result.peak_mb:.0f} | {target:.0f} s | {verdict(result.cpu, target)} |"
            )


if __name__ == "__main__":
    main()
