"""Flood: random walls, then flood fills that open one wall at a time (specs/generate.md).

Steps:
1. Open each wall between two carvable cells with probability 1/2 (the random walls).
2. Close one random inner wall of every 3x3 block that came out fully open, in reading order,
   so that no open area is left (random walls alone leave some).
3. Flood-fill from the entry through open walls: the reachable region. Every closed wall from
   the region to an unreachable carvable cell is a candidate.
4. While candidates remain: take a random one of the last WINDOW listed; if its far cell is
   still unreachable, open it and flood on from that cell, adding the new region's
   candidates. Stop when none remain: every carvable cell is then reachable.

Flooding the whole grid again after each opened wall would be quadratic; here the region
only grows, each cell is flooded once and adds at most four candidates, so the run is linear.
Taking the candidates among the last WINDOW listed keeps the work near the regions flooded
last (in cache at any size); a grid of up to about 140x140 never lists more, and there every
candidate is equally likely.
Opening a wall between two separate regions never completes a 3x3 open block (the block's
other walls would already join them), so step 4 keeps the result free of open areas. The
random walls leave loops: flood makes imperfect mazes only.
"""

from __future__ import annotations

import random

import numpy as np

from ..kernels import load
from ..model import EAST, NORTH, SOUTH, WEST
from ..rng import floats, pop_random
from ..search import passages
from .grid import Grid

__all__ = ["PERFECT", "carve"]

PERFECT = False

# Step 4 takes its candidate among the last WINDOW listed (FLOOD_WINDOW in src/c/braid.c).
WINDOW = 1 << 14

# The whole carve compiled (src/c/braid.c, with the braiding loops), or None.
_KERNEL = load("braid")


def _random_walls(grid: Grid, rng: random.Random) -> None:
    """Step 1: open each inner wall between carvable cells with probability 1/2."""
    codes = grid.inner_walls()
    draws = floats(rng, codes.size)
    opened = codes[draws < 0.5]
    frame = np.frombuffer(grid.walls, dtype=np.uint8)  # a writable view of the bytearray
    east = opened[(opened & 1) == 0] >> 1
    south = opened[(opened & 1) == 1] >> 1
    frame[east] &= np.uint8(~EAST & 15)
    frame[east + 1] &= np.uint8(~WEST & 15)
    frame[south] &= np.uint8(~SOUTH & 15)
    frame[south + grid.stride] &= np.uint8(~NORTH & 15)


def _break_open_areas(grid: Grid, rng: random.Random) -> None:
    """Step 2: close one random inner wall of each fully open 3x3 block, in reading order."""
    east, south = passages(grid.array())
    if east.shape[0] < 3 or south.shape[1] < 3:
        return
    rows = east[:, :-1] & east[:, 1:]
    cols = south[:-1, :] & south[1:, :]
    blocks = rows[:-2] & rows[1:-1] & rows[2:] & cols[:, :-2] & cols[:, 1:-1] & cols[:, 2:]
    stride = grid.stride
    # the 12 inner walls of a block, as (offset of the cell from the block's top-left, direction)
    inner = [(r * stride + c, 1) for r in range(3) for c in range(2)]
    inner += [(r * stride + c, 2) for r in range(2) for c in range(3)]
    walls = grid.walls
    for y, x in zip(*np.nonzero(blocks), strict=True):
        top_left = grid.index(int(x), int(y))
        still_open = all(not walls[top_left + at] & (EAST if d == 1 else SOUTH) for at, d in inner)
        if still_open:
            at, d = inner[int(rng.random() * len(inner))]
            offset = grid.moves[d][0]
            cell = top_left + at
            walls[cell] |= EAST if d == 1 else SOUTH
            walls[cell + offset] |= WEST if d == 1 else NORTH


def carve(grid: Grid, rng: random.Random) -> None:
    """Carve a connected maze with loops by random walls and incremental flood fill."""
    if _KERNEL is not None:  # steps 1 to 4 compiled, drawing the same numbers in order
        _KERNEL.flood_carve(grid.walls, grid.blocked, grid.stride, grid.entry, rng)
        return
    _random_walls(grid, rng)
    _break_open_areas(grid, rng)
    walls = grid.walls
    moves = grid.moves
    bits = (1, 2, 4, 8)
    seen = bytearray(grid.blocked)  # blocked cells count as seen: never flooded
    candidates: list[int] = []  # cell * 4 + direction: a closed wall out of the region
    rand = rng.random

    def flood(start: int) -> None:
        seen[start] = 1
        queue = [start]
        for cell in queue:
            here = walls[cell]
            for direction in range(4):
                near = cell + moves[direction][0]
                if seen[near]:
                    continue
                if here & bits[direction]:
                    candidates.append(cell * 4 + direction)
                else:
                    seen[near] = 1
                    queue.append(near)

    flood(grid.entry)
    while candidates:
        code = pop_random(candidates, rand, WINDOW)
        cell, direction = divmod(code, 4)
        offset, mine, theirs = moves[direction]
        if seen[cell + offset]:
            continue
        walls[cell] &= mine
        walls[cell + offset] &= theirs
        flood(cell + offset)
