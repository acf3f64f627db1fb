"""Counting shortest paths off distances to the goal, and the cells of a path.

The count follows the steps of mazekit.search.walk_shortest (the one tie-breaking walk): from
a cell at distance k, an allowed open move to a cell at distance k - 1. Those steps, from the
start, are exactly the shortest paths (the BFS layers), so the count never enumerates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..model import ALL_WALLS, Cell
from ..search import path_positions, step_table
from .grid import SearchGrid

__all__ = ["cells_of", "count_shortest_paths"]


def count_shortest_paths(
    grid: SearchGrid,
    dist: Sequence[int] | npt.NDArray[np.int32],
    start: int,
    moves: int = ALL_WALLS,
) -> int:
    """How many distinct shortest paths lead from ``start`` to the goal (1 = unique).

    Dynamic programming over the layers, start first: the ways to reach each cell of the next
    layer are the sum of the ways of the cells one step before it. Python ints never overflow.
    """
    # Memoryviews give Python ints one by one several times faster than indexing an array,
    # and need no list of every cell (36 bytes a cell).
    dist = np.ascontiguousarray(dist, dtype=np.int32).ravel().data
    bits = np.ascontiguousarray(grid.bits, dtype=np.uint8).ravel().data
    if dist[start] < 0:
        return 0
    steps = step_table(grid.width, moves)
    layer = {start: 1}
    for remaining in range(dist[start] - 1, -1, -1):
        following: dict[int, int] = {}
        for cell, ways in layer.items():
            for offset, _ in steps[bits[cell]]:
                neighbour = cell + offset
                if dist[neighbour] == remaining:
                    following[neighbour] = following.get(neighbour, 0) + ways
        layer = following
    return sum(layer.values())


def cells_of(start: Cell, path: str) -> list[Cell]:
    """The cells a path visits from ``start``, both ends included."""
    xs, ys = path_positions(start, path)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))
