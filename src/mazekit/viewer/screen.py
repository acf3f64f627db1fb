"""The curses side of ``mazekit view``: paint a Viewer, read keys, and own the terminal.

curses.wrapper restores the terminal however the loop ends (q, Esc, an exception, Ctrl-C's
KeyboardInterrupt); SIGTERM and SIGHUP are turned into SystemExit for the same way out. A
resize arrives as KEY_RESIZE and is simply painted again. Colours follow render's ANSI codes
(drawing.text.ANSI) on 8-, 16- and 256-colour terminals; NO_COLOR or a terminal without
colours leaves only bold.
"""

from __future__ import annotations

import curses
import locale
import os
import signal
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Final

from ..drawing.text import ANSI
from ..drawing.theme import Ink
from .state import (
    DIM,
    KEYS,
    PATTERN_SHADES,
    TICK_SECONDS,
    UNDERLINE,
    WALL_SHADES,
    Shade,
    Viewer,
)

__all__ = [
    "MIN_COLUMNS",
    "MIN_ROWS",
    "fit_color",
    "fit_line",
    "help_lines",
    "run",
    "shade_color",
    "terminal_problem",
]

# Smaller than this, the viewer shows only a message saying so (two lines are the status).
MIN_COLUMNS: Final = 40
MIN_ROWS: Final = 6
# How long getch waits when nothing runs, in milliseconds: the latest a resize is drawn.
_IDLE_MS: Final = 200

_KEY_NAMES: Final[dict[int, str]] = {
    curses.KEY_UP: "UP",
    curses.KEY_DOWN: "DOWN",
    curses.KEY_LEFT: "LEFT",
    curses.KEY_RIGHT: "RIGHT",
    curses.KEY_PPAGE: "PPAGE",
    curses.KEY_NPAGE: "NPAGE",
    curses.KEY_HOME: "HOME",
    27: "ESC",
}


def terminal_problem() -> str | None:
    """Why curses cannot drive this terminal (an unknown TERM), or None when it can."""
    try:
        curses.setupterm(None, 1)
    except curses.error as error:
        return str(error)
    return None


def _sgr(code: str) -> tuple[int, bool]:
    """The colour index (0-15) and boldness of one of render's SGR codes (``1;35``, ``90``)."""
    color, bold = -1, False
    for part in code.split(";"):
        number = int(part)
        if number == 1:
            bold = True
        elif 30 <= number <= 37:
            color = number - 30
        elif 90 <= number <= 97:
            color = number - 90 + 8
    return color, bold


def fit_color(index: int, colors: int) -> tuple[int, bool]:
    """The colour a terminal with ``colors`` colours (0: colours off) shows for ``index``, and
    whether in bold: a bright colour (8-15) on an 8-colour terminal is its base colour in bold;
    -1 is the terminal's own colour."""
    if colors == 0 or index < 0:
        return -1, False
    if index >= colors:
        return index % 8, True
    return index, False


def shade_color(shade: Shade, colors: int) -> int:
    """The colour index of a shade: its 256-colour one where the terminal has 256 colours."""
    return shade.fine if colors >= 256 else shade.base


class Palette:
    """curses attributes per ink, from one colour pair per foreground colour."""

    def __init__(self, colors: int) -> None:
        # colors: how many the terminal has, 0 when colours are off (NO_COLOR, a mono terminal)
        self.colors = colors
        self._pairs: dict[int, int] = {}

    def _color(self, index: int) -> int:
        """The attribute of a foreground colour index (0-255; -1: the terminal's own)."""
        index, bold = fit_color(index, self.colors)
        weight = curses.A_BOLD if bold else 0
        if index < 0:
            return weight
        if index not in self._pairs:
            number = len(self._pairs) + 1
            if number >= curses.COLOR_PAIRS:
                return weight
            curses.init_pair(number, index, -1)
            self._pairs[index] = number
        return curses.color_pair(self._pairs[index]) | weight

    def _shade(self, shade: Shade) -> int:
        """The attribute of a shade of the wall or "42" rotation."""
        return self._color(shade_color(shade, self.colors))

    def attribute(self, ink: int, wall: Shade, pattern: Shade) -> int:
        """The attribute characters of ``ink`` are drawn with, its DIM and UNDERLINE flags
        included."""
        flags = (curses.A_DIM if ink & DIM else 0) | (curses.A_UNDERLINE if ink & UNDERLINE else 0)
        return self._attribute(ink & ~(DIM | UNDERLINE), wall, pattern) | flags

    def _attribute(self, ink: int, wall: Shade, pattern: Shade) -> int:
        """The attribute of a plain ink."""
        if ink == Ink.WALL:
            return self._shade(wall)
        if ink == Ink.PATTERN:
            return self._shade(pattern)
        code = ANSI.get(Ink(ink))
        if code is None:
            return 0
        color, bold = _sgr(code)
        return self._color(color) | (curses.A_BOLD if bold else 0)


