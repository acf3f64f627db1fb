"""Hunt-and-kill: random walks that never backtrack, restarted by a scan; long corridors.

Steps:
1. Start at the first carvable cell in reading order and walk: step to a random unvisited
   carvable neighbour, opening the wall between them, until the current cell has no
   unvisited neighbour.
2. Hunt: scan the grid in reading order for the first unvisited cell next to a visited one;
   open the wall to a random visited neighbour and walk again from it (step 1).
3. Stop when the hunt finds nothing.

The classic hunt rescans from the top each time, which is quadratic. Here the scan starts at
the first unvisited cell in reading order, a pointer that only moves forward. Every cell
before it is visited (which is why the walk starts at the first cell, not at the entry), so
its north and west neighbours are visited unless blocked; the hunt
then stops within a couple of cells (the only exception is the cell inside the lower curve
of the "2", whose north and west neighbours are pattern cells), and the whole run is linear.
"""

from __future__ import annotations

import random

from ..kernels import load
from .grid import Grid

__all__ = ["PERFECT", "carve"]

PERFECT = True

_KERNEL = load("carve")


def carve(grid: Grid, rng: random.Random) -> None:
    """Carve a spanning tree of the free cells of ``grid`` by hunt-and-kill."""
    if _KERNEL is None:
        _carve(grid, rng)
    else:
        _KERNEL.hunt_and_kill(grid.walls, grid.blocked, grid.stride, rng)


def _carve(grid: Grid, rng: random.Random) -> None:
    """The reference of carve (src/c/carve.c copies it step for step)."""
    walls = grid.walls
    moves = grid.moves
    north, east, south, west = (move[0] for move in moves)
    visited = bytearray(grid.blocked)  # blocked cells count as visited: never entered
    in_tree = bytearray(len(walls))  # visited and carvable: what a hunted cell may join
    table = [tuple(move for d, move in enumerate(moves) if not mask >> d & 1) for mask in range(16)]
    rand = rng.random
    cells = grid.free_cells()
    pointer = 0
    cell = cells[0]
    visited[cell] = in_tree[cell] = 1
    while True:
        # walk (kill) until stuck
        while True:
            mask = (
                visited[cell + north]
                | visited[cell + east] << 1
                | visited[cell + south] << 2
                | visited[cell + west] << 3
            )
            if mask == 15:
                break
            options = table[mask]
            offset, mine, theirs = options[int(rand() * len(options))]
            walls[cell] &= mine
            cell += offset
            walls[cell] &= theirs
            visited[cell] = in_tree[cell] = 1
        # hunt: the first unvisited cell in reading order that touches the tree
        while pointer < len(cells) and visited[cells[pointer]]:
            pointer += 1
        found = -1
        joins: list[tuple[int, int, int]] = []
        scan = pointer
        while scan < len(cells):
            candidate = cells[scan]
            scan += 1
            if visited[candidate]:
                continue
            joins = [move for move in moves if in_tree[candidate + move[0]]]
            if joins:
                found = candidate
                break
        if found < 0:
            return
        offset, mine, theirs = joins[int(rand() * len(joins))]
        walls[found] &= mine
        walls[found + offset] &= theirs
        cell = found
        visited[cell] = in_tree[cell] = 1
