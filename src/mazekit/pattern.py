"""The "42": its glyph, where it sits on a W x H grid, and whether it fits.

specs/rules.md defines it: a 7x5 block centred at ((W-7)//2, (H-5)//2), 18 fully closed
cells, present only when W >= 9 and H >= 7 (one corridor cell between block and border).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .model import Cell

__all__ = [
    "BLOCK_HEIGHT",
    "BLOCK_WIDTH",
    "GLYPHS",
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "TOO_SMALL_MESSAGE",
    "fits",
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
