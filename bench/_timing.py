"""Timing helpers for the benchmark scripts: whole-process wall time and peak memory.

Benchmarks measure what a user waits for: a fresh ``mazekit`` process, start to exit.
"""

from __future__ import annotations

import contextlib
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAZEKIT = [sys.executable, "-m", "mazekit"]


@dataclass(frozen=True)
class Measure:
    """Best-of-N wall time in seconds, median time, and the peak resident memory in MB."""

    best: float
    median: float
    peak_mb: float


# A small launcher between the benchmark and the command: a child forked from a large
# process keeps that process's memory high-water mark through exec, so the command is forked
# from this small one instead, and its own wait4 figures are reported on the last stderr line.
_LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - start
code = os.waitstatus_to_exitcode(status)
sys.stderr.write(f"\\n@@bench {elapsed!r} {usage.ru_maxrss} {code}\\n")
"""


def run_once(
    argv: list[str], stdin_path: Path | None = None, stdout_path: Path | None = None
) -> tuple[float, float]:
    """Run ``argv`` once; (wall seconds, peak RSS in MB). Fails loudly on a non-zero exit."""
    with contextlib.ExitStack() as files:
        stdin = files.enter_context(open(stdin_path, "rb")) if stdin_path else subprocess.DEVNULL
        stdout = files.enter_context(open(stdout_path, "wb")) if stdout_path else subprocess.DEVNULL
        result = subprocess.run(
            [sys.executable, "-c", _LAUNCHER, *argv],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            check=False,
        )
    error, _, report = result.stderr.decode().rpartition("\n@@bench ")
    elapsed, peak_kb, code = report.split()
    if int(code) != 0:
        raise SystemExit(f"benchmark command failed ({code}): {' '.join(argv)}\n{error}")
    return float(elapsed), int(peak_kb) / 1024


def measure(argv: list[str], repeat: int = 5, **kwargs: Path) -> Measure:
    """Run ``argv`` ``repeat`` times (after one warm-up) and summarise."""
    run_once(argv, **kwargs)
    times, peaks = [], []
    for _ in range(repeat):
        seconds, peak = run_once(argv, **kwargs)
        times.append(seconds)
        peaks.append(peak)
    return Measure(min(times), statistics.median(times), max(peaks))


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


def verdict(value: float, limit: float) -> str:
    """'ok' or 'OVER' against a target, for the tables."""
    return "ok" if value <= limit else "OVER"
