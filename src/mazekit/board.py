"""The Pac-Man board's vocabulary: its limits, its key cells, and real versus enclosed dead ends.

specs/pacman.md names the key cells (the four corners, the centre) and the limits; specs/
dead-ends.md defines a dead end: a reachable cell outside the "42" with exactly one open wall,
enclosed when every closed wall of it faces the border or a pattern cell (no wall can be
opened), real otherwise. Pure definitions over arrays: the facts of one maze are computed by
mazekit.analysis, braiding by mazekit.braiding. The page's JavaScript twin of ``house`` and of
the dead ends is src/mazekit/drawing/page/board.js.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .model import DEGREE, EAST, NORTH, SOUTH, WEST, Cell, Maze
from .search import reachable_mask

__all__ = [
    "CORNER_NAMES",
    "MAX_DEAD_ENDS",
    "MIN_LOOPS",
    "DeadEnds",
    "centre",
    "classify_dead_ends",
    "corners",
    "house",
    "middle_cells",
    "openable_bits",
]

BoolGrid = npt.NDArray[np.bool_]
MIN_LOOPS = 2  # a Pac-Man board: at least two independent loops
MAX_DEAD_ENDS = 2  # ... and at most two real dead ends (0 is the arcade grade)
CORNER_NAMES = ("north-west", "north-east", "south-west", "south-east")


class DeadEnds(NamedTuple):
    """The dead ends of a maze in reading order: ``real`` ones can be opened, ``enclosed`` not."""

    real: tuple[Cell, ...]
    enclosed: tuple[Cell, ...]


def corners(width: int, height: int) -> tuple[Cell, ...]:
    """The four corners, in the order of CORNER_NAMES: the ghosts' homes and the energizers'."""
    return ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1))


def centre(width: int, height: int) -> Cell:
    """The player's start: ((W-1)//2, (H-1)//2), the free column between the "4" and the "2"."""
    return ((width - 1) // 2, (height - 1) // 2)


def house(maze: Maze) -> Cell | None:
    """The chasers' house: the cell reachable from the entry nearest the grid's centre.

    Nearest by squared distance to ((W-1)/2, (H-1)/2), ties broken by (y, x), never the entry
    or the exit (specs/chase.md, "Starts"); None when the entry lies outside the grid or no
    other cell is reachable. With the "42"
    drawn it is the free column between the "4" and the "2", like the arcade's ghost house.
    """
    width, height = maze.width, maze.height
    if not maze.contains(maze.entry):
        return None
    reach = reachable_mask(maze.walls, maze.entry)
    for cell in (maze.entry, maze.exit):
        if maze.contains(cell):
            reach[cell[1], cell[0]] = False
    ys, xs = np.nonzero(reach)
    if len(xs) == 0:
        return None
    # Doubled coordinates keep the half-cell centre of an even side exact in integers.
    far = (2 * xs - (width - 1)) ** 2 + (2 * ys - (height - 1)) ** 2
    best = int(np.lexsort((xs, ys, far))[0])
    return (int(xs[best]), int(ys[best]))


def middle_cells(width: int, height: int) -> tuple[Cell, ...]:
    """The 1, 2 or 4 middle cells (2 per even side), in reading order; any may be the centre."""
    xs = sorted({(width - 1) // 2, width // 2})
    ys = sorted({(height - 1) // 2, height // 2})
    return tuple((x, y) for y in ys for x in xs)


def openable_bits(pattern: BoolGrid) -> npt.NDArray[np.uint8]:
    """Per cell, the bits of the walls that face a cell of the grid outside the pattern."""
    usable = (~pattern).astype(np.uint8)
    bits = np.zeros(pattern.shape, dtype=np.uint8)
    bits[1:, :] |= usable[:-1, :] * NORTH
    bits[:, :-1] |= usable[:, 1:] * EAST
    bits[:-1, :] |= usable[1:, :] * SOUTH
    bits[:, 1:] |= usable[:, :-1] * WEST
    return bits


def classify_dead_ends(
    moves: npt.NDArray[np.uint8], reach: BoolGrid, pattern: BoolGrid
) -> tuple[BoolGrid, BoolGrid]:
    """(real, enclosed) dead-end masks, from the open-wall bits and the reachable cells."""
    dead = reach & ~pattern & (DEGREE[moves] == 1)
    real = dead & ((openable_bits(pattern) & ~moves) != 0)
    return real, dead & ~real
