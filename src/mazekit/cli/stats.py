"""``mazekit stats``: the measures of maze files and one verdict each (specs/stats.md)."""

from __future__ import annotations

import click

from ..analysis import PATTERN_MODES, PatternMode
from ..errors import ExitStatus, MazeError, printable
from ..measures import VERDICTS, Stats, stats, stats_with_graph
from ..model import Maze
from ..rules import validate
from ..textformat import parse_lenient, read_bytes, source_name
from ._common import (
    PASSAGES,
    jobs_option,
    json_format_option,
    say_when_reading_a_terminal,
    seed_option,
)

__all__ = ["command"]


def _count(number: int, noun: str) -> str:
    """``1 cell``, ``2 cells``, ``0 cells``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _text(name: str, found: Stats) -> list[str]:
    """The text block of one file: its name, then one ``measure: value`` line each."""
    share = f"{100 * found.junction_share:.1f}%"
    if found.shortest_path is None:
        path = "none (the exit cannot be reached from the entry)"
    elif found.tortuosity is None:
        path = f"{_count(found.shortest_path, 'step')} (the entry is the exit)"
    else:
        path = f"{_count(found.shortest_path, 'step')}, tortuosity {found.tortuosity:.2f}"
    verdict = found.verdict if found.reason is None else f"{found.verdict} ({found.reason})"
    return [
        f"{name}:",
        f"  size: {found.width}x{found.height} ({_count(found.cells, 'cell')})",
        f"  reachable cells: {found.reachable_cells}",
        f"  pattern cells: {found.pattern_cells}",
        f"  incoherent walls: {found.incoherent_walls}",
        f"  loops: {found.loops}",
        f"  dead ends: {found.real_dead_ends} real, {found.enclosed_dead_ends} enclosed",
        f"  junctions: {found.three_way} 3-way, {found.four_way} 4-way "
        f"({share} of reachable cells)",
        f"  corridor cells: {found.straight} straight, {found.turning} turning",
        f"  longest dead-end branch: {_count(found.longest_dead_end_branch, 'cell')}",
        f"  shortest path: {path}",
        f"  perfect: {'yes' if found.perfect else 'no'}",
        f"  verdict: {verdict}",
    ]


def _read(file: str) -> tuple[Maze, list[str]]:
    """The maze of FILE, and a note for each thing of its footer read past (stats does not
    use the path, and reads an entry written ``(0, 0)``) and for an entry outside the grid
    (why nothing is reachable); the grid must be readable."""
    name = source_name(file)
    say_when_reading_a_terminal(file)
    maze, notes = parse_lenient(read_bytes(file), source=name)
    if not maze.contains(maze.entry):  # validate's own words for it, rule entry-exit
        misplaced = validate(maze, select=("entry-exit",)).violations
        notes += [f"{name}: {v.message}" for v in misplaced if v.message.startswith("entry (")]
    return maze, notes


def _verdict_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An --expect value: a verdict name in any case, returned in capitals; else a usage error."""
    if value is None or value.upper() in VERDICTS:
        return None if value is None else value.upper()
    raise click.BadParameter(f"'{value}' is not a verdict: use one of {', '.join(VERDICTS)}")


