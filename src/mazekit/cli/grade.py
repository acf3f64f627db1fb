"""``mazekit grade``: run a submission's program on the evaluation's configs and grade it."""

from __future__ import annotations

import codecs
import contextlib
import math
import os
import textwrap
from collections.abc import Iterator
from typing import Any

import click

from ..analysis import PATTERN_MODES, PatternMode
from ..errors import ExitStatus, MazeError, RunError
from ..grade import CASE_NAMES, DEFAULT_ENTRY, Interaction, Limits, Options, grade, grade_all
from ..grade.report import as_csv, as_json, as_junit, as_table, as_text
from ._common import check_output, jobs_option, output_option, write_output

__all__ = ["command"]


# The longest --timeout: a week. Past some bound RLIMIT_CPU overflows a C long in the wrapper
# and the timer refuses the wait; inf and nan were internal errors.
MAX_TIMEOUT = 7 * 24 * 3600


class Seconds(click.FloatRange):
    """A number of seconds with 0 < S <= MAX_TIMEOUT: click's range, which lets NaN through."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{seconds} is not in the range {self._describe_range()}.", param, ctx)
        return seconds


def unescape(text: str) -> bytes:
    r"""--stdin's TEXT as bytes, its backslash escapes (``\n``, ``\t``, ``\x04``) read as
    printf reads them."""
    return codecs.escape_decode(text.encode("utf-8", "surrogateescape"))[0]


_CASES_HELP = "\n".join(
    textwrap.wrap(
        ", ".join(CASE_NAMES),
        92,
        initial_indent="  ",
        subsequent_indent="  ",
        break_on_hyphens=False,
    )
)


@contextlib.contextmanager
def _own_report() -> Iterator[None]:
    """grade's exit 1 says a submission failed: its own report that cannot be written (``-o``
    a folder, a read-only file, a full disk) is a problem of the run, exit 2, same words."""
    try:
        yield
    except RunError:
        raise
    except MazeError as error:
        raise RunError(error.message, error.source) from error


def _check_keep(keep: str, every: bool, cases: tuple[str, ...]) -> None:
    """--keep DIR: one case of one submission, and DIR a new folder in an existing one."""
    if every or len(set(cases)) != 1:
        raise click.UsageError("--keep needs exactly one --case, without --all")
    if os.path.lexists(keep):
        raise click.UsageError(f"--keep {keep}: already exists")
    if not os.path.isdir(os.path.dirname(os.path.abspath(keep))):
        raise click.UsageError(f"--keep {keep}: no such folder to make it in")


@click.command(
    short_help="Grade an A-Maze-ing submission as its evaluation does.",
    epilog=f"""\b
Cases (names for --case; specs/grade.md says what each expects):
{_CASES_HELP}

\b
Examples:
  mazekit grade ~/submissions/alice
  mazekit grade --case seed-twice --case imperfect --timeout 5 alice
  mazekit grade --all -j 2 --format csv ~/submissions -o grades.csv
  mazekit grade --case bad-perfect --keep /tmp/bob-bad-perfect bob
  mazekit grade --all --install --display xvfb --stdin '4\\n' ~/submissions
