"""Wilson's algorithm: loop-erased random walks give a uniform spanning tree (no bias at all).

Steps:
1. Put one random carvable cell in the tree.
2. From each carvable cell not yet in the tree (in reading order), walk at random until the
   walk meets the tree, remembering at each cell only the direction it last left by: this
   erases the loops of the walk as it goes.
3. Follow the remembered directions from the walk's start to the tree, opening each wall and
   adding each cell to the tree.

Every spanning tree is equally likely. The walks cost about N log N steps on an N-cell grid
in expectation (the mean hitting time of the grid), so the time grows a little faster than
the area, and it varies a lot from seed to seed: the first walks look for a tiny tree, and
random-walk hitting times in two dimensions have a heavy tail.
"""

from __future__ import annotations

import random

import numpy as np

from ..kernels import load
from ..rng import floats
from .grid import Grid

__all__ = ["PERFECT", "carve"]

PERFECT = True
BATCH = 1 << 16  # random directions drawn at a time (floats turned into 0..3 by numpy)

_KERNEL = load("carve")


def carve(grid: Grid, rng: random.Random) -> None:
    """Carve a uniform spanning tree of the free cells of ``grid`` by Wilson's algorithm."""
    if _KERNEL is None:
        _carve(grid, rng)
    else:  # draws as the reference does, the rest of the last batch included; and the path
        grid.path = _KERNEL.wilson(
            grid.walls, grid.blocked, grid.stride, grid.entry, grid.exit, rng
        )


def _carve(grid: Grid, rng: random.Random) -> None:
    """The reference of carve (src/c/carve.c copies it step for step)."""
    cells = grid.free_cells()
    walls = grid.walls
    blocked = grid.blocked
    moves = grid.moves
    offsets = tuple(move[0] for move in moves)
    rand = rng.random
    in_tree = bytearray(len(walls))
    left_by = bytearray(len(walls))
    in_tree[cells[int(rand() * len(cells))]] = 1
    draws, used = b"", 0  # directions, floor(4 * random()), drawn a batch at a time
    for start in cells:
        if in_tree[start]:
            continue
        cell = start
        while not in_tree[cell]:
            if used == len(draws):
                batch = floats(rng, BATCH)
                draws, used = (batch * 4).astype(np.uint8).tobytes(), 0
            direction = draws[used]
            used += 1
            near = cell + offsets[direction]
            if not blocked[near]:  # a step into the border or the "42" is drawn again
                left_by[cell] = direction
                cell = near
        cell = start
        while not in_tree[cell]:
            in_tree[cell] = 1
            offset, mine, theirs = moves[left_by[cell]]
            walls[cell] &= mine
            cell += offset
            walls[cell] &= theirs
