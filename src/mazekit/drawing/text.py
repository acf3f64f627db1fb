"""Terminal pictures: the Scene as lines of characters, two per cell, optionally in ANSI colour.

Each cell is two characters between one-character wall columns, and each row sits between
wall lines; ``ascii`` draws ``+--+`` and ``|``, ``unicode`` draws box-drawing lines that join
(double lines for a Pac-Man board, whose sprites get two-character marks of their own).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import numpy as np
import numpy.typing as npt

from .scene import Charset, Scene, path_mask
from .theme import Ink

__all__ = ["ANSI", "MARKS", "render_text", "text_lines"]

# The board's sprites (pacman theme), the same in both charsets.
_SPRITE_MARKS: Final[dict[Ink, str]] = {
    Ink.DOT: " .",
    Ink.ENERGIZER: "()",
    Ink.PLAYER: "@@",
    Ink.GHOST_RED: "GR",
    Ink.GHOST_PINK: "GP",
    Ink.GHOST_CYAN: "GC",
    Ink.GHOST_ORANGE: "GO",
}

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
        **_SPRITE_MARKS,
    },
    "unicode": {
        Ink.BACKGROUND: "  ",
        Ink.PATTERN: "\u2588\u2588",  # full blocks
        Ink.DEAD_END: "DE",
        Ink.ENCLOSED: "de",
        Ink.ENTRY: "EN",
        Ink.EXIT: "EX",
        Ink.PATH: "\u00b7\u00b7",  # middle dots
        **_SPRITE_MARKS,
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
    Ink.DOT: "33",  # yellow
    Ink.ENERGIZER: "1;33",  # bold yellow
    Ink.PLAYER: "1;93",  # bold bright yellow
    Ink.GHOST_RED: "1;91",
    Ink.GHOST_PINK: "1;95",
    Ink.GHOST_CYAN: "1;96",
    Ink.GHOST_ORANGE: "1;33",
}

# Box-drawing junctions indexed by the arms present: N 1, E 2, S 4, W 8.
_JUNCTIONS = (
    " \u2575\u2576\u2514\u2577\u2502\u250c\u251c\u2574\u2518\u2500\u2534\u2510\u2524\u252c\u253c"
)

# The same for double lines (a board); a lone arm has no double half-line: a whole one.
_DOUBLE_JUNCTIONS = (
    " \u2551\u2550\u255a\u2551\u2551\u2554\u2560\u2550\u255d\u2550\u2569\u2557\u2563\u2566\u256c"
)

_LINES: Final[dict[Charset, tuple[str, str, str]]] = {
    # (horizontal wall, vertical wall, no wall) pieces; corners are computed
    "ascii": ("--", "|", " "),
    "unicode": ("\u2500\u2500", "\u2502", " "),
}


def _corners(scene: Scene, charset: Charset) -> npt.NDArray[np.object_]:
    """The (H + 1) x (W + 1) corner characters (double-line junctions on a board)."""
    rows, columns = scene.cells.shape
    if charset == "ascii":
        return np.full((rows + 1, columns + 1), "+", dtype=object)
    arms = np.zeros((rows + 1, columns + 1), dtype=np.uint8)
    h_walls, v_walls = scene.h_walls.astype(np.uint8), scene.v_walls.astype(np.uint8)
    arms[1:, :] |= v_walls * 1  # north arm: the wall line above the corner
    arms[:, :-1] |= h_walls * 2  # east arm
    arms[:-1, :] |= v_walls * 4  # south arm
    arms[:, 1:] |= h_walls * 8  # west arm
    junctions = _DOUBLE_JUNCTIONS if scene.outline else _JUNCTIONS
    return np.array(list(junctions), dtype=object)[arms]


def _contents(scene: Scene, charset: Charset, ansi: bool) -> npt.NDArray[np.object_]:
    """The H x W two-character cell contents: entry and exit, then path, then sprites, then
    other inks."""
    codes = scene.cells.copy()
    if scene.sprites is not None:
        placed = scene.sprites != 0
        codes[placed] = scene.sprites[placed]
    on_path = path_mask(scene)
    codes[on_path & (codes != Ink.ENTRY) & (codes != Ink.EXIT)] = Ink.PATH
    tokens = []
    for ink in Ink:
        mark = MARKS[charset].get(ink, "  ")
        if ansi and ink in ANSI:
            mark = f"\x1b[{ANSI[ink]}m{mark}\x1b[0m"
        tokens.append(mark)
    return np.array(tokens, dtype=object)[codes]


def text_lines(scene: Scene, charset: Charset = "ascii", ansi: bool = False) -> Iterator[str]:
    """The text picture of ``scene`` one line at a time, each with its newline: a wall line,
    then a cell row, and so on. Lines are made as they are asked for, so a large maze is
    written without ever holding the whole picture."""
    rows, columns = scene.cells.shape
    horizontal, vertical, blank = _LINES[charset]
    if scene.outline and charset == "unicode":
        horizontal, vertical = "\u2550\u2550", "\u2551"
    corners = _corners(scene, charset)
    contents = _contents(scene, charset, ansi)
    across = np.array([blank * 2, horizontal], dtype=object)  # indexed by "wall closed"
    down = np.array([blank, vertical], dtype=object)
    line = np.empty(2 * columns + 1, dtype=object)
    for j in range(rows + 1):
        line[0::2] = corners[j]
        line[1::2] = across[scene.h_walls[j].view(np.uint8)]
        yield "".join(line.tolist()) + "\n"
        if j < rows:
            line[0::2] = down[scene.v_walls[j].view(np.uint8)]
            line[1::2] = contents[j]
            yield "".join(line.tolist()) + "\n"


def render_text(scene: Scene, charset: Charset = "ascii", ansi: bool = False) -> str:
    """The text picture of ``scene``, one line per wall line and per cell row."""
    return "".join(text_lines(scene, charset, ansi))