Exit status: 0 every case passed, 1 some case did not, 2 the grading could not run.""",
)
@click.argument("folder", metavar="SUBMISSION_DIR")
@click.option("--all", "every", is_flag=True, help="Grade every sub-folder of the folder.")
@click.option(
    "--entry",
    default=DEFAULT_ENTRY,
    show_default=True,
    metavar="SCRIPT",
    help="The program to run, relative to the submission.",
)
@click.option(
    "--python",
    default="python3",
    show_default=True,
    metavar="PYTHON",
    help="The interpreter that runs it (looked up on PATH).",
)
@click.option(
    "--timeout",
    type=Seconds(min=0, min_open=True, max=MAX_TIMEOUT),
    default=Limits.timeout,
    show_default=True,
    metavar="S",
    help="Wall-clock seconds per run; then the run's processes are killed.",
)
@click.option(
    "--case",
    "cases",
    multiple=True,
    type=click.Choice(CASE_NAMES),
    metavar="NAME",
    help="Run only this case (repeatable; all cases when not given).",
)
@click.option("--lint", is_flag=True, help="Also run `make lint` in the submission.")
@click.option("--strict", is_flag=True, help="Score the required files (and --lint) too.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "csv", "junit"]),
    default="text",
    show_default=True,
    help="One line per case (a table with --all), one JSON document, CSV (--all only), or "
    "JUnit XML (a testsuite per submission).",
)
@click.option(
    "--pattern",
    type=click.Choice(PATTERN_MODES),
    default="subject",
    show_default=True,
    help='How outputs\' "42" is judged, as validate\'s --pattern: subject (a "42" of closed '
    "cells anywhere, in any glyph), strict (mazekit's place), any, none.",
)
@click.option(
    "--keep",
    metavar="DIR",
    help="With one --case: leave that case's copy (config, output) in DIR, a new folder, "
    "to rerun by hand.",
)
@jobs_option(
    "Run N cases at a time, each in its own copy (N submissions at a time with --all; "
    "0: every core)."
)
@click.option(
    "--install",
    is_flag=True,
    help="Give each submission a virtual environment of what it ships to install "
    "(requirements*.txt, pyproject.toml, wheels), cached.",
)
@click.option(
    "--setup",
    metavar="CMD",
    help="Run the shell command CMD (e.g. 'make install') in each copy first, with the "
    "network; then use the virtual environment it made there.",
)
@click.option(
    "--stdin",
    "typed",
    metavar="TEXT",
    help=r"Give the program TEXT as its input (backslash escapes: '4\n'); /dev/null if not.",
)
@click.option("--tty", is_flag=True, help="Run the program in a terminal (for curses, menus).")
@click.option(
    "--display",
    type=click.Choice(["xvfb"]),
    help="Give the program a virtual X display (Debian's xvfb), for MLX windows.",
)
@output_option()
@click.pass_context
def command(
    ctx: click.Context,
    folder: str,
    every: bool,
    entry: str,
    python: str,
    timeout: float,
    cases: tuple[str, ...],
    lint: bool,
    strict: bool,
    output_format: str,
    pattern: PatternMode,
    keep: str | None,
    jobs: int,
    install: bool,
    setup: str | None,
    typed: str | None,
    tty: bool,
    display: str | None,
    output: str | None,
) -> None:
    """Grade the A-Maze-ing submission in SUBMISSION_DIR the way its evaluation does.

    Runs `PYTHON SCRIPT CONFIG` in a copy of the folder, once per case (valid, broken and
    inconsistent configs), each with a time limit and resource limits, and checks every output
    with the rules of `validate --config`. These limits stop careless programs, not hostile
    ones: grade untrusted code inside a container or VM (specs/grade.md). The score weighs
    generation (the good configs) twice as much as error handling (the broken ones), which
    counts only once some maze was valid.
    """
    if not every and output_format == "csv":
        raise click.UsageError("--format csv needs --all")
    if keep is not None:
        _check_keep(keep, every, cases)
    options = Options(
        entry=entry,
        python=python,
        limits=Limits(timeout=timeout),
        cases=cases or CASE_NAMES,
        lint=lint,
        strict=strict,
        pattern=pattern,
        keep=keep,
        install=install,
        setup=setup,
        interaction=Interaction(
            stdin=None if typed is None else unescape(typed), tty=tty, display=display
        ),
    )
    with _own_report():  # a report that cannot be written is refused before the runs
        check_output(output)
    grades = grade_all(folder, options, jobs) if every else [grade(folder, options, jobs)]
    for warning in sorted({w for g in grades for w in g.warnings}):
        click.echo(f"warning: {warning}", err=True)
    if grades[0].kept:
        click.echo(f"kept the copy in {keep}; rerun it with: {grades[0].kept}", err=True)
    if every:
        writers = {"text": as_table, "csv": as_csv, "json": as_json, "junit": as_junit}
        report = writers[output_format](grades)
    else:
        report = {"text": as_text, "json": as_json, "junit": as_junit}[output_format](grades[0])
    with _own_report():
        write_output(report, output)
    ctx.exit(ExitStatus.OK if all(g.all_passed for g in grades) else ExitStatus.INVALID)
