"""Benchmark ``mazekit stats --graph`` against issue 13's targets and the 1000x1000 goal.

Whole-process time (best and median of 3 runs after a warm-up): a 100x100 Pac-Man board
(exact Brandes, the largest size that is still exact) and a 20x15 Pac-Man board (the two-cop
game solved); the 1000x1000 perfect maze (the tree formula) is in bench_scale.py. Then the
goal of specs/performance.md ("stats --graph and edit --close-bottleneck at 1000x1000"): on
a 1000x1000 maze with loops, each command's CPU time minus the CPU time of its sampled
searches alone is at most 2.5x ``python -c "import numpy, click"``; the three are run by
turns, the ratio is the median over the rounds. Verdicts on CPU time (specs/performance.md).
Last, issue 26's goal for ``stats --graph -j 0`` on every core: at 4000x4000, with loops (a
maze and its Pac-Man board), at most 0.6x the time of mazekit 0.4.0 (its release commit,
built in the scratch folder) on two cores, with the same bytes. Prints Markdown tables.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import (
    BASELINE,
    BASELINE_ENV,
    MAZEKIT,
    ROOT,
    Run,
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


JOBS_SIDE = 4000
JOBS_GOAL = 0.6  # -j 0's critical path / 0.4.0's CPU time
JOBS_ROUNDS = 3
RELEASE = "0a32af8"  # "Version 0.4.0", the release the -j goal is measured against
# Its kernels built in place, as its setup.py builds them (Distribution, not setup(): no
# pyproject.toml read, so no build backend to fetch).
BUILD = """
import pathlib
from setuptools import Distribution, Extension
kernels = sorted(path.stem for path in pathlib.Path("src/c").glob("*.c"))
modules = [Extension(f"mazekit._c{name}", [f"src/c/{name}.c"]) for name in kernels]
dist = Distribution({"ext_modules": modules, "package_dir": {"": "src"}})
dist.get_command_obj("build_ext").inplace = True
dist.run_command("build_ext")
"""
# `mazekit ARGS` in this process, the CPU time of each share's search taken on its thread,
# and of the cop number (beside which another thread sorts the values for the Gini); writes
# the process CPU, the main thread's, the other threads' shares (sum, largest) and the cop
# number's to the file argv[1]. _critical makes the critical path of them.
CRITICAL = """
import os, resource, sys, threading, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from mazekit.graph import centrality, figures
shares, cop = [], []
def timed(inner, into):
    def call(*args, **kwargs):
        start = time.thread_time()
        try:
            return inner(*args, **kwargs)
        finally:
            if threading.current_thread() is not threading.main_thread() or into is cop:
                into.append(time.thread_time() - start)
    return call
centrality.brandes_cells = timed(centrality.brandes_cells, shares)
centrality.brandes_cells_in_turn = timed(centrality.brandes_cells_in_turn, shares)
if hasattr(figures, "_cop"):
    figures._cop = timed(figures._cop, cop)
from mazekit.__main__ import main
report, sys.argv = sys.argv[1], ["mazekit", *sys.argv[2:]]
try:
    main()
