"""The render core: pixels at known places, PNG = SVG, golden text and SVG, limits, the API."""

from __future__ import annotations

import io
import os
import re
import struct
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazekit
from mazekit.analysis import dead_ends
from mazekit.drawing import RenderOptions, build_scene, render_bytes, text
from mazekit.drawing.png import rasterize
from mazekit.drawing.scene import Geometry
from mazekit.drawing.svg import render_svg
from mazekit.drawing.text import render_text
from mazekit.drawing.theme import THEMES, Ink, parse_color
from mazekit.errors import ConfigError, MazeError, NoPathError, TooLargeError
from mazekit.model import Maze
from mazekit.rules import validate
from mazekit.search import shortest_path
from mazekit.textformat import parse, read
from tests.conftest import SMALL_MAZE, closed_grid, open_wall, serpentine

DATA = Path(__file__).parent / "data" / "render"
MAZE = DATA / "maze-20x15.txt"
SMALL_42 = DATA / "maze-9x7.txt"
UPDATE = bool(os.environ.get("MAZEKIT_UPDATE_GOLDEN"))

WHITE, BLACK, GRAY = (255, 255, 255), (0, 0, 0), (128, 128, 128)
MAGENTA, RED, BLUE = (255, 0, 255), (255, 0, 0), (30, 144, 255)
ORANGE, YELLOW = (255, 140, 0), (255, 215, 0)


