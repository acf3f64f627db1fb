"""SVG pictures, written as text: the same rectangles the PNG paints, as few elements as may be.

One ``<path>`` per ink: a square per coloured cell, one rectangle per run of consecutive
closed walls on a wall line (posts included), and the path as one stroked subpath per
straight run, whose square caps cover exactly the cells and bridges the PNG paints. A board
(pacman theme) adds its double-line walls as grown rectangles under the wall bands, and its
sprites as one rectangle per run of pixels of their stamps.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import numpy.typing as npt

from ..kernels import load
from .scene import Geometry, Scene, glyph_joints
from .theme import Ink, hex_color

__all__ = ["render_svg", "svg_chunks"]

# The compiled text writer (mazekit._cmeasures, src/c/measures.c): the path data of many
# rectangles or path runs in one call, the same characters as the Python below.
_KERNEL = load("measures")

Numbers = npt.NDArray[np.int64]


def _runs(lines: npt.NDArray[np.bool_]) -> tuple[Numbers, Numbers, Numbers]:
    """Runs of True along each row of ``lines``: (row, first index, last index) arrays."""
    padded = np.zeros((lines.shape[0], lines.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = lines
    change = np.diff(padded, axis=1)
    start_row, start = np.nonzero(change == 1)
    _, stop = np.nonzero(change == -1)
    return start_row.astype(np.int64), start.astype(np.int64), (stop - 1).astype(np.int64)


# Rectangles in pixels, as x, y, width and height arrays: a numpy row per rectangle keeps a
# large maze's half a million wall runs out of Python tuples.
Boxes = tuple[Numbers, Numbers, Numbers, Numbers]


def _boxes(x: npt.ArrayLike, y: npt.ArrayLike, w: npt.ArrayLike, h: npt.ArrayLike) -> Boxes:
    """Boxes from four columns (arrays, lists or numbers broadcast to one length)."""
    columns = np.broadcast_arrays(*(np.asarray(c, dtype=np.int64) for c in (x, y, w, h)))
    x_, y_, w_, h_ = (np.ascontiguousarray(c, dtype=np.int64).ravel() for c in columns)
    return x_, y_, w_, h_


# Wall lines (or cell rows, or path runs) turned into text at a time: what the SVG holds in
# memory besides the Scene, however large the maze (specs/errors.md: 150 bytes per cell).
BLOCK = 16
PATH_BLOCK = 1 << 16  # path steps: their text is about 20 characters a run


def _wall_boxes(scene: Scene) -> Iterator[Boxes]:
    """Rectangles for every run of closed walls, horizontal lines first, a block of lines at
    a time."""
    g = scene.geometry
    cell, wall, margin = g.cell, g.wall, g.margin
    for top in range(0, scene.h_walls.shape[0], BLOCK):
        lines, firsts, lasts = _runs(scene.h_walls[top : top + BLOCK])
        yield _boxes(
            margin + firsts * cell,
            margin + (top + lines) * cell,
            (lasts - firsts + 1) * cell + wall,
            wall,
        )
    columns = scene.v_walls.T
    for left in range(0, columns.shape[0], BLOCK):
        lines, firsts, lasts = _runs(columns[left : left + BLOCK])
        yield _boxes(
            margin + (left + lines) * cell,
            margin + firsts * cell,
            wall,
            (lasts - firsts + 1) * cell + wall,
        )


def _boxes_path(boxes: Boxes) -> str:
    """The path data of the rectangles: ``M{x} {y}h{w}v{h}h-{w}z`` each."""
    if _KERNEL is not None:
        text: str = _KERNEL.svg_boxes(*boxes)
        return text
    columns = (column.tolist() for column in boxes)
    return "".join(f"M{x} {y}h{w}v{h}h-{w}z" for x, y, w, h in zip(*columns, strict=True))


def _glyph_boxes(scene: Scene) -> Boxes:
    """The "42" of a board as one shape: its cells' insides and the walls and posts between."""
    g = scene.geometry
    cell, wall, margin, side = g.cell, g.wall, g.margin, g.cell - g.wall
    vertical, horizontal, posts = glyph_joints(scene.cells)
    boxes: list[tuple[int, int, int, int]] = []
    for y, x in np.argwhere(scene.cells == Ink.PATTERN).tolist():
        boxes.append((margin + x * cell + wall, margin + y * cell + wall, side, side))
    for y, x in np.argwhere(vertical).tolist():  # the wall line west of column x + 1
        boxes.append((margin + (x + 1) * cell, margin + y * cell + wall, wall, side))
    for y, x in np.argwhere(horizontal).tolist():  # the wall line north of row y + 1
        boxes.append((margin + x * cell + wall, margin + (y + 1) * cell, side, wall))
    for y, x in np.argwhere(posts).tolist():
        boxes.append((margin + (x + 1) * cell, margin + (y + 1) * cell, wall, wall))
    table = np.array(boxes, dtype=np.int64).reshape(-1, 4)
    return _boxes(table[:, 0], table[:, 1], table[:, 2], table[:, 3])


