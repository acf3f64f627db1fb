"""A real ``mazekit view`` in a pseudo-terminal, its screen emulated by pyte, for the tests.

The forked child owns the pty as its controlling terminal (so the viewer can open /dev/tty),
runs mazekit as a subprocess, and once it has ended writes one line with its exit status and
the terminal's line settings (echo and canonical input), which tells whether it restored them.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import pyte

ENDING = re.compile(r"\[ended (-?\d+) echo (\d) icanon (\d)\]")


class _Screen(pyte.Screen):
    """pyte's screen plus SU and SD (scroll the region up or down n lines, the cursor stays),
    which ncurses uses to scroll and pyte 0.8 lacks."""

    def _scroll(self, count: int, step: Callable[[], None], row: int) -> None:
        top, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
        x, y = self.cursor.x, self.cursor.y
        self.cursor.y = bottom if row > 0 else top
        for _ in range(count or 1):
            step()
        self.cursor.x, self.cursor.y = x, y

    def scroll_up(self, count: int = 1, **_: object) -> None:
        """CSI n S: the lines of the scrolling region move up n lines."""
        self._scroll(count, self.index, 1)

    def scroll_down(self, count: int = 1, **_: object) -> None:
        """CSI n T: the lines of the scrolling region move down n lines."""
        self._scroll(count, self.reverse_index, -1)


class _Stream(pyte.ByteStream):
    """pyte's byte stream, dispatching SU and SD to _Screen."""

    csi: ClassVar[dict[str, str]] = {**pyte.ByteStream.csi, "S": "scroll_up", "T": "scroll_down"}


def _set_size(fd: int, columns: int, rows: int) -> None:
    """Give the terminal on ``fd`` a size (the kernel tells its programs with SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class Terminal:
    """``mazekit ARGS`` on a COLUMNS x ROWS terminal: keys in, screen (with colours) out."""

    def __init__(
        self,
        args: list[str],
        *,
        columns: int = 80,
        rows: int = 30,
        term: str = "xterm-256color",
        env: dict[str, str] | None = None,
        stdin: Path | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.screen = _Screen(columns, rows)
        self.stream = _Stream(self.screen)
        self.raw = b""
        environment = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS")}
        environment.pop("NO_COLOR", None)
        environment.update({"TERM": term, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        environment.update(env or {})
        pid, fd = pty.fork()
        if pid == 0:  # the child: never returns into pytest
            try:
                _set_size(0, columns, rows)
                for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C and kill are for mazekit
                    signal.signal(sig, lambda *_: None)
                with open(stdin or os.devnull, "rb") as source:
                    code = subprocess.call(
                        [sys.executable, "-m", "mazekit", *args],
                        stdin=source if stdin is not None else None,
                        env=environment,
                        cwd=cwd,
                    )
                attributes = termios.tcgetattr(0)
                echo = int(bool(attributes[3] & termios.ECHO))
                icanon = int(bool(attributes[3] & termios.ICANON))
                os.write(1, f"\r\n[ended {code} echo {echo} icanon {icanon}]\r\n".encode())
            finally:
                os._exit(0)
        self.pid, self.fd = pid, fd

    def _read(self, timeout: float) -> bool:
        """Feed what the program wrote within ``timeout`` seconds; False once it has ended."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child has closed the terminal
            return False
        if not data:
            return False
        self.raw += data
        self.stream.feed(data)
        return True

    def wait_for(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        """Read until ``condition()`` holds; AssertionError with the screen after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline or not self._read(0.02):
                if condition():
                    return
                raise AssertionError("screen never showed it:\n" + self.text())
        # let the rest of this frame arrive (curses writes a frame in several pieces)
        while self._read(0.05) and select.select([self.fd], [], [], 0)[0]:
            pass

    def shows(self, text: str, timeout: float = 10.0) -> None:
        """Wait until ``text`` is somewhere on the screen."""
        self.wait_for(lambda: text in self.text(), timeout)

    def press(self, keys: str | bytes) -> None:
        """Type ``keys`` on the terminal's keyboard."""
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)

    def resize(self, columns: int, rows: int) -> None:
        """Change the terminal's size, as a window manager would (the kernel sends SIGWINCH)."""
        self.screen.resize(rows, columns)
        _set_size(self.fd, columns, rows)

    def lines(self) -> list[str]:
        """The screen's lines, trailing blanks cut."""
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        """The whole screen as text."""
        return "\n".join(self.lines())

    def cell(self, x: int, y: int) -> pyte.screens.Char:
        """The character at column x of line y, with its colours and attributes."""
        return self.screen.buffer[y][x]

    def ending(self, timeout: float = 10.0) -> tuple[int, bool, bool]:
        """Wait for the program to end: its exit status, and whether echo and canonical input
        (the line settings curses turns off) are back on."""
        self.wait_for(lambda: ENDING.search(self.text().replace("\n", "")) is not None, timeout)
        found = ENDING.search(self.text().replace("\n", ""))
        assert found is not None
        return int(found.group(1)), found.group(2) == "1", found.group(3) == "1"

    def close(self) -> None:
        """End the child if it still runs, and free the terminal."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


# The README's capture of `mazekit view` (test_view checks that it is still what the viewer
# shows): print it again with `.venv/bin/python -m tests.terminal` after a deliberate change.
README_CAPTURE_ARGS = ["view", "--width", "12", "--height", "8", "--seed", "5", "--entry", "1,1"]
README_CAPTURE_SIZE = (80, 21)


def readme_capture() -> str:
    """The screen the README shows: the viewer of README_CAPTURE_ARGS after one tick (n)."""
    columns, rows = README_CAPTURE_SIZE
    terminal = Terminal(README_CAPTURE_ARGS, columns=columns, rows=rows)
    try:
        terminal.shows("seed 5")
        terminal.press("n")
        terminal.shows("tick 1 scatter")
        return "\n".join(terminal.lines()).rstrip("\n") + "\n"
    finally:
        terminal.close()


if __name__ == "__main__":
    sys.stdout.write(readme_capture())