@click.command(
    short_help="Measure mazes and give each a verdict.",
    epilog="""\b
Verdicts, the first that applies: INCOHERENT, DEGENERATE (at most one reachable cell),
DISCONNECTED, PERFECT (no loop), NOT-PACMAN-READY (with the reason), PACMAN-USABLE,
PACMAN-ARCADE (no real dead end).

\b
Examples:
  mazekit stats maze.txt
  mazekit stats --format json a.txt b.txt
  mazekit generate --imperfect --max-dead-ends 0 | mazekit stats --expect PACMAN-ARCADE
  mazekit pacmanize maze.txt | mazekit stats --expect pacman-arcade
  mazekit stats --graph --top 3 board.txt
  mazekit stats --graph -j 2 board.txt
Exit status: 0 measured (whatever the verdict), 1 an unreadable or malformed file, or a
verdict other than --expect; 2 usage error.""",
)
@click.argument("files", nargs=-1, metavar="[FILE]...")
@json_format_option("One block of lines per file, or one JSON document.")
@click.option(
    "--pattern",
    type=click.Choice(PATTERN_MODES),
    default="strict",
    show_default=True,
    help='Where the "42" is looked for, as validate\'s --pattern: strict (the 18 cells of '
    'specs/rules.md), subject (the "42" the file draws, anywhere), any (every fully closed '
    "cell), none.",
)
@click.option(
    "--expect",
    callback=_verdict_name,
    metavar="VERDICT",
    help="Exit 1 when a file's verdict is another one (any case).",
)
@click.option(
    "--graph",
    "graph",
    is_flag=True,
    help="Add the graph figures: betweenness peak, Gini, bottlenecks, busiest passages, "
    "cop number.",
)
@click.option(
    "--top",
    type=PASSAGES,
    default=None,
    metavar="N",
    help="With --graph: list N bottleneck cells and passages.  [default: 5]",
)
@click.option(
    "--samples",
    type=PASSAGES,
    default=None,
    metavar="K",
    help="With --graph: estimate from K sources on a maze with loops and more than "
    "10,000 reachable cells (exact up to that).  "
    "[default: 20,000,000 / reachable cells, at least 16]",
)
@seed_option("With --graph: random seed of the sampled sources.  [default: 0]")
@jobs_option(
    "With --graph: run the betweenness searches in N threads (0: every core); the output "
    "stays the same.",
    default=0,
)
@click.pass_context
def command(
    ctx: click.Context,
    files: tuple[str, ...],
    output_format: str,
    pattern: PatternMode,
    expect: str | None,
    graph: bool,
    top: int | None,
    samples: int | None,
    seed: int | None,
    jobs: int,
) -> None:
    """Measure maze FILEs (stdin when none, or -) and give each a verdict.

    Size, reachable and pattern cells, incoherent walls, loops, real and enclosed dead ends,
    junctions, corridor cells, the longest dead-end branch, the shortest path and its
    tortuosity, whether the maze is perfect, and one verdict. An entry or exit written as
    student programs write it ((0, 0), 0, 0, [0, 0], Entry: 0,0) is read with a note on
    stderr; with none to read, the corner cells stand for them.
    """
    if not graph and (top, samples, seed) != (None, None, None):
        raise click.UsageError("--top, --samples and --seed need --graph")
    failed = False
    entries: list[dict[str, object]] = []
    blocks: list[list[str]] = []
    for file in files or ("-",):
        name = printable(source_name(file))  # control bytes and non-UTF-8 names escaped
        try:
            maze, notes = _read(file)
        except MazeError as error:
            failed = True
            click.echo(f"Error: {error}", err=True)  # str() escapes control bytes
            entries.append({"file": name, "error": printable(error.detail)})  # names the file
            continue
        for note in notes:
            click.echo(f"note: {printable(note)}", err=True)
        if graph:  # specs/stats.md, "Graph measures": computed with the stats, sharing work
            found, figures = stats_with_graph(
                maze,
                pattern=pattern,
                top=top or 5,
                samples=samples,
                seed=seed or 0,
                threads=jobs,
            )
        else:
            found = stats(maze, pattern=pattern)
        if expect is not None and found.verdict != expect.upper():
            failed = True
            click.echo(
                f"Error: {name}: verdict {found.verdict}, expected {expect.upper()}", err=True
            )
        entries.append({"file": name, "error": None, **found.to_dict()})
        if notes:
            entries[-1]["notes"] = [printable(note) for note in notes]
        blocks.append(_text(name, found))
        if graph:
            entries[-1]["graph"] = figures.to_dict()
            blocks[-1] += figures.text_lines()
    if output_format == "json":
        import json  # only this output needs it

        click.echo(json.dumps({"files": entries}, indent=2))
    elif blocks:
        click.echo("\n\n".join("\n".join(block) for block in blocks))
    ctx.exit(ExitStatus.INVALID if failed else ExitStatus.OK)
