"""The CLI entry maps errors once: every error class of mazekit.errors becomes one message and
the exit code of its class, whichever command raised it."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from mazekit import errors
from mazekit.cli import LazyGroup
from mazekit.errors import ExitStatus, MazeError, PlacedError


@click.command()
@click.argument("kind")
def _probe(kind: str) -> None:
    """A command that raises the error class named ``kind``, from maze.txt."""
    cls = getattr(errors, kind)
    if issubclass(cls, PlacedError):
        raise cls("bad digit", 3, 7, "maze.txt")
    raise cls("no such thing", "maze.txt")


class _Group(LazyGroup):
    """The real group's error mapping, with the probe as its one command."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return ["probe"]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _probe if cmd_name == "probe" else None


# Every error class and its exit code: 1 a problem of the input, 2 a problem of the run.
EXIT_CODES = {
    "MazeError": 1,
    "PlacedError": 1,
    "FormatError": 1,
    "ConfigError": 1,
    "NoPathError": 1,
    "TooLargeError": 1,
    "BoardError": 1,
    "InvalidMazeError": 1,
    "RunError": 2,
    "GradeError": 2,
}


def test_every_error_class_of_errors_py_has_its_exit_code_listed() -> None:
    classes = {
        name
        for name in errors.__all__
        if isinstance(getattr(errors, name), type) and issubclass(getattr(errors, name), MazeError)
    }
    assert classes == set(EXIT_CODES)


@pytest.mark.parametrize(("kind", "code"), sorted(EXIT_CODES.items()))
def test_errors_become_one_message_and_the_exit_code_of_their_class(kind: str, code: int) -> None:
    result = CliRunner().invoke(_Group("mazekit"), ["probe", kind])
    placed = issubclass(getattr(errors, kind), PlacedError)
    shown = "maze.txt:3:7: bad digit" if placed else "maze.txt: no such thing"
    assert (result.exit_code, result.stdout, result.stderr) == (code, "", f"Error: {shown}\n")
    assert code == getattr(errors, kind).exit_code
    assert code in (ExitStatus.INVALID, ExitStatus.RUN)
