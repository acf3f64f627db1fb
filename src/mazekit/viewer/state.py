"""What ``mazekit view`` shows and what each key does, as plain code with no terminal.

A Viewer holds the maze on screen, the generate Request that makes new ones (when there is
one), the display switches (path, colours, chasers), the scroll offset and the status texts;
press() applies one key. The picture is render_text's own lines with an ink per character
(drawing.text.ink_rows), so the viewer shows exactly what ``render --charset`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from ..drawing import RenderOptions, build_scene
from ..drawing.scene import Charset, Scene
from ..drawing.text import MARKS, compact_lines, ink_rows, text_lines
from ..drawing.theme import CHASER_INKS, Ink
from ..errors import MazeError
from ..generators import ALGORITHMS, Request, build, check, load_algorithm
from ..model import Maze
from ..pattern import TOO_SMALL_MESSAGE, fits
from ..rng import draw_seed
from ..rules import validate
from ..textformat import dump

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from ..chasers import ChaseOptions, Simulation, Tick, Trails

__all__ = [
    "DIM",
    "KEYS",
    "PATTERN_SHADES",
    "TICK_SECONDS",
    "UNDERLINE",
    "WALL_SHADES",
    "Setup",
    "Shade",
    "Viewer",
]


@dataclass(frozen=True)
class Shade:
    """A colour of the wall and "42" rotations: its name, its index among the 16 standard
    terminal colours (-1: the terminal's own), and among 256 colours where the terminal has them.
    """

    name: str
    base: int
    fine: int


# c and 4 rotate through these; the first of each is what `render --color always` uses.
WALL_SHADES: Final[tuple[Shade, ...]] = (
    Shade("default", -1, -1),
    Shade("blue", 12, 33),
    Shade("green", 10, 40),
    Shade("cyan", 14, 44),
    Shade("magenta", 13, 170),
    Shade("orange", 11, 208),
    Shade("red", 9, 196),
    Shade("white", 15, 231),
)
PATTERN_SHADES: Final[tuple[Shade, ...]] = (
    Shade("gray", 8, 8),  # render's ANSI 90, bright black
    Shade("gold", 11, 220),
    Shade("cyan", 6, 37),
    Shade("magenta", 5, 164),
    Shade("green", 2, 34),
    Shade("blue", 4, 27),
    Shade("red", 1, 160),
)


# The arcade's pace, as specs/chase.md times its schedule: 8 ticks a second.
TICK_SECONDS: Final = 1 / 8

# The keys and what they do, for the help screen and specs/view.md.
KEYS: Final[tuple[tuple[str, str], ...]] = (
    ("r", "a new maze with a new seed"),
    ("p", "show or hide the path"),
    ("c", "next wall colour"),
    ("4", 'next colour of the "42"'),
    ("a", "next algorithm, same seed"),
    ("g", "start or stop the chasers"),
    ("n", "one tick of the chasers"),
    ("s", "save the maze"),
    ("arrows", "scroll; PgUp, PgDn, Home"),
    ("?", "this help"),
    ("q, Esc", "quit"),
)
HELP_LINE: Final = 'r new  p path  c walls  4 "42"  a algo  g chase  n tick  s save  ? help  q quit'

# One step of scrolling, in cells: a cell is two text lines high (one in the compact
# drawing) and three characters wide.
_SCROLLS: Final[dict[str, tuple[int, int]]] = {
    "UP": (-1, 0),
    "DOWN": (1, 0),
    "LEFT": (0, -1),
    "RIGHT": (0, 1),
}

# Flags over a character's ink in the picture: drawn dim (the older half of a chaser's trail),
# underlined (a mark standing on a south wall in the compact drawing).
DIM: Final = 0x40
UNDERLINE: Final = 0x80
# What a chaser's trail shows on the cells it passed, per charset; one letter per actor when
# several share a cell.
_TRAIL_MARKS: Final[dict[str, str]] = {"unicode": "\u2591\u2591", "ascii": "::"}
_INITIALS: Final[dict[str, str]] = {"blinky": "B", "pinky": "P", "inky": "I", "clyde": "C"}


@dataclass(frozen=True)
class Setup:
    """What the command hands the viewer.

    ``maze``: the first maze (read, or made from ``request``: then ``generated``);
    ``request``: how r and a make new mazes, None when they cannot (``request_error`` says
    why); ``save_to``: where s writes (-o, or the config's OUTPUT_FILE), None for the default
    name; ``save(text, path)`` writes through the project's writer and returns an error
    message or None.
    """

    maze: Maze
    save: Callable[[str, str], str | None]
    request: Request | None = None
    generated: bool = False
    request_error: str | None = None
    save_to: str | None = None
    charset: Charset = "unicode"
    chase: ChaseOptions | None = None
    trail: int | None = None


def verdict(maze: Maze) -> str:
    """validate's verdict in a few words: ``valid``, or ``invalid:`` and the rules broken."""
    report = validate(maze)
    return "valid" if report.valid else "invalid: " + ", ".join(report.rules_broken())


class Viewer:
    """The state of one viewing session; every key goes through press()."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.maze = setup.maze
        self.request = setup.request
        self.generated = setup.generated
        self.show_path = True
        self.wall_shade = 0
        self.pattern_shade = 0
        self.help_open = False
        self.message = ""
        self.top = 0
        self.left = 0
        self.viewport = (24, 80)  # rows and columns the maze may use; the screen sets it
        self.running = False
        self.simulation: Simulation | None = None
        self.tick: Tick | None = None
        self.trails: Trails | None = None
        self.verdict = verdict(self.maze)
        self.compact = False  # the picture is the compact drawing: one line per cell row
        self._picture: tuple[list[str], npt.NDArray[np.uint8]] | None = None

    # --- what is shown -------------------------------------------------------------------

    def picture(self) -> tuple[list[str], npt.NDArray[np.uint8]]:
        """The maze as render_text's lines (or the compact drawing's, when render_text's do not
        fit the viewport), and the ink of each character with the DIM and UNDERLINE flags."""
        compact = self._needs_compact()
        if self._picture is None or compact != self.compact:
            self.compact = compact
            scene = self._scene()
            if compact:
                lines, inks, under = compact_lines(scene, self.setup.charset)
                inks[under] |= UNDERLINE
            else:
                lines = [line[:-1] for line in text_lines(scene, self.setup.charset)]
                inks = ink_rows(scene)
            self._picture = self._with_chase(lines, inks)
        return self._picture

    def _needs_compact(self) -> bool:
        """Whether render_text's picture is taller or wider than the viewport (where the
        compact one, half as tall, is drawn instead)."""
        rows, columns = self.viewport
        return 2 * self.maze.height + 1 > rows or 3 * self.maze.width + 1 > columns

    def _row(self, y: int) -> int:
        """The line of the picture holding cell row ``y``."""
        return y + 1 if self.compact else 2 * y + 1

    def _with_chase(
        self, lines: list[str], inks: npt.NDArray[np.uint8]
    ) -> tuple[list[str], npt.NDArray[np.uint8]]:
        """The chasers' trails, then the runner and the chasers, over the picture. A cell shows
        one actor's mark (``GR``, ``@@``), or the initials of two (``@B``), or the first one's
        initial and how many stand there (``B4``)."""
        if self.tick is None:
            return lines, inks
        chars = [list(line) for line in lines]

        def put(x: int, y: int, text: str, ink: tuple[int, int]) -> None:
            row, column = self._row(y), 3 * x + 1
            keep = int(inks[row, column]) & UNDERLINE
            chars[row][column : column + 2] = list(text)
            inks[row, column] = ink[0] | keep
            inks[row, column + 1] = ink[1] | keep

        mark = _TRAIL_MARKS[self.setup.charset]
        if self.trails is not None:
            for chaser in reversed(self.tick.chasers):  # blinky's trail on top
                cells = self.trails.cells(chaser.name)
                ink = CHASER_INKS[chaser.name]
                for i, (x, y) in enumerate(cells):  # oldest first, the newer over it
                    shown = int(inks[self._row(y), 3 * x + 1]) & ~(DIM | UNDERLINE)
                    if shown in (Ink.BACKGROUND, Ink.PATH) or shown in CHASER_INKS.values():
                        faded = ink | (DIM if 2 * i < len(cells) - 1 else 0)
                        put(x, y, mark, (faded, faded))
        actors: dict[tuple[int, int], list[tuple[str, str, int]]] = {}
        runner = (MARKS[self.setup.charset][Ink.PLAYER], "@", int(Ink.PLAYER))
        actors.setdefault(self.tick.runner, []).append(runner)
        for chaser in self.tick.chasers:
            ink = CHASER_INKS[chaser.name]
            entry = (MARKS[self.setup.charset][ink], _INITIALS[chaser.name], int(ink))
            actors.setdefault((chaser.x, chaser.y), []).append(entry)
        for (x, y), here in actors.items():
            if len(here) == 1:
                put(x, y, here[0][0], (here[0][2], here[0][2]))
            elif len(here) == 2:
                put(x, y, here[0][1] + here[1][1], (here[0][2], here[1][2]))
            else:
                put(x, y, here[0][1] + str(len(here)), (here[0][2], here[0][2]))
        return ["".join(line) for line in chars], inks

    def _scene(self) -> Scene:
        """The Scene of the maze, with the path when shown."""
        options = RenderOptions(format="text", charset=self.setup.charset, path=self.show_path)
        try:
            return build_scene(self.maze, options)
        except MazeError as error:  # no way to the exit, or a path line that leaves the grid
            self.message = f"path not shown: {error.message}"
            return build_scene(self.maze, replace(options, path=False))

    def visible(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The cells the view shows, ((first x, last x), (first y, last y)), when the picture
        does not fit the viewport; None when it shows the whole maze."""
        lines, _ = self.picture()
        rows, columns = self.viewport
        if len(lines) <= rows and len(lines[0]) <= columns:
            return None
        width, height = self.maze.width, self.maze.height
        if self.compact:
            first_y, last_y = self.top - 1, self.top + rows - 2
        else:
            first_y, last_y = self.top // 2, (self.top + rows - 2) // 2
        first_x, last_x = self.left // 3, (self.left + columns - 2) // 3
        return (
            (max(0, first_x), min(width - 1, last_x)),
            (max(0, first_y), min(height - 1, last_y)),
        )

    def status(self) -> str:
        """The first status line: size, seed, algorithm, verdict, path, and the chase's tick."""
        maze = self.maze
        parts = [f"{maze.width}x{maze.height}"]
        shown = self.visible()
        if shown is not None:
            (x0, x1), (y0, y1) = shown
            parts.append(f"showing x {x0}-{x1} y {y0}-{y1}")
        if self.generated and self.request is not None:
            kind = "perfect" if self.request.perfect else "imperfect"
            parts += [f"seed {self.request.seed}", self.request.algorithm, kind]
        else:
            parts.append("from a file")
        parts += [self.verdict, f"path {'on' if self.show_path else 'off'}"]
        if self.tick is not None:
            parts.append(f"tick {self.tick.tick} {self.tick.mode or ''}".rstrip())
        return "  ".join(parts)

    def hint(self) -> str:
        """The second status line: the last key's message; else, while the maze shown was
        generated without its "42", generate's warning (on every redraw, as the subject's
        program shows it); else the key help."""
        if self.message:
            return self.message
        if self.generated and not fits(self.maze.width, self.maze.height):
            return f"Error: {TOO_SMALL_MESSAGE}"
        return HELP_LINE

    def save_target(self) -> str:
        """Where s writes: -o or the config's OUTPUT_FILE, else a name from the seed."""
        if self.setup.save_to is not None:
            return self.setup.save_to
        if self.generated and self.request is not None:
            return f"maze-{self.request.seed}.txt"
        return "maze-view.txt"

    # --- keys ----------------------------------------------------------------------------

    def press(self, key: str) -> bool:
        """Apply one key (a character, or UP, DOWN, LEFT, RIGHT, PPAGE, NPAGE, HOME, ESC);
        False when the viewer should end."""
        if self.help_open:  # any key closes the help; q and Esc still quit
            self.help_open = False
            return key not in ("q", "ESC")
        if key in ("q", "ESC"):
            return False
        self.message = ""
        actions: dict[str, Callable[[], None]] = {
            "r": self.regenerate,
            "p": self.toggle_path,
            "c": self.next_wall_shade,
            "4": self.next_pattern_shade,
            "a": self.next_algorithm,
            "g": self.toggle_chase,
            "n": self.step_chase,
            "s": self.save,
            "?": self.open_help,
            "HOME": self.home,
        }
        if key in actions:
            actions[key]()
        elif key in _SCROLLS:
            down, across = _SCROLLS[key]
            self.scroll(down * (1 if self.compact else 2), across * 3)
        elif key in ("PPAGE", "NPAGE"):
            rows = max(2, self.viewport[0] - self.viewport[0] % 2)
            self.scroll(-rows if key == "PPAGE" else rows, 0)
        return True

    def _changed(self) -> None:
        """Forget the drawn picture: something it shows has changed."""
        self._picture = None

    def toggle_path(self) -> None:
        """p: show or hide the path (a shortest one when the file has none)."""
        self.show_path = not self.show_path
        self._changed()

    def next_wall_shade(self) -> None:
        """c: the next wall colour."""
        self.wall_shade = (self.wall_shade + 1) % len(WALL_SHADES)
        self.message = f"walls {WALL_SHADES[self.wall_shade].name}"

    def next_pattern_shade(self) -> None:
        """4: the next colour of the "42"."""
        self.pattern_shade = (self.pattern_shade + 1) % len(PATTERN_SHADES)
        self.message = f'"42" {PATTERN_SHADES[self.pattern_shade].name}'

    def open_help(self) -> None:
        """?: show the keys until the next key."""
        self.help_open = True

    def regenerate(self) -> None:
        """r: a new maze from the same settings and a new seed."""
        if self.request is not None:
            self._make(replace(self.request, seed=draw_seed()))
        else:
            self.message = f"cannot make a new maze: {self.setup.request_error}"

    def next_algorithm(self) -> None:
        """a: the same seed carved by the next algorithm (flood only for imperfect mazes)."""
        if self.request is None:
            self.message = f"cannot make a new maze: {self.setup.request_error}"
            return
        perfect = self.request.perfect
        names = [n for n in ALGORITHMS if not perfect or load_algorithm(n).PERFECT]
        current = names.index(self.request.algorithm) if self.request.algorithm in names else -1
        self._make(replace(self.request, algorithm=names[(current + 1) % len(names)]))

    def _make(self, request: Request) -> None:
        """Show the maze ``request`` makes, or say why it cannot be made."""
        try:
            check(request)
            maze = build(request)
        except MazeError as error:
            self.message = f"cannot make a new maze: {error.message}"
            return
        self.maze, self.request, self.generated = maze, request, True
        self.verdict = verdict(maze)
        self.simulation, self.tick, self.running, self.trails = None, None, False, None
        self.top = self.left = 0
        self._changed()

    def save(self) -> None:
        """s: write the maze file (with its path) through the project's writer."""
        target = self.save_target()
        error = self.setup.save(dump(self.maze), target)
        self.message = f"saved {target}" if error is None else f"not saved: {error}"

    # --- scrolling -----------------------------------------------------------------------

    def scroll(self, rows: int, columns: int) -> None:
        """Move the view by text lines and columns, kept inside the picture."""
        self.top += rows
        self.left += columns
        self.clamp()

    def home(self) -> None:
        """Home: back to the top-left corner."""
        self.top = self.left = 0

    def clamp(self) -> None:
        """Keep the offsets where the view still shows the picture (the screen may have shrunk)."""
        lines, _ = self.picture()
        rows, columns = self.viewport
        self.top = max(0, min(self.top, len(lines) - rows))
        self.left = max(0, min(self.left, len(lines[0]) - columns))

    # --- the chasers ---------------------------------------------------------------------

    def _simulation(self) -> Simulation | None:
        """The chase on the shown maze, started at tick 0 when there is none or it has ended."""
        if self.simulation is None or self.simulation.outcome is not None:
            from ..chasers import DEFAULT_TRAIL, Simulation, Trails  # only a chase needs it

            try:
                self.simulation = Simulation(self.maze, self.setup.chase)
            except MazeError as error:
                self.message = f"no chase: {error.message}"
                self.simulation = None
                return None
            trail = self.setup.trail
            self.trails = Trails(DEFAULT_TRAIL if trail is None else trail)
            self.tick = self.simulation.current()
            self.trails.add(self.tick)
            self._changed()
        return self.simulation

    def toggle_chase(self) -> None:
        """g: start the chasers (from tick 0 after a run ended), or stop them."""
        if self.running:
            self.running = False
            return
        self.running = self._simulation() is not None

    def step_chase(self) -> None:
        """n: stop the chasers and run one tick."""
        self.running = False
        if self._simulation() is not None:
            self.advance()

    def advance(self) -> None:
        """One tick of the chasers (the screen calls it every TICK_SECONDS while running)."""
        if self.simulation is None:
            return
        self.tick = self.simulation.step()
        if self.trails is not None:
            self.trails.add(self.tick)
        self._changed()
        outcome = self.simulation.outcome
        if outcome is not None:
            self.running = False
            self.message = outcome.describe()
