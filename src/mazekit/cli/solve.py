"""``mazekit solve``: write the maze back with a shortest path, or just the path, or JSON."""

from __future__ import annotations

import re
from collections.abc import Iterator

import click

from ..errors import MazeError
from ..model import Cell
from ..search import path_positions
from ..solvers import ALGORITHMS, Solution, find_path
from ..textformat import dump
from ._common import (
    CELL,
    display_name,
    input_argument,
    json_format_option,
    output_option,
    read_input,
    write_output,
)

__all__ = ["command"]

_MOVES = re.compile(r"[NESWnesw]+")


def _moves(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Step letters such as ``ES``, in any case and order; returned in N, E, S, W order."""
    if value is None:
        return None
    if _MOVES.fullmatch(value) is None:
        raise click.BadParameter(f"expected letters from N, E, S, W, got {value!r}")
    letters = value.upper()
    return "".join(letter for letter in "NESW" if letter in letters)


def _json(solution: Solution) -> Iterator[bytes]:
    """The JSON document of specs/solve.md, on one line, in chunks: the cells of a long path
    are written as they are made, never held as Python lists (specs/errors.md, Memory)."""
    import json

    head = {
        "algorithm": solution.algorithm,
        "moves": solution.moves,
        "from": list(solution.start),
        "to": list(solution.goal),
        "length": len(solution.path),
        "path": solution.path,
    }
    tail = {"visited": solution.visited, "count": solution.count}
    yield (json.dumps(head)[:-1] + ', "cells": [').encode("ascii")
    xs, ys = path_positions(solution.start, solution.path)  # what Solution.cells lists
    for first in range(0, xs.size, _CELLS_BLOCK):
        last = first + _CELLS_BLOCK
        pairs = zip(xs[first:last].tolist(), ys[first:last].tolist(), strict=True)
        text = ", ".join(f"[{x}, {y}]" for x, y in pairs)
        yield (f", {text}" if first else text).encode("ascii")
    yield ("], " + json.dumps(tail)[1:] + "\n").encode("ascii")


_CELLS_BLOCK = 1 << 12  # cells turned into text at a time


@click.command(
    short_help="Write the maze with a shortest path, or only the path.",
    epilog="""\b
Examples:
  mazekit solve maze.txt > solved.txt
  mazekit generate config.txt -o - | mazekit solve | mazekit validate
  mazekit solve --path-only maze.txt
  mazekit solve --from 3,4 --to 10,2 maze.txt
  mazekit solve --count maze.txt
  mazekit solve --moves ES --from 6,3 samples/unsolved-10x6.txt
  mazekit solve --algorithm astar --format json maze.txt
Every algorithm gives the same path: the first shortest one in N, E, S, W order.
Exit status: 0 solved, 1 unreadable or malformed input, or no path; 2 usage error.""",
)
@input_argument
@click.option("--path-only", is_flag=True, help="Print only the path line (letters N, E, S, W).")
@click.option(
    "--from", "start", type=CELL, metavar="X,Y", help="Start here instead of at the entry."
)
@click.option("--to", "goal", type=CELL, metavar="X,Y", help="End here instead of at the exit.")
@click.option(
    "--algorithm",
    type=click.Choice(list(ALGORITHMS)),
    default="bfs",
    show_default=True,
    help="The search; all give the same path, they differ in the cells they visit.",
)
@click.option(
    "--moves",
    metavar="LETTERS",
    callback=_moves,
    help="Allow only these steps, e.g. ES (east and south); cells that cannot reach the "
    "goal with them are marked first and never entered.",
)
@click.option(
    "--count",
    is_flag=True,
    help='Print the number of distinct shortest paths instead (with --format json: add "count").',
)
@json_format_option(
    "The maze (or path, or count) as text, or one JSON object: length, path, cells, visited."
)
@output_option()
def command(
    file: str,
    path_only: bool,
    start: Cell | None,
    goal: Cell | None,
    algorithm: str,
    moves: str | None,
    count: bool,
    output_format: str,
    output: str | None,
) -> None:
    """Find a shortest path from the entry to the exit of the maze in FILE (stdin when none, or -).

    Writes the same maze with that path on its last line: the input's path line may be
    missing, empty or wrong. --from or --to solve between other cells and print only the path.
    """
    if moves is not None and algorithm != "bfs":
        raise click.UsageError(
            f"--moves cannot be combined with --algorithm {algorithm}: "
            "it has its own search (mark, then walk)"
        )
    source = display_name(file)
    maze = read_input(file, ignore_path=True)
    for option, cell in (("--from", start), ("--to", goal)):
        if cell is not None and not maze.contains(cell):
            raise MazeError(
                f"cell ({cell[0]},{cell[1]}) is outside the {maze.width}x{maze.height} grid "
                f"of {source}",
                option,
            )
    solution = find_path(
        maze, start, goal, algorithm=algorithm, moves=moves, count=count, source=source
    )
    text: str | Iterator[bytes]
    if output_format == "json":
        text = _json(solution)
    elif count:
        text = f"{solution.count}\n"
    elif path_only or start is not None or goal is not None:
        text = solution.path + "\n"
    else:
        maze.path = solution.path
        text = dump(maze)
    write_output(text, output)
