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
import time
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


def run_once(
    argv: list[str], stdin_path: Path | None = None, stdout_path: Path | None = None
) -> tuple[float, float]:
    """Run ``argv`` once; (wall seconds, peak RSS in MB). Fails loudly on a non-zero exit."""
    with contextlib.ExitStack() as files:
        stdin = files.enter_context(open(stdin_path, "rb")) if stdin_path else subprocess.DEVNULL
        stdout = files.enter_context(open(stdout_path, "wb")) if stdout_path else subprocess.DEVNULL
        start = time.perf_counter()
        process = subprocess.Popen(
            argv, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, cwd=ROOT
        )
        assert process.stderr is not None
        error = process.stderr.read().decode()
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"benchmark command failed ({code}): {' '.join(argv)}\n{error}")
    return elapsed, usage.ru_maxrss / 1024


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
