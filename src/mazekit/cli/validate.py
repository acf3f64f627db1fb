"""``mazekit validate``: grade maze files, directories or submissions against every rule.

Linter style: one line per violation (or JSON, JSON Lines, CSV), and exit codes that tell a
bad submission (1) from a bad run (2). mazekit.batch finds and checks the files.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import click

from ..batch import DEFAULT_CONFIG_NAME, DEFAULT_GLOB, Job, Options, check_all, expand
from ..batch import submissions as submission_jobs
from ..board import MAX_DEAD_ENDS, MIN_LOOPS
from ..config import Config, load_config
from ..errors import ExitStatus, MazeError, RunError
from ..report import FORMATS, SCHEMA_VERSION, Output, Tally, document
from ..rules import PATTERN_MODES, RULE_IDS, RULES, PatternMode, Report
from ._common import COUNT, jobs_option, say_when_reading_a_terminal

__all__ = ["FORMATS", "SCHEMA_VERSION", "command"]


def _wants_json(args: Sequence[str]) -> bool:
    """Whether the (possibly unparsable) arguments ask for ``--format json``."""
    for index, arg in enumerate(args):
        if arg == "--format=json" or (
            arg == "--format" and args[index + 1 : index + 2] == ["json"]
        ):
            return True
    return False


class ValidateCommand(click.Command):
    """A command that still prints its JSON document (with ``error``) on a usage error."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """click's parsing; a usage error under ``--format json`` prints the document first."""
        wants_json = _wants_json(args)
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as error:
            if wants_json:
                click.echo(document(error.format_message(), [], Tally()))
            raise


_RULE_HELP = "\n".join(f"  {rule.id:<13} {rule.summary}" for rule in RULES)


