"""Benchmark ``mazekit chase`` against issue 12's targets: the kernel and the animation.

Whole-process time (best CPU time, best and median wall time of 5 runs after a warm-up;
verdicts on CPU time, specs/performance.md): 10 000 ticks of
``--runner patrol`` with the four chasers on a 100x100 board (the first seed whose run lasts
all 10 000 ticks, so every tick is run; ``--expect running`` fails the benchmark otherwise),
and a GIF of 500 frames (ticks 0-499) of a 30x20 board. Prints a Markdown table.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, measure, verdict

import mazekit

KERNEL_TARGET = 1.0  # seconds, the whole process
GIF_TARGET = 3.0


def board(width: int, height: int, seed: int) -> mazekit.Maze:
    """A Pac-Man board with the entry mid-south and the exit mid-north, away from the corners."""
    maze = mazekit.generate(
        width, height, seed=seed, entry=(width // 2, height - 1), exit=(width // 2, 0)
    )
    return mazekit.pacmanize(maze)


def lasting_board(width: int, height: int, ticks: int) -> mazekit.Maze:
    """The first board (by seed) on which a patrolling runner survives ``ticks`` ticks."""
    for seed in range(1, 100):
        candidate = board(width, height, seed)
        if mazekit.chase(candidate, runner="patrol", ticks=ticks).result.result == "running":
            return candidate
    raise SystemExit("no board among 99 seeds lets the runner survive: change the benchmark")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        big, small = folder / "big.txt", folder / "small.txt"
        mazekit.write_maze(lasting_board(100, 100, 10_000), big)
        mazekit.write_maze(board(30, 20, 1), small)
        kernel = [
            "chase",
            str(big),
            "--runner",
            "patrol",
            "--ticks",
            "10000",
            "--expect",
            "running",
        ]
        gif = [
            *("chase", str(small), "--runner", "patrol", "--mode", "scatter", "--ticks", "499"),
            *("--expect", "running", "-o", str(folder / "chase.gif")),
        ]
        cases = [
            ("10 000 ticks, patrol, 4 chasers, 100x100", kernel, KERNEL_TARGET),
            ("GIF of 500 frames, 30x20", gif, GIF_TARGET),
        ]
        print("Whole process, best and median of 5 runs after a warm-up.\n")
        print("| case | CPU s | wall s (best, median) | peak MB | target | verdict |")
        print("|------|------:|-------:|--------:|-------:|---------|")
        for name, args, target in cases:
            result = measure([*MAZEKIT, *args])
            print(
                f"| {name} | {result.cpu:.2f} | {result.best:.2f}, {result.median:.2f} | "
                f"{result.peak_mb:.0f} | {target:.0f} s | {verdict(result.cpu, target)} |"
            )


if __name__ == "__main__":
    main()
