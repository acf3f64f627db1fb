"""heat: issue 26's memory goal for ``render --heat``: at most 150 bytes per cell (peak RSS) at
2000x2000 and 4000x4000.

The perfect maze of each size (backtracker, seed 1), drawn as an SVG (the default cell) and
as a PNG at ``--cell 3 --wall 1`` (the largest cell a 4000x4000 PNG fits: 200 million
pixels), with the betweenness heat (the sampled estimate at these sizes) and the distance
heat. One run each in a fresh process; CPU seconds (user + system) and peak resident
memory. ``python bench/bench_heat.py 2000`` measures one size. Prints a Markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, load, maze_input, run_once, scratch, verdict

SIDES = (2000, 4000)
BYTES_TARGET = 150.0
CASES = (
    ("betweenness", ".svg", ()),
    ("betweenness", ".png", ("--cell", "3", "--wall", "1")),
    ("distance", ".svg", ()),
    ("distance", ".png", ("--cell", "3", "--wall", "1")),
)


def main(sides: tuple[int, ...]) -> None:
    print(f"One run each, whole process. Load average at the start: {load()}.\n")
    print(f"| render --heat | maze | CPU s | wall s | peak MB | B/cell | <= {BYTES_TARGET:.0f} |")
    print("|---|---|--:|--:|--:|--:|---|")
    with scratch() as folder:
        for side in sides:
            maze = maze_input(folder, side)
            for kind, suffix, options in CASES:
                output = folder / f"heat{suffix}"
                argv = [*MAZEKIT, "render", "--heat", kind, str(maze), *options, "-o", str(output)]
                run = run_once(argv)
                output.unlink(missing_ok=True)
                per_cell = run.peak_mb * 2**20 / side**2
                name = f"{kind} {suffix[1:]} {' '.join(options)}".rstrip()
                print(
                    f"| {name} | {side}x{side} | {run.cpu:.1f} | {run.wall:.1f} | "
                    f"{run.peak_mb:.0f} | {per_cell:.0f} | {verdict(per_cell, BYTES_TARGET)} |"
                )
                sys.stdout.flush()
    print(f"\nLoad average at the end: {load()}.")


if __name__ == "__main__":
    main(tuple(int(side) for side in sys.argv[1:]) or SIDES)
