"""Timing helpers for the benchmark scripts: whole-process wall and CPU time, peak memory.

Benchmarks measure what a user waits for: a fresh ``mazekit`` process, start to exit. Each
run reports its wall time, its CPU time (user + system, from wait4: steadier than wall time on
a shared machine, specs/performance.md "Benchmarks") and its peak resident memory. Input mazes
are made once per ``make bench`` into one scratch folder (``inputs``) that every script shares.
"""

from __future__ import annotations

import contextlib
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAZEKIT = [sys.executable, "-m", "mazekit"]
BASELINE = [sys.executable, "-c", "import numpy, click"]
# The environment the baseline runs in: numpy held to one BLAS thread, as mazekit holds it
# (mazekit.__main__.one_blas_thread). Otherwise OpenBLAS's idle workers spin 0.05-0.1 s of
# CPU in the baseline alone, and the CPU ratio would flatter every row (specs/performance.md).
BASELINE_ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
# run.py makes one scratch folder for the whole run and names it here, so the scripts it
# starts share their inputs (a 4000x4000 maze is made once, not once per script).
SCRATCH_VARIABLE = "MAZEKIT_BENCH_DIR"


@dataclass(frozen=True)
class Run:
    """One run of a command: wall seconds, CPU seconds (user + system), peak RSS in MB."""

    wall: float
    cpu: float
    peak_mb: float


@dataclass(frozen=True)
class Measure:
    """Best-of-N and median wall time in seconds, best CPU time, and the peak memory in MB."""

    best: float
    median: float
    peak_mb: float
    cpu: float = 0.0


# A small launcher between the benchmark and the command: a child forked from a large
# process keeps that process's memory high-water mark through exec, so the command is forked
# from this small one instead, and its own wait4 figures are reported on the last stderr line
# (ru_utime + ru_stime include the children the command waited for, such as -j's workers).
_LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - start
code = os.waitstatus_to_exitcode(status)
cpu = usage.ru_utime + usage.ru_stime
sys.stderr.write(f"\\n@@bench {elapsed!r} {cpu!r} {usage.ru_maxrss} {code}\\n")
"""


def run_once(
    argv: list[str],
    stdin_path: Path | None = None,
    stdout_path: Path | None = None,
    allowed: tuple[int, ...] = (0,),
    env: dict[str, str] | None = None,
) -> Run:
    """Run ``argv`` once (in ``env``, default this process's environment) and report it;
    fails loudly on an exit code not in ``allowed``."""
    with contextlib.ExitStack() as files:
        stdin = files.enter_context(open(stdin_path, "rb")) if stdin_path else subprocess.DEVNULL
        stdout = files.enter_context(open(stdout_path, "wb")) if stdout_path else subprocess.DEVNULL
        result = subprocess.run(
            [sys.executable, "-c", _LAUNCHER, *argv],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=env,
            check=False,
        )
    error, _, report = result.stderr.decode(errors="replace").rpartition("\n@@bench ")
    elapsed, cpu, peak_kb, code = report.split()
    if int(code) not in allowed:
        raise SystemExit(f"benchmark command failed ({code}): {' '.join(argv)}\n{error}")
    return Run(float(elapsed), float(cpu), int(peak_kb) / 1024)


def measure(argv: list[str], repeat: int = 5, **kwargs: Path) -> Measure:
    """Run ``argv`` ``repeat`` times (after one warm-up) and summarise."""
    run_once(argv, **kwargs)
    runs = [run_once(argv, **kwargs) for _ in range(repeat)]
    return summary(runs)


def summary(runs: list[Run]) -> Measure:
    """The best and median wall time, best CPU time and highest peak of some runs."""
    times = [run.wall for run in runs]
    return Measure(
        min(times),
        statistics.median(times),
        max(run.peak_mb for run in runs),
        min(run.cpu for run in runs),
    )


@dataclass(frozen=True)
class Paired:
    """A command against a baseline, run by turns: the best run of each, and the median over
    the pairs of the command's time over the baseline run just before it, in CPU and in wall
    time (two runs a fraction of a second apart see the same load on a shared machine, so
    their ratio moves much less than the ratio of two separate bests)."""

    mine: Run
    theirs: Run
    cpu_ratio: float
    wall_ratio: float


def interleaved(argv: list[str], repeat: int, baseline: list[str] = BASELINE) -> Paired:
    """Run ``baseline`` then ``argv``, ``repeat`` times, and compare them (Paired)."""
    mine: list[Run] = []
    theirs: list[Run] = []
    for _ in range(repeat):
        theirs.append(run_once(baseline, env=BASELINE_ENV))
        mine.append(run_once(argv))
    pairs = list(zip(mine, theirs, strict=True))
    return Paired(
        best(mine),
        best(theirs),
        statistics.median(m.cpu / t.cpu for m, t in pairs),
        statistics.median(m.wall / t.wall for m, t in pairs),
    )


def best(runs: list[Run]) -> Run:
    """The least wall and least CPU time of ``runs`` and their highest peak memory."""
    return Run(
        min(run.wall for run in runs),
        min(run.cpu for run in runs),
        max(run.peak_mb for run in runs),
    )


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """The shared scratch folder of this ``make bench`` run, or a new one for a script run
    alone (removed at its end)."""
    shared = os.environ.get(SCRATCH_VARIABLE)
    if shared:
        yield Path(shared)
        return
    with tempfile.TemporaryDirectory(prefix="mazekit-bench.") as folder:
        yield Path(folder)


def maze_input(
    folder: Path, side: int, kind: str = "perfect", algorithm: str = "backtracker"
) -> Path:
    """A ``side`` x ``side`` maze made by ``mazekit generate`` (seed 1) in ``folder``, made
    the first time it is asked for and reused after; ``kind`` is perfect or imperfect."""
    target = folder / f"input-{side}-{kind}-{algorithm}.txt"
    if not target.exists():
        size = ["--width", str(side), "--height", str(side), "--seed", "1"]
        partial = target.with_suffix(".part")
        subprocess.run(
            [
                *MAZEKIT,
                "generate",
                *size,
                f"--{kind}",
                "--algorithm",
                algorithm,
                "-o",
                str(partial),
            ],
            check=True,
            cwd=ROOT,
        )
        partial.rename(target)
    return target


def machine() -> str:
    """One line describing this machine, for the README table."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 1024 / 1024:.0f} GB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{memory}, Python {platform.python_version()}"


def load() -> str:
    """The load averages (1, 5, 15 min): how busy the shared machine was."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def verdict(value: float, limit: float) -> str:
    """'ok' or 'OVER' against a target, for the tables."""
    return "ok" if value <= limit else "OVER"
