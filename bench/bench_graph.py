"""Benchmark ``mazekit stats --graph`` against issue 13's targets and the 1000x1000 goal.

Whole-process time (best and median of 3 runs after a warm-up): a 100x100 Pac-Man board
(exact Brandes, the largest size that is still exact) and a 20x15 Pac-Man board (the two-cop
game solved); the 1000x1000 perfect maze (the tree formula) is in bench_scale.py. Then the
goal of specs/performance.md ("stats --graph and edit --close-bottleneck at 1000x1000"): on
a 1000x1000 maze with loops, each command's CPU time minus the CPU time of its sampled
searches alone is at most 2.5x ``python -c "import numpy, click"``; the three are run by
turns, the ratio is the median over the rounds. Verdicts on CPU time (specs/performance.md).
Prints Markdown tables.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import (
    BASELINE,
    BASELINE_ENV,
    MAZEKIT,
    ROOT,
    load,
    maze_input,
    measure,
    run_once,
    scratch,
    verdict,
)

GOAL_SIDE = 1000
GOAL_RATIO = 2.5  # (command - its sampled searches) / `import numpy, click`, CPU time
GOAL_ROUNDS = 3
# The sampled searches alone, as the command runs them: the maze read and its Analysis made
# first, then betweenness() timed (the sources drawn, their searches, the scaling); prints
# the CPU seconds (user + system, every thread) of that call.
SEARCHES = """
import resource, sys
from mazekit.analysis import Analysis
from mazekit.graph import betweenness
from mazekit.textformat import read
maze = read(sys.argv[1])
facts = Analysis(maze, "none")
facts.reachable, facts.moves
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
start = cpu()
found = betweenness(maze, facts=facts)
assert found.method == "sampled", found.method
print(cpu() - start)
"""


def mazekit(*args: str) -> None:
    """Run one preparation command, failing loudly."""
    subprocess.run([*MAZEKIT, *args], check=True, cwd=ROOT)


def main() -> None:
    with scratch() as folder:
        board, small = (folder / f"graph-{n}.txt" for n in ("board", "small"))
        for path, (width, height) in ((board, (100, 100)), (small, (20, 15))):
            size = ["--width", str(width), "--height", str(height), "--seed", "1"]
            mazekit("generate", *size, "--imperfect", "--max-dead-ends", "0", "-o", str(path))
        cases = [
            ("100x100 Pac-Man board (exact Brandes)", board, 5.0),
            ("20x15 Pac-Man board (cop number solved)", small, 10.0),
        ]
        print("Whole process, `stats --graph`, best and median of 3 runs after a warm-up.\n")
        print("| case | CPU s | wall s (best, median) | peak MB | target | verdict |")
        print("|------|------:|-------:|--------:|-------:|---------|")
        for name, path, target in cases:
            result = measure([*MAZEKIT, "stats", "--graph", str(path)], repeat=3)
            print(
                f"| {name} | {result.cpu:.2f} | {result.best:.2f}, {result.median:.2f} | "
                f"{result.peak_mb:.0f} | {target:.0f} s | {verdict(result.cpu, target)} |"
            )
        print()
        goal(folder)


def _searches_cpu(maze: Path) -> float:
    """CPU seconds of the sampled searches of ``maze`` alone (SEARCHES), in a fresh process."""
    found = subprocess.run(
        [sys.executable, "-c", SEARCHES, str(maze)],
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return float(found.stdout)


def goal(folder: Path) -> None:
    """The 1000x1000 goal: a command's CPU time past its sampled searches, over the import
    floor, median over GOAL_ROUNDS rounds of (floor, searches, command)."""
    maze = maze_input(folder, GOAL_SIDE, "imperfect")
    output = folder / "graph-goal.txt"
    commands = {
        "stats --graph": ["stats", "--graph", str(maze)],
        "edit --close-bottleneck 1": [
            "edit",
            "--close-bottleneck",
            "1",
            str(maze),
            "-o",
            str(output),
        ],
    }
    print(
        f"{GOAL_SIDE}x{GOAL_SIDE} maze with loops (`generate --imperfect`, seed 1): CPU seconds "
        "of the whole command, of its sampled searches alone, and of `import numpy, click`; "
        f"(command - searches) / import, median of {GOAL_ROUNDS} rounds. Load average: "
        f"{load()}.\n"
    )
    print(
        "| command | CPU s | searches s | import s | (command - searches) / import "
        "| target | verdict |"
    )
    print("|---|--:|--:|--:|--:|--:|---|")
    for name, args in commands.items():
        rounds = []
        for _ in range(GOAL_ROUNDS):
            floor = run_once(BASELINE, env=BASELINE_ENV).cpu
            searches = _searches_cpu(maze)
            command = run_once([*MAZEKIT, *args]).cpu
            rounds.append((command, searches, floor, (command - searches) / floor))
        command, searches, floor, ratio = sorted(rounds, key=lambda row: row[3])[len(rounds) // 2]
        print(
            f"| {name} | {command:.2f} | {searches:.2f} | {floor:.3f} | {ratio:.2f}x | "
            f"<= {GOAL_RATIO}x | {verdict(ratio, GOAL_RATIO)} |"
        )
    output.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
