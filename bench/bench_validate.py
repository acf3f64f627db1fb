"""validate: whole-process time on small and large mazes, against the issue's targets."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import MAZEKIT, ROOT, measure, verdict
from bench_solve import corridor_maze

from mazekit.textformat import write

STARTUP = [sys.executable, "-c", "import numpy, click"]


def make_maze(folder: Path, size: int, perfect: bool) -> Path:
    """A generated size x size maze (entry top-left, exit bottom-right)."""
    target = folder / f"{size}-{'perfect' if perfect else 'imperfect'}.txt"
    flags = ["--perfect"] if perfect else ["--imperfect"]
    subprocess.run(
        [
            *MAZEKIT,
            "generate",
            "--width",
            str(size),
            "--height",
            str(size),
            "--seed",
            "1",
            *flags,
            "-o",
            str(target),
        ],
        check=True,
        cwd=ROOT,
    )
    return target


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        baseline = measure(STARTUP, repeat=20)
        small = ROOT / "samples" / "valid-20x15-perfect.txt"
        quick = measure([*MAZEKIT, "validate", "-q", str(small)], repeat=20)
        ratio = quick.best / baseline.best
        print("| case | time (s) | peak MB | target | verdict |")
        print("|---|---|---|---|---|")
        base = f"{baseline.best:.3f} | {baseline.peak_mb:.0f}"
        print(f"| `import numpy, click` (baseline) | {base} | | |")
        print(
            f"| validate 20x15 | {quick.best:.3f} | {quick.peak_mb:.0f} | <= 1.3x baseline "
            f"({ratio:.2f}x) | {verdict(ratio, 1.3)} |"
        )
        for size, limit in ((1000, 1.0), (2000, 3.0)):
            for perfect in (True, False):
                maze = make_maze(folder, size, perfect)
                result = measure([*MAZEKIT, "validate", "-q", str(maze)], repeat=3)
                kind = "perfect" if perfect else "imperfect"
                memory = " and 300 MB" if size == 2000 else ""
                ok = verdict(result.best, limit)
                if size == 2000 and result.peak_mb > 300:
                    ok = "OVER"
                print(
                    f"| validate {size}x{size} {kind} | {result.best:.2f} | "
                    f"{result.peak_mb:.0f} | <= {limit:.0f} s{memory} | {ok} |"
                )
        # The longest path a 2000x2000 file can carry: one corridor through every cell.
        corridor = folder / "corridor.txt"
        maze = corridor_maze(2000, 2000)
        maze.path = "".join(("E" * 1999 if y % 2 == 0 else "W" * 1999) for y in range(2000))
        maze.path = "S".join(maze.path[i * 1999 : (i + 1) * 1999] for i in range(2000))
        write(maze, corridor)
        result = measure([*MAZEKIT, "validate", "-q", "--pattern", "none", str(corridor)], repeat=3)
        ok = "ok" if result.best <= 3.0 and result.peak_mb <= 300 else "OVER"
        print(
            f"| validate 2000x2000 single corridor (4M-step path) | {result.best:.2f} | "
            f"{result.peak_mb:.0f} | <= 3 s and 300 MB | {ok} |"
        )


if __name__ == "__main__":
    main()
