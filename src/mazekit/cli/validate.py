"""``mazekit validate``: grade maze files against every rule, linter style, with exit codes."""

from __future__ import annotations

import click

from ..board import MAX_DEAD_ENDS, MIN_LOOPS
from ..config import Config, load_config
from ..errors import ExitStatus, MazeError
from ..rules import PATTERN_MODES, RULE_IDS, RULES, PatternMode, Report, validate
from ..textformat import read_bytes, source_name
from ._common import COUNT, json_format_option

__all__ = ["command"]


def _text_lines(name: str, report: Report, quiet: bool) -> list[str]:
    if report.valid:
        return [] if quiet else [f"{name}: ok"]
    lines: list[str] = []
    for rule in report.rules_broken():
        for v in report.violations:
            if v.rule == rule:
                lines.append(f"{name}:{v.line}:{v.column}: {v.rule}: {v.message}")
        if rule in report.omitted:
            lines.append(f"{name}: +{report.omitted[rule]} more {rule} violations")
    counts = ", ".join(f"{rule} {report.count(rule)}" for rule in RULE_IDS if report.count(rule))
    total = report.count()
    lines.append(f"{name}: {total} violation{'s' if total != 1 else ''} ({counts})")
    return lines


def _json_entry(name: str, report: Report | None, error: str | None) -> dict[str, object]:
    if report is None:
        return {"file": name, "valid": False, "error": error, "violations": [], "omitted": {}}
    return {
        "file": name,
        "valid": report.valid,
        "error": None,
        "violations": [
            {
                "rule": v.rule,
                "message": v.message,
                "line": v.line,
                "column": v.column,
                "cell": list(v.cell) if v.cell is not None else None,
            }
            for v in report.violations
        ],
        "omitted": dict(report.omitted),
    }


_RULE_HELP = "\n".join(f"  {rule.id:<13} {rule.summary}" for rule in RULES)


@click.command(
    epilog=f"""\b
Rules (ids for --skip and in the output):
{_RULE_HELP}

\b
Examples:
  mazekit validate maze.txt
  mazekit validate --config config.txt --perfect maze.txt
  mazekit validate --pacman --max-dead-ends 0 board.txt
  mazekit generate | mazekit validate --format json
Exit status: 0 all files valid, 1 a file is invalid or unreadable, 2 usage error."""
)
@click.argument("files", nargs=-1, metavar="[FILE]...")
@click.option(
    "--pattern",
    type=click.Choice(PATTERN_MODES),
    default="strict",
    show_default=True,
    help='How the "42" is checked: strict (the 18 cells of specs/rules.md), any (some fully '
    "closed cells; unreachable cells must be closed), none.",
)
@click.option(
    "--perfect", is_flag=True, help="Also require exactly one path between any two cells."
)
@click.option(
    "--config",
    "config_path",
    metavar="CONFIG",
    help="The subject's config file: size, entry and exit must match it, "
    "and PERFECT=True implies --perfect.",
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
@json_format_option("Linter-style lines, or one JSON document.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing for valid files.")
@click.pass_context
def command(
    ctx: click.Context,
    files: tuple[str, ...],
    pattern: PatternMode,
    perfect: bool,
    config_path: str | None,
    pacman: bool,
    min_loops: int | None,
    max_dead_ends: int | None,
    skip: tuple[str, ...],
    output_format: str,
    quiet: bool,
) -> None:
    """Check maze FILEs (stdin when none, or -) against every rule of the subject.

    Reports every violation as FILE:LINE:COLUMN: RULE: MESSAGE (at most 20 per rule, then a
    "+N more" line) and one summary line per file.
    """
    if not pacman:
        for option, value in (("--min-loops", min_loops), ("--max-dead-ends", max_dead_ends)):
            if value is not None:
                raise click.UsageError(f"{option} needs --pacman")
    config: Config | None = None
    if config_path is not None:
        config = load_config(config_path)
    if max_dead_ends is None:
        max_dead_ends = MAX_DEAD_ENDS
        if config is not None and config.max_dead_ends is not None:
            max_dead_ends = config.max_dead_ends
    names = files or ("-",)
    invalid = 0
    entries: list[dict[str, object]] = []
    for file in names:
        name = source_name(file)
        try:
            data = read_bytes(file)
        except MazeError as error:
            invalid += 1
            click.echo(f"Error: {error}", err=True)
            entries.append(_json_entry(name, None, error.message))
            continue
        report = validate(
            data,
            pattern=pattern,
            perfect=perfect,
            config=config,
            skip=skip,
            source=name,
            pacman=pacman,
            min_loops=MIN_LOOPS if min_loops is None else min_loops,
            max_dead_ends=max_dead_ends,
        )
        invalid += not report.valid
        if output_format == "json":
            entries.append(_json_entry(name, report, None))
        else:
            for line in _text_lines(name, report, quiet):
                click.echo(line)
    if output_format == "json":
        import json  # only this output needs it

        click.echo(json.dumps({"valid": not invalid, "files": entries}, indent=2))
    elif len(names) > 1 and not quiet:
        click.echo(f"{len(names)} files: {len(names) - invalid} ok, {invalid} invalid")
    ctx.exit(ExitStatus.INVALID if invalid else ExitStatus.OK)
