"""Every error class a user can cause, each with its exit code; the CLI translates them once.

Every message text lives in specs/errors.md; the core raises, it never prints or exits. The one
mapping (mazekit.cli.LazyGroup.invoke) shows ``Error: <str(error)>`` and exits ``exit_code``.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "BoardError",
    "ConfigError",
    "ExitStatus",
    "FormatError",
    "GradeError",
    "InvalidMazeError",
    "MazeError",
    "NoPathError",
    "PlacedError",
    "RunError",
    "TooLargeError",
    "printable",
]


def printable(text: str) -> str:
    r"""``text`` safe to show: control and other unprintable characters as Python escapes.

    ``\x00``, ``\t``, ``\x1b``, ``\u2028``...; a byte that was not UTF-8 (a file name read
    with surrogateescape) as ``\xff``. Backslashes are kept as they are, so applying it twice
    changes nothing: messages built from escaped parts can be escaped again safely.
    """
    if text.isprintable():
        return text
    shown: list[str] = []
    for char in text:
        code = ord(char)
        if char.isprintable():
            shown.append(char)
        elif 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte itself
            shown.append(f"\\x{code - 0xDC00:02x}")
        else:
            shown.append(repr(char)[1:-1])
    return "".join(shown)


class ExitStatus(IntEnum):
    """Process exit codes, the same for every command."""

    OK = 0
    INVALID = 1  # a problem of the input: malformed, invalid, unreadable, an impossible request
    USAGE = 2  # a problem of the run: usage, the grader's own --config, no such input, a bug
    RUN = 2  # the same code, named for what validate means by it (specs/errors.md)
    INTERRUPTED = 130  # Ctrl-C


class MazeError(Exception):
    """Base of every error a user can cause; ``message`` is the text after ``<source>: ``.

    ``exit_code``: a problem of the input (1) unless a subclass says it is one of the run (2).
    """

    exit_code: ExitStatus = ExitStatus.INVALID

    def __init__(self, message: str, source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source

    @property
    def detail(self) -> str:
        """The text after ``<source>: ``: the message, with its place when it has one."""
        return self.message

    def __str__(self) -> str:
        """``<source>: <detail>``, control characters and undecodable bytes escaped."""
        return printable(
            f"{self.source}: {self.detail}" if self.source is not None else self.detail
        )


class PlacedError(MazeError):
    """An error at a place in a maze file, shown ``<source>:<line>:<column>: <message>``."""

    def __init__(self, message: str, line: int, column: int, source: str | None = None) -> None:
        super().__init__(message, source)
        self.line = line
        self.column = column

    @property
    def detail(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"

    def __str__(self) -> str:
        return printable(f"{self.source}:{self.detail}" if self.source is not None else self.detail)


class FormatError(PlacedError):
    """A maze file that cannot be read as a maze; ``line`` and ``column`` count from 1."""


class ConfigError(MazeError):
    """A config file or option value that cannot describe a maze."""


class NoPathError(MazeError):
    """No path joins the two cells asked for."""


class TooLargeError(MazeError):
    """A request that would need more memory or time than mazekit allows."""


class BoardError(MazeError):
    """A maze that cannot be braided into a board within the limits asked for."""


class InvalidMazeError(PlacedError):
    """A maze that breaks a rule of validate, so it cannot be made a board; names the first."""


class RunError(MazeError):
    """A problem of the run itself, not of its input: options that exclude each other, no
    terminal for view, validate's own --config. Exit 2."""

    exit_code = ExitStatus.RUN


class GradeError(RunError):
    """The grading itself cannot run: no submission, the copy failed, or the interpreter
    cannot start. Exit 2."""
