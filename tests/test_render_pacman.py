"""``render --theme pacman``: the board's pixels where they belong, PNG = SVG, golden SVG and
text, and the plain themes left as they were."""

from __future__ import annotations

import io
import struct
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given

from mazekit.drawing import RenderOptions, build_scene, render_bytes
from mazekit.drawing.png import rasterize
from mazekit.drawing.sprites import SPRITES, board_sprites, ghost_cells, stamp
from mazekit.drawing.svg import render_svg
from mazekit.drawing.text import render_text
from mazekit.drawing.theme import THEMES, Ink
from mazekit.model import Maze
from mazekit.pacman import pacmanize
from mazekit.textformat import read
from tests.conftest import Invoke, closed_grid, open_wall, serpentine
from tests.test_render import UPDATE, drawable, png_pixels, rasterize_svg

DATA = Path(__file__).parent / "data" / "render"
BOARD = pacmanize(read(DATA / "maze-9x7.txt"))  # the smallest "42", braided
COLOURS = THEMES["pacman"].colors
BLACK, BLUE, GLYPH = (0, 0, 0), COLOURS[Ink.WALL], COLOURS[Ink.PATTERN]


def _png(maze: Maze, **options: object) -> np.ndarray:
    return png_pixels(render_bytes(maze, RenderOptions(format="png", theme="pacman", **options)))  # type: ignore[arg-type]


def _centre(x: int, y: int) -> tuple[int, int]:
    """(row, column) of the pixel just past the middle of cell (x,y), at 16 px cells, 8 margin."""
    return 8 + 16 * y + 2 + 7, 8 + 16 * x + 2 + 7


def _at(pixels: np.ndarray, where: tuple[int, int]) -> tuple[int, ...]:
    return tuple(int(v) for v in pixels[where])


def test_the_board_layout_follows_specs_pacman() -> None:
    sprites = board_sprites(BOARD)
    assert ghost_cells(BOARD) == ((1, 0), (7, 0), (1, 6), (7, 6))
    assert [int(sprites[y, x]) for x, y in ((0, 0), (8, 0), (0, 6), (8, 6))] == [Ink.ENERGIZER] * 4
    assert [int(sprites[y, x]) for x, y in ghost_cells(BOARD)] == [
        Ink.GHOST_PINK,
        Ink.GHOST_RED,
        Ink.GHOST_ORANGE,
        Ink.GHOST_CYAN,
    ]
    assert sprites[3, 4] == Ink.PLAYER  # the centre ((9-1)//2, (7-1)//2)
    pattern = BOARD.walls == 15
    assert not sprites[pattern].any()  # no dot on the "42"
    assert (sprites[~pattern] != 0).all()  # every reachable cell has something
    assert int((sprites == Ink.DOT).sum()) == 45 - 9  # 45 board cells, 9 taken by others


def test_a_ghost_stands_on_the_corner_s_open_neighbour() -> None:
    walls = closed_grid(3, 3)
    open_wall(walls, 0, 0, "S")  # (0,0) opens south only: its ghost stands on (0,1)
    open_wall(walls, 0, 1, "S")
    open_wall(walls, 0, 2, "E")
    open_wall(walls, 1, 2, "E")
    maze = Maze(walls, (0, 0), (2, 2), "SSEE")
    # (2,0) has no open wall: its ghost takes the grid neighbour along the border, (1,0)
    assert ghost_cells(maze) == ((0, 1), (1, 0), (1, 2), (1, 2))
    one_cell = Maze(closed_grid(1, 1), (0, 0), (0, 0), "")
    assert ghost_cells(one_cell) == ((0, 0),) * 4


def test_png_pixels_at_known_places() -> None:
    pixels = _png(BOARD)
    assert pixels.shape == (8 + 7 * 16 + 2 + 8, 8 + 9 * 16 + 2 + 8, 3)
    assert _at(pixels, (0, 0)) == BLACK
    # the west border of (0,3) is a double line: blue, two black px of the band, blue
    row = _centre(0, 3)[0]
    assert [_at(pixels, (row, column)) for column in range(6, 12)] == [
        BLACK, BLUE, BLACK, BLACK, BLUE, BLACK,
    ]  # fmt: skip
    assert _at(pixels, _centre(2, 1)) == COLOURS[Ink.DOT]
    assert _at(pixels, _centre(0, 0)) == COLOURS[Ink.ENERGIZER]
    assert _at(pixels, _centre(4, 3)) == COLOURS[Ink.PLAYER]
    mouth_row, mouth_column = _centre(4, 3)
    assert _at(pixels, (mouth_row, mouth_column + 5)) == BLACK  # the mouth opens east
    assert _at(pixels, (mouth_row, mouth_column - 5)) == COLOURS[Ink.PLAYER]
    ghosts = (Ink.GHOST_PINK, Ink.GHOST_RED, Ink.GHOST_ORANGE, Ink.GHOST_CYAN)
    for ink, (x, y) in zip(ghosts, ghost_cells(BOARD), strict=True):
        row, column = _centre(x, y)
        inside = {
            _at(pixels, (r, c))
            for r in range(row - 7, row + 7)
            for c in range(column - 7, column + 7)
        }
        assert {COLOURS[ink], COLOURS[Ink.EYES], COLOURS[Ink.PUPIL]} <= inside
    # the "42" is one filled shape: a cell of it, and the wall between two of its cells
    assert _at(pixels, _centre(1, 1)) == GLYPH  # (1,1) is the top-left cell of the block
    assert _at(pixels, (_centre(1, 3)[0], 8 + 2 * 16)) == GLYPH  # between (1,3) and (2,3)
    colours = {tuple(c) for c in pixels.reshape(-1, 3).tolist()}
    assert COLOURS[Ink.ENTRY] not in colours  # no entry mark (the exit's red is a ghost's)
    cells = build_scene(BOARD, RenderOptions(theme="pacman")).cells
    assert not np.isin(cells, [Ink.ENTRY, Ink.EXIT]).any()
    assert COLOURS[Ink.PATH] not in colours  # and no path unless asked


