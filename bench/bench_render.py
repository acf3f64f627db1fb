"""render: whole-process time for small and large mazes, against the targets of issue 5.

The 1000x1000 maze is made by ``mazekit.generate`` (backtracker, seed 1), path included.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from _timing import MAZEKIT, ROOT, measure, verdict

from mazekit.generators import generate
from mazekit.textformat import write

SMALL = ROOT / "tests" / "data" / "render" / "maze-20x15.txt"
STARTUP = [sys.executable, "-c", "import numpy, click, PIL.Image"]


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        big = folder / "1000x1000.txt"
        write(generate(1000, 1000, seed=1), big)
        baseline = measure(STARTUP, repeat=20)
        small = measure([*MAZEKIT, "render", str(SMALL), "-o", str(folder / "s.png")], repeat=20)
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


if __name__ == "__main__":
    main()