def png_pixels(data: bytes) -> np.ndarray:
    """A PNG file as an H x W x 3 RGB array."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))


def test_fixtures_are_valid_mazes_with_the_42() -> None:
    for path in (MAZE, SMALL_42):
        assert validate(path.read_bytes(), perfect=True).valid, path


# --- pixels at known places ----------------------------------------------------------------
# Default geometry: cell 16, wall 2, margin 8. Wall line i spans pixels 8 + 16 i .. + 2; the
# inside of cell x spans 8 + 16 x + 2 .. 8 + 16 (x + 1); the path band is 6..11 into a cell.


@pytest.fixture(scope="module")
def picture() -> np.ndarray:
    return png_pixels(render_bytes(read(MAZE), RenderOptions(format="png")))


def test_image_size_follows_the_geometry(picture: np.ndarray) -> None:
    assert picture.shape == (8 + 15 * 16 + 2 + 8, 8 + 20 * 16 + 2 + 8, 3)


@pytest.mark.parametrize(
    ("place", "xy", "colour"),
    [
        ("margin", (3, 3), WHITE),
        ("inside the entry (0,0)", (11, 11), MAGENTA),
        ("inside the exit (19,14)", (315, 235), RED),
        ('inside the "42" cell (6,5)', (107, 91), GRAY),
        ('inside the "42" cell (12,9)', (8 + 192 + 9, 8 + 144 + 4), GRAY),
        ("north border wall of (3,0)", (8 + 48 + 8, 9), BLACK),
        ("closed wall between (1,1) and (2,1)", (41, 32), BLACK),
        ("post at the corner of (1,1)", (25, 25), BLACK),
        ("open passage between (0,1) and (1,1)", (25, 32), WHITE),
        ("inside (0,1), off the path", (16, 32), WHITE),
        ("on the path in (1,0)", (32, 16), BLUE),
        ("on the path where it crosses from (0,0) to (1,0)", (25, 16), BLUE),
        ("on the path over the entry", (16, 16), BLUE),
    ],
)
def test_pixel_colours_at_known_places(
    picture: np.ndarray, place: str, xy: tuple[int, int], colour: tuple[int, int, int]
) -> None:
    x, y = xy
    assert tuple(picture[y, x]) == colour, place


def test_the_fixture_has_what_the_pixel_test_assumes() -> None:
    maze = read(MAZE)
    assert maze.walls[1, 1] & 2 and maze.walls[1, 2] & 8  # (1,1)|(2,1) closed
    assert not maze.walls[1, 0] & 2 and not maze.walls[1, 1] & 8  # (0,1)-(1,1) open
    assert maze.path.startswith("E") and maze.walls[5, 6] == 15 and maze.walls[9, 12] == 15


def test_no_path_leaves_path_cells_plain() -> None:
    pixels = png_pixels(render_bytes(read(MAZE), RenderOptions(format="png", path=False)))
    assert tuple(pixels[16, 32]) == WHITE
    assert tuple(pixels[16, 25]) == WHITE
    assert tuple(pixels[16, 16]) == MAGENTA


def test_dead_ends_are_filled_real_and_enclosed_in_two_colours() -> None:
    maze = read(MAZE)
    real, enclosed = _dead_ends(maze)
    options = RenderOptions(format="png", dead_ends=(real, enclosed))
    pixels = png_pixels(render_bytes(maze, options))
    # (11,6) and (11,8) are the two cells trapped inside the "2".
    assert tuple(pixels[8 + 6 * 16 + 3, 8 + 11 * 16 + 3]) == YELLOW
    assert tuple(pixels[8 + 8 * 16 + 3, 8 + 11 * 16 + 3]) == YELLOW
    plain = real.copy()
    plain[0, 0] = plain[14, 19] = False  # the entry and exit show their own colours
    y, x = np.argwhere(plain)[0]
    assert tuple(pixels[8 + y * 16 + 3, 8 + x * 16 + 3]) == ORANGE


def test_colours_and_theme_can_be_set() -> None:
    options = RenderOptions(
        format="png", theme="dark", colors={"entry": "#00ff00", "wall": (1, 2, 3), "path": "navy"}
    )
    pixels = png_pixels(render_bytes(read(MAZE), options))
    assert tuple(pixels[11, 11]) == (0, 255, 0)
    assert tuple(pixels[32, 41]) == (1, 2, 3)
    assert tuple(pixels[16, 32]) == (0, 0, 128)
    assert tuple(pixels[3, 3]) == THEMES["dark"].colors[Ink.BACKGROUND]
    assert tuple(pixels[91, 107]) == THEMES["dark"].colors[Ink.PATTERN]


def test_cell_wall_and_margin_change_the_geometry() -> None:
    options = RenderOptions(format="png", cell=10, wall=3, margin=0, path=False)
    pixels = png_pixels(render_bytes(parse(SMALL_MAZE), options))
    assert pixels.shape == (2 * 10 + 3, 4 * 10 + 3, 3)
    assert tuple(pixels[0, 0]) == BLACK  # a corner post, no margin
    assert tuple(pixels[5, 3]) == MAGENTA  # just inside the entry
    assert tuple(pixels[5, 2]) == BLACK  # the west border, 3 px thick
    assert tuple(pixels[5, 11]) == WHITE  # the open wall between (0,0) and (1,0)
    assert tuple(pixels[11, 5]) == BLACK  # the closed wall between (0,0) and (0,1)


# --- PNG and SVG draw the same picture -----------------------------------------------------


def rasterize_svg(svg: str) -> tuple[np.ndarray, list[str]]:
    """Paint this module's SVG subset (rect, filled M-h-v-h-z paths, stroked H/V runs)."""
    width = int(re.search(r'<svg [^>]*width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    height = int(re.search(r'<svg [^>]*height="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    colours: list[str] = []
    image = np.full((height, width), -1, dtype=np.int64)

    def ink(colour: str) -> int:
        if colour not in colours:
            colours.append(colour)
        return colours.index(colour)

    for element in re.findall(r"<(?:rect|path) [^>]*/>", svg):
        attributes = dict(re.findall(r'([a-z-]+)="([^"]*)"', element))
        if element.startswith("<rect"):
            image[:, :] = ink(attributes["fill"])
        elif attributes["fill"] != "none":
            colour = ink(attributes["fill"])
            for x, y, w, h in re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-\d+z", attributes["d"]):
                x0, y0 = int(x), int(y)
                image[y0 : y0 + int(h), x0 : x0 + int(w)] = colour
        else:
            colour, half = ink(attributes["stroke"]), float(attributes["stroke-width"]) / 2
            for x, y, axis, to in re.findall(r"M([\d.]+) ([\d.]+)([HV])([\d.]+)", attributes["d"]):
                x0, y0, end = float(x), float(y), float(to)
                x1, y1 = (end, y0) if axis == "H" else (x0, end)
                left, right = min(x0, x1) - half, max(x0, x1) + half
                top, bottom = min(y0, y1) - half, max(y0, y1) + half
                assert all(v == int(v) for v in (left, right, top, bottom))
                image[int(top) : int(bottom), int(left) : int(right)] = colour
    return image, colours


@pytest.mark.parametrize(
    ("maze_file", "options"),
    [
        (MAZE, RenderOptions()),
        (MAZE, RenderOptions(cell=9, wall=2, margin=3, theme="dark")),
        (MAZE, RenderOptions(cell=4, wall=2, margin=0)),
        (SMALL_42, RenderOptions(cell=13, wall=4, margin=1)),
    ],
)
def test_svg_paints_exactly_the_png_pixels(maze_file: Path, options: RenderOptions) -> None:
    maze = read(maze_file)
    real, enclosed = _dead_ends(maze)
    scene = build_scene(maze, RenderOptions(**{**vars(options), "dead_ends": (real, enclosed)}))
    svg_image, colours = rasterize_svg(render_svg(scene))
    png_image = rasterize(scene)
    palette = ["#{:02x}{:02x}{:02x}".format(*scene.palette[i]) for i in range(len(Ink))]
    as_colours = np.array(palette, dtype=object)[png_image]
    assert (np.array(colours, dtype=object)[svg_image] == as_colours).all()


def test_svg_draws_a_path_that_turns_back_like_the_png() -> None:
    maze = serpentine(3, 2)
    maze.path = "EEWWEE"  # walks back over itself: caps, not joins, must cover each cell
    scene = build_scene(maze, RenderOptions(cell=11, wall=2))
    svg_image, colours = rasterize_svg(render_svg(scene))
    palette = ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in scene.palette]
    png_colours = np.array(palette, dtype=object)[rasterize(scene)]
    assert (np.array(colours, dtype=object)[svg_image] == png_colours).all()


@st.composite
def drawable(draw: st.DrawFn) -> tuple[Maze, RenderOptions]:
    """Any small grid of wall digits (coherent or not), a shortest path if any, any geometry."""
    width, height = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = draw(st.lists(st.integers(0, 15), min_size=width * height, max_size=width * height))
    walls = np.array(cells, dtype=np.uint8).reshape(height, width)
    entry = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    exit_ = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    cell = draw(st.integers(2, 12))
    options = RenderOptions(
        cell=cell,
        wall=draw(st.integers(1, cell - 1)),
        margin=draw(st.integers(0, 3)),
        path=draw(st.sampled_from([None, True, False])),
    )
    return Maze(walls, entry, exit_, shortest_path(walls, entry, exit_) or ""), options


@given(drawable())
def test_png_and_svg_agree_and_text_has_its_shape(case: tuple[Maze, RenderOptions]) -> None:
    maze, options = case
    options = replace(options, dead_ends=_dead_ends(maze))
    if options.path and shortest_path(maze.walls, maze.entry, maze.exit) is None:
        with pytest.raises(NoPathError):
            build_scene(maze, options)
        options = replace(options, path=None)
    scene = build_scene(maze, options)
    svg_image, colours = rasterize_svg(render_svg(scene))
    palette = ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in scene.palette]
    png_colours = np.array(palette, dtype=object)[rasterize(scene)]
    assert (np.array(colours, dtype=object)[svg_image] == png_colours).all()
    for charset in ("ascii", "unicode"):
        lines = render_text(scene, charset).splitlines()  # type: ignore[arg-type]
        assert len(lines) == 2 * maze.height + 1
        assert {len(line) for line in lines} == {3 * maze.width + 1}


