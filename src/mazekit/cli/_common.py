"""What every command shares: one spelling of common options and value kinds, input and output.

Errors are not caught here: a MazeError raised by the core (or by these helpers) travels up to
the command group, which turns it into ``Error: <source>: <message>`` and its exit code once
(mazekit.cli.LazyGroup.invoke).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..config import (
    CELL_LIMIT,
    parse_cell,
    parse_count,
    parse_integer,
    parse_jobs,
    parse_seed,
    parse_size,
)
from ..errors import ConfigError, MazeError
from ..model import Maze
from ..textformat import MAX_CELLS, STDIN_NAME, read, source_name

__all__ = [
    "CELL",
    "COUNT",
    "JOBS",
    "MAX_PIXELS",
    "PASSAGES",
    "SEED",
    "SEED_HELP",
    "SIZE",
    "ConfigValue",
    "check_output",
    "forced",
    "input_argument",
    "integers",
    "jobs_option",
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
SEED_HELP = "Random seed, for repeatable output"  # each command ends it with its default


class ConfigValue(click.ParamType):  # type: ignore[type-arg]
    """An option value of one kind, read by mazekit.config's reader of that kind, so an option
    and a config key accept the same spellings and refuse with the same words. A refusal is a
    usage error (exit 2): ``Error: --seed must be an integer, got '1_000'``."""

    def __init__(self, name: str, reader: Callable[[str, str], object]) -> None:
        self.name = name
        self.reader = reader

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # a default, or a value converted already
        opts = param.opts if param is not None else []
        option = max(opts, key=len) if opts else self.name  # the long spelling: --max-dead-ends
        try:
            return self.reader(option, value)
        except ConfigError as error:
            raise click.UsageError(error.message, ctx) from None


def integers(low: int, high: int, limit: str = "") -> ConfigValue:
    """The type of an integer option from ``low`` to ``high`` (config.parse_integer): how every
    count, size, tick, frame rate and pixel size is read, with the same spellings and words.
    ``limit`` says why ``high`` in the message (``the cell limit``)."""

    def read(option: str, text: str) -> int:
        return parse_integer(option, text, low, high, limit)

    return ConfigValue("integer", read)


# The value kinds: one type each, used by every command that takes such a value.
SIZE = ConfigValue("size", parse_size)  # a positive side length
COUNT = ConfigValue("count", parse_count)  # a non-negative count (dead ends, loops)
SEED = ConfigValue("seed", parse_seed)  # any integer of at most 40 digits
CELL = ConfigValue("cell", parse_cell)  # X,Y
JOBS = ConfigValue("jobs", parse_jobs)  # -j N: 1 .. 1,024 processes, 0 = every core
PASSAGES = integers(1, MAX_CELLS, CELL_LIMIT)  # a positive count of cells or passages
MAX_PIXELS = 10_000  # a cell, a wall or a margin in pixels is at most this


def jobs_option(help_text: str, default: int = 1) -> Callable[[F], F]:
    """``-j/--jobs N`` (default ``default``), passed as ``jobs``: 0 arrives as the number of
    cores, so the command gets a count it can use (the default too: it is read as typed). The
    help says what N counts, and ``0: every core``."""
    return click.option(
        "-j",
        "--jobs",
        type=JOBS,
        default=str(default),
        show_default=True,
        metavar="N",
        help=help_text,
    )


def input_argument(function: F) -> F:
    """The optional FILE argument: a maze file, or stdin when missing or ``-``."""
    return click.argument("file", required=False, default="-", metavar="[FILE]")(function)


def _not_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse ``-o ''`` (a slip of the shell, not a file); a name of stdout becomes ``-``.

    ``-o /dev/stdout`` (or ``/dev/fd/1``, ``/proc/self/fd/1``) is then exactly ``-o -``: the
    data goes down the descriptor the shell opened, never over the file behind it.
    """
    if value == "":
        raise click.BadParameter("the path must not be empty ('-' writes to stdout)")
    if value is not None and value != "-":
        from ..outfile import descriptor_of

        if descriptor_of(value) == 1:
            return "-"
    return value


