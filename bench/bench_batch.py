"""batch: validate on 10 000 small files, in one process and with ``-j`` (issues 11 and 17).

The files are 20x15 mazes of seeds 0-9999, written in-process once, in ten folders of 1000.
Rows: the first folder in one process (at most 1.5 s: specs/validate.md), then all 10 000
files with ``-j 1`` and with ``-j 0`` (every core), run by turns; ``-j 0`` must finish in under
10 s of wall time and at most 0.65x the wall time of ``-j 1`` on two cores. Wall time decides
here: CPU time (shown beside) adds up every worker. Best of REPEAT. Prints a Markdown table.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import MAZEKIT, Run, best, run_once, scratch, verdict

from mazekit import generate
from mazekit.textformat import dump

FILES = 10_000
PER_FOLDER = 1000
REPEAT = 3
ONE_PROCESS_TARGET = 1.5  # seconds for 1000 files
BATCH_TARGET = 10.0  # seconds for 10 000 files with -j
SPEED_UP_TARGET = 0.65  # -j 0 / -j 1 on two cores


def make_files(folder: Path) -> Path:
    """FILES valid 20x15 mazes of different seeds under ``folder`` (made once per run)."""
    done = folder / ".complete"
    if not done.exists():
        for seed in range(FILES):
            part = folder / f"part-{seed // PER_FOLDER}"
            part.mkdir(parents=True, exist_ok=True)
            text = dump(generate(width=20, height=15, seed=seed))
            (part / f"maze-{seed:05d}.txt").write_text(text)
        done.touch()
    return folder


def _row(name: str, run: Run, target: str, ok: str) -> str:
    return f"| {name} | {run.wall:.2f} | {run.cpu:.2f} | {run.peak_mb:.0f} | {target} | {ok} |"


def main() -> None:
    with scratch() as shared:
        files = make_files(shared / "batch")
        print(f"Whole process, best of {REPEAT}; {os.cpu_count()} cores.\n")
        print("| case | wall s | CPU s (all processes) | peak MB | target | verdict |")
        print("|---|--:|--:|--:|---|---|")
        part = files / "part-0"
        one = best([run_once([*MAZEKIT, "validate", "-q", str(part)]) for _ in range(REPEAT)])
        print(
            _row(
                f"validate {PER_FOLDER} files of 20x15, one process",
                one,
                f"<= {ONE_PROCESS_TARGET} s",
                verdict(one.cpu, ONE_PROCESS_TARGET),
            )
        )
        sys.stdout.flush()
        serial_runs, parallel_runs = [], []
        for _ in range(REPEAT):
            serial_runs.append(run_once([*MAZEKIT, "validate", "-q", "-j", "1", str(files)]))
            parallel_runs.append(run_once([*MAZEKIT, "validate", "-q", "-j", "0", str(files)]))
        serial, parallel = best(serial_runs), best(parallel_runs)
        print(_row(f"validate {FILES:,} files of 20x15, `-j 1`", serial, "", ""))
        speed_up = parallel.wall / serial.wall
        ok = verdict(parallel.wall, BATCH_TARGET) == "ok" and speed_up <= SPEED_UP_TARGET
        print(
            _row(
                f"validate {FILES:,} files of 20x15, `-j 0`",
                parallel,
                f"< {BATCH_TARGET:.0f} s, <= {SPEED_UP_TARGET}x `-j 1` ({speed_up:.2f}x)",
                "ok" if ok else "OVER",
            )
        )


if __name__ == "__main__":
    main()
