"""SVG pictures, written as text: the same rectangles the PNG paints, as few elements as may be.

One ``<path>`` per ink: a square per coloured cell, one rectangle per run of consecutive
closed walls on a wall line (posts included), and the path as one stroked subpath per
straight run, whose square caps cover exactly the cells and bridges the PNG paints.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .scene import Geometry, Scene
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


def _wall_path(scene: Scene) -> str:
    """Rectangles for every run of closed walls, horizontal lines first."""
    g = scene.geometry
    cell, wall, margin = g.cell, g.wall, g.margin
    parts: list[str] = []
    for line, first, last in zip(*_runs(scene.h_walls), strict=True):
        x, y, length = margin + first * cell, margin + line * cell, (last - first + 1) * cell + wall
        parts.append(f"M{x} {y}h{length}v{wall}h-{length}z")
    for line, first, last in zip(*_runs(scene.v_walls.T), strict=True):
        x, y, length = margin + line * cell, margin + first * cell, (last - first + 1) * cell + wall
        parts.append(f"M{x} {y}h{wall}v{length}h-{wall}z")
    return "".join(parts)


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
    walls = _wall_path(scene)
    if walls:
        lines.append(f'<path fill="{hex_color(palette[Ink.WALL])}" d="{walls}"/>')
    if scene.path_x.size:
        lines.append(
            f'<path fill="none" stroke="{hex_color(palette[Ink.PATH])}" '
            f'stroke-width="{g.path_width}" stroke-linecap="square" d="{_path_path(scene)}"/>'
        )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
