"""Dead-end filling: close every dead-end branch, then search what is left.

Steps: a dead end is a cell with exactly one open wall that is neither the start nor the goal.
Fill it (close its wall on both sides) and, when that leaves its neighbour with one open wall
too, go on into the neighbour, until a junction, the start or the goal stops the branch. No
simple path from the start to the goal can pass through a filled cell, so the distances of the
cells left are unchanged; a breadth-first search from the goal over them finishes the job. In
a perfect maze only the path itself is left. Visited = cells filled + cells the search expands.
The filling runs in the compiled kernel (mazekit._csearch.fill_dead_ends) when it is there.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..kernels import load
from ..model import ALL_WALLS, DEGREE, DIRECTIONS
from ..search import bfs_flat
from .grid import Search, SearchGrid

__all__ = ["fill", "search"]

_KERNEL = load("search")

_OPEN_COUNT: list[int] = DEGREE.tolist()
# for a cell whose only open wall is ``bit``: the bits its neighbour keeps open
_KEEP = [ALL_WALLS] * (ALL_WALLS + 1)
for _direction in DIRECTIONS:
    _KEEP[_direction.bit] = ALL_WALLS & ~_direction.opposite


def fill(grid: SearchGrid, keep: tuple[int, int]) -> tuple[npt.NDArray[np.uint8], int]:
    """The open bits left after filling every dead-end branch, and how many cells were filled.

    The two cells in ``keep`` are never filled. The result does not depend on the order of
    filling.
    """
    if _KERNEL is not None:
        left = np.array(grid.bits, dtype=np.uint8)  # a copy, filled in place
        filled = _KERNEL.fill_dead_ends(left, grid.width, keep[0], keep[1])
        return left, int(filled)
    bits: list[int] = np.asarray(grid.bits).tolist()
    offset = [0] * (ALL_WALLS + 1)
    for direction in DIRECTIONS:
        offset[direction.bit] = direction.dy * grid.width + direction.dx
    kept = set(keep)
    open_count, keep_mask = _OPEN_COUNT, _KEEP
    filled = 0
    for leaf in [cell for cell, b in enumerate(bits) if open_count[b] == 1]:
        cell = leaf
        while cell not in kept:
            b = bits[cell]
            if open_count[b] != 1:
                break  # a junction, or a cell already filled from its other side
            neighbour = cell + offset[b]
            bits[cell] = 0
            bits[neighbour] &= keep_mask[b]
            filled += 1
            cell = neighbour
    return np.array(bits, dtype=np.uint8), filled


def search(grid: SearchGrid, start: int, goal: int) -> Search:
    """Distances to ``goal`` in the maze left after dead-end filling, from a BFS to ``start``."""
    bits, filled = fill(grid, (start, goal))
    dist, expanded = bfs_flat(bits, grid.width, goal, start)
    return Search(dist, filled + expanded)
