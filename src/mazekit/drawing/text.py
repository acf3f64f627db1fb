"""Terminal pictures: the Scene as lines of characters, two per cell, optionally in ANSI colour.

Each cell is two characters between one-character wall columns, and each row sits between
wall lines; ``ascii`` draws ``+--+`` and ``|``, ``unicode`` draws box-drawing lines that join.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from .scene import Charset, Scene
from .theme import Ink

__all__ = ["ANSI", "MARKS", "render_text"]

# What a cell shows, per charset and ink (PATH: a path cell that is not the entry or exit).
MARKS: Final[dict[Charset, dict[Ink, str]]] = {
    "ascii": {
        Ink.BACKGROUND: "  ",
        Ink.PATTERN: "##",
        Ink.DEAD_END: "DE",
        Ink.ENCLOSED: "de",
        Ink.ENTRY: "EN",
        Ink.EXIT: "EX",
        Ink.PATH: "..",
    },
    "unicode": {
        Ink.BACKGROUND: "  ",
        Ink.PATTERN: "\u2588\u2588",  # full blocks
        Ink.DEAD_END: "DE",
        Ink.ENCLOSED: "de",
        Ink.ENTRY: "EN",
        Ink.EXIT: "EX",
        Ink.PATH: "\u00b7\u00b7",  # middle dots
    },
}

# SGR codes of the 16 standard terminal colours, so that the terminal's own theme applies.
ANSI: Final[dict[Ink, str]] = {
    Ink.PATTERN: "90",  # bright black: gray
    Ink.DEAD_END: "33",  # yellow (orange on many terminals)
    Ink.ENCLOSED: "93",  # bright yellow
    Ink.ENTRY: "1;35",  # bold magenta
    Ink.EXIT: "1;31",  # bold red
    Ink.PATH: "36",  # cyan
}

# Box-drawing junctions indexed by the arms present: N 1, E 2, S 4, W 8.
_JUNCTIONS = (
    " \u2575\u2576\u2514\u2577\u2502\u250c\u251c\u2574\u2518\u2500\u2534\u2510\u2524\u252c\u253c"
)

_LINES: Final[dict[Charset, tuple[str, str, str]]] = {
    # (horizontal wall, vertical wall, no wall) pieces; corners are computed
    "ascii": ("--", "|", " "),
    "unicode": ("\u2500\u2500", "\u2502", " "),
}


def _corners(scene: Scene, charset: Charset) -> npt.NDArray[np.object_]:
    """The (H + 1) x (W + 1) corner characters."""
    rows, columns = scene.cells.shape
    if charset == "ascii":
        return np.full((rows + 1, columns + 1), "+", dtype=object)
    arms = np.zeros((rows + 1, columns + 1), dtype=np.uint8)
    h_walls, v_walls = scene.h_walls.astype(np.uint8), scene.v_walls.astype(np.uint8)
    arms[1:, :] |= v_walls * 1  # north arm: the wall line above the corner
    arms[:, :-1] |= h_walls * 2  # east arm
    arms[:-1, :] |= v_walls * 4  # south arm
    arms[:, 1:] |= h_walls * 8  # west arm
    return np.array(list(_JUNCTIONS), dtype=object)[arms]


def _contents(scene: Scene, charset: Charset, ansi: bool) -> npt.NDArray[np.object_]:
    """The H x W two-character cell contents: entry and exit, then path, then other inks."""
    codes = scene.cells.copy()
    on_path = np.zeros(codes.shape, dtype=bool)
    on_path[scene.path_y, scene.path_x] = True
    codes[on_path & (codes != Ink.ENTRY) & (codes != Ink.EXIT)] = Ink.PATH
    tokens = []
    for ink in Ink:
        mark = MARKS[charset].get(ink, "  ")
        if ansi and ink in ANSI:
            mark = f"\x1b[{ANSI[ink]}m{mark}\x1b[0m"
        tokens.append(mark)
    return np.array(tokens, dtype=object)[codes]


def render_text(scene: Scene, charset: Charset = "ascii", ansi: bool = False) -> str:
    """The text picture of ``scene``, one line per wall line and per cell row."""
    rows, columns = scene.cells.shape
    horizontal, vertical, blank = _LINES[charset]
    grid = np.empty((2 * rows + 1, 2 * columns + 1), dtype=object)
    grid[0::2, 0::2] = _corners(scene, charset)
    grid[0::2, 1::2] = np.where(scene.h_walls, horizontal, blank * 2)
    grid[1::2, 0::2] = np.where(scene.v_walls, vertical, blank)
    grid[1::2, 1::2] = _contents(scene, charset, ansi)
    return "".join("".join(line) + "\n" for line in grid.tolist())
