"""The pacman theme's sprites: where they stand on a maze, and their pixels in one cell.

Where (specs/pacman.md): a dot on every reachable open cell, an energizer on each corner
instead, a ghost by each corner (its home), the player on the centre cell. What: a small
image per sprite, the size of a cell's inside, of Ink values (0 = transparent), made from
discs and boxes measured from the cell's centre, so every cell size gets the same shapes.
PNG paints these arrays and SVG writes their runs of pixels, so both draw the same pixels.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..board import centre, corners
from ..model import ALL_WALLS, EAST, NORTH, SOUTH, WEST, Cell, Maze
from ..search import open_bits, reachable_mask
from .theme import Ink

__all__ = ["GHOSTS", "SPRITES", "board_sprites", "ghost_cells", "stamp"]

Stamp = npt.NDArray[np.uint8]

# The ghost of each corner, in the order of mazekit.board.CORNER_NAMES: each one's scatter
# target lies outside the maze beyond its corner (specs/pacman.md).
GHOSTS: tuple[Ink, ...] = (Ink.GHOST_PINK, Ink.GHOST_RED, Ink.GHOST_ORANGE, Ink.GHOST_CYAN)
# The sprites a cell may hold, in the order they are placed (a later one takes the cell).
SPRITES: tuple[Ink, ...] = (Ink.DOT, Ink.ENERGIZER, *GHOSTS, Ink.PLAYER)


def ghost_cells(maze: Maze) -> tuple[Cell, ...]:
    """Where each corner's ghost stands: the corner's first open neighbour, the one along the
    north or south border first; when the corner has none, its grid neighbour along that
    border (or the corner itself on a grid one cell wide)."""
    width, height = maze.width, maze.height
    moves = open_bits(maze.walls)
    found: list[Cell] = []
    for x, y in corners(width, height):
        step_x = (1 if x == 0 else -1, 0, EAST if x == 0 else WEST)
        step_y = (0, 1 if y == 0 else -1, SOUTH if y == 0 else NORTH)
        chosen: Cell | None = None
        for dx, dy, bit in (step_x, step_y):
            if moves[y, x] & bit:
                chosen = (x + dx, y + dy)
                break
        if chosen is None:
            inside = [
                (x + dx, y + dy)
                for dx, dy, _ in (step_x, step_y)
                if maze.contains((x + dx, y + dy))
            ]
            chosen = inside[0] if inside else (x, y)
        found.append(chosen)
    return tuple(found)


def board_sprites(maze: Maze) -> npt.NDArray[np.uint8]:
    """An H x W array of the sprite Ink on each cell (0: none); the entry must be inside."""
    width, height = maze.width, maze.height
    sprites = np.zeros((height, width), dtype=np.uint8)
    dots = reachable_mask(maze.walls, maze.entry) & (maze.walls != ALL_WALLS)
    sprites[dots] = Ink.DOT
    for x, y in corners(width, height):
        if dots[y, x]:
            sprites[y, x] = Ink.ENERGIZER
    for ink, (x, y) in zip(GHOSTS, ghost_cells(maze), strict=True):
        sprites[y, x] = ink
    x, y = centre(width, height)
    sprites[y, x] = Ink.PLAYER
    return sprites


def _grid(side: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Pixel-centre offsets from the middle of a ``side`` px square: (dx, dy) arrays."""
    middle = (side - 1) / 2
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float64)
    return xs - middle, ys - middle


def _disc(side: int, radius: float) -> npt.NDArray[np.bool_]:
    dx, dy = _grid(side)
    return np.asarray(dx * dx + dy * dy <= radius * radius)


@lru_cache(maxsize=64)
def stamp(sprite: Ink, side: int) -> Stamp:
    """The pixels of ``sprite`` in a ``side`` x ``side`` cell inside: Ink values, 0 = none."""
    image = np.zeros((side, side), dtype=np.uint8)
    dx, dy = _grid(side)
    if sprite == Ink.DOT:
        image[_disc(side, max(0.75, side * 0.1))] = Ink.DOT
    elif sprite == Ink.ENERGIZER:
        image[_disc(side, max(0.75, side * 0.33))] = Ink.ENERGIZER
    elif sprite == Ink.PLAYER:
        mouth = (dx > 0) & (np.abs(dy) < dx * 0.75)  # a wedge open to the east
        image[_disc(side, max(0.75, side * 0.45)) & ~mouth] = Ink.PLAYER
    elif sprite in GHOSTS:
        radius = max(0.75, side * 0.45)
        head = _disc(side, radius) & (dy <= 0)
        body = (np.abs(dx) <= radius) & (dy > 0) & (dy <= radius)
        # a skirt of four scallops along the bottom row band
        band = dy > radius - max(1.0, side / 8)
        scallop = np.floor((dx + radius) / (2 * radius / 4)).astype(np.int64) % 2 == 1
        image[head | (body & ~(band & scallop))] = sprite
        eye = max(1, round(side / 6))
        top = max(0, round((side - 1) / 2 - radius * 0.45))
        for centre_x in ((side - 1) / 2 - radius * 0.42, (side - 1) / 2 + radius * 0.42):
            left = max(0, round(centre_x - eye / 2))
            image[top : top + eye, left : left + eye] = Ink.EYES
            if eye >= 2:
                pupil = eye // 2
                image[top + eye - pupil : top + eye, left + eye - pupil : left + eye] = Ink.PUPIL
    else:
        raise ValueError(f"{sprite!r} is not a sprite")
    image.flags.writeable = False  # cached and shared: nobody may paint on it
    return image