def output_option(
    help_text: str = "Write to PATH instead of stdout ('-' = stdout).",
    force_help: str = "Replace a read-only output file instead of refusing it.",
) -> Callable[[F], F]:
    """``-o/--output PATH``, written atomically (temporary file, then rename), and ``--force``.

    ``--force`` reaches write_output through the context, so commands need no parameter for it;
    a command that lets it unlock more (edit: border walls and the "42") says so in force_help.
    """
    output = click.option(
        "-o",
        "--output",
        "output",
        metavar="PATH",
        default=None,
        callback=_not_empty,
        help=help_text,
    )
    force = click.option(
        "--force",
        is_flag=True,
        expose_value=False,
        callback=_remember_force,
        help=force_help,
    )

    def decorate(function: F) -> F:
        return output(force(function))

    return decorate


_FORCE_KEY = "mazekit.force"


def forced() -> bool:
    """Whether ``--force`` was given to the running command (edit also lets it unlock walls)."""
    context = click.get_current_context(silent=True)
    return bool(context is not None and context.meta.get(_FORCE_KEY))


def _remember_force(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    """Keep ``--force`` where write_output finds it."""
    ctx.meta[_FORCE_KEY] = value
    return value


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


def seed_option(help_text: str) -> Callable[[F], F]:
    """``--seed N``: the same seed and options give the same bytes. The help says what a run
    without it uses (drawn, 0, a config's SEED), which differs between commands."""
    return click.option("--seed", type=SEED, default=None, metavar="N", help=help_text)


STDIN_PROMPT = "reading the maze from stdin (Ctrl-D to end)"


def stdin_is_a_terminal() -> bool:
    """Whether standard input is a terminal (a person typing, not a pipe or a file); False
    when it is closed (``<&-``: Python's sys.stdin is None then)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):
        return False


def say_when_reading_a_terminal(file: str) -> None:
    """A command about to read a maze from a terminal says so on stderr, rather than wait in
    silence as if it hung (a FILE forgotten on the command line)."""
    if source_name(file) == STDIN_NAME and stdin_is_a_terminal():
        click.echo(STDIN_PROMPT, err=True)


def read_input(file: str, *, ignore_path: bool = False) -> Maze:
    """Read a maze from FILE or stdin; the reader's MazeError names the file."""
    say_when_reading_a_terminal(file)
    return read(file, ignore_path=ignore_path)


def write_output(data: bytes | str | Iterable[bytes], target: str | PathLike[str] | None) -> None:
    """Write to a file safely (outfile.atomic_write), or to stdout for None, ``-`` or a name
    of stdout such as ``/dev/stdout``; ``data`` may come as an iterable of byte chunks."""
    from ..outfile import atomic_write, descriptor_of

    chunks = data.encode("utf-8") if isinstance(data, str) else data
    if target is None or str(target) == "-" or descriptor_of(target) == 1:
        try:
            stream = sys.stdout.buffer
            for chunk in [chunks] if isinstance(chunks, bytes) else chunks:
                stream.write(chunk)
            stream.flush()
        except OSError as error:
            raise MazeError(f"cannot write: {error.strerror or error}", STDOUT_NAME) from error
        return
    context = click.get_current_context(silent=True)
    force = bool(context is not None and context.meta.get(_FORCE_KEY))
    atomic_write(target, chunks, force=force)


def check_output(target: str | PathLike[str] | None) -> None:
    """Refuse at once an output that write_output could not write (outfile.check_writable): for
    a command that works long before it writes."""
    from ..outfile import check_writable, descriptor_of

    if target is None or str(target) == "-" or descriptor_of(target) == 1:
        return
    context = click.get_current_context(silent=True)
    check_writable(target, force=bool(context is not None and context.meta.get(_FORCE_KEY)))


def display_name(file: str) -> str:
    """The name of an input in messages: ``<stdin>`` for ``-``."""
    return source_name(file)