def fit_line(text: str, width: int) -> str:
    """``text`` within ``width`` characters: cut in the middle, not at the end, when it ends
    with advice in brackets (``... (use --starts corners or --place)``), so that the part a
    user acts on stays on the screen; else cut at the end."""
    if len(text) <= width:
        return text
    advice = text.rfind(" (")
    if text.endswith(")") and advice > 0:
        tail = text[advice:]
        room = width - len(tail) - 3
        if room >= 10:
            return f"{text[:room].rstrip()}...{tail}"
    return text[:width]


def _put(window: curses.window, y: int, x: int, text: str, attribute: int = 0) -> None:
    """Write text, ignoring the error curses raises for the screen's last cell."""
    with suppress(curses.error):
        window.addstr(y, x, text, attribute)


def _paint_maze(window: curses.window, viewer: Viewer, palette: Palette, rows: int) -> None:
    """The visible part of the picture, run by run of characters of one ink."""
    lines, inks = viewer.picture()
    _, columns = viewer.viewport
    wall, pattern = WALL_SHADES[viewer.wall_shade], PATTERN_SHADES[viewer.pattern_shade]
    attributes: dict[int, int] = {}
    for row in range(min(rows, len(lines) - viewer.top)):
        y = viewer.top + row
        text = lines[y][viewer.left : viewer.left + columns]
        ink_row = inks[y, viewer.left : viewer.left + len(text)].tolist()
        start = 0
        for end in range(1, len(text) + 1):
            if end == len(text) or ink_row[end] != ink_row[start]:
                ink = ink_row[start]
                if ink not in attributes:
                    attributes[ink] = palette.attribute(ink, wall, pattern)
                _put(window, row, start, text[start:end], attributes[ink])
                start = end


# Box corners and sides of the help, per charset: curses' own border() uses the terminal's
# line-drawing mode, which --charset ascii promises not to need.
_BOX: Final[dict[str, tuple[str, ...]]] = {
    "unicode": tuple("\u250c\u2510\u2514\u2518\u2500\u2502"),
    "ascii": tuple("++++-|"),
}


_HELP_TITLE: Final = "mazekit view: keys"
_HELP_END: Final = "any key closes"
_HELP_GAP: Final = "   "  # between two columns of keys


