"""render: whole-process time for small and large mazes, against the targets of issue 5.

The 1000x1000 maze is a binary-tree maze built here with numpy (each cell opens north or
west at random): ``mazekit generate`` is not on the render branch yet, and the drawing cost
depends on the number of cells and walls, not on how the maze was made.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
from _timing import MAZEKIT, ROOT, measure, verdict

from mazekit.model import Maze
from mazekit.textformat import write

SMALL = ROOT / "tests" / "data" / "render" / "maze-20x15.txt"
STARTUP = [sys.executable, "-c", "import numpy, click, PIL.Image"]


def binary_tree_maze(width: int, height: int, seed: int = 1) -> Maze:
    """A perfect maze: every cell but (0,0) opens north or west; the path is its unique one."""
    rng = np.random.default_rng(seed)
    north = rng.random((height, width)) < 0.5
    north[0, :] = False  # the top row can only go west
    north[1:, 0] = True  # the left column can only go north
    west = ~north
    west[0, 0] = False
    walls = np.full((height, width), 15, dtype=np.uint8)
    walls[north] &= ~np.uint8(1)
    walls[:-1][north[1:]] &= ~np.uint8(4)
    walls[west] &= ~np.uint8(8)
    walls[:, :-1][west[:, 1:]] &= ~np.uint8(2)
    steps, x, y = [], width - 1, height - 1
    while (x, y) != (0, 0):  # walk back to the root, then reverse
        if north[y, x]:
            steps.append("S")
            y -= 1
        else:
            steps.append("E")
            x -= 1
    return Maze(walls, (0, 0), (width - 1, height - 1), "".join(reversed(steps)))


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        big = folder / "1000x1000.txt"
        write(binary_tree_maze(1000, 1000), big)
        baseline = measure(STARTUP, repeat=10)
        small = measure([*MAZEKIT, "render", str(SMALL), "-o", str(folder / "s.png")], repeat=10)
        ratio = small.best / baseline.best
        print("| case | time (s) | peak MB | target | verdict |")
        print("|---|---|---|---|---|")
        print(f"| `import numpy, click, PIL.Image` (baseline) | {baseline.best:.3f} | "
              f"{baseline.peak_mb:.0f} | | |")  # fmt: skip
        print(
            f"| render 20x15 to PNG | {small.best:.3f} | {small.peak_mb:.0f} | "
            f"<= 1.5x baseline ({ratio:.2f}x) | {verdict(ratio, 1.5)} |"
        )
        for kind, limit in (("png", 2.0), ("svg", None), ("txt", None)):
            target = folder / f"big.{kind}"
            result = measure(
                [*MAZEKIT, "render", str(big), "--cell", "4", "-o", str(target)], repeat=3
            )
            goal = f"<= {limit:.0f} s" if limit else "(no target)"
            ok = verdict(result.best, limit) if limit else ""
            print(
                f"| render 1000x1000 at 4 px to {kind.upper()} | {result.best:.2f} | "
                f"{result.peak_mb:.0f} | {goal} | {ok} |"
            )
        print("\nThe 1000x1000 maze is a binary-tree maze built by the script (see its docstring).")


if __name__ == "__main__":
    main()
