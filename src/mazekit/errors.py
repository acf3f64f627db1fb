"""Typed errors of the core and the exit codes they map to; the CLI translates them once.

Every message text lives in specs/errors.md; the core raises, it never prints or exits.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "BoardError",
    "ConfigError",
    "ExitStatus",
    "FormatError",
    "InvalidMazeError",
    "MazeError",
    "NoPathError",
    "PlacedError",
    "TooLargeError",
]


class ExitStatus(IntEnum):
    """Process exit codes, the same for every command."""

    OK = 0
    INVALID = 1  # malformed input, rule violation, bad config, unreadable file
    USAGE = 2  # click's own usage errors
    INTERRUPTED = 130  # Ctrl-C


class MazeError(Exception):
    """Base of every error a user can cause; ``message`` is the text after ``<source>: ``."""

    def __init__(self, message: str, source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source

    @property
    def detail(self) -> str:
        """The text after ``<source>: ``: the message, with its place when it has one."""
        return self.message

    def __str__(self) -> str:
        return f"{self.source}: {self.detail}" if self.source else self.detail


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
        return f"{self.source}:{self.detail}" if self.source else self.detail


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
