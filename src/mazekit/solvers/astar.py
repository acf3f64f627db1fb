"""A* search with the Manhattan heuristic, backwards from the goal towards the start.

Steps: g is the steps from the goal, h the Manhattan distance to the start (consistent, so a
cell's g is exact when it is expanded), f = g + h. A step changes g by 1 and h by 1 either
way, so f stays the same (a step towards the start) or grows by 2: two lists hold the open
cells, those of the current f and those of f + 2, and a list append/pop beats a heap. Expand
the newest cell of the current f first (it follows one corridor to its end), and stop only
when every cell of f <= the start's distance has been expanded: then every cell of every
shortest path has its exact distance, so the shared walk picks the first shortest path in
N, E, S, W order, the same path bfs gives. Visited = cells expanded. The compiled kernel
(mazekit._csearch.astar) runs these very steps; the Python below is its reference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..kernels import load
from ..search import UNREACHED, step_offsets
from .grid import Search, SearchGrid

__all__ = ["search"]

_KERNEL = load("search")


def search(grid: SearchGrid, start: int, goal: int) -> Search:
    """Distances to ``goal`` on every shortest path from ``start``, by A* from the goal."""
    if _KERNEL is not None:
        bits = np.ascontiguousarray(grid.bits, dtype=np.uint8)
        dist = np.empty(bits.size, dtype=np.int32)
        expanded = _KERNEL.astar(bits, grid.width, start, goal, dist)
        return Search(dist, int(expanded))
    found, expanded = _reference(np.asarray(grid.bits).tolist(), grid.width, start, goal)
    return Search(np.array(found, dtype=np.int32), expanded)


def _reference(bits: Sequence[int], width: int, start: int, goal: int) -> tuple[list[int], int]:
    """The search in pure Python, over lists: distances and the cells expanded."""
    table = step_offsets(width)
    start_y, start_x = divmod(start, width)
    dist = [UNREACHED] * len(bits)
    closed = bytearray(len(bits))
    dist[goal] = 0
    current: list[int] = [goal]  # open cells with f = the current level
    later: list[int] = []  # open cells with f = the current level + 2
    reached_start = False
    expanded = 0
    while True:
        if not current:
            if reached_start or not later:
                break  # every cell with f <= the start's distance is expanded, or no path
            current, later = later, current
            continue
        cell = current.pop()
        if closed[cell]:
            continue  # a stale entry: the cell was reached again by a shorter route
        closed[cell] = 1
        expanded += 1
        reached_start = reached_start or cell == start
        step = dist[cell] + 1
        y, x = divmod(cell, width)
        for offset in table[bits[cell]]:
            neighbour = cell + offset
            known = dist[neighbour]
            if closed[neighbour] or 0 <= known <= step:
                continue
            dist[neighbour] = step
            if offset == 1:
                nearer = x < start_x
            elif offset == -1:
                nearer = x > start_x
            elif offset > 0:
                nearer = y < start_y
            else:
                nearer = y > start_y
            (current if nearer else later).append(neighbour)
    return dist, expanded
