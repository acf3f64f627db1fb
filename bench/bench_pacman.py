"""Benchmark ``mazekit pacmanize`` and ``mazekit stats`` at 1000x1000 against issue 6's targets.

Whole-process time (best and median of 5 runs after a warm-up) on the inputs bench_scale.py
does not cover (it has pacmanize and stats of the backtracker's perfect maze): pacmanize of
perfect mazes by prim and wilson (many more dead ends than the backtracker's: the most
braiding work), of an imperfect one and of its own output, writing a file; stats of a
pacmanized board. Verdicts on CPU time (specs/performance.md). Prints a Markdown table.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, ROOT, maze_input, measure, scratch, verdict

SIZE = 1000
PACMANIZE_TARGET = 3.0  # seconds, the whole process
STATS_TARGET = 2.0


def main() -> None:
    with scratch() as folder:
        board, output = folder / "pacman-board.txt", folder / "pacman-out.txt"
        perfect = maze_input(folder, SIZE, "perfect")
        subprocess.run(
            [*MAZEKIT, "pacmanize", str(perfect), "-o", str(board)], check=True, cwd=ROOT
        )
        cases = [
            *(
                (
                    f"pacmanize, perfect input by {name}",
                    ["pacmanize", str(maze_input(folder, SIZE, "perfect", name))],
                    PACMANIZE_TARGET,
                )
                for name in ("prim", "wilson")
            ),
            (
                "pacmanize, imperfect input",
                ["pacmanize", str(maze_input(folder, SIZE, "imperfect"))],
                PACMANIZE_TARGET,
            ),
            ("pacmanize, its own output", ["pacmanize", str(board)], PACMANIZE_TARGET),
            ("stats, arcade board", ["stats", str(board)], STATS_TARGET),
        ]
        print(f"Whole process, {SIZE}x{SIZE}, best and median of 5 runs after a warm-up.\n")
        print("| case | CPU s | wall s (best, median) | peak MB | target | verdict |")
        print("|------|------:|-------:|--------:|-------:|---------|")
        for name, args, target in cases:
            if args[0] == "pacmanize":
                args = [*args, "-o", str(output)]
            result = measure([*MAZEKIT, *args])
            print(
                f"| {name} | {result.cpu:.2f} | {result.best:.2f}, {result.median:.2f} | "
                f"{result.peak_mb:.0f} | {target:.0f} s | {verdict(result.cpu, target)} |"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
