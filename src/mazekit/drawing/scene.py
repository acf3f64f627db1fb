"""One description of a picture, shared by the PNG, SVG and text renderers.

A Scene says, per cell and per wall line, what to draw (closed walls, the ink of each cell,
the path as a list of cells), and its Geometry says where in pixels. Every renderer reads
the same Scene, so PNG and SVG draw the same picture and text marks the same cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, MazeError, NoPathError, TooLargeError
from ..model import ALL_WALLS, EAST, NORTH, SOUTH, WEST, Cell, Maze
from ..search import passages, path_positions, shortest_path
from .theme import DEFAULT_THEME, RGB, THEMES, Ink, Palette, palette_for

__all__ = [
    "CHARSETS",
    "FORMATS",
    "MAX_PIXELS",
    "CellSet",
    "Charset",
    "Format",
    "Geometry",
    "RenderOptions",
    "Scene",
    "build_scene",
    "check_maze",
    "check_size",
    "format_from_name",
    "glyph_joints",
    "path_cells",
    "path_mask",
]

Format = Literal["png", "svg", "text", "html"]
FORMATS: tuple[Format, ...] = ("png", "svg", "text", "html")
_SUFFIXES: dict[str, Format] = {
    ".png": "png",
    ".svg": "svg",
    ".txt": "text",
    ".html": "html",
    ".htm": "html",
}
Charset = Literal["ascii", "unicode"]
CHARSETS: tuple[Charset, ...] = ("ascii", "unicode")

# A PNG is drawn as one byte per pixel, then encoded: 200 million pixels is about 0.5 GB.
MAX_PIXELS = 200_000_000

BoolGrid = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int32]  # path cells: int32 holds any coordinate, in half the memory

# Path steps handled at a time where a whole-path array operation would need several
# temporary arrays as long as the path (specs/errors.md: 20 bytes per path step).
STEP_BLOCK = 1 << 20
# Cells given by a caller: (x, y) pairs, an N x 2 array of them, or an H x W boolean mask.
CellSet = Iterable[Cell] | npt.NDArray[np.generic]


def format_from_name(name: str) -> Format | None:
    """The format an output file name asks for by its extension (any case), or None."""
    dot = name.rfind(".")
    return _SUFFIXES.get(name[dot:].lower()) if dot > 0 and "/" not in name[dot:] else None


@dataclass(frozen=True)
class Geometry:
    """Pixel layout: wall line i starts at ``margin + i * cell`` and is ``wall`` px thick.

    A cell's inside is the ``cell - wall`` px square after its west and north wall lines, so
    the image is ``2 * margin + columns * cell + wall`` px wide.
    """

    columns: int
    rows: int
    cell: int = 16
    wall: int = 2
    margin: int = 8

    def __post_init__(self) -> None:
        if self.cell < 2:
            raise ConfigError(f"must be at least 2, got {self.cell}", "cell")
        if not 1 <= self.wall < self.cell:
            raise ConfigError(
                f"must be at least 1 and less than the cell size ({self.cell}), got {self.wall}",
                "wall",
            )
        if self.margin < 0:
            raise ConfigError(f"must not be negative, got {self.margin}", "margin")

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return 2 * self.margin + self.columns * self.cell + self.wall

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return 2 * self.margin + self.rows * self.cell + self.wall

    @property
    def path_width(self) -> int:
        """Thickness of the path line: about a third of a cell's inside, at least 1 px."""
        return max(1, (self.cell - self.wall + 1) // 3)

    @property
    def path_offset(self) -> int:
        """Where the path line starts across a cell, from the cell's wall line."""
        return self.wall + (self.cell - self.wall - self.path_width) // 2


def check_size(geometry: Geometry, source: str | None = None) -> None:
    """Refuse a raster image over MAX_PIXELS before any memory is spent on it."""
    pixels = geometry.width * geometry.height
    if pixels > MAX_PIXELS:
        raise TooLargeError(
            f"a {geometry.columns}x{geometry.rows} maze at {geometry.cell} px cells makes a "
            f"{geometry.width}x{geometry.height} image ({pixels:,} pixels), over the limit of "
            f"{MAX_PIXELS:,}: use a smaller --cell or the svg format",
            source,
        )


@dataclass(frozen=True)
class RenderOptions:
    """Every render option; the defaults are those of ``mazekit render`` (specs/render.md).

    ``path``: None draws the file's path, False none, True the file's or else a shortest one.
    ``dead_ends``: (real, enclosed) cells to mark, or None. ``ansi``: colour codes in text.
    """

    format: Format | None = None
    cell: int = 16
    wall: int = 2
    margin: int = 8
    theme: str = DEFAULT_THEME
    colors: Mapping[str, RGB | str] = field(default_factory=dict)
    path: bool | None = None
    dead_ends: tuple[CellSet, CellSet] | None = None
    charset: Charset = "ascii"
    ansi: bool = False

    def __post_init__(self) -> None:
        if self.format is not None and self.format not in FORMATS:
            raise ConfigError(
                f"unknown format {self.format!r} (known: png, svg, text, html)", "format"
            )
        if self.charset not in CHARSETS:
            raise ConfigError(
                f"unknown charset {self.charset!r} (known: ascii, unicode)", "charset"
            )
        Geometry(1, 1, self.cell, self.wall, self.margin)  # checks the three numbers
        palette_for(self.theme, self.colors)  # checks the theme and every colour


@dataclass(frozen=True)
class Scene:
    """What to draw: closed walls on each line, the ink of each cell, the path's cells.

    ``h_walls[j, x]`` is the wall north of row j (j = H is the south border), ``v_walls[y, i]``
    the wall west of column i; ``cells`` holds an Ink per cell (BACKGROUND: plain);
    ``path_x``/``path_y`` list the cells of the path in order (empty: no path). A board
    (the pacman theme) also has ``sprites``, an Ink per cell drawn over it (0: none), and
    ``outline``: walls drawn as lines that thick around the wall bands and "42" cells.
    """

    geometry: Geometry
    palette: Palette
    h_walls: BoolGrid
    v_walls: BoolGrid
    cells: npt.NDArray[np.uint8]
    path_x: IntArray
    path_y: IntArray
    sprites: npt.NDArray[np.uint8] | None = None
    outline: int = 0


def check_maze(maze: Maze, options: RenderOptions, source: str | None = None) -> None:
    """The cheap checks made before any drawing: image size (PNG), entry and exit in the grid.

    ``source`` names the maze in the MazeError, as in every check of this module.
    """
    if options.format == "png":
        geometry = Geometry(maze.width, maze.height, options.cell, options.wall, options.margin)
        check_size(geometry, source)
    for name, (x, y) in (("entry", maze.entry), ("exit", maze.exit)):
        if not maze.contains((x, y)):
            raise MazeError(
                f"{name} ({x},{y}) is outside the {maze.width}x{maze.height} grid", source
            )


def path_cells(maze: Maze, path: str, source: str | None = None) -> tuple[IntArray, IntArray]:
    """The cells a path visits from the entry, x and y arrays of len(path) + 1 (or 0).

    MazeError names the first step that leaves the grid; crossing a closed wall is drawn as is.
    """
    if not path:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32)
    xs, ys = path_positions(maze.entry, path)  # int32: half the memory of a long path
    outside = np.zeros(0, dtype=bool)
    for first in range(0, xs.size, STEP_BLOCK):
        x, y = xs[first : first + STEP_BLOCK], ys[first : first + STEP_BLOCK]
        outside = (x < 0) | (x >= maze.width) | (y < 0) | (y >= maze.height)
        if outside.any():
            break
    if outside.any():
        step = first + int(np.argmax(outside))
        raise MazeError(
            f"step {step} ({path[step - 1]}) from ({xs[step - 1]},{ys[step - 1]}) leaves the grid",
            source,
        )
    return xs, ys