def _grown(boxes: Boxes, by: int, width: int, height: int) -> Boxes:
    """Each box grown by ``by`` px on every side, clipped to the image."""
    x, y, w, h = boxes
    left, top = np.maximum(0, x - by), np.maximum(0, y - by)
    right, bottom = np.minimum(width, x + w + by), np.minimum(height, y + h + by)
    return left, top, right - left, bottom - top


def _sprite_paths(scene: Scene) -> Iterator[tuple[Ink, Iterator[str]]]:
    """Per ink (in Ink order), one rectangle per run of that ink in each row of each sprite's
    stamp, over every cell of that sprite; the text comes a block of rows at a time."""
    from .sprites import SPRITES, stamp

    assert scene.sprites is not None  # the caller checked
    sprites = scene.sprites
    side = scene.geometry.cell - scene.geometry.wall
    # sprite -> {ink: its runs in the stamp}, for the sprites the board shows
    runs: dict[Ink, dict[int, list[tuple[int, int, int]]]] = {}
    for sprite in SPRITES:
        if not (sprites == sprite).any():
            continue
        picture = stamp(sprite, side)
        runs[sprite] = {
            ink: list(zip(*(column.tolist() for column in _runs(picture == ink)), strict=True))
            for ink in np.unique(picture[picture != 0]).tolist()
        }
    inks = sorted({ink for by_ink in runs.values() for ink in by_ink})
    for ink in inks:
        yield Ink(ink), _sprite_ink_path(scene, ink, runs)


def _sprite_ink_path(
    scene: Scene, ink: int, runs: dict[Ink, dict[int, list[tuple[int, int, int]]]]
) -> Iterator[str]:
    """The path data of one ink over every sprite that has it, sprite by sprite."""
    assert scene.sprites is not None
    g = scene.geometry
    first = g.margin + g.wall
    for sprite, by_ink in runs.items():
        if ink not in by_ink:
            continue
        for top in range(0, scene.sprites.shape[0], BLOCK):
            ys, xs = np.nonzero(scene.sprites[top : top + BLOCK] == sprite)
            parts: list[str] = []
            for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
                left, upper = first + x * g.cell, first + (top + y) * g.cell
                parts.extend(
                    f"M{left + start} {upper + row}h{end - start + 1}v1h-{end - start + 1}z"
                    for row, start, end in by_ink[ink]
                )
            yield "".join(parts)


def _cell_path(geometry: Geometry, mask: npt.NDArray[np.bool_]) -> Iterator[str]:
    """A square over the inside of every cell of ``mask``, a block of rows at a time."""
    cell, side = geometry.cell, geometry.cell - geometry.wall
    first = geometry.margin + geometry.wall
    for top in range(0, mask.shape[0], BLOCK):
        ys, xs = np.nonzero(mask[top : top + BLOCK])
        yield _boxes_path(_boxes(first + xs * cell, first + (top + ys) * cell, side, side))


def _number(value: float) -> str:
    """A coordinate without a useless ``.0``."""
    return str(int(value)) if value == int(value) else str(value)


