"""What every command shares: one spelling of common options, input and output, error exits."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from ..errors import ExitStatus, MazeError
from ..model import Maze
from ..textformat import read, source_name

__all__ = [
    "CommandError",
    "fail",
    "input_argument",
    "json_format_option",
    "output_option",
    "read_input",
    "seed_option",
    "write_output",
]

if TYPE_CHECKING:
    from os import PathLike

F = TypeVar("F", bound=Callable[..., Any])
STDOUT_NAME = "<stdout>"
SEED_HELP = "Random seed, for repeatable output."


class CommandError(click.ClickException):
    """A fatal error shown as ``Error: <source>: <message>`` with exit code 1."""

    exit_code = ExitStatus.INVALID


def fail(error: MazeError | str) -> NoReturn:
    """Stop the command with a fatal error (exit 1); MazeErrors carry their own source."""
    raise CommandError(str(error))


def input_argument(function: F) -> F:
    """The optional FILE argument: a maze file, or stdin when missing or ``-``."""
    return click.argument("file", required=False, default="-", metavar="[FILE]")(function)


def _not_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse ``-o ''``: an empty name is a slip of the shell, not a file."""
    if value == "":
        raise click.BadParameter("the path must not be empty ('-' writes to stdout)")
    return value


def output_option(
    help_text: str = "Write to PATH instead of stdout ('-' = stdout).",
) -> Callable[[F], F]:
    """``-o/--output PATH``, written atomically (temporary file, then rename)."""
    return click.option(
        "-o",
        "--output",
        "output",
        metavar="PATH",
        default=None,
        callback=_not_empty,
        help=help_text,
    )


def json_format_option(help_text: str) -> Callable[[F], F]:
    """``--format text|json`` (default text), passed as ``output_format``: one spelling for all."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help=help_text,
    )


def seed_option(function: F) -> F:
    """``--seed N``: the same seed and options give the same bytes."""
    return click.option("--seed", type=int, default=None, metavar="N", help=SEED_HELP)(function)


def read_input(file: str, *, ignore_path: bool = False) -> Maze:
    """Read a maze from FILE or stdin, or fail with the reader's message."""
    try:
        return read(file, ignore_path=ignore_path)
    except MazeError as error:
        fail(error)


def write_output(data: bytes | str, target: str | PathLike[str] | None) -> None:
    """Write to a file atomically, or to stdout for None or ``-``."""
    if target is None or str(target) == "-":
        try:
            stream = sys.stdout.buffer
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
            stream.flush()
        except OSError as error:
            fail(f"{STDOUT_NAME}: cannot write: {error.strerror or error}")
        return
    from ..outfile import atomic_write  # tempfile is only needed when writing a file

    try:
        atomic_write(target, data.encode("utf-8") if isinstance(data, str) else data)
    except MazeError as error:
        fail(error)


def display_name(file: str) -> str:
    """The name of an input in messages: ``<stdin>`` for ``-``."""
    return source_name(file)
