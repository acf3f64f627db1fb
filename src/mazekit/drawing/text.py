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

__all__ = [
    "ANSI",
    "MARKS",
    "ascii_chunks",
    "cell_inks",
    "compact_lines",
    "ink_rows",
    "render_text",
    "text_lines",
]

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


def cell_inks(scene: Scene) -> npt.NDArray[np.uint8]:
    """The H x W ink each cell shows in text: entry and exit, then path, then sprites, then
    other inks."""
    codes = scene.cells.copy()
    if scene.sprites is not None:
        placed = scene.sprites != 0
        codes[placed] = scene.sprites[placed]
    on_path = path_mask(scene)
    codes[on_path & (codes != Ink.ENTRY) & (codes != Ink.EXIT)] = Ink.PATH
    return codes


def ink_rows(scene: Scene) -> npt.NDArray[np.uint8]:
    """The ink of every character of render_text's lines, (2H + 1) x (3W + 1): WALL on wall
    lines and wall columns, the cell's ink on its two characters.

    A terminal program (``mazekit view``) colours render_text's own characters with it, so
    there is one drawing of a maze as text.
    """
    inks = cell_inks(scene)
    rows, columns = inks.shape
    roles = np.full((2 * rows + 1, 3 * columns + 1), Ink.WALL, dtype=np.uint8)
    roles[1::2, 1::3] = inks
    roles[1::2, 2::3] = inks
    return roles


def compact_lines(
    scene: Scene, charset: Charset = "ascii"
) -> tuple[list[str], npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
    """The picture in half the lines, for a terminal too short for text_lines: a top line,
    then one line per cell row, whose south walls are drawn as ``__`` under an empty cell.

    Returns the (H + 1) lines of 3W + 1 characters (a cell's two characters stay in the
    columns text_lines gives them), the ink of each character, and which characters stand on
    a south wall they hide (a mark in a walled cell: a terminal underlines them).
    """
    rows, columns = scene.cells.shape
    bar = _LINES[charset][1]
    contents = _contents(scene, charset, False)
    codes = cell_inks(scene)
    south = scene.h_walls[1:]
    empty = codes == Ink.BACKGROUND
    lines: list[str] = [
        " " + "".join(("__" if wall else "  ") + " " for wall in scene.h_walls[0].tolist())
    ]
    inks = np.full((rows + 1, 3 * columns + 1), Ink.WALL, dtype=np.uint8)
    under = np.zeros((rows + 1, 3 * columns + 1), dtype=bool)
    for y in range(rows):
        walls = scene.v_walls[y].tolist()
        floor = south[y].tolist()
        pieces = []
        for x in range(columns + 1):
            joined = 0 < x < columns and floor[x - 1] and floor[x]
            pieces.append(bar if walls[x] else ("_" if joined else " "))
            if x < columns:
                pieces.append(("__" if floor[x] else "  ") if empty[y, x] else contents[y, x])
        lines.append("".join(pieces))
    inks[1:, 1::3] = codes
    inks[1:, 2::3] = codes
    under[1:, 1::3] = south & ~empty
    under[1:, 2::3] = south & ~empty
    return lines, inks, under


def _contents(scene: Scene, charset: Charset, ansi: bool) -> npt.NDArray[np.object_]:
    """The H x W two-character cell contents, each cell's mark for its ink (cell_inks)."""
    codes = cell_inks(scene)
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


# Wall lines laid out at a time by ascii_chunks (with as many cell rows): about 1.5 MB of text
# for a maze 1000 cells wide.
ASCII_BLOCK = 256


def ascii_chunks(scene: Scene) -> Iterator[bytes]:
    """render_text(scene) in the ascii charset without colour, as bytes, a block of lines at
    a time: every character is one byte there, so numpy lays each line out at fixed columns
    (3 a cell), several times faster than joining a string per piece (text_lines)."""
    rows, columns = scene.cells.shape
    marks = np.array([list(MARKS["ascii"].get(ink, "  ").encode()) for ink in Ink], np.uint8)
    contents = marks[cell_inks(scene)]  # H x W x 2 characters
    dash, bar = np.frombuffer(b" -", np.uint8), np.frombuffer(b" |", np.uint8)
    end = 3 * columns  # the last corner or wall column; then the newline
    for top in range(0, rows + 1, ASCII_BLOCK):
        last = min(rows + 1, top + ASCII_BLOCK)  # wall lines top .. last - 1
        cell_rows = min(last, rows) - top  # each after its wall line
        block = np.empty((last - top + cell_rows, end + 2), dtype=np.uint8)
        block[:, -1] = ord("\n")
        walls, cells = block[0::2], block[1::2]
        across = dash[scene.h_walls[top:last].view(np.uint8)]
        walls[:, 0 : end + 1 : 3] = ord("+")
        walls[:, 1:end:3] = across
        walls[:, 2:end:3] = across
        cells[:, 0 : end + 1 : 3] = bar[scene.v_walls[top : top + cell_rows].view(np.uint8)]
        cells[:, 1:end:3] = contents[top : top + cell_rows, :, 0]
        cells[:, 2:end:3] = contents[top : top + cell_rows, :, 1]
        yield block.tobytes()


def render_text(scene: Scene, charset: Charset = "ascii", ansi: bool = False) -> str:
    """The text picture of ``scene``, one line per wall line and per cell row."""
    return "".join(text_lines(scene, charset, ansi))
