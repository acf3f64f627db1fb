"""The "42": its glyph, where it sits on a W x H grid, and whether it fits.

specs/rules.md defines it: a 7x5 block centred at ((W-7)//2, (H-5)//2), 18 fully closed
cells, present only when W >= 9 and H >= 7 (one corridor cell between block and border).
``find`` reads a "42" wherever a file draws one (``--pattern subject``): the glyph at any
offset, or another "4" and "2" of fully closed cells side by side.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .model import ALL_WALLS, Cell

__all__ = [
    "BLOCK_HEIGHT",
    "BLOCK_WIDTH",
    "GLYPHS",
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "TOO_SMALL_MESSAGE",
    "Found",
    "cells_at",
    "find",
    "fits",
    "nearest",
    "origin",
    "pattern_cells",
    "pattern_mask",
    "trapped_cells",
]

GLYPHS: tuple[str, ...] = (
    "X...XXX",
    "X.....X",
    "XXX.XXX",
    "..X.X..",
    "..X.XXX",
)
BLOCK_WIDTH = len(GLYPHS[0])
BLOCK_HEIGHT = len(GLYPHS)
MIN_WIDTH = BLOCK_WIDTH + 2
MIN_HEIGHT = BLOCK_HEIGHT + 2
# The two ordinary cells inside the curves of the "2": block column 5, rows 1 and 3.
TRAPPED_OFFSETS: tuple[Cell, ...] = ((5, 1), (5, 3))
TOO_SMALL_MESSAGE = 'maze too small for the "42" pattern'


def fits(width: int, height: int) -> bool:
    """Whether a W x H grid has room for the "42" with a corridor around it."""
    return width >= MIN_WIDTH and height >= MIN_HEIGHT


def origin(width: int, height: int) -> Cell | None:
    """Top-left cell of the glyph block, or None when the "42" does not fit."""
    if not fits(width, height):
        return None
    return ((width - BLOCK_WIDTH) // 2, (height - BLOCK_HEIGHT) // 2)


@lru_cache(maxsize=64)
def pattern_cells(width: int, height: int) -> tuple[Cell, ...]:
    """The 18 cells of the "42" in row-major order, or () when it does not fit."""
    corner = origin(width, height)
    if corner is None:
        return ()
    return cells_at(corner)


def cells_at(corner: Cell) -> tuple[Cell, ...]:
    """The 18 cells of the glyph with its top-left corner at ``corner``, in row-major order."""
    x0, y0 = corner
    return tuple(
        (x0 + dx, y0 + dy)
        for dy, row in enumerate(GLYPHS)
        for dx, mark in enumerate(row)
        if mark == "X"
    )


def pattern_mask(width: int, height: int) -> npt.NDArray[np.bool_]:
    """An H x W boolean array, True on the cells of the "42"."""
    mask = np.zeros((height, width), dtype=bool)
    for x, y in pattern_cells(width, height):
        mask[y, x] = True
    return mask


def trapped_cells(width: int, height: int) -> tuple[Cell, ...]:
    """The two cells every "42" turns into enclosed dead ends, or () when it does not fit."""
    corner = origin(width, height)
    if corner is None:
        return ()
    x0, y0 = corner
    return tuple((x0 + dx, y0 + dy) for dx, dy in TRAPPED_OFFSETS)


BoolGrid = npt.NDArray[np.bool_]
_GLYPH = np.array([[mark == "X" for mark in row] for row in GLYPHS])


@dataclass(frozen=True)
class Found:
    """A "42" read in a grid: its cells (row-major), and whether it is the subject's glyph."""

    cells: tuple[Cell, ...]
    subject: bool

    @property
    def corner(self) -> Cell:
        """The top-left corner of the box around its cells."""
        return (min(x for x, _ in self.cells), min(y for _, y in self.cells))

    def mask(self, width: int, height: int) -> BoolGrid:
        """An H x W boolean array, True on its cells."""
        grid = np.zeros((height, width), dtype=bool)
        for x, y in self.cells:
            grid[y, x] = True
        return grid


def _glyph_scores(closed: BoolGrid) -> tuple[npt.NDArray[np.int_], BoolGrid]:
    """Per top-left corner of the 7x5 block: how many of the glyph's 18 cells are closed, and
    whether the block matches it exactly (its 17 other cells not closed, so a solid block of
    closed cells holds no glyph)."""
    height, width = closed.shape
    rows, cols = max(height - BLOCK_HEIGHT + 1, 0), max(width - BLOCK_WIDTH + 1, 0)
    count = np.zeros((rows, cols), dtype=np.int_)
    match = np.ones((rows, cols), dtype=bool)
    for dy in range(BLOCK_HEIGHT):
        for dx in range(BLOCK_WIDTH):
            window = closed[dy : dy + rows, dx : dx + cols]
            if _GLYPH[dy, dx]:
                count += window
                match &= window
            else:
                match &= ~window
    return count, match


def _best(corners: list[Cell], width: int, height: int) -> Cell:
    """mazekit's own place when it is among ``corners``, else the first in reading order."""
    own = origin(width, height)
    return own if own in corners else corners[0]


