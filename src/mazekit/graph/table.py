"""The graph of a maze: its reachable cells numbered, and their neighbour table.

The graph is the cells connected to the entry, joined by the open walls every search reads
(mazekit.search.open_bits). The reference searches of betweenness run over this table; the
kernels read the open bits directly.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..model import DIRECTIONS, Maze
from ..search import bfs_flat, open_bits

__all__ = ["FloatArray", "IntArray", "Sums", "reachable_graph"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Sums = tuple[FloatArray, FloatArray, FloatArray]  # per node, its E and its S passage


def reachable_graph(
    maze: Maze,
) -> tuple[npt.NDArray[np.bool_], IntArray, npt.NDArray[np.int32], IntArray]:
    """Reachable mask, node -> flat cell, the n x 4 neighbour table (N, E, S, W; -1 none),
    and each node's breadth-first distance from the entry (one search gives all four)."""
    walls = maze.walls
    width = maze.width
    moves = open_bits(walls).ravel()
    if maze.contains(maze.entry):
        found, _ = bfs_flat(moves, width, maze.entry[1] * width + maze.entry[0])
        dist = np.asarray(found, dtype=np.int64)
    else:
        dist = np.full(walls.size, -1, dtype=np.int64)
    flat = np.flatnonzero(dist >= 0)
    reach = (dist >= 0).reshape(walls.shape)
    node = np.full(walls.size, -1, dtype=np.int32)
    node[flat] = np.arange(flat.size, dtype=np.int32)
    bits = moves[flat]
    table = np.full((flat.size, 4), -1, dtype=np.int32)
    for column, direction in enumerate(DIRECTIONS):
        has = (bits & direction.bit) != 0
        table[has, column] = node[flat[has] + direction.dy * width + direction.dx]
    return reach, flat.astype(np.int64), table, dist[flat]
