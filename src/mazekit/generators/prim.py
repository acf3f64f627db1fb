"""Randomised Prim: a tree that grows at random points of its border; short, bushy branches.

Steps:
1. Put the entry in the tree and its carvable neighbours in the frontier.
2. Take a random cell out of the frontier, open the wall between it and a random neighbour
   already in the tree, and put it in the tree.
3. Add its carvable neighbours that are neither in the tree nor in the frontier to the
   frontier. Repeat from 2 until the frontier is empty.

The frontier is a list with swap-remove, so taking a random cell costs O(1).
"""

from __future__ import annotations

import random

from ..kernels import load
from ..rng import pop_random
from .grid import Grid

__all__ = ["PERFECT", "carve"]

PERFECT = True

UNSEEN, FRONTIER, TREE, BLOCKED = 0, 1, 2, 3

_KERNEL = load("carve")


def carve(grid: Grid, rng: random.Random) -> None:
    """Carve a spanning tree of the free cells of ``grid`` by randomised Prim."""
    if _KERNEL is None:
        _carve(grid, rng)
    else:  # the path too, from the parent each cell joined
        grid.path = _KERNEL.prim(grid.walls, grid.blocked, grid.stride, grid.entry, grid.exit, rng)


def _carve(grid: Grid, rng: random.Random) -> None:
    """The reference of carve (src/c/carve.c copies it step for step)."""
    walls = grid.walls
    state = bytearray(BLOCKED if b else UNSEEN for b in grid.blocked)
    moves = grid.moves
    rand = rng.random
    frontier: list[int] = []

    def grow(cell: int) -> None:
        state[cell] = TREE
        for offset, _, _ in moves:
            near = cell + offset
            if state[near] == UNSEEN:
                state[near] = FRONTIER
                frontier.append(near)

    grow(grid.entry)
    while frontier:
        cell = pop_random(frontier, rand)
        joins = [move for move in moves if state[cell + move[0]] == TREE]
        offset, mine, theirs = joins[int(rand() * len(joins))]
        walls[cell] &= mine
        walls[cell + offset] &= theirs
        grow(cell)
