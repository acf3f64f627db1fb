"""validate: whole-process time on small and large mazes, against the issue's targets."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import MAZEKIT, ROOT, measure, verdict

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


if __name__ == "__main__":
    main()
