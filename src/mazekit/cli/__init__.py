"""The ``mazekit`` command group: subcommands load lazily, and main() owns the process edges.

The group maps every MazeError a command lets through to ``Error: <source>: <message>`` and
the exit code its class carries (mazekit.errors), once; main() is where a closed pipe, Ctrl-C
and internal errors become quiet exits with the codes of specs/errors.md. The commands only
parse options and call the core.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sys
from importlib import import_module
from typing import Any, NoReturn

import click

from .. import __version__
from ..errors import ExitStatus, MazeError, printable

# command name -> module under mazekit.cli that defines ``command``
COMMANDS: dict[str, str] = {
    "validate": "validate",
    "render": "render",
    "generate": "generate",
    "solve": "solve",
    "pacmanize": "pacmanize",
    "stats": "stats",
    "edit": "edit",
    "chase": "chase",
    "view": "view",
    "grade": "grade",
}

CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when they run (or when help lists them)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        command = import_module(f"{__name__}.{module}").command
        assert isinstance(command, click.Command)  # programming error, not user input
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's own lookup, but a mistyped name gets a "Did you mean" as a mistyped option
        does (click takes the names from self.commands, which a lazy group leaves empty)."""
        name = args[0] if args else ""
        names = self.list_commands(ctx)
        if name in names or name.startswith("-") or ctx.resilient_parsing:
            return super().resolve_command(ctx, args)
        from difflib import get_close_matches

        close = get_close_matches(name, names)
        hint = ", ".join(repr(c) for c in close)
        hint = f" (Did you mean {hint}?)" if len(close) == 1 else f" (Did you mean one of: {hint}?)"
        raise click.UsageError(f"No such command {name!r}.{hint if close else ''}", ctx)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand. The one mapping of errors: a MazeError becomes
        ``Error: <source>: <message>`` on stderr and the exit code of its class (1 for the
        input, 2 for the run: mazekit.errors)."""
        try:
            return super().invoke(ctx)
        except MazeError as error:
            click.echo(f"Error: {error}", err=True)  # str() escapes control characters
            ctx.exit(error.exit_code)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """--version: the version, then which kernels run (compiled or the Python reference)."""
    if not value or ctx.resilient_parsing:
        return
    from ..kernels import describe

    click.echo(f"mazekit, version {__version__}\n{describe()}")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings=CONTEXT_SETTINGS)
@click.option(
    "-V",
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and the kernels in use, then exit.",
)
@click.option("--debug", is_flag=True, help="Show a traceback on internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Tools for the hex wall-per-cell maze files of the 42 A-Maze-ing project.

    Every command reads a maze from FILE or stdin and writes to stdout, so they chain:

    \b
        mazekit generate config.txt -o - | mazekit solve | mazekit validate
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


class _ClosedStream(io.TextIOBase):
    """Stands for a standard stream the process was started without: every use fails with
    EBADF, as reading or writing a closed descriptor does."""

    @property
    def buffer(self) -> _ClosedStream:
        return self

    def _fail(self, *args: object) -> NoReturn:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    read = readline = write = _fail

    def flush(self) -> None:
        """Nothing was written, so there is nothing to flush."""

    def isatty(self) -> bool:
        return False


def main(argv: list[str] | None = None) -> None:
    """Run the CLI as a process: quiet on a closed pipe (SIGPIPE) and on Ctrl-C (exit 130)."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    # A closed stdin or stdout (`mazekit validate <&-`) leaves None here: give them streams
    # that fail like a closed descriptor, so the usual "cannot read/write" messages apply.
    if sys.stdin is None:
        sys.stdin = _ClosedStream()
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    # A closed stderr (`mazekit solve maze.txt 2>&- > out.txt`): click would print the error
    # on stdout, into the user's data. Messages go nowhere instead, as writes to a closed
    # descriptor would; the exit status still tells. The open takes descriptor 2, so no file
    # opened later lands there.
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process's stderr until exit
    try:
        code = cli.main(args=argv, prog_name="mazekit", standalone_mode=False)
        sys.stdout.flush()  # a full disk must show here, not in the interpreter's last flush
    except (KeyboardInterrupt, click.exceptions.Abort):
        sys.exit(ExitStatus.INTERRUPTED)  # click has ended the terminal's ^C line already
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except BrokenPipeError:
        # Only where SIGPIPE cannot be reset: silence the final flush too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(ExitStatus.INVALID)
    except OSError as error:
        if error.filename is not None or debug:  # file errors become MazeErrors in the core
            raise
        # Writing to stdout failed (a full disk, a closed terminal): say so, once.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps the exit flush quiet
        click.echo(f"Error: <stdout>: cannot write: {error.strerror or error}", err=True)
        sys.exit(ExitStatus.INVALID)
    except Exception as error:  # a bug in mazekit, not in the user's input
        if debug:
            raise
        click.echo(
            f"Error: internal error: {type(error).__name__}: {printable(str(error))} "
            "(run with --debug for the traceback, and please report it)",
            err=True,
        )
        sys.exit(ExitStatus.RUN)  # a problem of the run, not of the input
    sys.exit(code if isinstance(code, int) else ExitStatus.OK)