@click.command(
    short_help="Check mazes, or a class's submissions, against the rules.",
    cls=ValidateCommand,
    epilog=f"""\b
Rules (ids for --skip and --select, and in the output):
{_RULE_HELP}

\b
Examples:
  mazekit validate maze.txt
  mazekit validate --config config.txt --perfect maze.txt
  mazekit validate --submissions subs/ -j 0 --format csv > grades.csv
  mazekit validate --pacman --max-dead-ends 0 board.txt
  mazekit generate | mazekit validate --format json
Exit status: 0 every file valid, 1 a file is invalid, unreadable or malformed (or a
submission's own config is bad), 2 a problem of the run: usage, a bad --config, a path
that matches no file, an internal error. --exit-zero turns 1 into 0.""",
)
@click.argument("files", nargs=-1, metavar="[FILE|DIR]...")
@click.option(
    "--pattern",
    type=click.Choice(PATTERN_MODES),
    default="strict",
    show_default=True,
    help='How the "42" is checked: strict (the 18 cells of specs/rules.md), subject (a "42" '
    "of closed cells anywhere, in any glyph), any (some fully closed cells; unreachable cells "
    "must be closed), none.",
)
@click.option(
    "--perfect", is_flag=True, help="Also require exactly one path between any two cells."
)
@click.option(
    "--config",
    "config_path",
    metavar="CONFIG",
    help="The subject's config file (stdin for -): size, entry and exit must match it, "
    "and PERFECT=True implies --perfect.",
)
@click.option(
    "--submissions",
    metavar="DIR",
    help="Check every sub-directory of DIR holding a config file: its OUTPUT_FILE against "
    "its own config.",
)
@click.option(
    "--config-name",
    default=DEFAULT_CONFIG_NAME,
    show_default=True,
    metavar="NAME",
    help="The config file's name in each submission (and left out of directories).",
)
@click.option(
    "--glob",
    "pattern_glob",
    default=DEFAULT_GLOB,
    show_default=True,
    metavar="GLOB",
    help="Which files of a DIR argument are mazes (searched recursively).",
)
@click.option(
    "--pacman",
    is_flag=True,
    help="Also check the Pac-Man board rules: dead-ends, loops, key-cells (specs/pacman.md).",
)
@click.option(
    "--min-loops",
    type=COUNT,
    metavar="N",
    help=f"With --pacman: at least N independent loops [{MIN_LOOPS}].",
)
@click.option(
    "--max-dead-ends",
    type=COUNT,
    metavar="N",
    help="With --pacman: at most N real dead ends "
    f"[MAX_DEAD_ENDS of CONFIG, else {MAX_DEAD_ENDS}].",
)
@click.option(
    "--skip",
    multiple=True,
    type=click.Choice(RULE_IDS),
    metavar="RULE",
    help="Turn a rule off (repeatable).",
)
@click.option(
    "--select",
    multiple=True,
    type=click.Choice(RULE_IDS),
    metavar="RULE",
    help="Check only this rule (repeatable; opt-in rules too).",
)
@click.option(
    "--strict-format",
    is_flag=True,
    help="Also report lowercase hex digits (valid by default).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="Linter-style lines, one JSON document, one JSON object per file, or CSV rows.",
)
@click.option(
    "--statistics",
    is_flag=True,
    help="Print the number of violations per rule over all files instead of each one.",
)
@jobs_option("Check files in N processes (0: every core); the output stays the same.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when a file is invalid.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing for valid files.")
@click.pass_context
def command(
    ctx: click.Context,
    files: tuple[str, ...],
    pattern: PatternMode,
    perfect: bool,
    config_path: str | None,
    submissions: str | None,
    config_name: str,
    pattern_glob: str,
    pacman: bool,
    min_loops: int | None,
    max_dead_ends: int | None,
    skip: tuple[str, ...],
    select: tuple[str, ...],
    strict_format: bool,
    output_format: str,
    statistics: bool,
    jobs: int,
    exit_zero: bool,
    quiet: bool,
) -> None:
    """Check maze FILEs, every maze under a DIR, or every submission against the rules.

    Reads stdin when no FILE is given, or for -. Reports every violation as
    FILE:LINE:COLUMN: RULE: MESSAGE (at most 20 per rule, then a "+N more" line) and one
    summary line per file.
    """

    def stop(message: str) -> None:
        """A problem of the run (exit 2), in the JSON document too when one is asked for."""
        if output_format == "json":
            click.echo(document(message, [], Tally()))
        raise RunError(message)

    if not pacman:
        for option, value in (("--min-loops", min_loops), ("--max-dead-ends", max_dead_ends)):
            if value is not None:
                stop(f"{option} needs --pacman")
    if statistics and output_format != "text":
        stop("--statistics needs --format text (the JSON totals count violations by rule)")
    if submissions is not None and config_path is not None:
        stop("--config cannot be combined with --submissions: each submission has its own")
    if submissions is not None and files:
        stop("give either FILEs or --submissions DIR, not both")
    if "config" in select and config_path is None and submissions is None:
        stop("--select config needs --config or --submissions")
    if config_path == "-" and "-" in (files or ("-",)):
        stop("--config - reads the config from stdin, so the maze cannot come from it too")
    config: Config | None = None
    if config_path is not None:
        try:
            config = load_config(config_path)
        except MazeError as error:
            stop(str(error))
    options = Options(
        pattern=pattern,
        perfect=perfect,
        skip=skip,
        select=select or None,
        pacman=pacman,
        min_loops=MIN_LOOPS if min_loops is None else min_loops,
        max_dead_ends=max_dead_ends,
        strict_format=strict_format,
    )
    if submissions is not None:
        todo = submission_jobs(submissions, config_name)
    else:
        todo = expand(files or ("-",), config=config, glob=pattern_glob, config_name=config_name)
    if any(job.path == "-" for job in todo):
        say_when_reading_a_terminal("-")
    tally = _emit(todo, check_all(todo, options, jobs), output_format, statistics, quiet)
    if tally.not_found:
        ctx.exit(ExitStatus.RUN)
    invalid = tally.valid != tally.files and not exit_zero
    ctx.exit(ExitStatus.INVALID if invalid else ExitStatus.OK)


def _emit(
    todo: Sequence[Job],
    reports: Iterator[Report],
    output_format: str,
    statistics: bool,
    quiet: bool,
) -> Tally:
    """Print every Report in its format as it comes (mazekit.report words it); return the
    tally of the run."""
    output = Output(output_format, statistics, quiet)
    _echo(output.start(), output_format)
    try:
        for job, report in zip(todo, reports, strict=True):
            out, err = output.add(job, report)
            if err:
                click.echo(err, err=True, nl=False)
            _echo(out, output_format)
    except Exception as error:  # a bug: the JSON document still comes, then main() reports it
        _echo(output.broken(error), output_format)
        raise
    _echo(output.end(), output_format)
    return output.tally


def _echo(text: str, output_format: str) -> None:
    """Write ``text`` to stdout; CSV as bytes, so its CRLF line ends reach the file as such."""
    if text:
        click.echo(text.encode() if output_format == "csv" else text, nl=False)
