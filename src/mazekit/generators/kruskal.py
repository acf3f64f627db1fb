"""Randomised Kruskal: join random walls between separate pieces; an even, patchy texture.

Steps:
1. Every carvable cell is a tree of its own. List every wall between two carvable cells.
2. Give each wall a random key and sort the walls by it (a random order).
3. Take the walls in that order: when the two cells lie in different trees (union-find),
   open the wall and merge the trees. Stop once all cells form one tree.

The random keys are float draws sorted by numpy's stable sort, so the order is the same on
every platform; union-find with path halving and union by size keeps the pass near-linear.
"""

from __future__ import annotations

import random

import numpy as np

from ..kernels import load
from ..rng import floats
from .grid import Grid

__all__ = ["PERFECT", "carve"]

PERFECT = True
CHUNK = 1 << 16  # walls turned into Python ints at a time, to bound memory
# The band of rows the kernel contracts while it is in cache, before Boruvka's rounds: BAND
# rows, fewer where that is over BAND_CELLS cells, and one row longer than that is left to
# the rounds (specs/performance.md, "kruskal: the same tree, a band of rows at a time").
# The same walls open for any band; the tests set small ones, to put band edges everywhere.
BAND = 32
BAND_CELLS = 1 << 18

_KERNEL = load("carve")


def carve(grid: Grid, rng: random.Random) -> None:
    """Carve a spanning tree of the free cells of ``grid`` by randomised Kruskal; the kernel
    also gives its entry-exit path (``grid.path``), found from the pieces it joined."""
    if _KERNEL is None:
        _carve(grid, rng)
    else:  # the path too, from the pieces the tree was joined from
        grid.path = _KERNEL.kruskal(
            grid.walls, grid.blocked, grid.stride, grid.entry, grid.exit, rng, BAND, BAND_CELLS
        )


def _carve(grid: Grid, rng: random.Random) -> None:
    """The reference of carve (its path: Grid.tree_path). src/c/carve.c opens the same walls
    without sorting them all: the walls taken in key order make the one minimum spanning tree
    of (key, code), which it finds a band of rows at a time in cache, then by Boruvka's rounds
    over what the bands leave, leaving out from the start the greatest wall of every 2x2
    square, which no such tree holds (specs/performance.md)."""
    codes = grid.inner_walls()
    keys = floats(rng, codes.size)
    order = codes[np.argsort(keys, kind="stable")]
    del codes, keys  # memory: only the order is needed from here on (specs: 150 B per cell)
    needed = int(np.count_nonzero(grid.free_mask())) - 1
    parent = list(range(len(grid.walls)))
    size = [1] * len(grid.walls)
    for chunk in range(0, order.size, CHUNK):
        if needed == 0:
            break
        needed = _join(order[chunk : chunk + CHUNK].tolist(), needed, parent, size, grid)


def _join(codes: list[int], needed: int, parent: list[int], size: list[int], grid: Grid) -> int:
    """Open the walls of ``codes`` that join two trees; return how many joins are still needed."""
    walls = grid.walls
    stride = grid.stride
    east_mine, east_theirs = grid.moves[1][1:]
    south_mine, south_theirs = grid.moves[2][1:]
    for code in codes:
        if needed == 0:
            break
        first = code >> 1
        second = first + (stride if code & 1 else 1)
        root_a = first
        while parent[root_a] != root_a:
            parent[root_a] = parent[parent[root_a]]
            root_a = parent[root_a]
        root_b = second
        while parent[root_b] != root_b:
            parent[root_b] = parent[parent[root_b]]
            root_b = parent[root_b]
        if root_a == root_b:
            continue
        if size[root_a] < size[root_b]:
            root_a, root_b = root_b, root_a
        parent[root_b] = root_a
        size[root_a] += size[root_b]
        needed -= 1
        if code & 1:
            walls[first] &= south_mine
            walls[second] &= south_theirs
        else:
            walls[first] &= east_mine
            walls[second] &= east_theirs
    return needed
