"""A* search with the Manhattan heuristic, backwards from the goal towards the start.

Steps: keep the open cells in buckets by f = g + h, where g is the steps from the goal and h
the Manhattan distance to the start (consistent, so a cell's g is exact when it is expanded).
Expand the newest cell of the lowest bucket (deepest first, which favours cells near the
start), and stop only when every cell of f <= the start's distance has been expanded: then
every cell of every shortest path has its exact distance, so the shared walk can pick the
first shortest path in N, E, S, W order, the same path bfs gives. Visited = cells expanded.
A bucket queue instead of a heap: f takes few values, and a list append/pop beats heapq.
"""

from __future__ import annotations

from ..search import UNREACHED, step_offsets
from .grid import Grid, Search

__all__ = ["search"]


def search(grid: Grid, start: int, goal: int) -> Search:
    """Distances to ``goal`` on every shortest path from ``start``, by A* from the goal."""
    width, bits = grid.width, grid.bits
    table = step_offsets(width)
    start_y, start_x = divmod(start, width)

    def heuristic(cell: int) -> int:
        y, x = divmod(cell, width)
        return abs(x - start_x) + abs(y - start_y)

    dist = [UNREACHED] * len(bits)
    closed = bytearray(len(bits))
    dist[goal] = 0
    level = heuristic(goal)
    buckets: list[list[int]] = [[] for _ in range(level + 1)]
    buckets[level].append(goal)
    pending = 1
    best = -1  # the start's distance, once expanded
    expanded = 0
    while pending:
        bucket = buckets[level]
        if not bucket:
            if 0 <= best <= level:
                break  # every cell with f <= best has been expanded
            level += 1
            continue
        cell = bucket.pop()
        pending -= 1
        if closed[cell]:
            continue  # a stale entry: the cell was reached again by a shorter route
        closed[cell] = 1
        expanded += 1
        if cell == start:
            best = dist[cell]
        step = dist[cell] + 1
        for offset in table[bits[cell]]:
            neighbour = cell + offset
            known = dist[neighbour]
            if closed[neighbour] or 0 <= known <= step:
                continue
            dist[neighbour] = step
            f = step + heuristic(neighbour)
            while len(buckets) <= f:
                buckets.append([])
            buckets[f].append(neighbour)
            pending += 1
    return Search(dist, expanded)
