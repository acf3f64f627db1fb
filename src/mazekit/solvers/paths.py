"""Reading paths off distances to the goal: the one tie-breaking walk, and path counting.

Both follow the same steps: from a cell at distance k, an allowed open move to a cell at
distance k - 1. Those steps, from the start, are exactly the shortest paths (a layered graph:
the BFS layers), so the walk never backtracks and the count never enumerates.
"""

from __future__ import annotations

from ..model import ALL_WALLS, BY_LETTER, DIRECTIONS, Cell
from .grid import Grid

__all__ = ["cells_of", "count_shortest_paths", "first_shortest_path"]


def _steps(width: int, moves: int) -> list[tuple[tuple[int, str], ...]]:
    """For each set of open bits, its allowed (offset, letter) steps in N, E, S, W order."""
    return [
        tuple((d.dy * width + d.dx, d.letter) for d in DIRECTIONS if bits & moves & d.bit)
        for bits in range(ALL_WALLS + 1)
    ]


def first_shortest_path(grid: Grid, dist: list[int], start: int, moves: int = ALL_WALLS) -> str:
    """The first shortest path from ``start`` in N, E, S, W order, as letters.

    At each cell it takes the first allowed move that gets one step nearer the goal; this
    picks, among all shortest paths, the one that comes first in that letter order.
    """
    steps, bits = _steps(grid.width, moves), grid.bits
    letters: list[str] = []
    cell = start
    remaining = dist[start]
    while remaining > 0:
        remaining -= 1
        for offset, letter in steps[bits[cell]]:
            if dist[cell + offset] == remaining:
                letters.append(letter)
                cell += offset
                break
        else:  # only a solver breaking the Search contract can get here
            raise RuntimeError(f"no step from cell {cell} gets nearer the goal")
    return "".join(letters)


def count_shortest_paths(grid: Grid, dist: list[int], start: int, moves: int = ALL_WALLS) -> int:
    """How many distinct shortest paths lead from ``start`` to the goal (1 = unique).

    Dynamic programming over the layers, start first: the ways to reach each cell of the next
    layer are the sum of the ways of the cells one step before it. Python ints never overflow.
    """
    if dist[start] < 0:
        return 0
    steps, bits = _steps(grid.width, moves), grid.bits
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
    x, y = start
    cells = [(x, y)]
    for letter in path:
        direction = BY_LETTER[letter]
        x += direction.dx
        y += direction.dy
        cells.append((x, y))
    return cells