@given(case=drawable(), theme=st.sampled_from(["light", "pacman"]), block=st.integers(1, 4))
def test_ascii_text_laid_out_by_numpy_is_the_joined_text(
    case: tuple[Maze, RenderOptions], theme: str, block: int
) -> None:
    """The fast ascii writer gives render_text's very bytes, over any block of lines."""
    maze, options = case
    options = replace(options, dead_ends=_dead_ends(maze), theme=theme, path=None)
    scene = build_scene(maze, options)
    saved, text.ASCII_BLOCK = text.ASCII_BLOCK, block
    try:
        laid_out = b"".join(text.ascii_chunks(scene))
    finally:
        text.ASCII_BLOCK = saved
    assert laid_out == render_text(scene).encode("ascii")
    assert render_bytes(maze, replace(options, format="text")) == laid_out


# --- golden files --------------------------------------------------------------------------

GOLDEN = [
    ("maze-20x15-ascii.txt", MAZE, "text", {}),
    ("maze-20x15-unicode.txt", MAZE, "text", {"charset": "unicode"}),
    ("maze-9x7-unicode-dead-ends.txt", SMALL_42, "text", {"charset": "unicode", "dead": True}),
    ("maze-9x7-ascii-ansi.txt", SMALL_42, "text", {"ansi": True, "path": False}),
    ("maze-20x15.svg", MAZE, "svg", {}),
    ("maze-9x7-dark-dead-ends.svg", SMALL_42, "svg", {"theme": "dark", "dead": True}),
]


