"""validate: 2000x2000 mazes and the longest path a 2000x2000 file can carry (issue 2).

The 20x15 start-up is in bench_startup.py, 1000x1000 and 4000x4000 in bench_scale.py.
Targets: at most 3 s and 300 MB for each 2000x2000 case (specs/validate.md). Best of 3.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, maze_input, measure, scratch
from bench_solve import corridor_maze

from mazekit.textformat import write

SIDE = 2000
TIME_TARGET = 3.0
MEMORY_TARGET = 300.0


def _verdict(seconds: float, peak_mb: float) -> str:
    return "ok" if seconds <= TIME_TARGET and peak_mb <= MEMORY_TARGET else "OVER"


def main() -> None:
    with scratch() as folder:
        print("| case | CPU s | wall s | peak MB | target | verdict |")
        print("|---|--:|--:|--:|---|---|")
        target = f"<= {TIME_TARGET:.0f} s and {MEMORY_TARGET:.0f} MB"
        for kind in ("perfect", "imperfect"):
            maze = maze_input(folder, SIDE, kind)
            result = measure([*MAZEKIT, "validate", "-q", str(maze)], repeat=3)
            print(
                f"| validate {SIDE}x{SIDE} {kind} | {result.cpu:.2f} | {result.best:.2f} | "
                f"{result.peak_mb:.0f} | {target} | {_verdict(result.cpu, result.peak_mb)} |"
            )
            sys.stdout.flush()
        # The longest path a 2000x2000 file can carry: one corridor through every cell.
        corridor = folder / "corridor-path.txt"
        maze = corridor_maze(SIDE, SIDE)
        run = SIDE - 1
        maze.path = "".join(("E" * run if y % 2 == 0 else "W" * run) for y in range(SIDE))
        maze.path = "S".join(maze.path[i * run : (i + 1) * run] for i in range(SIDE))
        write(maze, corridor)
        result = measure([*MAZEKIT, "validate", "-q", "--pattern", "none", str(corridor)], repeat=3)
        print(
            f"| validate {SIDE}x{SIDE} single corridor (4M-step path) | {result.cpu:.2f} | "
            f"{result.best:.2f} | {result.peak_mb:.0f} | {target} | "
            f"{_verdict(result.cpu, result.peak_mb)} |"
        )


if __name__ == "__main__":
    main()
