"""``mazekit pacmanize``: braid a valid maze into a Pac-Man board (specs/pacman.md)."""

from __future__ import annotations

import click

from ..board import MAX_DEAD_ENDS, MIN_LOOPS
from ..pacman import pacmanize
from ..textformat import dump
from ._common import (
    COUNT,
    SEED_HELP,
    display_name,
    input_argument,
    output_option,
    read_input,
    seed_option,
    write_output,
)

__all__ = ["command"]


@click.command(
    short_help="Turn a maze into a Pac-Man board.",
    epilog="""\b
Examples:
  mazekit pacmanize maze.txt -o board.txt
  mazekit generate --seed 7 | mazekit pacmanize | mazekit validate --pacman
  mazekit pacmanize maze.txt --max-dead-ends 0 --min-loops 10 --seed 3
  mazekit pacmanize maze.txt | mazekit render --theme pacman -o board.png
Exit status: 0 a board was written, 1 unreadable or invalid maze, or limits that cannot
be met, 2 usage error.""",
)
@input_argument
@click.option(
    "--max-dead-ends",
    type=COUNT,
    default=MAX_DEAD_ENDS,
    show_default=True,
    metavar="N",
    help="At most N real dead ends (braiding aims for 0 whatever N is).",
)
@click.option(
    "--min-loops",
    type=COUNT,
    default=MIN_LOOPS,
    show_default=True,
    metavar="N",
    help="At least N independent loops; more walls are opened when braiding leaves fewer.",
)
@seed_option(SEED_HELP + ": which walls are opened.  [default: 0]")
@output_option()
def command(
    file: str, max_dead_ends: int, min_loops: int, seed: int | None, output: str | None
) -> None:
    """Braid the maze FILE (stdin when missing or -) into a Pac-Man board.

    Opens walls of real dead ends (never a border wall, never a wall of the "42", never one
    that makes a 3x3 open area) and writes the board with the same entry and exit and a new
    shortest path. The input must pass mazekit validate but for a wrong path and what the
    pipeline readers tolerate (CRLF, trailing blanks, a missing path line...); a path line
    with a letter other than N, E, S, W is refused as malformed. Without --seed
    the seed is 0, so the same input gives the same bytes; a board made by pacmanize is left
    as it is.
    """
    maze = read_input(file)
    board = pacmanize(
        maze,
        max_dead_ends=max_dead_ends,
        min_loops=min_loops,
        seed=seed,
        source=display_name(file),
    )
    write_output(dump(board), output)
