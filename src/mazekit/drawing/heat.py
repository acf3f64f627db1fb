"""Heat pictures (``render --heat``): each reachable cell coloured by a number, with a legend.

specs/render.md ("Heat maps") defines them. Steps: compute the number per cell
(betweenness from mazekit.graph, or the breadth-first distance from the entry), scale it by
its maximum to 0..1, look the colour up in a perceptual colour map (a viridis-like table of 11
colours, interpolated), paint the insides of the reachable cells that show no other ink,
ring the top bottlenecks (betweenness), and add a legend bar under the maze. The normal
picture (walls, "42", entry, exit, path) is drawn by the usual renderers first.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from ..model import Cell, Maze
from .scene import Geometry, RenderOptions, Scene, build_scene, check_maze, check_size
from .theme import Ink, hex_color

__all__ = [
    "COLORMAP",
    "HEAT_KINDS",
    "MARKED",
    "Heat",
    "colors_for",
    "heat_bytes",
    "heat_chunks",
    "heat_for",
    "heat_png",
    "heat_svg",
]

HEAT_KINDS: tuple[str, ...] = ("betweenness", "distance")
MARKED = 5  # top bottlenecks ringed on a betweenness heat map

# viridis at 0.0, 0.1, ..., 1.0: dark purple to yellow, lightness rising evenly, readable in
# grey and by the common colour-blindnesses
COLORMAP: tuple[tuple[int, int, int], ...] = (
    (68, 1, 84),
    (72, 36, 117),
    (65, 68, 135),
    (53, 95, 141),
    (42, 120, 142),
    (33, 145, 140),
    (34, 168, 132),
    (68, 191, 112),
    (122, 209, 81),
    (189, 223, 38),
    (253, 231, 37),
)
_RING = (255, 255, 255)  # the ring of a marked bottleneck, edged in the wall ink
BAND_PIXELS = 1 << 20  # pixels of a PNG coloured at a time
SQUARES = 1 << 16  # cells of an SVG's heat written at a time


@dataclass(frozen=True)
class Heat:
    """The number per cell (NaN: not coloured), its maximum, a title, and the cells to ring."""

    values: npt.NDArray[np.float64]
    title: str
    high: str
    marked: tuple[Cell, ...]

    @property
    def scaled(self) -> npt.NDArray[np.float64]:
        """Values over their maximum, 0..1 (all 0 when the maximum is 0); NaN stays."""
        top = float(np.nanmax(self.values)) if np.isfinite(self.values).any() else 0.0
        return self.values / top if top > 0 else np.where(np.isnan(self.values), np.nan, 0.0)


def colors_for(fractions: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The colour-map colour (N x 3, uint8) of each fraction in 0..1."""
    where = np.clip(np.asarray(fractions, dtype=np.float64), 0.0, 1.0) * (len(COLORMAP) - 1)
    table = np.asarray(COLORMAP, dtype=np.float64)
    stops = np.arange(len(COLORMAP), dtype=np.float64)
    colors = np.empty((*where.shape, 3), dtype=np.uint8)
    for c in range(3):  # a channel at a time: a float array per cell at most, not six
        colors[..., c] = np.rint(np.interp(where, stops, table[:, c]))
    return colors


def heat_for(maze: Maze, kind: str) -> Heat:
    """The heat of ``maze``: ``betweenness`` (specs/stats.md) or ``distance`` from the entry."""
    if kind == "betweenness":
        from ..graph import betweenness

        found = betweenness(maze)
        values = np.where(found.reachable, found.cells, np.nan)
        cells = found.top_cells(MARKED)
        peak = cells[0][1] if cells else 0.0
        mark = "" if found.exact else "~"
        return Heat(values, "betweenness", f"{mark}{100 * peak:.2f}%", tuple(c for c, _ in cells))
    if kind == "distance":
        from ..search import distances

        if not maze.contains(maze.entry):
            return Heat(np.full(maze.walls.shape, np.nan), "distance from the entry", "0", ())
        dist = np.asarray(distances(maze.walls, maze.entry), dtype=np.float64)
        values = np.where(dist >= 0, dist, np.nan).reshape(maze.walls.shape)
        high = int(np.nanmax(values))
        return Heat(values, "distance from the entry", f"{high} step{'s' * (high != 1)}", ())
    raise ValueError(f"unknown heat {kind!r} (known: {', '.join(HEAT_KINDS)})")


