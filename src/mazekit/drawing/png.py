"""PNG pictures: the Scene painted into a numpy array of palette indices, encoded by Pillow.

Painting works on whole rows and columns at once. The canvas, (H + 1) cells by (W + 1)
cells, is viewed as an (H + 1, cell, W + 1, cell) array, so that "the wall band of every
closed wall", "the inside of every cell" or "the path band of every path cell" are each one
broadcast assignment, whatever the maze's size. Pillow is imported only to encode.
"""

from __future__ import annotations

import io

import numpy as np
import numpy.typing as npt

from .scene import Scene, check_size
from .theme import Ink

__all__ = ["rasterize", "render_png"]

Pixels = npt.NDArray[np.uint8]


def _paint(target: Pixels, ink: Ink, where: npt.NDArray[np.bool_]) -> None:
    """Set ``target`` to ``ink`` where the per-cell mask ``where`` (broadcast) is True."""
    np.copyto(target, np.uint8(ink), where=where[:, None, :, None])


def rasterize(scene: Scene) -> Pixels:
    """The picture as an image-sized array of Ink values (height x width, uint8)."""
    geometry = scene.geometry
    check_size(geometry)
    rows, columns = geometry.rows, geometry.columns
    cell, wall = geometry.cell, geometry.wall
    canvas = np.zeros(((rows + 1) * cell, (columns + 1) * cell), dtype=np.uint8)
    grid = canvas.reshape(rows + 1, cell, columns + 1, cell)  # a view: [row, dy, column, dx]

    # Cell insides, then wall bands between posts, then the posts any closed wall touches.
    inside = grid[:rows, wall:, :columns, wall:]
    inside[...] = scene.cells[:, None, :, None]
    h_walls, v_walls = scene.h_walls, scene.v_walls
    _paint(grid[:, :wall, :columns, wall:], Ink.WALL, h_walls)
    _paint(grid[:rows, wall:, :, :wall], Ink.WALL, v_walls)
    posts = np.zeros((rows + 1, columns + 1), dtype=bool)
    posts[:, :-1] |= h_walls
    posts[:, 1:] |= h_walls
    posts[:-1, :] |= v_walls
    posts[1:, :] |= v_walls
    _paint(grid[:, :wall, :, :wall], Ink.WALL, posts)

    if scene.path_x.size:
        _paint_path(scene, grid)

    image = np.full((geometry.height, geometry.width), np.uint8(Ink.BACKGROUND), dtype=np.uint8)
    margin = geometry.margin
    used_h, used_w = rows * cell + wall, columns * cell + wall
    image[margin : margin + used_h, margin : margin + used_w] = canvas[:used_h, :used_w]
    return image


def _paint_path(scene: Scene, grid: Pixels) -> None:
    """The path band: a square in each path cell and a bridge for each step between two."""
    geometry = scene.geometry
    rows, columns = geometry.rows, geometry.columns
    start, end = geometry.path_offset, geometry.path_offset + geometry.path_width
    xs, ys = scene.path_x, scene.path_y
    on_path = np.zeros((rows, columns), dtype=bool)
    on_path[ys, xs] = True
    _paint(grid[:rows, start:end, :columns, start:end], Ink.PATH, on_path)
    # A step joins cell (min x, y) to its east or south neighbour; N and W steps are E and S
    # seen from the other side.
    east = np.zeros((rows, columns), dtype=bool)
    south = np.zeros((rows, columns), dtype=bool)
    horizontal = ys[1:] == ys[:-1]
    east[ys[1:][horizontal], np.minimum(xs[1:], xs[:-1])[horizontal]] = True
    vertical = ~horizontal
    south[np.minimum(ys[1:], ys[:-1])[vertical], xs[1:][vertical]] = True
    east, south = east[:, :-1], south[:-1, :]
    _paint(grid[:rows, start:end, : columns - 1, end:], Ink.PATH, east)
    _paint(grid[:rows, start:end, 1:columns, :start], Ink.PATH, east)
    _paint(grid[: rows - 1, end:, :columns, start:end], Ink.PATH, south)
    _paint(grid[1:rows, :start, :columns, start:end], Ink.PATH, south)


class _PngBuffer(io.BytesIO):
    """An in-memory file named like a PNG: Pillow then loads its PNG plugin and no other."""

    name = "picture.png"


def render_png(scene: Scene) -> bytes:
    """The PNG file of ``scene``: 8-bit palette, no metadata, so the bytes are reproducible."""
    from PIL import Image  # only here: no other command pays for importing Pillow

    pixels = rasterize(scene)
    image = Image.frombuffer("P", (pixels.shape[1], pixels.shape[0]), pixels, "raw", "P", 0, 1)
    image.putpalette([channel for rgb in scene.palette for channel in rgb])
    buffer = _PngBuffer()
    image.save(buffer, compress_level=6)  # format from the name: saves ~20 ms of imports
    return buffer.getvalue()