def _path_path(scene: Scene) -> Iterator[str]:
    """One subpath per straight run of the path, through the middle of the path band.

    A run ends where the path turns, and at its last cell. The turns are found with
    whole-array steps over a block of steps at a time, and written as they are found.
    """
    g = scene.geometry
    centre = g.margin + g.path_offset + g.path_width / 2
    xs, ys = scene.path_x, scene.path_y
    count = xs.size
    run_start = 0
    for low in range(1, count, PATH_BLOCK):
        high = min(count, low + PATH_BLOCK)
        # cell i (low <= i < high) ends a run when the step into it and the step out of it
        # differ; the last cell always ends one
        dx, dy = np.diff(xs[low - 1 : high + 1]), np.diff(ys[low - 1 : high + 1])
        ends = np.flatnonzero((dx[1:] != dx[:-1]) | (dy[1:] != dy[:-1])) + low
        if high == count:
            ends = np.append(ends, count - 1)
        if not ends.size:
            continue
        starts = np.empty_like(ends)
        starts[0] = run_start
        starts[1:] = ends[:-1]
        run_start = int(ends[-1])
        if _KERNEL is not None:  # doubled coordinates: the centre may be half a pixel
            twice = int(2 * centre)
            doubled = [
                twice + 2 * g.cell * side[at].astype(np.int64)
                for side in (xs, ys)
                for at in (starts, ends)
            ]
            yield _KERNEL.svg_runs(doubled[0], doubled[2], doubled[1], doubled[3])
            continue
        parts: list[str] = []
        for x0, y0, x1, y1 in zip(
            xs[starts].tolist(),
            ys[starts].tolist(),
            xs[ends].tolist(),
            ys[ends].tolist(),
            strict=True,
        ):
            head = f"M{_number(centre + x0 * g.cell)} {_number(centre + y0 * g.cell)}"
            if y1 == y0:
                parts.append(f"{head}H{_number(centre + x1 * g.cell)}")
            else:
                parts.append(f"{head}V{_number(centre + y1 * g.cell)}")
        yield "".join(parts)


def _element(attributes: str, data: Iterable[str]) -> Iterator[str]:
    """A ``<path>`` element whose ``d`` comes in pieces, then its line end."""
    yield f'<path {attributes} d="'
    yield from data
    yield '"/>\n'


def svg_chunks(scene: Scene) -> Iterator[str]:
    """The SVG document of ``scene`` in pieces, painted in the PNG's order: made as they are
    asked for, so a large maze is written without ever holding the whole document."""
    g = scene.geometry
    palette = scene.palette
    background = hex_color(palette[Ink.BACKGROUND])
    yield (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{g.width}" '
        f'height="{g.height}" viewBox="0 0 {g.width} {g.height}" shape-rendering="crispEdges">\n'
        f"<title>{g.columns}x{g.rows} maze</title>\n"
        f'<rect width="{g.width}" height="{g.height}" fill="{background}"/>\n'
    )
    used = np.bincount(scene.cells.ravel(), minlength=len(Ink))
    for ink in Ink:
        if ink != Ink.BACKGROUND and used[ink]:
            yield from _element(
                f'fill="{hex_color(palette[ink])}"', _cell_path(g, scene.cells == ink)
            )
    any_wall = bool(scene.h_walls.any() or scene.v_walls.any())
    if scene.outline:
        # double lines: the walls and the "42" grown by the line width in the wall ink, then
        # the walls themselves in the background ink, and the "42" again on top
        glyph = _glyph_boxes(scene)
        has_glyph = bool(glyph[0].size)
        if any_wall or has_glyph:
            edges = (
                _boxes_path(_grown(boxes, scene.outline, g.width, g.height))
                for boxes in (*_wall_boxes(scene), glyph)
            )
            yield from _element(f'fill="{hex_color(palette[Ink.WALL])}"', edges)
        if any_wall:
            walls = (_boxes_path(boxes) for boxes in _wall_boxes(scene))
            yield from _element(f'fill="{hex_color(palette[Ink.BACKGROUND])}"', walls)
        if has_glyph:
            yield from _element(f'fill="{hex_color(palette[Ink.PATTERN])}"', [_boxes_path(glyph)])
    elif any_wall:
        walls = (_boxes_path(boxes) for boxes in _wall_boxes(scene))
        yield from _element(f'fill="{hex_color(palette[Ink.WALL])}"', walls)
    if scene.path_x.size:
        yield from _element(
            f'fill="none" stroke="{hex_color(palette[Ink.PATH])}" '
            f'stroke-width="{g.path_width}" stroke-linecap="square"',
            _path_path(scene),
        )
    if scene.sprites is not None:
        for ink, data in _sprite_paths(scene):
            yield from _element(f'fill="{hex_color(palette[ink])}"', data)
    yield "</svg>\n"


def render_svg(scene: Scene) -> str:
    """The SVG document of ``scene``, painted in the PNG's order; same options, same text."""
    return "".join(svg_chunks(scene))
