"""The process entry: ``python -m mazekit`` and the ``mazekit`` console script.

Ctrl-C is guarded first, before click, numpy or even ``typing`` load, so an interrupt at any
moment after Python reaches mazekit's code is a quiet exit 130 (specs/errors.md). Nothing here
may import anything that takes time.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal without loading enum: it is slow
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType

__all__ = ["INTERRUPTED", "guard_interrupts", "main", "one_blas_thread"]

INTERRUPTED = 130  # mazekit.errors.ExitStatus.INTERRUPTED, without importing it yet


def _interrupted(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C: remove the temporary output files, then exit 130 at once, without a word.

    os._exit, not an exception: an exception raised in a destructor, a finally clause or an
    import could be printed or swallowed; this ends the process wherever it stood.
    """
    outfile = sys.modules.get("mazekit.outfile")
    if outfile is not None:
        outfile.remove_temporaries()
    sandbox = sys.modules.get("mazekit.grade.sandbox")
    if sandbox is not None:  # mazekit grade: its programs and its copies go too
        sandbox.abandon_all()
    os._exit(INTERRUPTED)


def guard_interrupts() -> None:
    """Make Ctrl-C a quiet exit 130; an ignored SIGINT (nohup and friends) stays ignored."""
    if _signal.getsignal(_signal.SIGINT) != _signal.SIG_IGN:
        _signal.signal(_signal.SIGINT, _interrupted)


def one_blas_thread() -> None:
    """Ask numpy's OpenBLAS for no worker threads, unless the user chose a number.

    mazekit does no linear algebra, yet at import OpenBLAS starts a worker per core that spins
    waiting for work: 0.05-0.1 s of another core's CPU per command, about half of what a small
    command costs in all (specs/performance.md, "numpy's idle BLAS threads"). Read once, when
    numpy loads, so this runs before any import of numpy; a program that imports mazekit as a
    library keeps its own setting.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main() -> None:
    """Guard Ctrl-C, keep numpy to one thread, then load and run the command line."""
    guard_interrupts()
    one_blas_thread()
    from mazekit.cli import main as run

    run()


if __name__ == "__main__":
    main()
