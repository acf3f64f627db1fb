"""SVG pictures, written as text: the same rectangles the PNG paints, as few elements as may be.

One ``<path>`` per ink: a square per coloured cell, one rectangle per run of consecutive
closed walls on a wall line (posts included), and the path as one stroked subpath per
straight run, whose square caps cover exactly the cells and bridges the PNG paints. A board
(pacman theme) adds its double-line walls as grown rectangles under the wall bands, and its
sprites as one rectangle per run of pixels of their stamps.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .scene import Geometry, Scene, glyph_joints
from .theme import Ink, hex_color

__all__ = ["render_svg"]


def _runs(lines: npt.NDArray[np.bool_]) -> tuple[list[int], list[int], list[int]]:
    """Runs of True along each row of ``lines``: (row, first index, last index) lists."""
    padded = np.zeros((lines.shape[0], lines.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = lines
    change = np.diff(padded, axis=1)
    start_row, start = np.nonzero(change == 1)
    _, stop = np.nonzero(change == -1)
    return start_row.tolist(), start.tolist(), (stop - 1).tolist()


Box = tuple[int, int, int, int]  # x, y, width, height in pixels


def _wall_boxes(scene: Scene) -> list[Box]:
    """Rectangles for every run of closed walls, horizontal lines first."""
    g = scene.geometry
    cell, wall, margin = g.cell, g.wall, g.margin
    boxes: list[Box] = []
    for line, first, last in zip(*_runs(scene.h_walls), strict=True):
        x, y, length = margin + first * cell, margin + line * cell, (last - first + 1) * cell + wall
        boxes.append((x, y, length, wall))
    for line, first, last in zip(*_runs(scene.v_walls.T), strict=True):
        x, y, length = margin + line * cell, margin + first * cell, (last - first + 1) * cell + wall
        boxes.append((x, y, wall, length))
    return boxes


def _boxes_path(boxes: list[Box]) -> str:
    return "".join(f"M{x} {y}h{w}v{h}h-{w}z" for x, y, w, h in boxes)


def _glyph_boxes(scene: Scene) -> list[Box]:
    """The "42" of a board as one shape: its cells' insides and the walls and posts between."""
    g = scene.geometry
    cell, wall, margin, side = g.cell, g.wall, g.margin, g.cell - g.wall
    vertical, horizontal, posts = glyph_joints(scene.cells)
    boxes: list[Box] = []
    for y, x in np.argwhere(scene.cells == Ink.PATTERN).tolist():
        boxes.append((margin + x * cell + wall, margin + y * cell + wall, side, side))
    for y, x in np.argwhere(vertical).tolist():  # the wall line west of column x + 1
        boxes.append((margin + (x + 1) * cell, margin + y * cell + wall, wall, side))
    for y, x in np.argwhere(horizontal).tolist():  # the wall line north of row y + 1
        boxes.append((margin + x * cell + wall, margin + (y + 1) * cell, side, wall))
    for y, x in np.argwhere(posts).tolist():
        boxes.append((margin + (x + 1) * cell, margin + (y + 1) * cell, wall, wall))
    return boxes


def _grown(boxes: list[Box], by: int, width: int, height: int) -> list[Box]:
    """Each box grown by ``by`` px on every side, clipped to the image."""
    grown: list[Box] = []
    for x, y, w, h in boxes:
        left, top = max(0, x - by), max(0, y - by)
        right, bottom = min(width, x + w + by), min(height, y + h + by)
        grown.append((left, top, right - left, bottom - top))
    return grown


def _sprite_paths(scene: Scene) -> dict[Ink, list[str]]:
    """Per ink, one rectangle per run of that ink in each row of each sprite's stamp."""
    from .sprites import SPRITES, stamp

    assert scene.sprites is not None  # the caller checked
    g = scene.geometry
    side = g.cell - g.wall
    first = g.margin + g.wall
    paths: dict[Ink, list[str]] = {}
    for sprite in SPRITES:
        cells = np.argwhere(scene.sprites == sprite).tolist()
        if not cells:
            continue
        picture = stamp(sprite, side)
        for ink in np.unique(picture[picture != 0]).tolist():
            rows, starts, ends = _runs(picture == ink)
            runs = list(zip(rows, starts, ends, strict=True))
            parts = paths.setdefault(Ink(ink), [])
            for y, x in cells:
                left, top = first + x * g.cell, first + y * g.cell
                parts.extend(
                    f"M{left + start} {top + row}h{end - start + 1}v1h-{end - start + 1}z"
                    for row, start, end in runs
                )
    return paths


