"""What a run sees around it: namespaces (bubblewrap), a virtual display (Xvfb), a terminal.

Each is a well-kept tool driven from here, never home-made kernel code: ``bwrap`` makes the
new mount, PID, IPC and network namespaces; ``Xvfb`` the X display; the pseudo-terminal is
the kernel's own (os.openpty). specs/grade.md says what holds with and without them.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import select
import shutil
import signal
import struct
import subprocess
import termios
import threading
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "PRIVATE_FOLDERS",
    "TERM",
    "Terminal",
    "Xvfb",
    "bwrap",
    "in_private_folder",
    "namespaces_work",
]

# World-writable folders the runs would otherwise share: each run gets empty ones.
PRIVATE_FOLDERS = ("/tmp", "/var/tmp", "/run/lock")
# POSIX shared memory and semaphores (multiprocessing.Lock, Pool): bwrap's new /dev holds a
# /dev/shm of root's, mode 755, which no runner may write; each run gets its own, open to all.
SHARED_MEMORY = "/dev/shm"
TERM = "xterm-256color"
ROWS, COLUMNS = 24, 80
XVFB_SECONDS = 20.0  # Xvfb gets this long to say which display it took


@functools.cache
def _tool() -> str:
    """bwrap's path, found once: a run's PATH may be another."""
    return shutil.which("bwrap") or "bwrap"


def _bwrap_base(network: bool) -> list[str]:
    argv = [_tool(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    argv += ["--perms", "1777", "--tmpfs", SHARED_MEMORY]
    for folder in PRIVATE_FOLDERS:
        if os.path.isdir(folder) and not os.path.islink(folder):
            argv += ["--perms", "1777", "--tmpfs", folder]
    argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"]
    if not network:
        argv.append("--unshare-net")
    return argv


@functools.cache
def namespaces_work() -> bool:
    """Whether ``bwrap`` is installed and can make the namespaces here (a container without
    the right to make them refuses)."""
    if not os.path.isabs(_tool()):
        return False
    try:
        done = subprocess.run(
            [*_bwrap_base(False), "--", "/bin/sh", "-c", "exit 0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def in_private_folder(path: str) -> bool:
    """Whether ``path`` lies in one of the PRIVATE_FOLDERS, or /dev, which the namespaces
    make anew."""
    return any(path == f or path.startswith(f + os.sep) for f in (*PRIVATE_FOLDERS, "/dev"))


def bwrap(
    argv: Sequence[str],
    cwd: str,
    writable: Sequence[str],
    readable: Sequence[str] = (),
    network: bool = False,
) -> list[str]:
    """``argv`` inside new namespaces: the whole file system read-only, empty private
    /tmp, /var/tmp and /dev/shm, a PID namespace whose processes all die with the run, no
    network unless ``network``; ``writable`` (the run's copy) and ``readable`` (a virtual
    environment, the X socket) bound in at their own paths."""
    command = _bwrap_base(network)
    # the folders on the way to a bound path that lie in a private folder are made anew,
    # open to pass through (bwrap would make them for root only)
    on_the_way: set[str] = set()
    for path in [*readable, *writable]:
        folder = os.path.dirname(path)
        while in_private_folder(folder) and folder not in (*PRIVATE_FOLDERS, "/dev", SHARED_MEMORY):
            on_the_way.add(folder)
            folder = os.path.dirname(folder)
    for folder in sorted(on_the_way, key=lambda f: f.count(os.sep)):
        command += ["--perms", "0755", "--dir", folder]
    for path in readable:
        command += ["--ro-bind", path, path]
    for path in writable:
        command += ["--bind", path, path]
    return [*command, "--chdir", cwd, "--", *argv]


class Terminal:
    """A pseudo-terminal of 80x24 for one run: the program gets the terminal side, and a
    thread copies what it draws into a file, up to ``limit`` bytes."""

    def __init__(self, capture: Path, limit: int, typed: bytes) -> None:
        self.master, self.slave = os.openpty()
        size = struct.pack("HHHH", ROWS, COLUMNS, 0, 0)
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, size)
        if typed:  # what --stdin gives, typed ahead as on a keyboard
            with contextlib.suppress(OSError):
                os.write(self.master, typed)
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._pump, args=(self.master, capture, limit), daemon=True
        )
        self._thread.start()  # from here on the master side is the thread's alone

    def _pump(self, master: int, capture: Path, limit: int) -> None:
        """Copy what the program draws to ``capture``; the thread closes the terminal's
        master side itself when done, so no other thread's file that gets its number can
        be read from here."""
        written = 0
        try:
            with open(capture, "wb") as out:
                while not self._done.is_set():
                    ready, _, _ = select.select([master], [], [], 0.1)
                    if not ready:
                        continue
                    try:
                        data = os.read(master, 65536)
                    except OSError:  # EIO: every holder of the terminal side is gone
                        break
                    if not data:
                        break
                    if written < limit:
                        out.write(data[: limit - written])
                        written += len(data)
        finally:
            os.close(master)

    def started(self) -> None:
        """The program holds the terminal side now: the grader lets go of its own (once: a
        second close could close another thread's file that got the number since)."""
        slave, self.slave = self.slave, -1
        if slave >= 0:
            with contextlib.suppress(OSError):
                os.close(slave)

    def close(self) -> None:
        """Stop copying (what is written so far is in the file) and close the terminal."""
        self._done.set()
        self._thread.join(timeout=5)
        self.started()


class Xvfb:
    """A virtual X display for the runs of one copy, started on first use."""

    def __init__(self, log: Path) -> None:
        self._log = log
        self._process: subprocess.Popen[bytes] | None = None
        self.display = ""
        self.socket = ""

    def start(self) -> None:
        """Start Xvfb and learn its display; OSError with Xvfb's last words when it fails."""
        if self._process is not None:
            return
        tool = shutil.which("Xvfb")
        if tool is None:
            raise OSError("Xvfb is not installed (Debian's package xvfb)")
        read, write = os.pipe()
        try:
            with open(self._log, "wb") as log:
                self._process = subprocess.Popen(
                    [
                        tool,
                        "-displayfd",
                        str(write),
                        "-nolisten",
                        "tcp",
                        "-screen",
                        "0",
                        "1280x1024x24",
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    pass_fds=(write,),
                    start_new_session=True,
                )
            os.close(write)
            write = -1
            number = b""
            while not number.endswith(b"\n"):
                ready, _, _ = select.select([read], [], [], XVFB_SECONDS)
                chunk = os.read(read, 16) if ready else b""
                if not chunk:
                    break
                number += chunk
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)
        if not number.strip().isdigit():
            self.stop()
            lines = self._log.read_text(errors="replace").strip().splitlines()
            raise OSError(f"Xvfb did not start: {lines[-1] if lines else 'no display'}")
        self.display = f":{int(number)}"
        self.socket = f"/tmp/.X11-unix/X{int(number)}"

    def stop(self) -> None:
        """End the server (it removes its socket and lock file on SIGTERM)."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
