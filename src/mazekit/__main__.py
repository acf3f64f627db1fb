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


_GUARDED = os.getpid()  # the process whose temporary files and copies the handler removes


def _interrupted(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C, SIGTERM or SIGHUP: remove the temporary output files (and grade's programs and
    copies), then exit 128 + the signal (130, 143, 129) at once, without a word.

    os._exit, not an exception: an exception raised in a destructor, a finally clause or an
    import could be printed or swallowed; this ends the process wherever it stood. A forked
    worker (validate -j) only exits: the files are its parent's.
    """
    if os.getpid() == _GUARDED:
        outfile = sys.modules.get("mazekit.outfile")
        if outfile is not None:
            outfile.remove_temporaries()
        sandbox = sys.modules.get("mazekit.grade.sandbox")
        if sandbox is not None:  # mazekit grade: its programs and its copies go too
            sandbox.abandon_all()
    os._exit(128 + signum)


def guard_interrupts() -> None:
    """Make Ctrl-C a quiet exit 130, and SIGTERM (`timeout`, `kill`) and SIGHUP (a closed
    terminal) 143 and 129, each leaving no temporary file; a signal ignored (nohup and
    friends) stays ignored."""
    global _GUARDED
    _GUARDED = os.getpid()
    for signum in (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP):
        if _signal.getsignal(signum) != _signal.SIG_IGN:
            _signal.signal(signum, _interrupted)


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
