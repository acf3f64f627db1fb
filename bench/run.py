"""Run every benchmark script (bench/bench_*.py) in turn; each prints a Markdown table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _timing import machine  # noqa: E402

if __name__ == "__main__":
    print(f"Machine: {machine()}\n")
    only = set(sys.argv[1:])
    for script in sorted(HERE.glob("bench_*.py")):
        name = script.stem.removeprefix("bench_")
        if only and name not in only:
            continue
        print(f"## {name}\n")
        sys.stdout.flush()
        # each script in its own process: memory one script holds never shows in another's
        subprocess.run([sys.executable, str(script)], check=True)
        print()
