"""A session's costly fixture computed by a process of its own, started as soon as the run
knows that a selected test needs it, so that its waiting (programs run to their timeouts,
pip, Xvfb) overlaps the other tests instead of holding up the worker that asks first.

The process runs ``python -m MODULE FOLDER``; the module writes its result, pickled, to
FOLDER/result (atomically), or its traceback to FOLDER/failed. Under pytest-xdist the
folder is shared by the workers (beside their base temporary folders), and the first worker
to need it starts the process; every worker reads the same result.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["Background", "publish"]

ROOT = Path(__file__).resolve().parent.parent
RESULT, FAILED, STARTED, LOG = "result", "failed", "started", "stderr"


class Background:
    """The result of ``python -m module`` run once for the session in ``folder``."""

    def __init__(self, module: str, folder: Path | None) -> None:
        # without a shared folder (no xdist) the folder is this run's own, removed at close
        self.owned = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="mazekit-tests-")) if folder is None else folder
        self.module = module
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process, unless another worker already did."""
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            (self.folder / STARTED).open("x").close()
        except FileExistsError:
            return
        with open(self.folder / LOG, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", self.module, str(self.folder)],
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def result(self, timeout: float = 900.0) -> Any:
        """The pickled result, once written; AssertionError with the process's words when it
        failed, ended without one, or took longer than ``timeout`` seconds."""
        self.start()
        deadline = time.monotonic() + timeout
        while not (self.folder / RESULT).exists():
            if (self.folder / FAILED).exists():
                raise AssertionError((self.folder / FAILED).read_text())
            ended = self.process is not None and self.process.poll() is not None
            if ended and not (self.folder / RESULT).exists():
                log = (self.folder / LOG).read_text(errors="replace")
                raise AssertionError(f"{self.module} ended without a result:\n{log}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.module} gave no result in {timeout:.0f} s")
            time.sleep(0.05)
        return pickle.loads((self.folder / RESULT).read_bytes())

    def close(self) -> None:
        """Wait for the process this worker started (another worker may still read its
        result); remove the folder if it is this run's own."""
        if self.process is not None:
            self.process.wait()
        if self.owned:
            shutil.rmtree(self.folder, ignore_errors=True)


def publish(compute: Callable[[Path], object]) -> int:
    """The body of ``python -m MODULE FOLDER``: ``compute(FOLDER)``'s result, pickled into
    FOLDER/result, or the traceback into FOLDER/failed; the exit code."""
    folder = Path(sys.argv[1])
    try:
        data = pickle.dumps(compute(folder))
    except BaseException:
        (folder / FAILED).write_text(traceback.format_exc())
        return 1
    part = folder / f"{RESULT}.part"
    part.write_bytes(data)
    os.replace(part, folder / RESULT)
    return 0
