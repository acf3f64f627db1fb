"""validate on batches: 1000 files in one process, and -j 2 against -j 1 on 2000 files."""

from __future__ import annotations

import tempfile
from pathlib import Path

from _timing import MAZEKIT, measure, verdict

from mazekit import generate
from mazekit.textformat import dump

FILES_ONE_PROCESS = 1000
FILES_PARALLEL = 2000


def make_files(folder: Path, count: int) -> Path:
    """``count`` valid 20x15 mazes of different seeds in ``folder`` (written in-process)."""
    folder.mkdir()
    for seed in range(count):
        text = dump(generate(width=20, height=15, seed=seed))
        (folder / f"maze-{seed:05d}.txt").write_text(text)
    return folder


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        small = make_files(Path(scratch) / "small", FILES_ONE_PROCESS)
        large = make_files(Path(scratch) / "large", FILES_PARALLEL)
        print("| case | time (s) | peak MB | target | verdict |")
        print("|---|---|---|---|---|")
        one = measure([*MAZEKIT, "validate", "-q", str(small)], repeat=3)
        print(
            f"| validate {FILES_ONE_PROCESS} files of 20x15, one process | {one.best:.2f} | "
            f"{one.peak_mb:.0f} | <= 1.5 s | {verdict(one.best, 1.5)} |"
        )
        serial = measure([*MAZEKIT, "validate", "-q", "-j", "1", str(large)], repeat=3)
        print(
            f"| validate {FILES_PARALLEL} files of 20x15, `-j 1` | {serial.best:.2f} | "
            f"{serial.peak_mb:.0f} | | |"
        )
        parallel = measure([*MAZEKIT, "validate", "-q", "-j", "2", str(large)], repeat=3)
        ratio = parallel.best / serial.best
        print(
            f"| validate {FILES_PARALLEL} files of 20x15, `-j 2` | {parallel.best:.2f} | "
            f"{parallel.peak_mb:.0f} | <= 0.65x `-j 1` ({ratio:.2f}x) | {verdict(ratio, 0.65)} |"
        )


if __name__ == "__main__":
    main()