def _cell_path(geometry: Geometry, mask: npt.NDArray[np.bool_]) -> str:
    """A square over the inside of every cell of ``mask``."""
    cell, side = geometry.cell, geometry.cell - geometry.wall
    first = geometry.margin + geometry.wall
    ys, xs = np.nonzero(mask)
    return "".join(
        f"M{first + x * cell} {first + y * cell}h{side}v{side}h-{side}z"
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
    )


def _number(value: float) -> str:
    """A coordinate without a useless ``.0``."""
    return str(int(value)) if value == int(value) else str(value)


def _path_path(scene: Scene) -> str:
    """One subpath per straight run of the path, through the middle of the path band."""
    g = scene.geometry
    centre = g.margin + g.path_offset + g.path_width / 2
    xs, ys = scene.path_x.tolist(), scene.path_y.tolist()
    parts: list[str] = []
    run_start = 0
    for index in range(1, len(xs)):
        last = index == len(xs) - 1
        turns = not last and (xs[index + 1] - xs[index], ys[index + 1] - ys[index]) != (
            xs[index] - xs[index - 1],
            ys[index] - ys[index - 1],
        )
        if last or turns:
            x0, y0 = centre + xs[run_start] * g.cell, centre + ys[run_start] * g.cell
            if ys[index] == ys[run_start]:
                parts.append(f"M{_number(x0)} {_number(y0)}H{_number(centre + xs[index] * g.cell)}")
            else:
                parts.append(f"M{_number(x0)} {_number(y0)}V{_number(centre + ys[index] * g.cell)}")
            run_start = index
    return "".join(parts)


def render_svg(scene: Scene) -> str:
    """The SVG document of ``scene``, painted in the PNG's order; same options, same text."""
    g = scene.geometry
    palette = scene.palette
    background = hex_color(palette[Ink.BACKGROUND])
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{g.width}" '
        f'height="{g.height}" viewBox="0 0 {g.width} {g.height}" shape-rendering="crispEdges">',
        f"<title>{g.columns}x{g.rows} maze</title>",
        f'<rect width="{g.width}" height="{g.height}" fill="{background}"/>',
    ]
    used = np.bincount(scene.cells.ravel(), minlength=len(Ink))
    for ink in Ink:
        if ink != Ink.BACKGROUND and used[ink]:
            data = _cell_path(g, scene.cells == ink)
            lines.append(f'<path fill="{hex_color(palette[ink])}" d="{data}"/>')
    walls = _wall_boxes(scene)
    if scene.outline:
        # double lines: the walls and the "42" grown by the line width in the wall ink, then
        # the walls themselves in the background ink, and the "42" again on top
        glyph = _glyph_boxes(scene)
        edges = _grown(walls + glyph, scene.outline, g.width, g.height)
        for ink, boxes in ((Ink.WALL, edges), (Ink.BACKGROUND, walls), (Ink.PATTERN, glyph)):
            if boxes:
                lines.append(f'<path fill="{hex_color(palette[ink])}" d="{_boxes_path(boxes)}"/>')
    elif walls:
        lines.append(f'<path fill="{hex_color(palette[Ink.WALL])}" d="{_boxes_path(walls)}"/>')
    if scene.path_x.size:
        lines.append(
            f'<path fill="none" stroke="{hex_color(palette[Ink.PATH])}" '
            f'stroke-width="{g.path_width}" stroke-linecap="square" d="{_path_path(scene)}"/>'
        )
    if scene.sprites is not None:
        for ink, parts in sorted(_sprite_paths(scene).items()):
            lines.append(f'<path fill="{hex_color(palette[ink])}" d="{"".join(parts)}"/>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