finally:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    found = (cpu, time.thread_time(), sum(shares), max(shares, default=0.0), sum(cop))
    with open(report, "w") as out:
        out.write(" ".join(str(item) for item in found))
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
        print()
        jobs(folder)


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
    """The 1000x1000 goal: a command's CPU time past its sampled searches (both of edit's),
    over the import floor, median over GOAL_ROUNDS rounds of (floor, command, searches)."""
    maze = maze_input(folder, GOAL_SIDE, "imperfect")
    output = folder / "graph-goal.txt"
    # each command, and the mazes whose sampled searches it makes: edit measures the maze, and
    # the edited maze again for its report (the load before and after)
    commands = {
        "stats --graph": (["stats", "--graph", str(maze)], [maze]),
        "edit --close-bottleneck 1": (
            ["edit", "--close-bottleneck", "1", str(maze), "-o", str(output)],
            [maze, output],
        ),
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
    for name, (args, searched) in commands.items():
        rounds = []
        for _ in range(GOAL_ROUNDS):
            floor = run_once(BASELINE, env=BASELINE_ENV).cpu
            command = run_once([*MAZEKIT, *args]).cpu
            searches = sum(_searches_cpu(path) for path in searched)
            rounds.append((command, searches, floor, (command - searches) / floor))
        command, searches, floor, ratio = sorted(rounds, key=lambda row: row[3])[len(rounds) // 2]
        print(
            f"| {name} | {command:.2f} | {searches:.2f} | {floor:.3f} | {ratio:.2f}x | "
            f"<= {GOAL_RATIO}x | {verdict(ratio, GOAL_RATIO)} |"
        )
    output.unlink(missing_ok=True)


def release(folder: Path) -> Path | None:
    """The src folder of mazekit 0.4.0 (RELEASE from this checkout's history), its kernels
    built, made once per scratch folder; None when this is no git checkout."""
    target = folder / "mazekit-0.4.0"
    if (target / "built").exists():
        return target / "src"
    found = subprocess.run(["git", "archive", RELEASE], cwd=ROOT, capture_output=True, check=False)
    if found.returncode:
        return None
    with tarfile.open(fileobj=BytesIO(found.stdout)) as archive:
        archive.extractall(target, filter="data")
    subprocess.run([sys.executable, "-c", BUILD], cwd=target, check=True, capture_output=True)
    (target / "built").touch()
    return target / "src"


def _critical(folder: Path, args: list[str], output: Path) -> tuple[Run, float]:
    """This mazekit's ``args`` (CRITICAL): the run, and its critical path in CPU seconds,
    what two free cores take: the main thread's CPU, plus the busiest share thread's, plus
    what the sort beside the cop number takes past the cop number (the CPU of threads other
    than the main one and the shares' is that sort's)."""
    report = folder / "graph-critical.txt"
    run = run_once([sys.executable, "-c", CRITICAL, str(report), *args], stdout_path=output)
    cpu, main, shares, largest, cop = (float(item) for item in report.read_text().split())
    aside = cpu - main - shares
    return run, main + largest + max(0.0, aside - cop)


def _same(first: bytes, second: bytes) -> str:
    """A table cell: whether two outputs are the same bytes."""
    return "same" if first == second else "DIFFER"


def _figures(text: bytes) -> bytes:
    """stats' output but its cop number line, whose reason 0.5.0 words otherwise."""
    return b"\n".join(line for line in text.splitlines() if b"cop number:" not in line)


def jobs(folder: Path) -> None:
    """stats --graph -j 0 against 0.4.0 at JOBS_SIDE, by turns over JOBS_ROUNDS rounds: the
    verdict on the critical path over 0.4.0's CPU time (its searches run on one thread), the
    wall ratio beside it (the machine's other jobs decide it when it is shared); the output
    bytes compared with -j 1's (they must be the same), and its figures with 0.4.0's (all
    but the cop number's line, whose reason 0.5.0 words otherwise)."""
    old = release(folder)
    if old is None:
        print(f"(stats --graph -j 0 against 0.4.0: skipped, {RELEASE} needs a git checkout)")
        return
    maze = maze_input(folder, JOBS_SIDE, "imperfect")
    board = folder / f"graph-board-{JOBS_SIDE}.txt"
    if not board.exists():
        mazekit("pacmanize", str(maze), "-o", str(board))
    outputs = {name: folder / f"graph-jobs-{name}.txt" for name in ("old", "j0", "j1")}
    environment = {**os.environ, "PYTHONPATH": str(old)}
    print(
        f"`stats --graph` at {JOBS_SIDE}x{JOBS_SIDE} with loops, mazekit 0.4.0 and `-j 0`, by "
        f"turns, {JOBS_ROUNDS} rounds: CPU s (user + system), critical path s (the main "
        "thread's CPU, the busiest search thread's, and the Gini's sort past the cop number "
        "beside it), wall s, peak MB, each round's ratio (median). Load average: "
        f"{load()}.\n"
    )
    print(
        "| maze | 0.4.0 CPU s | -j 0 CPU s | -j 0 critical s | critical / 0.4.0 | "
        "wall 0.4.0, -j 0 s | wall ratio | peak MB 0.4.0, -j 0 | bytes = -j 1 | figures = 0.4.0 "
        "| target | verdict |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|---|---|--:|---|")
    for name, path in (("`generate --imperfect --seed 1`", maze), ("pacmanized", board)):
        args = ["stats", "--graph", str(path)]
        rounds = []
        for _ in range(JOBS_ROUNDS):
            before = run_once([*MAZEKIT, *args], stdout_path=outputs["old"], env=environment)
            after, critical = _critical(folder, [*args, "-j", "0"], outputs["j0"])
            rounds.append((before, after, critical))
        _critical(folder, [*args, "-j", "1"], outputs["j1"])
        text = {key: item.read_bytes() for key, item in outputs.items()}
        ratio = statistics.median(critical / before.cpu for before, _, critical in rounds)
        wall = statistics.median(after.wall / before.wall for before, after, _ in rounds)
        middle = sorted(rounds, key=lambda row: row[2] / row[0].cpu)[len(rounds) // 2]
        before, after, critical = middle
        print(
            f"| {name} | {before.cpu:.1f} | {after.cpu:.1f} | {critical:.1f} | {ratio:.2f}x | "
            f"{before.wall:.1f}, {after.wall:.1f} | {wall:.2f}x | {before.peak_mb:.0f}, "
            f"{after.peak_mb:.0f} | {_same(text['j0'], text['j1'])} | "
            f"{_same(_figures(text['j0']), _figures(text['old']))} | <= {JOBS_GOAL}x | "
            f"{verdict(ratio, JOBS_GOAL)} |"
        )
    for item in outputs.values():
        item.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
