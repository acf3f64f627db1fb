"""``mazekit edit``: open and close walls, or the busiest passages, and write the maze back."""

from __future__ import annotations

from typing import Any

import click

from ..config import echo, is_cell_text, parse_cell
from ..errors import ConfigError, MazeError
from ..textformat import dump
from ._common import (
    PASSAGES,
    display_name,
    forced,
    input_argument,
    output_option,
    read_input,
    write_output,
)

__all__ = ["command"]


class WallType(click.ParamType):  # type: ignore[type-arg]
    """``X,Y,D``: a cell and one of N, E, S, W (any case)."""

    name = "wall"

    def __init__(self, close: bool) -> None:
        self.close = close

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ..edit import WallChange

        if isinstance(value, WallChange):
            return value
        text = str(value)
        cell, _, letter = text.rpartition(",")
        letter = letter.strip(" \t").upper()
        if letter not in ("N", "E", "S", "W") or not is_cell_text(cell):
            self.fail(f"expected X,Y,D with D one of N, E, S, W, got {echo(text)}", param, ctx)
        # The cell is read as every option reads one (solve's --from): a negative or long
        # coordinate is a cell outside the grid, refused by the edit itself (exit 1).
        option = "--close" if self.close else "--open"
        try:
            x, y = parse_cell(option, cell)
        except ConfigError as error:  # a coordinate of more than 40 digits
            raise click.UsageError(error.message, ctx) from None
        return WallChange(x, y, letter, close=self.close)


@click.command(
    short_help="Open and close walls, keeping the maze coherent.",
    epilog="""\b
Examples:
  mazekit edit --close 3,4,E maze.txt > edited.txt
  mazekit edit --open 0,0,S --open 5,2,E maze.txt
  mazekit edit --close-bottleneck 1 board.txt | mazekit stats --graph
  mazekit edit --relieve 2 board.txt -o relieved.txt
  mazekit edit --force --open 0,0,N maze.txt -o door.txt
Opens come first, then closes, then --close-bottleneck, then --relieve; each of those two
says on stderr which walls it closed and the betweenness peak and Gini before and after,
and on a Pac-Man board closes only walls that leave one (no dead end made).
The path line is rewritten with the shortest path `mazekit solve` writes.
Exit status: 0 written, 1 unreadable input or a refused change, 2 usage error.""",
)
@input_argument
@click.option(
    "--close",
    "closes",
    multiple=True,
    type=WallType(close=True),
    metavar="X,Y,D",
    help="Close the wall of cell (X,Y) on side D (N, E, S, W), on both sides. Repeatable.",
)
@click.option(
    "--open",
    "opens",
    multiple=True,
    type=WallType(close=False),
    metavar="X,Y,D",
    help="Open the wall of cell (X,Y) on side D, on both sides. Repeatable.",
)
@click.option(
    "--close-bottleneck",
    type=PASSAGES,
    default=None,
    metavar="N",
    help="Close the N busiest passages (edge betweenness) that do not cut the maze in two.",
)
@click.option(
    "--relieve",
    type=PASSAGES,
    default=None,
    metavar="N",
    help="Close N passages, one at a time, each the one whose closing lowers the "
    "betweenness peak the most (never cutting the maze in two).",
)
@click.option(
    "--allow-disconnect",
    is_flag=True,
    help="Write the maze even when the exit can no longer be reached (empty path line).",
)
@output_option(
    force_help='Allow changing border walls and walls of the "42", and replace a read-only '
    "output file, instead of refusing them.",
)
def command(
    file: str,
    closes: tuple[Any, ...],
    opens: tuple[Any, ...],
    close_bottleneck: int | None,
    relieve: int | None,
    allow_disconnect: bool,
    output: str | None,
) -> None:
    """Change walls of the maze in FILE (stdin when none, or -) and write it back.

    Each wall is set on both sides, so the maze stays coherent; the path line becomes the
    shortest path from the entry to the exit.
    """
    from ..edit import Closure, WallChange, edit

    maze = read_input(file, ignore_path=True)  # the path line is rewritten anyway
    closures: list[Closure] = []
    unchanged: list[WallChange] = []
    try:
        edited, _ = edit(
            maze,
            [*opens, *closes],
            close_bottleneck=close_bottleneck or 0,
            force=forced(),  # the one --force of every command that writes
            allow_disconnect=allow_disconnect,
            relieve_count=relieve or 0,
            closures=closures,
            unchanged=unchanged,
        )
    except MazeError as error:
        error.source = display_name(file)
        raise
    write_output(dump(edited), output)
    for change in unchanged:  # asked for, but nothing to do: said, never silently dropped
        state = "closed" if change.close else "open"
        click.echo(f"note: {change.option}: {change.wall} is already {state}", err=True)
    for closure in closures:  # what was closed, and the load before and after
        click.echo(closure.line, err=True)