@pytest.mark.parametrize(
    ("name", "source", "kind", "settings"), GOLDEN, ids=[case[0] for case in GOLDEN]
)
def test_golden_output(name: str, source: Path, kind: str, settings: dict[str, object]) -> None:
    """Set MAZEKIT_UPDATE_GOLDEN=1 to rewrite the files after a deliberate change."""
    maze = read(source)
    settings = dict(settings)
    dead = _dead_ends(maze) if settings.pop("dead", False) else None
    options = RenderOptions(format=kind, dead_ends=dead, **settings)  # type: ignore[arg-type]
    data = render_bytes(maze, options)
    golden = DATA / name
    if UPDATE:
        golden.write_bytes(data)
    assert data == golden.read_bytes(), f"{name} differs; see tests/data/render/README.md"


def test_ascii_and_unicode_pictures_of_the_small_maze() -> None:
    scene = build_scene(parse(SMALL_MAZE), RenderOptions())
    assert render_text(scene) == (
        "+--+--+--+--+\n|EN .. .. ..|\n+--+--+--+  +\n|EX .. .. ..|\n+--+--+--+--+\n"
    )
    assert render_text(scene, "unicode") == (
        "┌───────────┐\n│EN ·· ·· ··│\n├────────╴  │\n│EX ·· ·· ··│\n└───────────┘\n"
    )


def test_ansi_codes_only_when_asked() -> None:
    scene = build_scene(parse(SMALL_MAZE), RenderOptions())
    assert "\x1b[" not in render_text(scene, "ascii", ansi=False)
    coloured = render_text(scene, "ascii", ansi=True)
    assert "\x1b[1;35mEN\x1b[0m" in coloured and "\x1b[36m..\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render_text(scene)


# --- determinism ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["png", "svg", "text"])
def test_same_input_same_bytes(kind: str) -> None:
    first = render_bytes(read(MAZE), RenderOptions(format=kind))  # type: ignore[arg-type]
    second = render_bytes(parse(MAZE.read_bytes()), RenderOptions(format=kind))  # type: ignore[arg-type]
    assert first == second


def test_png_has_no_metadata_chunks() -> None:
    data = render_bytes(read(MAZE), RenderOptions(format="png"))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    chunks, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        chunks.append(data[offset + 4 : offset + 8].decode("ascii"))
        offset += 12 + length
    assert set(chunks) == {"IHDR", "PLTE", "IDAT", "IEND"}


# --- paths, errors and limits --------------------------------------------------------------


def test_path_option_computes_a_missing_path_and_keeps_a_given_one() -> None:
    maze = read(MAZE)
    given = build_scene(maze, RenderOptions(path=True))
    maze.path = ""
    assert build_scene(maze, RenderOptions()).path_x.size == 0
    computed = build_scene(maze, RenderOptions(path=True))
    assert computed.path_x.size == len(read(MAZE).path) + 1
    assert (computed.path_x[-1], computed.path_y[-1]) == maze.exit
    assert given.path_x.tolist() == build_scene(read(MAZE), RenderOptions()).path_x.tolist()


def test_no_path_to_compute_is_an_error() -> None:
    maze = Maze(closed_grid(2, 1), (0, 0), (1, 0), "")
    with pytest.raises(NoPathError, match=r"^no path from the entry \(0,0\) to the exit \(1,0\)$"):
        build_scene(maze, RenderOptions(path=True))


def test_a_path_leaving_the_grid_is_an_error() -> None:
    maze = parse(SMALL_MAZE)
    maze.path = "EEEEE"
    with pytest.raises(MazeError, match=r"^step 4 \(E\) from \(3,0\) leaves the grid$"):
        build_scene(maze, RenderOptions())
    build_scene(maze, RenderOptions(path=False))  # hidden, so not an error


def test_a_path_through_a_closed_wall_is_drawn_as_it_is() -> None:
    walls = closed_grid(2, 1)
    scene = build_scene(Maze(walls, (0, 0), (1, 0), "E"), RenderOptions())
    assert scene.path_x.tolist() == [0, 1]


@pytest.mark.parametrize("end", ["entry", "exit"])
def test_entry_or_exit_outside_the_grid_is_an_error(end: str) -> None:
    maze = parse(SMALL_MAZE)
    setattr(maze, end, (4, 0))
    with pytest.raises(MazeError, match=rf"^{end} \(4,0\) is outside the 4x2 grid$"):
        render_bytes(maze, RenderOptions())


