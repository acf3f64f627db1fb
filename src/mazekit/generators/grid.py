"""The carving context every algorithm works on: flat, padded byte arrays and neighbour offsets.

The W x H grid is stored row by row in a (W+2) x (H+2) frame whose outer ring is blocked, so
the four neighbours of any cell are ``cell + offset`` with no bounds check: an algorithm only
asks ``blocked[n]``. Cells of the "42" are blocked too, so no algorithm can carve into them,
and every wall starts closed: the pattern's cells and the facing walls of their neighbours
stay closed by construction.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .. import pattern as glyph
from ..kernels import load
from ..model import ALL_WALLS, DIRECTIONS, Cell, Walls

__all__ = ["Grid"]

_KERNEL = load("carve")

_LETTERS = np.frombuffer(b"NESW", dtype=np.uint8)


class Grid:
    """A W x H grid to carve: ``walls`` and ``blocked`` are flat over the padded frame.

    ``moves`` lists, for N, E, S, W, the flat offset, the mask that opens the wall on this
    side and the mask that opens it on the neighbour's side. An algorithm that knows the
    entry-to-exit path for free (a backtracker's stack) may store its letters in ``path``.
    """

    def __init__(self, width: int, height: int, entry: Cell, exit: Cell) -> None:
        self.width = width
        self.height = height
        self.stride = stride = width + 2
        size = stride * (height + 2)
        self.walls = bytearray(bytes((ALL_WALLS,)) * size)
        blocked = bytearray(b"\x01" * size)
        row = bytes(width)
        for y in range(height):
            start = (y + 1) * stride + 1
            blocked[start : start + width] = row
        for x, y in glyph.pattern_cells(width, height):
            blocked[self.index(x, y)] = 1
        self.blocked = blocked
        self.entry = self.index(*entry)
        self.exit = self.index(*exit)
        self.path: str | None = None
        self.moves: tuple[tuple[int, int, int], ...] = tuple(
            (d.dy * stride + d.dx, ALL_WALLS ^ d.bit, ALL_WALLS ^ d.opposite) for d in DIRECTIONS
        )

    def index(self, x: int, y: int) -> int:
        """The flat index of cell (x, y)."""
        return (y + 1) * self.stride + x + 1

    def cell(self, index: int) -> Cell:
        """The (x, y) of a flat index."""
        y, x = divmod(index, self.stride)
        return x - 1, y - 1

    def free_mask(self) -> npt.NDArray[np.bool_]:
        """The padded frame as booleans, True on the cells that may be carved."""
        frame = np.frombuffer(self.blocked, dtype=np.uint8)
        return np.asarray(frame == 0).reshape(self.height + 2, self.stride)

    def free_cells(self) -> list[int]:
        """Flat indices of the cells that may be carved, in reading order."""
        return [int(i) for i in np.flatnonzero(self.free_mask())]

    def inner_walls(self) -> npt.NDArray[np.int64]:
        """Every wall between two carvable cells, coded ``2 * cell`` (east) or ``+ 1`` (south).

        The codes come in increasing order, so the list is the same on every platform.
        """
        free = self.free_mask().ravel()
        stride = self.stride
        east = np.flatnonzero(free[:-1] & free[1:])
        south = np.flatnonzero(free[:-stride] & free[stride:])
        return np.sort(np.concatenate((east * 2, south * 2 + 1)))

    def letters(self, cells: Sequence[int]) -> str:
        """The path letters of a walk through consecutive neighbouring cells."""
        if len(cells) < 2:
            return ""
        steps = np.diff(np.asarray(cells, dtype=np.int64))
        which = (steps == 1) * 1 + (steps == self.stride) * 2 + (steps == -1) * 3  # N is 0
        return bytes(_LETTERS[which]).decode("ascii")

    def tree_path(self) -> str | None:
        """The letters of the entry-exit path of a carved perfect maze; None if out of reach.

        In a spanning tree the one path is the first shortest path (search.shortest_path, the
        reference); the kernel finds it by a depth-first walk, with no distances to keep.
        """
        if _KERNEL is None:
            from ..search import shortest_path

            return shortest_path(self.array(), self.cell(self.entry), self.cell(self.exit))
        path: str | None = _KERNEL.tree_path(
            self.walls, self.blocked, self.stride, self.entry, self.exit
        )
        return path

    def array(self) -> Walls:
        """The walls as the H x W uint8 array of a Maze (a copy, detached from the frame)."""
        frame = np.frombuffer(self.walls, dtype=np.uint8).reshape(self.height + 2, self.stride)
        return frame[1:-1, 1:-1].copy()
