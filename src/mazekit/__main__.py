"""The process entry: ``python -m mazekit`` and the ``mazekit`` console script.

It stays light on purpose: Ctrl-C is turned into a quiet exit 130 before click and numpy start
loading, so an early interrupt never prints a traceback.
"""

from __future__ import annotations

import signal
from types import FrameType

INTERRUPTED = 130  # mazekit.errors.ExitStatus.INTERRUPTED, without importing it yet


def _interrupted(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C: unwind (so temporary files are removed) and exit 130 without a traceback."""
    raise SystemExit(INTERRUPTED)


def main() -> None:
    """Guard Ctrl-C, then load and run the command line."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # nohup and friends: leave it
        signal.signal(signal.SIGINT, _interrupted)
    from mazekit.cli import main as run

    run()


if __name__ == "__main__":
    main()
