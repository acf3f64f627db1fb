"""Paths with restricted moves (``--moves ES``): mark the hopeless cells first, then walk.

Steps (specs/solve.md, "--moves"): a breadth-first search backwards from the goal, over the reversed
allowed moves, reaches exactly the cells from which the goal can be reached; every other cell
is marked and is never entered. The cells reached carry their distance to the goal, so the
search forward from the start needs no backtracking: each step takes the first allowed move
(N, E, S, W order) to a cell one step nearer. Visited = cells the backward search expands.
"""

from __future__ import annotations

from ..model import DIRECTIONS
from ..search import bfs_flat
from .grid import Search, SearchGrid

__all__ = ["mark", "reversed_moves"]


def reversed_moves(moves: int) -> int:
    """The bits of the opposite directions: a step E into a cell is a step W out of it."""
    result = 0
    for direction in DIRECTIONS:
        if moves & direction.bit:
            result |= direction.opposite
    return result


def mark(grid: SearchGrid, goal: int, moves: int) -> Search:
    """Distances to ``goal`` along the ``moves`` bits, for every cell that can reach it.

    The backward search runs to the end (no early stop), so the marking is complete:
    ``dist`` is -1 exactly on the cells from which the goal cannot be reached.
    """
    dist, expanded = bfs_flat(grid.bits, grid.width, goal, moves=reversed_moves(moves))
    return Search(dist, expanded)