def help_lines(rows: int, columns: int) -> list[str]:
    """The help's lines for a box of at most ``rows`` x ``columns`` (its border included): the
    title, the keys in one column, or two where only two fit the height, and "any key closes";
    where not even two columns fit, as many keys as do and a last line counting the rest."""
    key_width = max(len(key) for key, _ in KEYS)
    entries = [f"{key:<{key_width}}  {text}" for key, text in KEYS]
    entry_width = max(map(len, entries))
    room = rows - 2  # lines inside the border
    for across in (1, 2):
        down = -(-len(entries) // across)
        width = across * entry_width + (across - 1) * len(_HELP_GAP)
        if down + 2 <= room and width + 4 <= columns:
            table = [
                _HELP_GAP.join(f"{entry:<{entry_width}}" for entry in entries[row::down]).rstrip()
                for row in range(down)
            ]
            return [_HELP_TITLE, *table, _HELP_END]
    shown = max(0, room - 2)
    more = f"+{len(entries) - shown} more keys in a taller terminal"
    return [_HELP_TITLE, *entries[:shown], more][: max(room, 1)]


def _paint_help(window: curses.window, charset: str, rows: int, columns: int) -> None:
    """The key list, boxed, over the top-left of the maze (rows x columns: the room it has)."""
    inside = help_lines(rows - 1, columns - 2)
    width = min(columns - 2, max(map(len, inside)) + 4)
    height = len(inside) + 2
    nw, ne, sw, se, across, down = _BOX[charset]
    _put(window, 1, 1, nw + across * (width - 2) + ne)
    for row, line in enumerate(inside, start=2):
        _put(
            window,
            row,
            1,
            f"{down} {line:<{width - 4}.{width - 4}} {down}",
            curses.A_BOLD if row == 2 else 0,
        )
    _put(window, height, 1, sw + across * (width - 2) + se)


def paint(window: curses.window, viewer: Viewer, palette: Palette) -> None:
    """Draw the whole screen: the maze, two status lines, the help when open."""
    rows, columns = window.getmaxyx()
    window.erase()
    if rows < MIN_ROWS or columns < MIN_COLUMNS:
        text = f"terminal too small: {columns}x{rows}, mazekit view needs {MIN_COLUMNS}x{MIN_ROWS}"
        for row, line in enumerate(textwrap.wrap(text, columns - 1)[:rows]):
            _put(window, row, 0, line)
        window.refresh()
        return
    viewer.viewport = (rows - 2, columns)
    viewer.clamp()
    _paint_maze(window, viewer, palette, rows - 2)
    _put(window, rows - 2, 0, viewer.status()[:columns].ljust(columns), curses.A_REVERSE)
    _put(window, rows - 1, 0, fit_line(viewer.hint(), columns - 1))
    if viewer.help_open:
        _paint_help(window, viewer.setup.charset, rows - 2, columns)
    window.refresh()


def _rest_of_sequence(window: curses.window) -> bool:
    """After an ESC: read away what came with it; True when something did (a key sequence)."""
    window.timeout(0)
    found = False
    while window.getch() != -1:
        found = True
    return found


def _loop(window: curses.window, viewer: Viewer) -> None:
    """Paint, wait for a key (or the next tick while the chasers run), apply it; until quit."""
    with suppress(curses.error):  # a terminal that cannot hide its cursor keeps it
        curses.curs_set(0)
    curses.set_escdelay(25)
    window.keypad(True)
    colors = 0
    if curses.has_colors():
        curses.use_default_colors()  # pair 0 is then the terminal's own colours, not white on black
        colors = 0 if os.environ.get("NO_COLOR") else curses.COLORS
    palette = Palette(colors)
    stale = True
    while True:
        if stale:
            paint(window, viewer, palette)
        # Never block for long: a resize signalled just before getch would otherwise wait for
        # the next key to be seen (ncurses checks for one only when getch starts).
        window.timeout(int(TICK_SECONDS * 1000) if viewer.running else _IDLE_MS)
        key = window.getch()
        stale = key != -1 or viewer.running
        if key == -1:
            if viewer.running:
                viewer.advance()
            continue
        if key == curses.KEY_RESIZE:
            curses.update_lines_cols()
            continue
        if key == 27 and _rest_of_sequence(window):
            continue  # an escape sequence curses does not know, not the Esc key
        name = _KEY_NAMES.get(key, chr(key) if 0 <= key < 0x110000 else "")
        if not viewer.press(name):
            return


def _leave(signum: int, frame: FrameType | None) -> None:
    """SIGTERM or SIGHUP: leave through the normal way out, so the terminal is restored."""
    raise SystemExit(128 + signum)


@contextmanager
def _signals_end_the_viewer() -> Iterator[None]:
    """While the viewer runs, SIGTERM and SIGHUP raise SystemExit and Ctrl-C raises
    KeyboardInterrupt (exit 130 at the CLI's edge), so each leaves through curses.wrapper,
    which restores the terminal: the process's own Ctrl-C guard (mazekit.__main__) ends at
    once, which would leave the terminal raw. An ignored SIGINT stays ignored."""
    previous = {sig: signal.signal(sig, _leave) for sig in (signal.SIGTERM, signal.SIGHUP)}
    if signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(viewer: Viewer) -> None:
    """Show ``viewer`` full screen until q or Esc; the terminal is restored on every way out."""
    # curses writes box-drawing characters in the locale; one not installed here leaves the C
    # locale, with --charset ascii (cli.view tells the same way)
    with suppress(locale.Error):
        locale.setlocale(locale.LC_ALL, "")
    with _signals_end_the_viewer():
        curses.wrapper(_loop, viewer)