def test_an_image_too_big_for_memory_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    huge = Maze(np.broadcast_to(np.uint8(15), (20000, 20000)), (0, 0), (1, 0), "")
    target = tmp_path / "huge.png"

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the scene was built for a refused image")

    monkeypatch.setattr("mazekit.drawing.build_scene", no_work)
    with pytest.raises(TooLargeError) as caught:
        mazekit.render(huge, target, cell=16)
    assert str(caught.value) == (
        "a 20000x20000 maze at 16 px cells makes a 320018x320018 image "
        "(102,411,520,324 pixels), over the limit of 200,000,000: "
        "use a smaller --cell or the svg format"
    )
    assert not target.exists()


def test_the_pixel_limit_is_inclusive() -> None:
    from mazekit.drawing.scene import MAX_PIXELS, check_size

    check_size(Geometry(1, 1, 2, 1, 0))
    side = int(MAX_PIXELS**0.5)
    with pytest.raises(TooLargeError):
        check_size(Geometry(1, 1, side, 1, 1))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cell": 1}, "cell: must be at least 2, got 1"),
        ({"wall": 16}, "wall: must be at least 1 and less than the cell size (16), got 16"),
        ({"wall": 0}, "wall: must be at least 1 and less than the cell size (16), got 0"),
        ({"margin": -1}, "margin: must not be negative, got -1"),
        ({"format": "gif"}, "format: unknown format 'gif' (known: png, svg, text, html)"),
        ({"charset": "ebcdic"}, "charset: unknown charset 'ebcdic' (known: ascii, unicode)"),
        ({"theme": "neon"}, "theme: unknown theme 'neon' (known: light, dark, pacman)"),
        (
            {"colors": {"floor": "red"}},
            "colors: unknown ink 'floor' (known: background, wall, "
            "pattern, dead_end, enclosed, entry, exit, path, dot, energizer, player, ghost_red, "
            "ghost_pink, ghost_cyan, ghost_orange, eyes, pupil)",
        ),
        (
            {"colors": {"wall": (1, 2)}},
            "colors['wall']: (1, 2) is not a colour: an RGB triple has three integers 0-255",
        ),
    ],
)
def test_bad_options_are_config_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        RenderOptions(**options)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_dead_end_cells_may_be_pairs_arrays_or_masks() -> None:
    maze = read(SMALL_42)
    real, _ = _dead_ends(maze)
    as_pairs = ([(int(x), int(y)) for y, x in np.argwhere(real)], [])
    as_array = (np.argwhere(real)[:, ::-1], np.zeros((0, 2), dtype=int))
    cells = [build_scene(maze, RenderOptions(dead_ends=d)).cells for d in (as_pairs, as_array)]
    masks = build_scene(maze, RenderOptions(dead_ends=(real, np.zeros_like(real)))).cells
    assert (cells[0] == masks).all() and (cells[1] == masks).all()
    with pytest.raises(ConfigError, match=r"cell \(9,0\) is outside the 9x7 grid"):
        build_scene(maze, RenderOptions(dead_ends=([(9, 0)], [])))


def _dead_ends(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """mazekit.pacman.dead_ends as two boolean masks (real, enclosed)."""
    found = dead_ends(maze)
    masks = np.zeros((2, maze.height, maze.width), dtype=bool)
    for index, cells in enumerate(found):
        for x, y in cells:
            masks[index, y, x] = True
    return masks[0], masks[1]


# --- colours -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rgb"),
    [("#fff", WHITE), ("#1E90ff", BLUE), ("Magenta", MAGENTA), (" grey ", GRAY)],
)
def test_colour_spellings(text: str, rgb: tuple[int, int, int]) -> None:
    assert parse_color(text) == rgb


@pytest.mark.parametrize("text", ["", "#12", "#12345g", "rgb(1,2,3)", "blu"])
def test_bad_colour_spellings(text: str) -> None:
    with pytest.raises(ValueError, match="is not a colour: use #RGB, #RRGGBB or a name"):
        parse_color(text)


# --- dead ends, as mazekit.pacman classifies them for --dead-ends ---------------------------


