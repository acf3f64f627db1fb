"""``render --heat`` shows the heat (issue 24): no path over the glowing cells unless --path
asks for one, a legend line saying what the rings are, and on the pacman theme a legend one
can read and no dots or actors over the colours."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mazekit.drawing.heat import MARKED
from tests.conftest import Invoke

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PERFECT = SAMPLES / "valid-20x15-perfect.txt"  # a path line
BOARD = SAMPLES / "valid-30x20-board.txt"  # a Pac-Man board, with a path line
LIGHT_PATH = (30, 144, 255)
SPRITES = {  # dots, energizers, the player and the four ghosts in the pacman theme
    (255, 184, 151),
    (255, 255, 0),
    (255, 0, 0),
    (255, 184, 255),
    (0, 255, 255),
    (255, 184, 82),
}


def _png(invoke: Invoke, args: list[str]) -> np.ndarray:
    result = invoke(["render", *args, "--format", "png", "-o", "-"])
    assert result.exit_code == 0, result.stderr
    return np.asarray(Image.open(io.BytesIO(result.stdout_bytes)).convert("RGB"))


def _colours(picture: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(c) for c in np.unique(picture.reshape(-1, 3), axis=0).tolist()}


@pytest.mark.parametrize("kind", ["betweenness", "distance"])
def test_heat_draws_no_path_unless_asked(invoke: Invoke, kind: str) -> None:
    plain = _png(invoke, [str(PERFECT), "--heat", kind])
    assert LIGHT_PATH not in _colours(plain)
    assert np.array_equal(plain, _png(invoke, [str(PERFECT), "--heat", kind, "--no-path"]))
    assert LIGHT_PATH in _colours(_png(invoke, [str(PERFECT), "--heat", kind, "--path"]))


def test_the_legend_says_what_the_rings_are(invoke: Invoke) -> None:
    picture = _png(invoke, [str(PERFECT), "--heat", "betweenness"])
    maze_height = 8 * 2 + 15 * 16 + 2
    bar = max(8, 16 // 2)
    ring_line = picture[maze_height + 4 + bar + 1 + 14 :]
    # the sample ring, white edged in the wall ink, then the words in black
    assert (ring_line == (255, 255, 255)).all(axis=2)[:, 8:20].any()
    words = (ring_line < 90).all(axis=2)[:, 24:]  # dark, anti-aliased
    assert words.any() and np.nonzero(words.any(axis=0))[0].max() > 60  # a line of text
    svg = invoke(["render", str(PERFECT), "--heat", "betweenness", "--format", "svg"]).stdout
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert f"ringed: the top {MARKED} cells" in texts
    # a distance map rings nothing and says nothing about rings
    svg = invoke(["render", str(PERFECT), "--heat", "distance", "--format", "svg"]).stdout
    assert "ringed" not in svg


def test_pacman_heat_has_a_readable_legend_and_nothing_over_the_heat(invoke: Invoke) -> None:
    picture = _png(invoke, [str(BOARD), "--heat", "betweenness", "--theme", "pacman"])
    assert not _colours(picture) & SPRITES  # no dots, energizers, player or ghosts
    maze_height = 8 * 2 + 20 * 16 + 2
    labels = picture[maze_height + 4 + 8 + 1 : maze_height + 4 + 8 + 1 + 14]
    # white labels on the black background (the blue of the walls is too dim for text)
    assert (labels > 200).all(axis=2).sum() > 50  # light, anti-aliased
    assert not (labels == (33, 33, 255)).all(axis=2).any()
    svg = invoke(["render", str(BOARD), "--heat", "betweenness", "--theme", "pacman", "-o", "-"])
    assert svg.exit_code == 2  # no format from "-": a usage error, as ever


def test_pacman_heat_svg_has_no_sprites(invoke: Invoke) -> None:
    args = ["render", str(BOARD), "--theme", "pacman", "--format", "svg"]
    plain = invoke(args).stdout
    heat = invoke([*args, "--heat", "betweenness"]).stdout
    assert "#ffb897" in plain  # the board draws its dots
    assert "#ffb897" not in heat and 'fill="#ffffff" font' not in heat
    assert 'font-size="11" fill="#ffffff"' in heat  # the legend in white on black


def _label_groups(row: np.ndarray, gap: int) -> int:
    """How many runs of inked columns a line of labels holds, runs closer than ``gap``
    background columns counted as one."""
    inked = np.flatnonzero(row)
    return 0 if inked.size == 0 else 1 + int((np.diff(inked) > gap).sum())


@pytest.mark.parametrize(
    ("maze", "kind"),
    [("valid-9x7-smallest-42.txt", "distance"), ("valid-2x1-tiny.txt", "betweenness")],
)
def test_legend_labels_never_overlap_on_a_small_maze(invoke: Invoke, maze: str, kind: str) -> None:
    """The subject's smallest "42" maze: `0`, the title and the largest value stay three
    labels apart (the picture widens, the maze centred), and the rings' line is whole."""
    picture = _png(invoke, [str(SAMPLES / maze), "--heat", kind])
    bar = np.flatnonzero((picture == (68, 1, 84)).all(axis=2).any(axis=1)).max()
    black = (picture[bar + 1 :] < 160).all(axis=2)  # the light theme's label ink
    assert _label_groups(black[:14].any(axis=0), gap=6) == 3
    assert not black[:, -1].any()  # nothing cut at the right edge