_LINE = 14  # one line of the legend's labels, in px


def _legend_height(scene: Scene, heat: Heat) -> int:
    """Pixels the legend adds under the picture: a bar, a line of labels, and a line saying
    what the rings are when there are rings."""
    return _bar(scene) + _LINE * (2 if heat.marked else 1) + max(scene.geometry.margin, 4)


def _ringed(heat: Heat) -> str:
    """The legend's line about the rings: which cells they mark."""
    return f"ringed: the top {len(heat.marked)} cells"


def _text_ink(scene: Scene) -> tuple[int, int, int]:
    """The legend's text colour: black on a light background, white on a dark one (the pacman
    theme's blue walls are too dim on black to read small text)."""
    red, green, blue = scene.palette[Ink.BACKGROUND]
    light = 0.2126 * red + 0.7152 * green + 0.0722 * blue >= 128
    return (0, 0, 0) if light else (255, 255, 255)


def _bar(scene: Scene) -> int:
    """Height of the legend's colour bar."""
    return max(8, scene.geometry.cell // 2)


def _painted(scene: Scene, heat: Heat) -> npt.NDArray[np.bool_]:
    """Cells that take a heat colour: a value, and no ink of their own (entry, exit, "42")."""
    painted: npt.NDArray[np.bool_] = ~np.isnan(heat.values) & (scene.cells == Ink.BACKGROUND)
    return painted


def heat_png(scene: Scene, heat: Heat) -> bytes:
    """The PNG of ``scene`` with the heat painted in, the bottlenecks ringed, and a legend."""
    from PIL import Image, ImageDraw, ImageFont

    from .png import rasterize

    g = scene.geometry
    inks = rasterize(scene)
    palette = np.asarray(scene.palette, dtype=np.uint8)
    # per pixel its cell; a wall line's pixels belong to the cell east or south of the line,
    # so an open passage takes that cell's colour (closed walls keep the wall ink)
    offset_y = np.arange(g.height) - g.margin
    offset_x = np.arange(g.width) - g.margin
    row, col = offset_y // g.cell, offset_x // g.cell
    in_y = (row >= 0) & (row < g.rows)
    in_x = (col >= 0) & (col < g.columns)
    painted = _painted(scene, heat)
    colors = colors_for(np.nan_to_num(heat.scaled))
    rows, cols = np.clip(row, 0, g.rows - 1), np.clip(col, 0, g.columns - 1)
    image = Image.new("RGB", (g.width, g.height + _legend_height(scene, heat)), scene.palette[0])
    # a band of rows at a time: the RGB pixels and masks of the whole picture at once were
    # 200 bytes a cell at --cell 3 (specs/performance.md, "Generators and heat at 4000x4000")
    band = max(1, BAND_PIXELS // g.width)
    for top in range(0, g.height, band):
        band_inks = inks[top : top + band]
        rgb = palette[np.minimum(band_inks, len(palette) - 1)]
        at = rows[top : top + band, None], cols[None, :]
        where = in_y[top : top + band, None] & in_x[None, :] & painted[at]
        where &= band_inks == Ink.BACKGROUND  # walls and the path stay on top
        rgb[where] = colors[at][where]
        image.paste(Image.fromarray(rgb, "RGB"), (0, top))
    del inks
    draw = ImageDraw.Draw(image)
    side = g.cell - g.wall
    ring = max(1, side // 6)

    def mark(left: int, top: int, side: int) -> None:
        box = (left, top, left + side - 1, top + side - 1)
        if side < 3:  # no room for an edge and a ring inside it: the cell goes white
            draw.rectangle(box, fill=_RING)
            return
        draw.rectangle(box, outline=scene.palette[Ink.WALL], width=ring + 1)
        inner = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
        draw.rectangle(inner, outline=_RING, width=ring)

    for x, y in heat.marked:
        mark(g.margin + x * g.cell + g.wall, g.margin + y * g.cell + g.wall, side)
    bar_left, bar_right = g.margin, g.width - g.margin
    bar_top = g.height + max(g.margin, 4) // 2
    width = max(1, bar_right - bar_left)
    strip = colors_for(np.linspace(0.0, 1.0, width))[None, :, :].repeat(_bar(scene), axis=0)
    image.paste(Image.fromarray(np.ascontiguousarray(strip), "RGB"), (bar_left, bar_top))
    font = ImageFont.load_default()
    text_top = bar_top + _bar(scene) + 1
    ink = _text_ink(scene)
    draw.text((bar_left, text_top), "0", fill=ink, font=font)
    draw.text((bar_right, text_top), heat.high, fill=ink, font=font, anchor="ra")
    draw.text(((bar_left + bar_right) // 2, text_top), heat.title, fill=ink, font=font, anchor="ma")
    if heat.marked:  # a ring as drawn on the maze (at most 12 px), and what it marks
        sample = min(side, 12)
        mark(bar_left, text_top + _LINE, sample)
        draw.text((bar_left + sample + 4, text_top + _LINE), _ringed(heat), fill=ink, font=font)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def heat_svg(scene: Scene, heat: Heat) -> str:
    """The SVG of ``scene`` with the heat under the walls, rings, and a legend below."""
    return "".join(_svg_chunks(scene, heat))


def _svg_chunks(scene: Scene, heat: Heat) -> Iterator[str]:
    """heat_svg's text in pieces, made as they are asked for: the picture's own pieces
    (svg.svg_chunks) with the heat after its background and the rings and legend at its end,
    so a large maze is written without the whole document in memory."""
    from .svg import svg_chunks

    g = scene.geometry
    pieces = svg_chunks(scene)
    lines = next(pieces).splitlines()  # the first piece: the header, title and background
    extra = _legend_height(scene, heat)
    total = g.height + extra
    lines[1] = (
        lines[1]
        .replace(f'height="{g.height}"', f'height="{total}"')
        .replace(f'viewBox="0 0 {g.width} {g.height}"', f'viewBox="0 0 {g.width} {total}"')
    )
    lines[3] = f'<rect width="{g.width}" height="{total}" fill="{hex_color(scene.palette[0])}"/>'
    yield "".join(f"{line}\n" for line in lines)
    painted = _painted(scene, heat)
    scaled = np.nan_to_num(heat.scaled, copy=False)
    scaled *= 63
    levels = np.rint(scaled, out=scaled).astype(np.uint8)
    del scaled
    side = g.cell - g.wall
    first = g.margin + g.wall
    # heat under everything the normal picture draws; rings and legend on top: the painted
    # cells in reading order, sorted by level (a stable sort keeps that order in each)
    cells = np.flatnonzero(painted).astype(np.int32)
    levels = levels.ravel()[cells]
    order = np.argsort(levels, kind="stable")
    cells, levels = cells[order], levels[order]
    del order
    starts = np.flatnonzero(np.diff(levels, prepend=-1)).tolist()
    for start, stop in zip(starts, [*starts[1:], levels.size], strict=True):
        level_color = _rgb(colors_for(int(levels[start]) / 63))
        yield f'<path fill="{hex_color(level_color)}" d="'
        # a cell and its west and north wall lines, as the PNG paints them
        yield from _cell_squares(g, cells[start:stop])
        yield '"/>\n'
    end = next(pieces)
    for piece in pieces:  # the picture's own elements: all pieces but the closing tag
        yield end
        end = piece
    ring = max(1, side // 6)

    def mark(left: int, top: int, side: int) -> list[str]:
        edges: tuple[tuple[tuple[int, int, int], int, float], ...] = (
            (scene.palette[Ink.WALL], ring + 2, (ring + 2) / 2),
            (_RING, ring, ring / 2 + 1),
        )
        return [
            f'<rect x="{_n(left + inset)}" y="{_n(top + inset)}" '
            f'width="{_n(side - 2 * inset)}" height="{_n(side - 2 * inset)}" fill="none" '
            f'stroke="{hex_color(color)}" stroke-width="{stroke}"/>'
            for color, stroke, inset in edges
        ]

    marks: list[str] = []
    for x, y in heat.marked:
        marks += mark(first + x * g.cell, first + y * g.cell, side)
    bar_top = g.height + max(g.margin, 4) // 2
    stops = "".join(
        f'<stop offset="{i / (len(COLORMAP) - 1):.1f}" stop-color="{hex_color(c)}"/>'
        for i, c in enumerate(COLORMAP)
    )
    ink = hex_color(_text_ink(scene))
    text_y = bar_top + _bar(scene) + 11
    legend = [
        f'<linearGradient id="heat">{stops}</linearGradient>',
        f'<rect x="{g.margin}" y="{bar_top}" width="{g.width - 2 * g.margin}" '
        f'height="{_bar(scene)}" fill="url(#heat)"/>',
        f'<g font-family="sans-serif" font-size="11" fill="{ink}">'
        f'<text x="{g.margin}" y="{text_y}">0</text>'
        f'<text x="{g.width // 2}" y="{text_y}" text-anchor="middle">{heat.title}</text>'
        f'<text x="{g.width - g.margin}" y="{text_y}" text-anchor="end">{heat.high}</text></g>',
    ]
    if heat.marked:  # a ring as drawn on the maze (at most 12 px), and what it marks
        sample = min(side, 12)
        top = text_y + 3
        legend += mark(g.margin, top, sample)
        legend.append(
            f'<text x="{g.margin + sample + 4}" y="{top + 10}" font-family="sans-serif" '
            f'font-size="11" fill="{ink}">{_ringed(heat)}</text>'
        )
    yield "".join(f"{line}\n" for line in (*marks, *legend))
    yield end


def _cell_squares(g: Geometry, cells: npt.NDArray[np.int32]) -> Iterator[str]:
    """Path data of a whole cell square (``M{x} {y}h{c}v{c}h-{c}z``) over each of ``cells``
    (flat indices), a block at a time through svg's rectangle writer."""
    from .svg import _boxes, _boxes_path

    for first in range(0, cells.size, SQUARES):
        ys, xs = np.divmod(cells[first : first + SQUARES].astype(np.int64), g.columns)
        yield _boxes_path(_boxes(g.margin + xs * g.cell, g.margin + ys * g.cell, g.cell, g.cell))


def _n(value: float) -> str:
    """A coordinate without a useless ``.0``."""
    return str(int(value)) if value == int(value) else str(value)


def heat_bytes(maze: Maze, options: RenderOptions, kind: str, source: str | None = None) -> bytes:
    """The heat picture of ``maze`` (``options.format`` png or svg) for ``render --heat``;
    ``source`` names the maze in a MazeError."""
    return b"".join(heat_chunks(maze, options, kind, source))


def heat_chunks(
    maze: Maze, options: RenderOptions, kind: str, source: str | None = None
) -> Iterator[bytes]:
    """heat_bytes in chunks, as ``render --heat`` writes them: every check comes first, then
    an SVG is made as it is written (a PNG is one chunk)."""
    if options.path is None:  # the path would hide the cells that glow: only when asked for
        options = replace(options, path=False)
    check_maze(maze, options, source)
    scene = replace(build_scene(maze, options, source), sprites=None)  # no dots, no actors
    if options.format not in ("png", "svg"):
        raise ValueError(f"a heat map is drawn as png or svg, not {options.format}")
    if options.format == "png":
        check_size(replace(scene.geometry, rows=scene.geometry.rows + 5), source)  # + legend
    heat = heat_for(maze, kind)
    if options.format == "png":
        return iter([heat_png(scene, heat)])
    from . import _encoded

    return _encoded(_svg_chunks(scene, heat))


def _rgb(color: npt.NDArray[np.uint8]) -> tuple[int, int, int]:
    """A colour-map entry as a plain RGB tuple."""
    red, green, blue = (int(c) for c in color.tolist())
    return red, green, blue