def nearest(walls: npt.NDArray[np.uint8]) -> Cell | None:
    """The corner of the glyph's placement with the most closed cells, when more than half
    of its 18 are (a "42" drawn with a few cells left open), else None."""
    count, _ = _glyph_scores(np.asarray(walls == ALL_WALLS))
    if not count.size or 2 * int(count.max()) <= len(cells_at((0, 0))):
        return None
    top = [(int(x), int(y)) for y, x in np.argwhere(count == count.max())]
    return _best(top, walls.shape[1], walls.shape[0])


# The fewest cells of a "4" (bar of 3, arm of 1, stem of 2 below) and the smallest box of one.
_FEWEST = 7
_Box = tuple[int, int, BoolGrid]  # left column, top row, the group's cells in its box


def _boxes(closed: BoolGrid, groups: npt.NDArray[np.int32]) -> list[_Box]:
    """The groups of closed cells big enough to be a digit, each as its box, in reading order
    of their boxes' corners; counted and bounded in whole-array steps, so a grid of
    many closed cells costs no loop per cell."""
    ys, xs = np.nonzero(closed)
    if not ys.size:
        return []
    labels, inverse, sizes = np.unique(groups[ys, xs], return_inverse=True, return_counts=True)
    edges = []
    for reduce, values, start in (
        (np.minimum, xs, closed.shape[1]),
        (np.maximum, xs, -1),
        (np.minimum, ys, closed.shape[0]),
        (np.maximum, ys, -1),
    ):
        edge = np.full(labels.size, start, dtype=np.int64)
        reduce.at(edge, inverse, values)
        edges.append(edge)
    left, right, top, bottom = edges
    big = (sizes >= _FEWEST) & (right - left >= 2) & (bottom - top >= 3)
    found = []
    for i in np.flatnonzero(big):
        window = (slice(int(top[i]), int(bottom[i]) + 1), slice(int(left[i]), int(right[i]) + 1))
        mask = closed[window] & (groups[window] == labels[i])
        found.append((int(left[i]), int(top[i]), mask))
    return sorted(found, key=lambda box: (box[1], box[0]))


def _full_runs(mask: BoolGrid) -> list[tuple[int, int]]:
    """The runs of consecutive rows that are closed across the whole box, as (first, last)."""
    runs: list[tuple[int, int]] = []
    for row in np.flatnonzero(mask.all(axis=1)):
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], int(row))
        else:
            runs.append((int(row), int(row)))
    return runs


def _is_four(mask: BoolGrid) -> bool:
    """A "4": one bar across the box, not at its top or bottom; above it the left arm (the
    box's left column), below it the stem alone (never the left column)."""
    height, width = mask.shape
    runs = _full_runs(mask)
    if width < 3 or height < 4 or len(runs) != 1:
        return False
    first, last = runs[0]
    if first == 0 or last == height - 1:
        return False
    return bool(mask[:first, 0].all() and not mask[last + 1 :, 0].any())


def _is_two(mask: BoolGrid) -> bool:
    """A "2": three bars across the box (top, middle, bottom); between the first two only
    the right side, between the last two only the left side."""
    height, width = mask.shape
    runs = _full_runs(mask)
    if width < 3 or height < 5 or len(runs) != 3:
        return False
    (_, top), (middle, lower), (bottom, last) = runs
    if runs[0][0] != 0 or last != height - 1 or middle == top + 1 or bottom == lower + 1:
        return False
    upper, below = mask[top + 1 : middle], mask[lower + 1 : bottom]
    right_only = upper[:, -1].all() and not upper[:, 0].any()
    return bool(right_only and below[:, 0].all() and not below[:, -1].any())


def _side_by_side(four: _Box, two: _Box) -> bool:
    """The "2" begins right of the "4", a few columns away, and their rows mostly overlap."""
    (x4, y4, m4), (x2, y2, m2) = four, two
    gap = x2 - (x4 + m4.shape[1])
    overlap = min(y4 + m4.shape[0], y2 + m2.shape[0]) - max(y4, y2)
    return bool(0 <= gap <= max(m4.shape[1], m2.shape[1])) and 2 * overlap >= min(
        m4.shape[0], m2.shape[0]
    )


def find(walls: npt.NDArray[np.uint8], groups: npt.NDArray[np.int32]) -> Found | None:
    """The "42" drawn in fully closed cells of ``walls``, or None (specs/rules.md, pattern).

    First the subject's glyph at any offset (mazekit's own place first, then reading order);
    else a "4" and a "2", two separate groups of closed cells side by side. ``groups`` labels
    the closed cells by the groups they form (search.closed_groups; analysis.find_42 passes it).
    """
    closed = np.asarray(walls == ALL_WALLS)
    height, width = closed.shape
    corners = [(int(x), int(y)) for y, x in np.argwhere(_glyph_scores(closed)[1])]
    if corners:
        return Found(cells_at(_best(corners, width, height)), subject=True)
    boxes = _boxes(closed, groups)
    fours = [box for box in boxes if _is_four(box[2])]
    twos = [box for box in boxes if _is_two(box[2])]
    for four in fours:
        for two in twos:
            if _side_by_side(four, two):
                cells = [
                    (left + int(x), top + int(y))
                    for left, top, mask in (four, two)
                    for y, x in np.argwhere(mask)
                ]
                return Found(tuple(sorted(cells, key=lambda cell: (cell[1], cell[0]))), False)
    return None