def brute_force_dead_ends(maze: Maze) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The definition, cell by cell: one open wall; enclosed when no closed wall can open."""
    from mazekit.pattern import pattern_cells
    from mazekit.search import distances

    pattern = set(pattern_cells(maze.width, maze.height))
    reached = distances(maze.walls, maze.entry)
    sides = ((1, 0, -1, 4), (2, 1, 0, 8), (4, 0, 1, 1), (8, -1, 0, 2))
    real, enclosed = set(), set()
    for y in range(maze.height):
        for x in range(maze.width):
            if (x, y) in pattern or reached[y * maze.width + x] < 0:
                continue
            open_count, openable = 0, False
            for bit, dx, dy, opposite in sides:
                nx, ny = x + dx, y + dy
                inside = 0 <= nx < maze.width and 0 <= ny < maze.height
                if inside and not maze.walls[y, x] & bit and not maze.walls[ny, nx] & opposite:
                    open_count += 1
                elif inside and (nx, ny) not in pattern:
                    openable = True
            if open_count == 1:
                (real if openable else enclosed).add((x, y))
    return real, enclosed


@pytest.mark.parametrize("source", [MAZE, SMALL_42])
def test_dead_end_classification_matches_the_definition(source: Path) -> None:
    maze = read(source)
    real, enclosed = _dead_ends(maze)
    expected_real, expected_enclosed = brute_force_dead_ends(maze)
    assert {(int(x), int(y)) for y, x in np.argwhere(real)} == expected_real
    assert {(int(x), int(y)) for y, x in np.argwhere(enclosed)} == expected_enclosed
    assert len(expected_enclosed) >= 2  # the two cells trapped in the "2"


def test_a_corridor_end_against_the_border_is_real_unless_boxed_in() -> None:
    walls = closed_grid(3, 1)
    open_wall(walls, 0, 0, "E")
    open_wall(walls, 1, 0, "E")
    real, enclosed = _dead_ends(Maze(walls, (0, 0), (2, 0), "EE"))
    # (0,0) and (2,0): every closed wall faces the border, so they are enclosed.
    assert not real.any() and enclosed.tolist() == [[True, False, True]]


# --- the Python API ------------------------------------------------------------------------


def test_api_writes_files_by_extension(tmp_path: Path) -> None:
    maze = read(MAZE)
    for name in ("a.png", "b.SVG", "c.txt"):
        mazekit.render(maze, tmp_path / name)
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "b.SVG").read_text().startswith("<?xml")
    assert (tmp_path / "c.txt").read_text().startswith("+--+")
    mazekit.render(maze, str(tmp_path / "d.out"), format="svg", theme="dark")
    assert "#111111" in (tmp_path / "d.out").read_text()


def test_api_writes_streams_with_a_format() -> None:
    stream = io.BytesIO()
    mazekit.render(read(MAZE), stream, format="text", charset="unicode")
    assert stream.getvalue().decode().startswith("┌")
    with pytest.raises(ConfigError, match="cannot tell the format of 'a stream'"):
        mazekit.render(read(MAZE), io.BytesIO())


def test_api_refuses_unknown_names_and_options(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        mazekit.render(read(MAZE), tmp_path / "maze.gif")
    assert str(caught.value) == (
        f"format: cannot tell the format of '{tmp_path / 'maze.gif'}': give format='png', "
        "'svg', 'text' or 'html', or a .png, .svg, .txt or .html name"
    )
    with pytest.raises(TypeError):
        mazekit.render(read(MAZE), tmp_path / "maze.png", colour="red")


@given(
    colors=st.integers(1, 20),
    width=st.integers(1, 23),
    height=st.integers(1, 9),
    seed=st.integers(0, 2**32),
)
def test_the_png_encoder_gives_back_every_pixel_and_colour(
    colors: int, width: int, height: int, seed: int
) -> None:
    """Pillow reads mazekit's own PNG as the very indices and palette, at 1, 2, 4 and 8 bits
    a pixel, odd widths and repeated rows included."""
    from PIL import Image

    from mazekit.drawing.png import encode_png

    generator = np.random.default_rng(seed)
    pixels = generator.integers(0, colors, size=(height, width), dtype=np.uint8)
    pixels[1::3] = pixels[::3][: pixels[1::3].shape[0]]  # rows equal to the row above
    palette = [tuple(int(c) for c in generator.integers(0, 256, size=3)) for _ in range(colors)]
    with Image.open(io.BytesIO(encode_png(pixels, palette))) as image:
        assert image.mode == "P" and image.size == (width, height)
        assert np.array_equal(np.asarray(image), pixels)
        assert image.getpalette()[: 3 * colors] == [c for rgb in palette for c in rgb]
