"""Benchmark ``mazekit pacmanize`` and ``mazekit stats`` at 1000x1000 against issue 6's targets.

Whole-process wall time (best and median of 5 runs after a warm-up) on mazes made by generate:
pacmanize of perfect mazes by three algorithms (the backtracker's long corridors; prim and
wilson, whose many more dead ends are the most braiding work) and of an imperfect one,
writing a file; stats of the perfect backtracker maze (the deepest dead-end branches: the
worst case of the peeling) and of a pacmanized board. Prints a Markdown table.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, ROOT, measure, verdict

SIZE = 1000
PACMANIZE_TARGET = 3.0  # seconds, the whole process
STATS_TARGET = 2.0


def mazekit(*args: str) -> None:
    """Run one preparation command, failing loudly."""
    subprocess.run([*MAZEKIT, *args], check=True, cwd=ROOT)


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        perfect, imperfect = folder / "perfect.txt", folder / "imperfect.txt"
        board, output = folder / "board.txt", folder / "out.txt"
        size = ["--width", str(SIZE), "--height", str(SIZE), "--seed", "1"]
        mazekit("generate", *size, "--perfect", "-o", str(perfect))
        mazekit("generate", *size, "--imperfect", "-o", str(imperfect))
        mazekit("pacmanize", str(perfect), "-o", str(board))
        others = {name: folder / f"{name}.txt" for name in ("prim", "wilson")}
        for name, path in others.items():
            mazekit("generate", *size, "--perfect", "--algorithm", name, "-o", str(path))
        cases = [
            ("pacmanize, perfect input", ["pacmanize", str(perfect)], PACMANIZE_TARGET),
            *(
                (f"pacmanize, perfect input by {name}", ["pacmanize", str(path)], PACMANIZE_TARGET)
                for name, path in others.items()
            ),
            ("pacmanize, imperfect input", ["pacmanize", str(imperfect)], PACMANIZE_TARGET),
            ("pacmanize, its own output", ["pacmanize", str(board)], PACMANIZE_TARGET),
            ("stats, perfect maze", ["stats", str(perfect)], STATS_TARGET),
            ("stats, arcade board", ["stats", str(board)], STATS_TARGET),
        ]
        print(f"Whole process, {SIZE}x{SIZE}, best and median of 5 runs after a warm-up.\n")
        print("| case | best | median | peak MB | target | verdict |")
        print("|------|-----:|-------:|--------:|-------:|---------|")
        for name, args, target in cases:
            if args[0] == "pacmanize":
                args = [*args, "-o", str(output)]
            result = measure([*MAZEKIT, *args])
            print(
                f"| {name} | {result.best:.2f} s | {result.median:.2f} s | "
                f"{result.peak_mb:.0f} | {target:.0f} s | {verdict(result.median, target)} |"
            )


if __name__ == "__main__":
    main()