def path_mask(scene: Scene) -> BoolGrid:
    """An H x W mask of the cells the path visits, made a block of steps at a time."""
    mask = np.zeros(scene.cells.shape, dtype=bool)
    for first in range(0, scene.path_x.size, STEP_BLOCK):
        last = first + STEP_BLOCK
        mask[scene.path_y[first:last], scene.path_x[first:last]] = True
    return mask


def _resolve_path(
    maze: Maze, mode: bool | None, board: bool = False, source: str | None = None
) -> str:
    """The path to draw: none, the file's, or (mode True and none in the file) a shortest one.

    A board draws no path unless asked (mode True).
    """
    if mode is False or (board and mode is None):
        return ""
    if maze.path or mode is None:
        return maze.path
    found = shortest_path(maze.walls, maze.entry, maze.exit)
    if found is None:
        (ex, ey), (xx, xy) = maze.entry, maze.exit
        raise NoPathError(f"no path from the entry ({ex},{ey}) to the exit ({xx},{xy})", source)
    return found


def _mask(cells: CellSet, shape: tuple[int, int], what: str) -> BoolGrid:
    """An H x W mask from a boolean mask, an N x 2 array or an iterable of (x, y) cells."""
    if isinstance(cells, np.ndarray) and cells.dtype == np.bool_:
        if cells.shape != shape:
            raise ConfigError(f"mask has shape {cells.shape}, the grid {shape}", what)
        return np.asarray(cells, dtype=bool)
    pairs = np.asarray(cells if isinstance(cells, np.ndarray) else list(cells), dtype=np.int64)
    pairs = pairs.reshape(-1, 2)
    height, width = shape
    bad = (pairs[:, 0] < 0) | (pairs[:, 0] >= width) | (pairs[:, 1] < 0) | (pairs[:, 1] >= height)
    if bad.any():
        x, y = pairs[int(np.argmax(bad))]
        raise ConfigError(f"cell ({x},{y}) is outside the {width}x{height} grid", what)
    mask = np.zeros(shape, dtype=bool)
    mask[pairs[:, 1], pairs[:, 0]] = True
    return mask


