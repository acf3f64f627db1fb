"""memory: peak resident memory per cell beyond bench_scale.py's rows (issue 9).

The budget of issue 9 is 150 bytes per cell plus 20 bytes per path step, Python and numpy
included. bench_scale.py measures every command on a 4000x4000 maze; this adds the variants
that hold other data (solve's JSON, the unicode text picture, the Pac-Man board's SVG) and a
1000x1000 maze whose path line walks east and west 30 million times (an invalid maze, still
read and checked whole). Each command runs once in a fresh process (forked from a small
launcher, so its own wait4 high-water mark is what is reported). ``python
bench/bench_memory.py 1000`` runs a smaller side, for quick checks.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, ROOT, maze_input, run_once, scratch, verdict

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


def _steps(maze: Path) -> int:
    """The length of the path line of a maze file."""
    return len(maze.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1])


def main(side: int) -> None:
    cells = side * side
    with scratch() as folder:
        maze, board = maze_input(folder, side, "perfect"), folder / f"memory-board-{side}.txt"
        subprocess.run([*MAZEKIT, "pacmanize", str(maze), "-o", str(board)], check=True, cwd=ROOT)
        # (case, arguments, the maze file it reads: its cells and path steps count)
        cases: list[tuple[str, list[str], Path]] = [
            (
                "solve --format json",
                ["solve", str(maze), "--format", "json", "-o", str(folder / "s.json")],
                maze,
            ),
            (
                "render text --charset unicode",
                ["render", str(maze), "--charset", "unicode", "-o", str(folder / "u.txt")],
                maze,
            ),
            (
                "render svg --theme pacman (the board)",
                ["render", str(board), "--theme", "pacman", "-o", str(folder / "b.svg")],
                board,
            ),
        ]
        print(
            "| case | cells | path steps | CPU | peak MB | bytes per cell | budget MB | verdict |"
        )
        print("|---|--:|--:|--:|--:|--:|--:|---|")
        for name, arguments, source in cases:
            _report(f"{name}, {side}x{side}", arguments, cells, _steps(source))
        steps = 30_000_000 if side >= 4000 else 4_000_000
        long_path = _long_path_maze(folder, 1000, steps)
        for name, arguments in (
            ("validate", ["validate", str(long_path)]),
            ("render text", ["render", str(long_path), "-o", str(folder / "l.txt")]),
            ("render svg", ["render", str(long_path), "-o", str(folder / "l.svg")]),
            (
                "render png --cell 2",
                [
                    "render",
                    str(long_path),
                    "--cell",
                    "2",
                    "--wall",
                    "1",
                    "-o",
                    str(folder / "l.png"),
                ],
            ),
        ):
            _report(f"{name}, 1000x1000, long path", arguments, 10**6, steps)


def _report(name: str, arguments: list[str], cells: int, steps: int) -> None:
    """Run one case and print its table row."""
    # exit 1 allowed: an invalid maze is still measured
    run = run_once([*MAZEKIT, *arguments], allowed=(0, 1))
    seconds, peak_mb = run.cpu, run.peak_mb
    budget = (PER_CELL * cells + PER_STEP * steps) / 2**20
    per_cell = peak_mb * 2**20 / cells
    print(
        f"| {name} | {cells:,} | {steps:,} | {seconds:.1f} s | {peak_mb:.0f} | {per_cell:.0f} | "
        f"{budget:.0f} | {verdict(peak_mb, budget)} |"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
