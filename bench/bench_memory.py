"""memory: peak resident memory of every command on a 4000x4000 maze, per cell (issue 9).

The budget of issue 9 is 150 bytes per cell plus 20 bytes per path step, Python and numpy
included. Each command runs once in a fresh process (forked from a small launcher, so its
own wait4 high-water mark is what is reported). The maze is made by the first case,
``generate`` (backtracker, seed 1); the long-path case is a 1000x1000 maze whose path line
walks east and west 30 million times. ``python bench/bench_memory.py 2000`` runs a smaller
side, for quick checks.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import _LAUNCHER, MAZEKIT, ROOT, verdict

PER_CELL = 150
PER_STEP = 20


def _long_path_maze(folder: Path, side: int, steps: int) -> Path:
    """A side x side maze of closed cells but one open wall, between (0,0) and (1,0), whose
    path goes back and forth over it ``steps`` times (an invalid maze: memory is the point)."""
    rows = [b"D7" + b"F" * (side - 2)] + [b"F" * side] * (side - 1)
    path = b"EW" * (steps // 2)
    end = f"\n\n0,0\n{side - 1},{side - 1}\n".encode()
    target = folder / "long-path.txt"
    target.write_bytes(b"\n".join(rows) + end + path + b"\n")
    return target


def main(side: int) -> None:
    cells = side * side
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        maze = folder / "big.txt"
        long_path = _long_path_maze(folder, 1000, 30_000_000 if side >= 4000 else 4_000_000)
        size = ["--width", str(side), "--height", str(side), "--seed", "1"]
        cases: list[tuple[str, list[str], int, int]] = [
            (f"generate {side}x{side}", ["generate", *size, "-o", str(maze)], cells, 0),
        ]
        print("| case | cells | path steps | peak MB | bytes per cell | budget MB | verdict |")
        print("|---|---|---|---|---|---|---|")
        _report(*cases[0])
        steps = len(maze.read_bytes().rsplit(b"\n", 2)[-2])
        cases = [
            (
                f"generate {side}x{side} --algorithm kruskal",
                ["generate", *size, "--algorithm", "kruskal", "-o", str(folder / "k.txt")],
                cells,
                0,
            ),
            ("validate", ["validate", str(maze)], cells, steps),
            ("solve", ["solve", str(maze), "-o", str(folder / "s.txt")], cells, steps),
            ("stats", ["stats", str(maze)], cells, steps),
            ("pacmanize", ["pacmanize", str(maze), "-o", str(folder / "p.txt")], cells, steps),
            (
                "render text (ascii)",
                ["render", str(maze), "-o", str(folder / "r.txt")],
                cells,
                steps,
            ),
            (
                "render text (unicode)",
                ["render", str(maze), "--charset", "unicode", "-o", str(folder / "u.txt")],
                cells,
                steps,
            ),
            ("render svg", ["render", str(maze), "-o", str(folder / "r.svg")], cells, steps),
            (
                "render png (--cell 2)",
                ["render", str(maze), "--cell", "2", "--wall", "1", "-o", str(folder / "r.png")],
                cells,
                steps,
            ),
        ]
        for case in cases:
            _report(*case)
        long_steps = len(long_path.read_bytes().rsplit(b"\n", 2)[-2])
        _report("validate 1000x1000, long path", ["validate", str(long_path)], 10**6, long_steps)


def _peak_mb(argv: list[str]) -> float:
    """Peak RSS in MB of one run of ``argv`` (any exit status: invalid mazes exit 1)."""
    result = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        check=False,
    )
    error, _, report = result.stderr.decode().rpartition("\n@@bench ")
    _, peak_kb, code = report.split()
    if int(code) not in (0, 1):
        raise SystemExit(f"benchmark command failed ({code}): {' '.join(argv)}\n{error}")
    return int(peak_kb) / 1024


def _report(name: str, arguments: list[str], cells: int, steps: int) -> None:
    """Run one case and print its table row."""
    peak_mb = _peak_mb([*MAZEKIT, *arguments])
    budget = (PER_CELL * cells + PER_STEP * steps) / 2**20
    per_cell = peak_mb * 2**20 / cells
    print(
        f"| {name} | {cells:,} | {steps:,} | {peak_mb:.0f} | {per_cell:.0f} | {budget:.0f} | "
        f"{verdict(peak_mb, budget)} |"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
