"""Benchmark ``mazekit solve``: whole-process time against the targets of issue 4.

Mazes: generated ones (the backtracker's long winding corridors make a search visit nearly
every cell; the imperfect board has loops), a binary-tree maze with 5% of walls opened for
loops (numpy), and a single corridor snaking through every cell (numpy: the worst case, a path
of 4,000,000 steps). Prints Markdown tables. The 20x15 start-up is in bench_startup.py, every
algorithm at 1000x1000 and 4000x4000 in bench_scale.py.

mazekit's modules are byte-compiled first, as in an installed wheel and like numpy and click
in the baseline: with PYTHONDONTWRITEBYTECODE=1 and an editable install, every run would
otherwise recompile mazekit's sources (about 20 ms).
"""

from __future__ import annotations

import compileall
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, measure, verdict

import mazekit
from mazekit.generators import generate
from mazekit.model import Maze
from mazekit.solvers import ALGORITHMS, find_path
from mazekit.textformat import dump

BIG = 2000
REPEAT = 3


def _open(walls: np.ndarray, ys: np.ndarray, xs: np.ndarray, letter: str) -> None:
    """Open the walls of cells (xs, ys) towards ``letter``, on both sides."""
    bit, dx, dy, opposite = {"N": (1, 0, -1, 4), "W": (8, -1, 0, 2), "S": (4, 0, 1, 1)}[letter]
    walls[ys, xs] &= np.uint8(~bit & 15)
    walls[ys + dy, xs + dx] &= np.uint8(~opposite & 15)


def binary_tree_maze(width: int, height: int, seed: int, loops: float) -> Maze:
    """Each cell opens north or west at random (a tree), then a share ``loops`` opens north too."""
    rng = np.random.default_rng(seed)
    walls = np.full((height, width), 15, dtype=np.uint8)
    north = rng.random((height, width)) < 0.5
    north[:, 0] = True
    north |= rng.random((height, width)) < loops
    north[0, :] = False
    west = ~north | (rng.random((height, width)) < loops)
    west[:, 0] = False
    _open(walls, *np.nonzero(north), "N")
    _open(walls, *np.nonzero(west), "W")
    return Maze(walls, (0, 0), (width - 1, height - 1))


def corridor_maze(width: int, height: int) -> Maze:
    """One corridor through every cell, row by row (east, south, west, south, ...)."""
    walls = np.full((height, width), 15, dtype=np.uint8)
    walls[:, :-1] &= np.uint8(~2 & 15)
    walls[:, 1:] &= np.uint8(~8 & 15)
    turns = np.arange(height - 1)
    _open(walls, turns, np.where(turns % 2 == 0, width - 1, 0), "S")
    end_x = width - 1 if (height - 1) % 2 == 0 else 0
    return Maze(walls, (0, 0), (end_x, height - 1))


def main() -> None:
    compileall.compile_dir(Path(mazekit.__file__).parent, quiet=1)
    folder = Path(tempfile.mkdtemp(prefix="bench_solve."))
    started = time.perf_counter()
    mazes = {
        f"{BIG}x{BIG} generated (backtracker)": generate(BIG, BIG, seed=1),
        f"{BIG}x{BIG} generated board (imperfect)": generate(BIG, BIG, seed=1, perfect=False),
        f"{BIG}x{BIG} binary tree + 5% loops": binary_tree_maze(BIG, BIG, 1, 0.05),
        f"{BIG}x{BIG} single corridor": corridor_maze(BIG, BIG),
    }
    files = {}
    for index, (name, maze) in enumerate(mazes.items()):
        files[name] = folder / f"maze{index}.txt"
        files[name].write_text(dump(maze))
    print(f"(mazes built in {time.perf_counter() - started:.1f} s; best of {REPEAT} runs)\n")

    print("| case | whole process | target | |")
    print("|------|---------------|--------|-|")
    for name, path in files.items():
        timing = measure([*MAZEKIT, "solve", str(path)], repeat=REPEAT)
        print(
            f"| `mazekit solve` {name} | {timing.cpu:.2f} s CPU ({timing.best:.2f} s wall), "
            f"{timing.peak_mb:.0f} MB | <= 3 s | {verdict(timing.cpu, 3.0)} |"
        )

    print("\n| maze | algorithm | path length | visited cells | whole process |")
    print("|------|-----------|-------------|---------------|---------------|")
    for name, path in files.items():
        for algorithm in ALGORITHMS:
            solution = find_path(mazes[name], algorithm=algorithm)
            timing = measure(
                [*MAZEKIT, "solve", "--algorithm", algorithm, str(path)], repeat=REPEAT
            )
            print(
                f"| {name} | {algorithm} | {len(solution.path):,} | {solution.visited:,} "
                f"| {timing.cpu:.2f} s CPU ({timing.best:.2f} s wall) |"
            )
    for path in files.values():
        path.unlink()
    folder.rmdir()


if __name__ == "__main__":
    main()
