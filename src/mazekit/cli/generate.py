"""``mazekit generate``: a new maze from the subject's config file and/or options."""

from __future__ import annotations

import click

from ..config import Config, Origin, load_config
from ..errors import MazeError
from ..generators import ALGORITHMS, build, parse_algorithm
from ..generators.settings import resolve
from ..model import Cell
from ..outfile import same_file
from ..pattern import TOO_SMALL_MESSAGE, fits
from ..textformat import dump
from ._common import (
    CELL,
    COUNT,
    SEED_HELP,
    SIZE,
    ConfigValue,
    output_option,
    seed_option,
    write_output,
)

__all__ = ["command", "config_clash"]


def config_clash(config: Config | None, target: str | None, given: bool) -> MazeError | None:
    """The error when the maze would be written over its own config file (by any name or
    link), else None; ``given``: the target came from -o, not from OUTPUT_FILE. generate
    refuses to run, and view's s refuses to save."""
    if config is None or target is None or not same_file(target, config.source):
        return None
    if not given:
        setting = Origin("OUTPUT_FILE").show(target)
        return MazeError(
            f"{setting} names this config file: the maze would replace it", config.source
        )
    setting = Origin("--output").show(target)
    return MazeError(f"{setting} names the config file {config.source}: the maze would replace it")


@click.command(
    short_help="Generate a maze from the subject's config file or options.",
    epilog="""\b
Examples:
  mazekit generate config.txt              # writes OUTPUT_FILE of config.txt
  mazekit generate --width 30 --height 20 --seed 7
  mazekit generate config.txt -o - --imperfect --max-dead-ends 0 | mazekit validate
  mazekit generate --algorithm wilson -v -o maze.txt   # prints "seed: N" to stderr

\b
Algorithms: backtracker (default), prim, kruskal, wilson, hunt-and-kill, flood (imperfect only).
Exit status: 0 a maze was written (also when the "42" does not fit: a warning goes to stderr),
1 bad config or impossible request, 2 usage error (a malformed option value too).""",
)
@click.argument("config_path", required=False, metavar="[CONFIG]")
@click.option("--width", type=SIZE, metavar="N", help="Columns, at least 1 [20].")
@click.option("--height", type=SIZE, metavar="N", help="Rows, at least 1 [15].")
@click.option("--entry", type=CELL, metavar="X,Y", help="Entry cell [0,0].")
@click.option("--exit", "exit_", type=CELL, metavar="X,Y", help="Exit cell [W-1,H-1].")
@click.option(
    "--perfect/--imperfect",
    default=None,
    help="A perfect maze (one path between any two cells) [default], or a Pac-Man board.",
)
@seed_option(SEED_HELP + " [SEED of CONFIG, else drawn at random; -v prints it].")
@click.option(
    "--algorithm",
    type=ConfigValue("algorithm", parse_algorithm),
    metavar=f"[{'|'.join(ALGORITHMS)}]",
    help="How to carve, any case [backtracker].",
)
@click.option(
    "--max-dead-ends",
    type=COUNT,
    metavar="N",
    help="Imperfect only: at most N real dead ends [2]; 0 braids fully.",
)
@output_option("Write to PATH ('-' = stdout) [OUTPUT_FILE of CONFIG, else stdout].")
@click.option("-v", "--verbose", is_flag=True, help="Print 'seed: N' to stderr.")
def command(
    config_path: str | None,
    width: int | None,
    height: int | None,
    entry: Cell | None,
    exit_: Cell | None,
    perfect: bool | None,
    seed: int | None,
    algorithm: str | None,
    max_dead_ends: int | None,
    output: str | None,
    verbose: bool,
) -> None:
    """Generate a maze from the subject's CONFIG file (stdin for -) and/or options.

    Options override CONFIG values. With CONFIG the maze goes to its OUTPUT_FILE, otherwise
    to stdout; -o overrides both. Without CONFIG the defaults are a 20x15 perfect maze from
    0,0 to W-1,H-1. The same options and seed give the same bytes.
    """
    config: Config | None = None
    if config_path is not None:
        config = load_config(config_path)
    plan = resolve(
        config,
        width=width,
        height=height,
        entry=entry,
        exit=exit_,
        perfect=perfect,
        seed=seed,
        algorithm=algorithm,
        max_dead_ends=max_dead_ends,
        output=output,
    )
    clash = config_clash(config, plan.output, output is not None)
    if clash is not None:
        raise clash
    request = plan.request
    if verbose:
        click.echo(f"seed: {request.seed}", err=True)
    if not fits(request.width, request.height):
        click.echo(f"Error: {TOO_SMALL_MESSAGE}", err=True)
    write_output(dump(build(request)), plan.output)
