"""startup: every command on a 20x15 maze against the interpreter with numpy and click.

A small maze costs mazekit nearly nothing but its start-up, so this is the start-up's price:
at most 1.3x ``python -c "import numpy, click"`` (issue 17), render to PNG included: issue 5
allowed it 1.5x a baseline that imports ``PIL.Image`` too, but mazekit encodes PNG itself now
and never loads Pillow for it. Best of REPEAT
runs, each after one run of its baseline (taken in turns, so a change of load hits both); the
ratio is the median over the pairs of run / baseline run. CPU seconds (user + system) with the
wall time beside, verdicts on CPU time (specs/performance.md, "Benchmarks"). Prints a
Markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, ROOT, interleaved, scratch, verdict

REPEAT = 10
SMALL = ROOT / "samples" / "valid-20x15-perfect.txt"


def main() -> None:
    with scratch() as folder:
        out = folder / "startup-output"
        cases = [
            ("validate", ["validate", "-q", str(SMALL)], 1.3),
            ("solve", ["solve", str(SMALL), "-o", f"{out}.txt"], 1.3),
            ("generate", ["generate", "--seed", "1", "-o", f"{out}.txt"], 1.3),
            ("stats", ["stats", str(SMALL)], 1.3),
            ("pacmanize", ["pacmanize", str(SMALL), "-o", f"{out}.txt"], 1.3),
            ("render text", ["render", str(SMALL), "-o", f"{out}.txt"], 1.3),
            ("render png", ["render", str(SMALL), "-o", f"{out}.png"], 1.3),
        ]
        print(
            f"Whole process on {SMALL.relative_to(ROOT)}; CPU seconds (user + system), wall "
            f"in brackets; best of {REPEAT}, each after one run of the baseline; ratio: the median "
            "of run / baseline run.\n"
        )
        print("| command, 20x15 | s | baseline s | ratio | target | verdict |")
        print("|---|--:|--:|--:|---|---|")
        for name, arguments, target in cases:
            paired = interleaved([*MAZEKIT, *arguments], REPEAT)
            mine, theirs, ratio = paired.mine, paired.theirs, paired.cpu_ratio
            print(
                f"| {name} | {mine.cpu:.3f} ({mine.wall:.3f}) | {theirs.cpu:.3f} "
                f"({theirs.wall:.3f}) | {ratio:.2f}x ({paired.wall_ratio:.2f}x) | "
                f"<= {target}x `import numpy, click` | {verdict(ratio, target)} |"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