def _closed_walls(walls: npt.NDArray[np.uint8]) -> tuple[BoolGrid, BoolGrid]:
    """Closed walls per line: inner walls closed unless both cells agree they are open."""
    height, width = walls.shape
    east, south = passages(walls)
    h_walls = np.empty((height + 1, width), dtype=bool)
    h_walls[0] = (walls[0] & NORTH) != 0
    h_walls[height] = (walls[height - 1] & SOUTH) != 0
    h_walls[1:height] = ~south
    v_walls = np.empty((height, width + 1), dtype=bool)
    v_walls[:, 0] = (walls[:, 0] & WEST) != 0
    v_walls[:, width] = (walls[:, width - 1] & EAST) != 0
    v_walls[:, 1:width] = ~east
    return h_walls, v_walls


def glyph_joints(cells: npt.NDArray[np.uint8]) -> tuple[BoolGrid, BoolGrid, BoolGrid]:
    """Walls and posts between "42" cells: (vertical [y, i-1], horizontal [j-1, x], posts)."""
    pattern = cells == Ink.PATTERN
    vertical = pattern[:, :-1] & pattern[:, 1:]
    horizontal = pattern[:-1, :] & pattern[1:, :]
    posts = horizontal[:, :-1] & horizontal[:, 1:] & vertical[:-1, :] & vertical[1:, :]
    return vertical, horizontal, posts


def build_scene(maze: Maze, options: RenderOptions, source: str | None = None) -> Scene:
    """Describe the picture of ``maze`` under ``options``; MazeError when it cannot be drawn.

    Cell inks, later ones winning: fully closed cells (the "42") PATTERN, then the dead ends,
    then ENTRY and EXIT (not on a board, whose sprites are placed by drawing.sprites).
    """
    check_maze(maze, options, source)
    board = THEMES[options.theme].board
    geometry = Geometry(maze.width, maze.height, options.cell, options.wall, options.margin)
    shape = (maze.height, maze.width)
    cells = np.zeros(shape, dtype=np.uint8)
    cells[maze.walls == ALL_WALLS] = Ink.PATTERN
    if options.dead_ends is not None:
        real, enclosed = options.dead_ends
        cells[_mask(real, shape, "dead_ends")] = Ink.DEAD_END
        cells[_mask(enclosed, shape, "dead_ends")] = Ink.ENCLOSED
    sprites = None
    if board:
        from .sprites import board_sprites

        sprites = board_sprites(maze)
    else:
        cells[maze.entry[1], maze.entry[0]] = Ink.ENTRY
        cells[maze.exit[1], maze.exit[0]] = Ink.EXIT
    h_walls, v_walls = _closed_walls(maze.walls)
    path_x, path_y = path_cells(maze, _resolve_path(maze, options.path, board, source), source)
    palette = palette_for(options.theme, options.colors)
    outline = max(1, options.wall // 2) if board else 0
    return Scene(geometry, palette, h_walls, v_walls, cells, path_x, path_y, sprites, outline)
