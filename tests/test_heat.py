"""``render --heat``: the colour map, the painted cells, the rings and the legend, looked at
pixel by pixel in the PNG and element by element in the SVG."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mazekit.drawing.heat import COLORMAP, MARKED, colors_for, heat_for
from mazekit.graph import betweenness
from mazekit.textformat import dump, parse
from tests.conftest import Invoke, serpentine

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
BOARD = SAMPLES / "valid-30x20-board.txt"


def _png(invoke: Invoke, args: list[str], text: str) -> np.ndarray:
    result = invoke(["render", *args, "--format", "png", "-o", "-", "-"], input=text)
    assert result.exit_code == 0, result.stderr
    return np.asarray(Image.open(io.BytesIO(result.stdout_bytes)).convert("RGB"))


def _maze_only(invoke: Invoke, picture: np.ndarray, args: list[str], text: str) -> np.ndarray:
    """The columns of a heat picture that hold the maze: a legend wider than a small maze
    widens the picture and centres the maze in it."""
    plain = _png(invoke, [a for a in args if a not in ("betweenness", "distance", "--heat")], text)
    shift = (picture.shape[1] - plain.shape[1]) // 2
    return picture[:, shift : shift + plain.shape[1]]


def _centre(picture: np.ndarray, x: int, y: int, cell: int = 16, margin: int = 8) -> tuple:
    half = 2 + (cell - 2) // 2
    return tuple(picture[margin + y * cell + half, margin + x * cell + half].tolist())


def test_colormap_runs_from_dark_purple_to_yellow_getting_lighter() -> None:
    ends = colors_for([0.0, 1.0])
    assert tuple(ends[0]) == COLORMAP[0] and tuple(ends[1]) == COLORMAP[-1]
    ramp = colors_for(np.linspace(0, 1, 50)).astype(float)
    lightness = ramp @ np.array([0.2126, 0.7152, 0.0722])
    assert np.all(np.diff(lightness) > 0)  # perceptual order: every step is lighter


def test_betweenness_heat_paints_each_cell_and_rings_the_bottlenecks(invoke: Invoke) -> None:
    text = BOARD.read_text()
    picture = _png(invoke, ["--heat", "betweenness", "--no-path"], text)
    maze = parse(text)
    found = betweenness(maze)
    peak = found.cells.max()
    marked = {cell for cell, _ in found.top_cells(MARKED)}
    assert len(marked) == MARKED
    for x, y in [(5, 5), (10, 3), (20, 12), (1, 19)]:
        if (x, y) in marked:
            continue
        expected = tuple(colors_for(found.cells[y, x] / peak).tolist())
        assert _centre(picture, x, y) == expected
    for x, y in marked:  # a white ring just inside the cell, edged in the wall ink
        left, top = 8 + x * 16 + 2, 8 + y * 16 + 2
        assert tuple(picture[top, left + 7].tolist()) == (0, 0, 0)
        assert tuple(picture[top + 1, left + 7].tolist()) == (255, 255, 255)
    # the "42" keeps its gray; the legend bar runs through the colour map below the maze
    assert _centre(picture, 11, 7) == (128, 128, 128)
    height = 8 * 2 + 20 * 16 + 2
    bar = picture[height + 4]
    assert tuple(bar[8].tolist()) == COLORMAP[0]
    assert tuple(bar[picture.shape[1] - 9].tolist()) == COLORMAP[-1]


def test_distance_heat_grows_along_a_corridor(invoke: Invoke) -> None:
    corridor = serpentine(6, 2)
    args = ["--heat", "distance", "--no-path"]
    picture = _maze_only(invoke, _png(invoke, args, dump(corridor)), args, dump(corridor))
    heat = heat_for(corridor, "distance")
    assert heat.high == "11 steps" and heat.marked == ()
    lightness = [
        float(np.dot(_centre(picture, x, 0), [0.2126, 0.7152, 0.0722])) for x in range(1, 6)
    ]
    assert lightness == sorted(lightness) and lightness[0] < lightness[-1]


def test_svg_heat_has_the_cells_rings_and_a_legend(invoke: Invoke) -> None:
    result = invoke(["render", "--heat", "betweenness", "--format", "svg", str(BOARD)])
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(result.stdout)
    ns = "{http://www.w3.org/2000/svg}"
    assert int(root.get("height")) > 8 * 2 + 20 * 16 + 2
    fills = [p.get("fill") for p in root.iter(f"{ns}path")]
    assert "#440154" in fills or len(fills) > 10  # many colour levels, one path each
    rings = [r for r in root.iter(f"{ns}rect") if r.get("stroke") == "#ffffff"]
    assert len(rings) == MARKED + 1  # and one in the legend
    stops = [s.get("stop-color") for s in root.iter(f"{ns}stop")]
    assert stops[0] == "#440154" and stops[-1] == "#fde725"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert texts == ["0", "betweenness", "30.49%", "ringed: the top 5 cells"]


@pytest.mark.parametrize(
    "where", [[], ["--format", "text"], ["--format", "html"], ["-o", "b.html"]]
)
def test_heat_needs_png_or_svg(invoke: Invoke, tmp_path: Path, where: list[str]) -> None:
    """Text and the page are refused as usage (the page once reached the drawing: an internal
    error), and nothing is written."""
    where = [str(tmp_path / w) if w.endswith(".html") else w for w in where]
    result = invoke(["render", "--heat", "distance", str(BOARD), *where])
    assert list(tmp_path.iterdir()) == []
    assert result.exit_code == 2
    assert "Error: --heat draws png or svg: name the output .png or .svg" in result.stderr
    assert "internal error" not in result.stderr


@pytest.mark.parametrize("kind", ["betweenness", "distance"])
def test_nothing_reachable_draws_no_heat(kind: str) -> None:
    maze = serpentine(3, 1)
    maze.entry = (9, 9)
    heat = heat_for(maze, kind)
    assert np.isnan(heat.values).all()


@pytest.mark.parametrize(("cell", "wall"), [(4, 2), (3, 1), (3, 2)])
def test_bottlenecks_of_tiny_cells_are_filled_white(invoke: Invoke, cell: int, wall: int) -> None:
    """A cell 1-2 px inside its walls has no room for a ring: the whole cell goes white."""
    text = BOARD.read_text()
    options = ["--heat", "betweenness", "--no-path", "--cell", str(cell), "--wall", str(wall)]
    picture = _maze_only(invoke, _png(invoke, options, text), options, text)
    side = cell - wall
    found = betweenness(parse(text))
    for x, y in (cell for cell, _ in found.top_cells(MARKED)):
        left, top = 8 + x * cell + wall, 8 + y * cell + wall
        assert (picture[top : top + side, left : left + side] == 255).all()
