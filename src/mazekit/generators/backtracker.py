"""Recursive backtracker (randomised depth-first search): long, winding corridors.

Steps:
1. Mark the entry visited and push it on a stack.
2. Look at the cell on top of the stack. If it has unvisited, carvable neighbours, pick one
   at random, open the wall between them, mark it visited and push it.
3. Otherwise pop the cell (backtrack). Repeat from 2 until the stack is empty.

The stack is an explicit list, so there is no recursion limit on big grids. Since the walk
starts at the entry, the stack at the moment the exit is pushed is exactly the tree path from
entry to exit: the maze's one shortest path comes for free, with no search afterwards.
"""

from __future__ import annotations

import random

from ..kernels import load
from .grid import Grid

__all__ = ["PERFECT", "carve"]

PERFECT = True

_KERNEL = load("carve")


def carve(grid: Grid, rng: random.Random) -> None:
    """Carve a spanning tree of the free cells of ``grid`` by depth-first search."""
    if _KERNEL is None:
        _carve(grid, rng)
        return
    grid.path = _KERNEL.backtracker(
        grid.walls, grid.blocked, grid.stride, grid.entry, grid.exit, rng
    )


def _carve(grid: Grid, rng: random.Random) -> None:
    """The reference of carve (src/c/carve.c copies it step for step)."""
    walls = grid.walls
    visited = bytearray(grid.blocked)  # blocked cells count as visited: never entered
    north, east, south, west = (move[0] for move in grid.moves)
    # for each mask of visited neighbours (bit d set = direction d visited), the open moves
    table = [
        tuple(move for d, move in enumerate(grid.moves) if not mask >> d & 1) for mask in range(16)
    ]
    rand = rng.random
    start, goal = grid.entry, grid.exit
    stack = [start]
    push, pop = stack.append, stack.pop
    visited[start] = 1
    cell = start
    while True:
        mask = (
            visited[cell + north]
            | visited[cell + east] << 1
            | visited[cell + south] << 2
            | visited[cell + west] << 3
        )
        if mask == 15:
            pop()
            if not stack:
                break
            cell = stack[-1]
            continue
        options = table[mask]
        offset, mine, theirs = options[int(rand() * len(options))]
        walls[cell] &= mine
        cell += offset
        walls[cell] &= theirs
        visited[cell] = 1
        push(cell)
        if cell == goal:
            grid.path = grid.letters(stack)
