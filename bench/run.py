"""Run the benchmarks (bench/bench_*.py), each printing a Markdown table ready to paste.

``python bench/run.py`` runs every section, issue 17's first (startup, scale, batch);
``python bench/run.py scale batch`` only those. The sections share one scratch folder, so an
input maze (4000x4000 ones too) is made once per run. bench_scale.py's docstring lists the
environment variables of quick checks (MAZEKIT_BENCH_SIZES=1000, MAZEKIT_BENCH_ONLY=solve).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _timing import SCRATCH_VARIABLE, load, machine  # noqa: E402

FIRST = ("startup", "scale", "batch")  # issue 17's "Done when", then the earlier issues' targets


def sections() -> list[str]:
    """Every section's name: issue 17's first, then the others in alphabetical order."""
    names = sorted(script.stem.removeprefix("bench_") for script in HERE.glob("bench_*.py"))
    return [*FIRST, *(name for name in names if name not in FIRST)]


if __name__ == "__main__":
    known = sections()
    asked = sys.argv[1:]
    unknown = [name for name in asked if name not in known]
    if unknown:
        raise SystemExit(f"unknown section(s) {', '.join(unknown)}; known: {', '.join(known)}")
    print(f"Machine: {machine()}; load average {load()}\n")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mazekit-bench.") as folder:
        environment = {**os.environ, SCRATCH_VARIABLE: folder}
        for name in [name for name in known if not asked or name in asked]:
            print(f"## {name}\n")
            sys.stdout.flush()
            # each script in its own process: memory one script holds never shows in another's
            script = HERE / f"bench_{name}.py"
            subprocess.run([sys.executable, str(script)], check=True, env=environment)
            print()
    print(f"(benchmarks ran in {time.perf_counter() - started:.0f} s)")