def test_the_path_is_drawn_only_when_asked() -> None:
    with_path = {tuple(c) for c in _png(BOARD, path=True).reshape(-1, 3).tolist()}
    assert COLOURS[Ink.PATH] in with_path


def test_thicker_walls_make_thicker_lines() -> None:
    pixels = _png(BOARD, cell=32, wall=6, margin=4)
    row = 4 + 3 * 32 + 6 + 15
    line = [_at(pixels, (row, column)) for column in range(4 - 3, 4 + 6 + 3 + 1)]
    assert line == [BLUE] * 3 + [BLACK] * 6 + [BLUE] * 3 + [BLACK]


def test_the_sprites_fit_their_cell_at_every_size() -> None:
    for side in range(1, 40):
        for sprite in SPRITES:
            picture = stamp(sprite, side)
            assert picture.shape == (side, side)
            assert picture.any(), (sprite, side)
            assert set(np.unique(picture).tolist()) <= {0, sprite, Ink.EYES, Ink.PUPIL}
    big_ghost = stamp(Ink.GHOST_RED, 30)
    assert (big_ghost == Ink.EYES).any() and (big_ghost == Ink.PUPIL).any()
    with pytest.raises(ValueError, match="not a sprite"):
        stamp(Ink.WALL, 10)


@pytest.mark.parametrize(
    "options",
    [
        RenderOptions(theme="pacman"),
        RenderOptions(theme="pacman", cell=9, wall=2, margin=3, path=True),
        RenderOptions(theme="pacman", cell=4, wall=2, margin=0),
        RenderOptions(theme="pacman", cell=13, wall=4, margin=1),
        RenderOptions(theme="pacman", cell=30, wall=7, margin=5, path=True),
    ],
)
def test_svg_paints_exactly_the_png_pixels(options: RenderOptions) -> None:
    for maze in (BOARD, pacmanize(read(DATA / "maze-20x15.txt"))):
        scene = build_scene(maze, options)
        svg_image, colours = rasterize_svg(render_svg(scene))
        palette = ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in scene.palette]
        png_colours = np.array(palette, dtype=object)[rasterize(scene)]
        assert (np.array(colours, dtype=object)[svg_image] == png_colours).all()


@given(drawable())
def test_png_and_svg_agree_on_any_grid(case: tuple[Maze, RenderOptions]) -> None:
    maze, options = case
    options = replace(options, theme="pacman", path=False)
    scene = build_scene(maze, options)
    svg_image, colours = rasterize_svg(render_svg(scene))
    palette = ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in scene.palette]
    png_colours = np.array(palette, dtype=object)[rasterize(scene)]
    assert (np.array(colours, dtype=object)[svg_image] == png_colours).all()
    lines = render_text(scene, "unicode").splitlines()
    assert {len(line) for line in lines} == {3 * maze.width + 1}


def test_golden_svg() -> None:
    """Set MAZEKIT_UPDATE_GOLDEN=1 to rewrite it after a deliberate change."""
    data = render_bytes(BOARD, RenderOptions(format="svg", theme="pacman"))
    golden = DATA / "board-9x7-pacman.svg"
    if UPDATE:
        golden.write_bytes(data)
    assert data == golden.read_bytes(), "see tests/data/render/README.md"


def test_text_marks_the_sprites() -> None:
    scene = build_scene(BOARD, RenderOptions(theme="pacman"))
    assert render_text(scene).splitlines()[:4] == [
        "+--+--+--+--+--+--+--+--+--+",
        "|() GP  .| .  .  .  . GR ()|",
        "+  +--+  +  +--+--+--+--+  +",
        "| .|##| .| .  .|##|##|##| .|",
    ]
    assert render_text(scene).splitlines()[7] == "| .|##|##|##|@@|##|##|##| .|"
    unicode = render_text(scene, "unicode").splitlines()
    assert unicode[0] == "╔════════╦═════════════════╗"
    assert unicode[-2] == "║() GO  .  .  .  .  . GC ()║"
    assert unicode[-1] == "╚══════════════════════════╝"
    coloured = render_text(scene, "ascii", ansi=True)
    assert "\x1b[1;93m@@\x1b[0m" in coloured and "\x1b[1;91mGR\x1b[0m" in coloured


def test_plain_themes_keep_their_eight_colour_palette() -> None:
    data = render_bytes(read(DATA / "maze-20x15.txt"), RenderOptions(format="png"))
    stream = io.BytesIO(data[8:])
    chunks = {}
    while chunk := stream.read(8):
        length, kind = struct.unpack(">I4s", chunk)
        chunks[kind] = stream.read(length)
        stream.read(4)
    assert len(chunks[b"PLTE"]) == 8 * 3
    board = render_bytes(BOARD, RenderOptions(format="png", theme="pacman"))
    assert board[:8] == data[:8]


def test_the_command_draws_a_board(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "board.png"
    result = invoke(["render", "--theme", "pacman", "-o", str(target)], input=_text(BOARD))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert _at(png_pixels(target.read_bytes()), _centre(4, 3)) == COLOURS[Ink.PLAYER]
    text = invoke(["render", "--theme", "pacman"], input=_text(serpentine(4, 3)))
    assert text.stdout.splitlines()[1] == "|() GP GR ()|"


def _text(maze: Maze) -> str:
    from mazekit.textformat import dump

    return dump(maze)
