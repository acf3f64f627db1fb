"""The rules of a valid maze, one function each; ``validate`` runs them and never prints.

Each rule takes a Context (the maze's facts, an Analysis computed once, and the options)
and a limit, and returns its first ``limit`` violations in reading order
with the total count. specs/rules.md documents every rule id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from os import PathLike
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from . import board
from . import pattern as glyph
from .analysis import PATTERN_MODES, Analysis, PatternMode, cells_of_mask
from .config import Config, load_config
from .model import (
    ALL_WALLS,
    BY_BIT,
    BY_LETTER,
    DIRECTIONS,
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Cell,
    Direction,
    Maze,
)
from .search import UNREACHED, component_labels, trace_path
from .textformat import Problem, lowercase_digits, read_bytes, scan, source_name

__all__ = [
    "GRID_RULES",
    "PACMAN_RULES",
    "PATTERN_MODES",
    "RULES",
    "RULE_IDS",
    "Context",
    "PatternMode",
    "Report",
    "Rule",
    "Violation",
    "border_hint",
    "evaluate",
    "misreadings",
    "missing_walls_hint",
    "path_hint",
    "pattern_hint",
    "validate",
]


@dataclass(frozen=True)
class Violation:
    """One broken rule at one place; ``line`` and ``column`` count from 1 in the file."""

    rule: str
    message: str
    line: int
    column: int
    cell: Cell | None = None


Findings = tuple[list[Violation], int]


@dataclass(eq=False)
class Context(Analysis):
    """What every rule looks at: the maze and its facts (an Analysis), and the options."""

    config: Config | None = None
    path_readable: bool = True
    min_loops: int = board.MIN_LOOPS
    max_dead_ends: int = board.MAX_DEAD_ENDS
    blank_lines: int = 1  # empty lines between the grid and the entry (one in the format)
    path_at: int | None = None  # the path's line when not after the exit (written first)

    @property
    def entry_line(self) -> int:
        return self.maze.height + 1 + self.blank_lines

    @property
    def exit_line(self) -> int:
        return self.entry_line + 1

    @property
    def path_line(self) -> int:
        return self.entry_line + 2 if self.path_at is None else self.path_at


def _at(rule: str, message: str, cell: Cell) -> Violation:
    """A violation placed on a grid cell: its row's line and its digit's column."""
    return Violation(rule, message, cell[1] + 1, cell[0] + 1, cell)


def _capped(found: Iterable[Violation], limit: int, total: int) -> Findings:
    return list(islice(found, limit)), total


# --- the rules -------------------------------------------------------------------------------


def check_coherence(ctx: Context, limit: int) -> Findings:
    """Neighbouring cells agree on their shared wall."""
    walls = ctx.maze.walls
    state = ("open", "closed")
    east_closed = (walls[:, :-1] & EAST) != 0
    west_closed = (walls[:, 1:] & WEST) != 0
    south_closed = (walls[:-1, :] & SOUTH) != 0
    north_closed = (walls[1:, :] & NORTH) != 0
    across = east_closed != west_closed
    down = south_closed != north_closed
    found: list[Violation] = []
    for x, y in cells_of_mask(across, limit):
        closed = bool(east_closed[y, x])
        found.append(
            _at(
                "coherence",
                f"east wall of ({x},{y}) is {state[closed]} but west wall of ({x + 1},{y}) "
                f"is {state[not closed]}",
                (x, y),
            )
        )
    for x, y in cells_of_mask(down, limit):
        closed = bool(south_closed[y, x])
        found.append(
            _at(
                "coherence",
                f"south wall of ({x},{y}) is {state[closed]} but north wall of ({x},{y + 1}) "
                f"is {state[not closed]}",
                (x, y),
            )
        )
    found.sort(key=lambda v: (v.line, v.column))
    return found[:limit], int(np.count_nonzero(across)) + int(np.count_nonzero(down))


def _open_sides(walls: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.bool_], ...]:
    """Per side of the border, north, east, south, west: which of its cells have their outer
    wall open (the top row's N bit clear, the last column's E bit, and so on)."""
    return (
        (walls[0, :] & NORTH) == 0,
        (walls[:, -1] & EAST) == 0,
        (walls[-1, :] & SOUTH) == 0,
        (walls[:, 0] & WEST) == 0,
    )


# A border cell's open outer walls in the order validate names them: north, west, east, south.
_READING_ORDER = tuple(BY_BIT[bit] for bit in (NORTH, WEST, EAST, SOUTH))


def check_border(ctx: Context, limit: int) -> Findings:
    """Every wall on the outside of the grid is closed."""
    maze = ctx.maze
    walls = maze.walls
    north, east, south, west = _open_sides(walls)
    open_out = np.zeros(walls.shape, dtype=np.uint8)  # at most 4 open outer walls a cell
    open_out[0, :] += north
    open_out[:, 0] += west
    open_out[:, -1] += east
    open_out[-1, :] += south

    def found() -> Iterable[Violation]:
        for x, y in cells_of_mask(open_out > 0, limit):
            for way in _READING_ORDER:
                outside = not maze.contains((x + way.dx, y + way.dy))
                if outside and not walls[y, x] & way.bit:
                    message = f"{way.name} wall of ({x},{y}) is open on the border"
                    yield _at("border", message, (x, y))

    return _capped(found(), limit, int(open_out.sum()))


def check_entry_exit(ctx: Context, limit: int) -> Findings:
    """Entry and exit lie inside the grid, differ, and are not cells of the pattern."""
    maze = ctx.maze
    found: list[Violation] = [
        *_misplaced(ctx, "entry", maze.entry, ctx.entry_line),
        *_misplaced(ctx, "exit", maze.exit, ctx.exit_line),
    ]
    if maze.entry == maze.exit:
        x, y = maze.exit
        found.append(
            Violation(
                "entry-exit",
                f"entry and exit are the same cell ({x},{y})",
                ctx.exit_line,
                1,
                maze.exit,
            )
        )
    return found[:limit], len(found)


def _misplaced(ctx: Context, name: str, cell: Cell, line: int) -> list[Violation]:
    """The entry or the exit outside the grid, or on the pattern (rule entry-exit)."""
    maze = ctx.maze
    x, y = cell
    ending = ENTRY_UNUSABLE if name == "entry" else ""
    if not maze.contains(cell):
        message = f"{name} ({x},{y}) is outside the {maze.width}x{maze.height} grid{ending}"
        return [Violation("entry-exit", message, line, 1, cell)]
    if ctx.pattern[y, x]:  # the 42 (strict) or any fully closed cell (any)
        message = f'{name} ({x},{y}) lies on the "42" pattern{ending}'
        return [Violation("entry-exit", message, line, 1, cell)]
    return []


NO_42_MESSAGE = (
    'no "42" of fully closed cells: neither the subject\'s glyph nor a "4" and a "2" side by side'
)


def check_pattern(ctx: Context, limit: int) -> Findings:
    """The "42" is there: its 18 cells are F (strict), the file draws one anywhere (subject),
    or some F cell exists (any)."""
    maze = ctx.maze
    if ctx.pattern_mode == "none" or not glyph.fits(maze.width, maze.height):
        return [], 0
    if ctx.pattern_mode == "any":
        if (maze.walls == ALL_WALLS).any():
            return [], 0
        return [Violation("pattern", 'no fully closed cell: the "42" pattern is missing', 1, 1)], 1
    cells = glyph.pattern_cells(maze.width, maze.height)
    if ctx.pattern_mode == "subject":
        if ctx.found_42 is not None:
            return [], 0
        corner = glyph.nearest(maze.walls)
        if corner is None:
            return [Violation("pattern", NO_42_MESSAGE, 1, 1)], 1
        cells = glyph.cells_at(corner)  # the glyph with a few cells open: those are said
    broken = [(x, y) for x, y in cells if maze.walls[y, x] != ALL_WALLS]
    found = (
        _at("pattern", _open_walls_message((x, y), int(maze.walls[y, x])), (x, y))
        for x, y in broken
    )
    return _capped(found, limit, len(broken))


def _and(words: Sequence[str], conjunction: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``: words as a sentence lists them."""
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def _open_walls_message(cell: Cell, walls: int) -> str:
    """A "42" cell that is not F, in the words of walls: which of them are open."""
    letters = [d.letter for d in DIRECTIONS if not walls & d.bit]
    named = _and(letters)
    verb = "wall is" if len(letters) == 1 else "walls are"
    return (
        f'cell {_pt(cell)} of the "42" must have all four walls closed (F), but its {named} '
        f"{verb} open ({walls:X})"
    )


def check_connectivity(ctx: Context, limit: int) -> Findings:
    """Every cell but the pattern's is reachable from the entry: one violation per region of
    unreachable cells (its size, its first cell in reading order), the root cause once."""
    if _entry_problem(ctx) is not None:
        return [], 0
    lost = ~ctx.reachable & ~ctx.pattern
    if not lost.any():
        return [], 0
    flat = np.flatnonzero(lost.ravel())
    _, first, sizes = np.unique(ctx.labels.ravel()[flat], return_index=True, return_counts=True)
    order = np.argsort(first)  # regions in the reading order of their first cell
    width = ctx.maze.width
    entry = _pt(ctx.maze.entry)

    def found() -> Iterable[Violation]:
        for region in order[:limit].tolist():
            index = int(flat[first[region]])
            cell = (index % width, index // width)
            size = int(sizes[region])
            if size > 1:
                message = (
                    f"a region of {size} cells is not reachable from the entry {entry}; "
                    f"its first cell is {_pt(cell)}"
                )
            elif ctx.maze.walls[cell[1], cell[0]] == ALL_WALLS:
                message = (
                    f'cell {_pt(cell)} is fully closed (F) but is not part of the "42", '
                    f"so it cannot be reached from the entry {entry}"
                )
            else:
                message = f"cell {_pt(cell)} is not reachable from the entry {entry}"
            yield _at("connectivity", message, cell)

    return _capped(found(), limit, len(sizes))


def _entry_problem(ctx: Context) -> str | None:
    """Why no search can start at the entry (outside the grid, or on the "42"), else None."""
    maze = ctx.maze
    if not ctx.entry_ok:
        return f"the entry {_pt(maze.entry)} is outside the {maze.width}x{maze.height} grid"
    if ctx.pattern[maze.entry[1], maze.entry[0]]:
        return f'the entry {_pt(maze.entry)} lies on the "42" pattern'
    return None


# A rule that starts from the entry reports nothing when the entry cannot be used: the
# entry-exit violation says so once, with this ending, instead of every cell again.
ENTRY_UNUSABLE = ": connectivity and the path cannot be checked from it"


def _pt(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def check_open_area(ctx: Context, limit: int) -> Findings:
    """No 3x3 block of cells has all 12 of its inner walls open (corridors at most 2 wide)."""
    blocks = ctx.closed_in_blocks == 0
    found = (
        _at("open-area", f"3x3 open area with its top-left cell at ({x},{y})", (x, y))
        for x, y in cells_of_mask(blocks, limit)
    )
    return _capped(found, limit, int(blocks.sum()))


def check_path(ctx: Context, limit: int) -> Findings:
    """The path walks from entry to exit through open walls, and no path is shorter."""
    maze = ctx.maze
    if not ctx.path_readable:
        return [], 0
    if _entry_problem(ctx) is not None:
        return [], 0
    line = ctx.path_line
    if not maze.path:
        return [
            Violation(
                "path",
                f"path is empty: it must lead from the entry {_pt(maze.entry)} "
                f"to the exit {_pt(maze.exit)}",
                line,
                1,
            )
        ], 1
    index, here, repeats = trace_path(ctx.moves, maze.entry, maze.path)
    if index >= 0:
        letter = maze.path[index]
        step = BY_LETTER.get(letter)
        there = here if step is None else (here[0] + step.dx, here[1] + step.dy)
        if not maze.contains(there):
            message = f"step {index + 1} ({letter}) from {_pt(here)} leaves the grid"
        else:
            message = (
                f"step {index + 1} ({letter}) from {_pt(here)} to {_pt(there)} "
                "crosses a closed wall"
            )
        return [Violation("path", message, line, index + 1, here)], 1
    if here != maze.exit:
        message = f"path ends at {_pt(here)}, not at the exit {_pt(maze.exit)}"
        return [Violation("path", message, line, len(maze.path), here)], 1
    if ctx.loops == 0 and not repeats:
        return [], 0  # in a tree a walk that repeats no cell is the one path: no search needed
    shortest = int(ctx.depth[maze.exit[1], maze.exit[0]])
    if shortest != UNREACHED and len(maze.path) > shortest:
        message = f"path has {len(maze.path)} steps but the shortest has {shortest}"
        return [Violation("path", message, line, 1)], 1
    return [], 0


def check_perfect(ctx: Context, limit: int) -> Findings:
    """The reachable cells form a tree: exactly one path between any two of them."""
    if _entry_problem(ctx) is not None:
        return [], 0
    if ctx.loops <= 0:
        return [], 0
    first, second = sorted(_loop_closing_wall(ctx), key=lambda cell: (cell[1], cell[0]))
    message = (
        f"the wall between {_pt(first)} and {_pt(second)} closes a loop; a perfect maze "
        f"has none ({ctx.loops} loop{'s' if ctx.loops > 1 else ''} in all)"
    )
    return [_at("perfect", message, first)], 1


def _loop_closing_wall(ctx: Context) -> tuple[Cell, Cell]:
    """An open wall that is not needed to reach any cell: it closes a loop."""
    maze = ctx.maze
    depth = ctx.depth
    east, south = ctx.passages
    # a BFS-tree edge joins depths d and d+1 from one parent; an edge between equal depths,
    # or a second edge into a cell from the level above, closes a loop.
    same = east & (depth[:, :-1] == depth[:, 1:]) & (depth[:, :-1] >= 0)
    if same.any():
        x, y = cells_of_mask(same, 1)[0]
        return (x, y), (x + 1, y)
    same = south & (depth[:-1, :] == depth[1:, :]) & (depth[:-1, :] >= 0)
    if same.any():
        x, y = cells_of_mask(same, 1)[0]
        return (x, y), (x, y + 1)
    # every loop edge joins levels d and d+1: find a cell with two parents
    parents = np.zeros(maze.walls.shape, dtype=np.int64)
    parents[:, 1:] += east & (depth[:, :-1] == depth[:, 1:] - 1)
    parents[:, :-1] += east & (depth[:, 1:] == depth[:, :-1] - 1)
    parents[1:, :] += south & (depth[:-1, :] == depth[1:, :] - 1)
    parents[:-1, :] += south & (depth[1:, :] == depth[:-1, :] - 1)
    x, y = cells_of_mask(parents > 1, 1)[0]
    for d in BY_BIT.values():
        nx, ny = x + d.dx, y + d.dy
        if (
            maze.contains((nx, ny))
            and depth[ny, nx] == depth[y, x] - 1
            and _open(ctx, (x, y), d.bit)
        ):
            return (nx, ny), (x, y)
    raise RuntimeError("a maze with loops has a loop-closing wall")  # unreachable by theory


def _open(ctx: Context, cell: Cell, bit: int) -> bool:
    east, south = ctx.passages
    x, y = cell
    if bit == EAST:
        return x < ctx.maze.width - 1 and bool(east[y, x])
    if bit == WEST:
        return x > 0 and bool(east[y, x - 1])
    if bit == SOUTH:
        return y < ctx.maze.height - 1 and bool(south[y, x])
    return y > 0 and bool(south[y - 1, x])


def check_config(ctx: Context, limit: int) -> Findings:
    """With --config: the size, entry and exit are the ones the config file asks for."""
    config, maze = ctx.config, ctx.maze
    if config is None:
        return [], 0
    found: list[Violation] = []
    if (maze.width, maze.height) != (config.width, config.height):
        found.append(
            Violation(
                "config",
                f"maze is {maze.width}x{maze.height} but the config says "
                f"WIDTH={config.width}, HEIGHT={config.height}",
                1,
                1,
            )
        )
    for name, key, actual, wanted, line in (
        ("entry", "ENTRY", maze.entry, config.entry, ctx.entry_line),
        ("exit", "EXIT", maze.exit, config.exit, ctx.exit_line),
    ):
        if actual != wanted:
            found.append(
                Violation(
                    "config",
                    f"{name} is {_pt(actual)} but the config says {key}={wanted[0]},{wanted[1]}",
                    line,
                    1,
                    actual,
                )
            )
    return found[:limit], len(found)


def check_dead_ends(ctx: Context, limit: int) -> Findings:
    """--pacman: at most ``max_dead_ends`` real dead ends; each one is named when over."""
    if _entry_problem(ctx) is not None:
        return [], 0
    real = ctx.dead_ends[0]
    total = int(real.sum())
    if total <= ctx.max_dead_ends:
        return [], 0
    found = (
        _at(
            "dead-ends",
            f"real dead end at {_pt(cell)}: {total} in all, more than the "
            f"{ctx.max_dead_ends} allowed",
            cell,
        )
        for cell in cells_of_mask(real, limit)
    )
    return _capped(found, limit, total)


def check_loops(ctx: Context, limit: int) -> Findings:
    """--pacman: at least ``min_loops`` independent loops among the reachable cells."""
    if _entry_problem(ctx) is not None:
        return [], 0
    if ctx.loops >= ctx.min_loops:
        return [], 0
    count = ctx.loops
    message = (
        f"{count} loop{'' if count == 1 else 's'}, fewer than the {ctx.min_loops} a board needs"
    )
    return [Violation("loops", message, 1, 1)][:limit], 1


def _unfit(ctx: Context, cell: Cell) -> str | None:
    """Why a key cell cannot serve (a pattern cell, or unreachable), or None when it can."""
    x, y = cell
    if ctx.pattern[y, x]:
        return 'lies on the "42" pattern'
    if not ctx.reachable[y, x]:
        return f"is not reachable from the entry {_pt(ctx.maze.entry)}"
    return None


def check_key_cells(ctx: Context, limit: int) -> Findings:
    """--pacman: the corners (ghost homes) and the centre (the player) are free and reachable.

    For an even side the centre may be any of the 2 or 4 middle cells, as the subject's own
    checking script accepts.
    """
    if _entry_problem(ctx) is not None:
        return [], 0
    maze = ctx.maze
    found: list[Violation] = []
    seen: set[Cell] = set()
    for name, cell in zip(board.CORNER_NAMES, board.corners(maze.width, maze.height), strict=True):
        reason = None if cell in seen else _unfit(ctx, cell)
        seen.add(cell)
        if reason is not None:
            found.append(_at("key-cells", f"{name} corner {_pt(cell)} {reason}", cell))
    middle = board.middle_cells(maze.width, maze.height)
    reasons = [_unfit(ctx, cell) for cell in middle]
    centre = board.centre(maze.width, maze.height)
    if len(middle) == 1 and reasons[0] is not None:
        found.append(_at("key-cells", f"centre {_pt(centre)} {reasons[0]}", centre))
    elif all(reasons):
        cells = ", ".join(_pt(cell) for cell in middle)
        message = (
            f'no middle cell is free for the player: each of {cells} is on the "42" '
            f"pattern or not reachable from the entry {_pt(maze.entry)}"
        )
        found.append(_at("key-cells", message, centre))
    found.sort(key=lambda v: (v.line, v.column))
    return found[:limit], len(found)


@dataclass(frozen=True)
class Rule:
    """A rule: its stable id, a one-line summary, its check, and whether it must be asked for."""

    id: str
    summary: str
    check: Callable[[Context, int], Findings]
    opt_in: bool = False


RULES: tuple[Rule, ...] = (
    Rule("format", "the file follows specs/format.md to the byte", lambda ctx, limit: ([], 0)),
    Rule("coherence", "neighbouring cells agree on their shared wall", check_coherence),
    Rule("border", "every outer wall is closed", check_border),
    Rule("entry-exit", "entry and exit inside, distinct, off the pattern", check_entry_exit),
    Rule("pattern", 'the "42" is drawn in fully closed cells', check_pattern),
    Rule("connectivity", "every non-pattern cell is reachable from the entry", check_connectivity),
    Rule("open-area", "no 3x3 block of cells is fully open", check_open_area),
    Rule("path", "the path is a shortest walk from entry to exit", check_path),
    Rule("perfect", "exactly one path between any two cells (--perfect)", check_perfect, True),
    Rule("config", "size, entry and exit match the config file (--config)", check_config, True),
    Rule("dead-ends", "at most N real dead ends (--pacman)", check_dead_ends, True),
    Rule("loops", "at least N independent loops (--pacman)", check_loops, True),
    Rule("key-cells", "corners and centre free and reachable (--pacman)", check_key_cells, True),
)
PACMAN_RULES: tuple[str, ...] = ("dead-ends", "loops", "key-cells")
GRID_RULES: tuple[str, ...] = ("coherence", "border", "pattern", "open-area")  # no entry needed
RULE_IDS: tuple[str, ...] = tuple(rule.id for rule in RULES)


@dataclass
class Report:
    """The outcome of validating one maze: violations by rule, and how many were left out.

    ``error`` says why a file could not be checked at all (then there are no violations).
    """

    violations: list[Violation] = field(default_factory=list)
    omitted: dict[str, int] = field(default_factory=dict)
    source: str | None = None
    error: str | None = None
    hints: list[str] = field(default_factory=list)  # systematic faults, one line each (_hinted)

    @property
    def valid(self) -> bool:
        return not self.violations and self.error is None

    @property
    def file(self) -> str | None:
        """The file's name as the JSON output gives it (``source``)."""
        return self.source

    @property
    def counts(self) -> dict[str, int]:
        """Violations per broken rule, omitted ones included, in rule order."""
        return {rule: self.count(rule) for rule in RULE_IDS if self.count(rule)}

    def rules_broken(self) -> list[str]:
        """Ids of the broken rules, in rule order, each once."""
        seen: dict[str, None] = {}
        for violation in self.violations:
            seen.setdefault(violation.rule)
        return list(seen)

    def count(self, rule: str | None = None) -> int:
        """How many violations there are in all (or of one rule), omitted ones included."""
        shown = sum(1 for v in self.violations if rule is None or v.rule == rule)
        hidden = sum(n for r, n in self.omitted.items() if rule is None or r == rule)
        return shown + hidden

    def to_dict(self) -> dict[str, Any]:
        """This file as one entry of the JSON output of specs/validate.md (plain JSON types);
        ``hints`` only when there is one."""
        found: dict[str, Any] = {
            "file": self.source,
            "valid": self.valid,
            "error": self.error,
            "counts": self.counts,
            "violations": [
                {
                    "rule": v.rule,
                    "message": v.message,
                    "line": v.line,
                    "column": v.column,
                    "cell": list(v.cell) if v.cell is not None else None,
                }
                for v in self.violations
            ],
            "omitted": dict(self.omitted),
        }
        if self.hints:
            found["hints"] = list(self.hints)
        return found


def _bit_table(mapping: dict[int, int]) -> npt.NDArray[np.uint8]:
    """The 16 digits with each wall bit moved as ``mapping`` says (bits not named stay)."""
    table = np.zeros(16, dtype=np.uint8)
    for value in range(16):
        for bit in (NORTH, EAST, SOUTH, WEST):
            if value & bit:
                table[value] |= mapping.get(bit, bit)
    return table


class Misreading(NamedTuple):
    """A systematic misreading a student's writer can make: what the hint says, how the grid
    would be read right, and whether it is the complement (walls for passages)."""

    what: str
    undo: Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.uint8]]
    complement: bool = False


# The systematic misreadings a student's writer can make, each undone on the grid as read.
# specs/validate.md lists them.
MISREADINGS: tuple[Misreading, ...] = (
    Misreading(
        "the wall bits were read in reverse order (the file writes N=8, E=4, S=2, W=1): "
        "write N=1, E=2, S=4, W=8",
        lambda walls: _bit_table({NORTH: WEST, EAST: SOUTH, SOUTH: EAST, WEST: NORTH})[walls],
    ),
    Misreading(
        "N and S were read the other way round (the file writes N=4, S=1): write N=1, S=4",
        lambda walls: _bit_table({NORTH: SOUTH, SOUTH: NORTH})[walls],
    ),
    Misreading(
        "E and W were read the other way round (the file writes E=8, W=2): write E=2, W=8",
        lambda walls: _bit_table({EAST: WEST, WEST: EAST})[walls],
    ),
    Misreading(
        "rows and columns were swapped (the file writes one line per column): write one "
        "line per row, top row first, one digit per cell from west to east",
        lambda walls: np.ascontiguousarray(walls.T),
    ),
    Misreading(
        "every wall bit meant the opposite (the file writes 1 for an open wall, 0 for a "
        "closed one): write 1 for a closed wall, 0 for an open one",
        lambda walls: walls ^ np.uint8(ALL_WALLS),
        complement=True,
    ),
)


def _parts(walls: npt.NDArray[np.uint8]) -> int:
    """How many parts the cells that are not fully closed fall into (search.passages): one
    for a maze, many for its complement, whose passages are the maze's walls."""
    roots = component_labels(walls).ravel() == np.arange(walls.size, dtype=np.int32)
    return int(np.count_nonzero(roots & (walls != ALL_WALLS).ravel()))


def _wall_faults(walls: npt.NDArray[np.uint8]) -> int:
    """Incoherent walls plus open border walls, as the rules coherence and border count."""
    ctx = Context(Maze(walls, (0, 0), (0, 0), ""), "none")
    return check_coherence(ctx, 0)[1] + check_border(ctx, 0)[1]


def _plausible(walls: npt.NDArray[np.uint8], cells: Sequence[Cell]) -> tuple[bool, bool]:
    """What tells two readings apart when both make the walls right (reversed bits and
    swapped axes are mirror images of each other): the "42" in its place, and the footer's
    cells inside the grid."""
    height, width = walls.shape
    in_place = glyph.fits(width, height) and bool(
        (walls[glyph.pattern_mask(width, height)] == ALL_WALLS).all()
    )
    inside = all(0 <= x < width and 0 <= y < height for x, y in cells)
    return in_place, inside


def misreadings(walls: npt.NDArray[np.uint8], cells: Sequence[Cell] = ()) -> list[str]:
    """The hint, as one line in a list (empty when none), when a systematic misreading
    explains every wall fault: the grid has incoherent walls or an open border, and read
    the other way it has neither. Of several such readings, those that also put the "42" in
    its place and ``cells`` (the entry and exit) inside the grid are named. The complement
    is named only when it joins the cells not fully closed into fewer parts (at least one)
    than the file as read: a maze whose border alone is open has a complement with no wall
    fault too."""
    if walls.size == 0 or _wall_faults(walls) == 0:
        return []
    readings = [(reading, reading.undo(walls)) for reading in MISREADINGS]
    fixed = [
        (reading.what, _plausible(read, cells))
        for reading, read in readings
        if not _wall_faults(read) and (not reading.complement or 0 < _parts(read) < _parts(walls))
    ]
    if not fixed:
        return []
    best = max(score for _, score in fixed)
    named = [what for what, score in fixed if score == best]
    return ["the walls would be coherent, with a closed border, if " + "; or if ".join(named)]


def _from_neighbours(walls: npt.NDArray[np.uint8], way: Direction) -> npt.NDArray[np.uint8]:
    """Per cell, the bit of its wall towards ``way`` as the neighbour there has it (the
    neighbour's opposite wall), closed on the border: the wall a writer left out, put back."""
    height, width = walls.shape
    wall = np.full(walls.shape, way.bit, dtype=np.uint8)
    here = (
        slice(max(-way.dy, 0), height - max(way.dy, 0)),
        slice(max(-way.dx, 0), width - max(way.dx, 0)),
    )
    there = (
        slice(max(way.dy, 0), height + min(way.dy, 0)),
        slice(max(way.dx, 0), width + min(way.dx, 0)),
    )
    wall[here] = np.where(walls[there] & way.opposite, way.bit, 0)
    return wall


def missing_walls_hint(walls: npt.NDArray[np.uint8]) -> list[str]:
    """The hint, as one line in a list (empty when none), when some walls are set in no cell
    at all (a writer that sets only N and W) and put back from each cell's neighbour, where
    the matching wall is, the grid has no wall fault."""
    missing = [way for way in DIRECTIONS if not (walls & way.bit).any()]
    if not missing or any(way.opposite == other.bit for way in missing for other in missing):
        return []  # a wall and its opposite both missing: nothing to put them back from
    completed = walls.copy()
    for way in missing:
        completed |= _from_neighbours(walls, way)
    if _wall_faults(completed):
        return []
    names = [way.name for way in missing]
    bits = [f"{way.letter}={way.bit}" for way in missing]
    matching = [BY_BIT[way.opposite].name for way in missing]
    return [
        f"{_and(names)} walls are missing from every cell (no cell has {_and(bits, 'or')} "
        f"set) while their neighbours have the matching {_and(matching)} walls: write each "
        "wall in both cells it separates, and the outer walls of the border"
    ]


def border_hint(walls: npt.NDArray[np.uint8]) -> list[str]:
    """The hint, as one line in a list (empty when none), when whole sides of the border are
    open: a writer that never sets the bits of the grid's outside."""
    whole = [  # _open_sides is in the order of DIRECTIONS
        way.name
        for way, open_out in zip(DIRECTIONS, _open_sides(walls), strict=True)
        if open_out.all()
    ]
    if not whole:
        return []
    if len(whole) == len(DIRECTIONS):
        where = "every outer wall is open"
    else:
        sides = "side" if len(whole) == 1 else "sides"
        where = f"the border is open along the whole {_and(whole)} {sides}"
    return [
        f"{where}: the border must be closed, with the bit of the outer wall set in every "
        "border cell (N=1 in the top row, E=2 in the last column, S=4 in the bottom row, "
        "W=8 in the first column)"
    ]


# The rules whose faults stay whatever --pattern says: they read the file, the walls or the
# config alone, or (path, perfect) start from an entry that another mode can only make
# unusable, an entry-exit fault. A report with one of them passes in no mode.
_MODE_FREE_RULES = frozenset(
    {"format", "coherence", "border", "open-area", "path", "perfect", "config"}
)


def pattern_hint(ctx: Context, passes: Callable[[PatternMode], bool] | None) -> list[str]:
    """The hint, as one line in a list (empty when none), when the "42" fails ``--pattern
    strict`` but the file draws one the subject accepts (``--pattern subject``: anywhere, in
    any glyph), or else draws no "42" with a few cells left open (pattern.nearest) and would
    pass every rule with ``--pattern any``; ``passes(mode)`` says whether the file passes
    every rule in that mode, None when no mode can (a fault of _MODE_FREE_RULES): then
    neither the search for a "42" nor the rules run again."""
    if ctx.pattern_mode != "strict":
        return []
    found = ctx.found_42
    if found is not None:
        corner = found.corner
        if not found.subject:
            return [
                f'the "42" is drawn in another glyph, its top-left cell at {_pt(corner)}: the '
                'subject accepts any "42" of fully closed cells, and --pattern subject accepts it'
            ]
        place = glyph.origin(ctx.maze.width, ctx.maze.height) or corner  # it fits: the rule ran
        return [
            f'the "42" is drawn with its top-left cell at {_pt(corner)}, not at {_pt(place)} '
            "where --pattern strict (the default) wants it: the subject lets it be anywhere, "
            "and --pattern subject accepts it there"
        ]
    if passes is None:
        return []
    walls = ctx.maze.walls
    if (walls == ALL_WALLS).any() and glyph.nearest(walls) is None and passes("any"):
        return [
            'no "42" of a shape the subject\'s rule knows, but the file is valid with '
            '--pattern any (every fully closed cell counts as the "42")'
        ]
    return []


def path_hint(ctx: Context) -> list[str]:
    """The hint, as one line in a list (empty when none), when the path is right walked the
    other way, from the exit to the entry (rule path over the maze with the two swapped)."""
    maze = ctx.maze
    if not ctx.path_readable or not maze.path:
        return []
    swapped = Context(
        Maze(maze.walls, maze.exit, maze.entry, maze.path), ctx.pattern_mode, ctx.pattern
    )
    if _entry_problem(swapped) is not None or check_path(swapped, 1)[1]:
        return []
    return [
        f"the path leads from the exit {_pt(maze.exit)} to the entry {_pt(maze.entry)}: the "
        "entry and the exit are swapped (the entry's line comes first)"
    ]


def _format_findings(problems: Sequence[Problem], limit: int) -> Findings:
    ordered = sorted(problems, key=lambda p: (p.line, p.column))
    found = [Violation("format", p.message, p.line, p.column) for p in ordered[:limit]]
    return found, len(ordered)


def _record(report: Report, rule: str, findings: Findings) -> None:
    """Add a rule's findings to ``report``, counting those left out."""
    shown, total = findings
    report.violations.extend(shown)
    if total > len(shown):
        report.omitted[rule] = total - len(shown)


def evaluate(
    ctx: Context,
    *,
    perfect: bool = False,
    pacman: bool = False,
    skip: Iterable[str] = (),
    select: Iterable[str] | None = None,
    limit: int | None = 20,
    report: Report | None = None,
) -> Report:
    """Run every rule but ``format`` over ``ctx``, whose facts the caller may share (pacmanize
    braids with the same Analysis); the options are those of ``validate``."""
    skipped = _rule_ids("skip", skip)
    selected = None if select is None else _rule_ids("select", select)
    cap = limit if limit is not None else 2**62
    report = report if report is not None else Report()
    config = ctx.config
    wanted = {
        "perfect": perfect or (config is not None and config.perfect),
        "config": config is not None,
        **dict.fromkeys(PACMAN_RULES, pacman),
    }
    for rule in RULES[1:]:
        if rule.id in skipped:
            continue
        if selected is not None and rule.id not in selected:
            continue
        if selected is None and rule.opt_in and not wanted.get(rule.id, False):
            continue  # an opt-in rule runs when its option asks, or when --select names it
        _record(report, rule.id, rule.check(ctx, cap))
    return report


def validate(
    maze: Maze | bytes | str | PathLike[str],
    *,
    pattern: PatternMode = "strict",
    perfect: bool = False,
    config: Config | str | PathLike[str] | None = None,
    skip: Iterable[str] = (),
    select: Iterable[str] | None = None,
    limit: int | None = 20,
    source: str | None = None,
    pacman: bool = False,
    min_loops: int = board.MIN_LOOPS,
    max_dead_ends: int = board.MAX_DEAD_ENDS,
    strict_format: bool = False,
) -> Report:
    """Check ``maze`` (a Maze, the bytes of a file, or a path as str or PathLike) against the rules.

    ``perfect`` (or a config with PERFECT=True) adds the perfect rule; ``config`` (a Config or
    the path of a config file) adds the config rule; ``pacman`` adds the board rules with their
    two limits; ``select`` runs only the rules it names (opt-in ones too), ``skip`` turns rules
    off. At most ``limit`` violations are kept per rule (None keeps all); the rest are counted
    in ``Report.omitted``. ``strict_format`` also reports lowercase hex digits. A file or
    config that cannot be read raises its MazeError.
    """
    if pattern not in PATTERN_MODES:
        raise ValueError(f"pattern must be one of {', '.join(PATTERN_MODES)}")
    skipped = _rule_ids("skip", skip)
    selected = None if select is None else _rule_ids("select", select)
    if isinstance(config, (str, PathLike)):
        config = load_config(config)
    elif config is not None and not isinstance(config, Config):
        raise TypeError(
            f"config must be a Config or the path of a config file, got {type(config).__name__}"
        )
    if selected is not None and "config" in selected and config is None:
        raise ValueError("select: the rule config needs config=")
    if isinstance(maze, (str, PathLike)):
        if source is None:
            source = source_name(maze)
        maze = read_bytes(maze)
    elif isinstance(maze, (bytearray, memoryview)):
        maze = bytes(maze)
    elif not isinstance(maze, (Maze, bytes)):
        raise TypeError(
            "maze must be a Maze, the bytes of a maze file, or a path (str or os.PathLike), "
            f"got {type(maze).__name__}"
        )
    report = Report(source=source)
    path_readable = True
    if isinstance(maze, bytes):
        scanned = scan(maze)
        problems = scanned.problems
        if strict_format and scanned.walls is not None:
            lowercase = lowercase_digits(maze, scanned.walls.shape[0], scanned.row_lines)
            problems = [*problems, *lowercase]
        if "format" not in skipped and (selected is None or "format" in selected):
            cap = limit if limit is not None else 2**62
            _record(report, "format", _format_findings(problems, cap))
        path_readable = not any(p.drops_path for p in problems)
        if scanned.walls is None or scanned.walls.size == 0:
            return report
        blank_lines = scanned.entry_line - scanned.walls.shape[0] - 1
        if scanned.footer_maze is None:
            # The footer cannot be read, the grid can: the rules of the grid alone still run.
            grid_only = Context(
                Maze(scanned.walls, (0, 0), (0, 0), ""), pattern, blank_lines=max(blank_lines, 1)
            )
            chosen = set(GRID_RULES) if selected is None else selected & set(GRID_RULES)
            evaluate(grid_only, skip=skipped, select=chosen, limit=limit, report=report)
            if "entry-exit" not in skipped and (selected is None or "entry-exit" in selected):
                # the one of the entry and exit that can be read, against the grid alone
                alone = [
                    *([] if scanned.entry is None else [("entry", scanned.entry)]),
                    *([] if scanned.exit is None else [("exit", scanned.exit)]),
                ]
                for name, cell in alone:
                    line = grid_only.entry_line if name == "entry" else grid_only.exit_line
                    report.violations.extend(_misplaced(grid_only, name, cell, line))
                report.violations.sort(key=lambda v: RULE_IDS.index(v.rule))  # stable
            return _hinted(_on_row_lines(report, scanned.row_lines), grid_only)
        # Not in the format, but clear (``(0, 0)``, ``Entry: 0,0``): the format violation
        # says what to write, and every other rule still runs on the cells the footer
        # means, so one run shows the exit outside the grid or the path through a wall too.
        maze = scanned.footer_maze
        row_lines = scanned.row_lines
        path_at = scanned.path_line
    else:
        blank_lines = 1
        row_lines = None
        path_at = None
    ctx = Context(
        maze,
        pattern,
        config=config,
        path_readable=path_readable,
        min_loops=min_loops,
        max_dead_ends=max_dead_ends,
        blank_lines=max(blank_lines, 1),
        path_at=path_at,
    )
    evaluate(
        ctx,
        perfect=perfect,
        pacman=pacman,
        skip=skipped,
        select=selected,
        limit=limit,
        report=report,
    )

    def passes(mode: PatternMode) -> bool:
        """Whether the file passes every rule with ``--pattern mode`` (_hinted asks only when
        the report has no fault of _MODE_FREE_RULES, format among them)."""
        other = replace(ctx, pattern_mode=mode)
        other.share_wall_facts(ctx)
        again = evaluate(
            other, perfect=perfect, pacman=pacman, skip=skipped, select=selected, limit=1
        )
        return again.valid

    return _hinted(_on_row_lines(report, row_lines), ctx, passes)


def _on_row_lines(report: Report, row_lines: tuple[int, ...] | None) -> Report:
    """``report`` with each violation on a grid row moved to that row's line in the file,
    when empty lines lie between the rows (``Scan.row_lines``)."""
    if row_lines is not None:
        report.violations = [
            replace(v, line=row_lines[v.line - 1])
            if v.rule != "format" and 1 <= v.line <= len(row_lines)
            else v
            for v in report.violations
        ]
    return report


def _hinted(
    report: Report, ctx: Context, passes: Callable[[PatternMode], bool] = lambda mode: False
) -> Report:
    """``report`` with the hints of specs/validate.md, Hints: a misreading (else walls set in
    no cell, else the open border) when the wall rules found faults, the "42" the subject
    accepts when the rule pattern did, the entry and exit swapped when the rule path did."""
    maze = ctx.maze
    if "coherence" in report.counts or "border" in report.counts:
        report.hints = (
            misreadings(maze.walls, [maze.entry, maze.exit])
            or missing_walls_hint(maze.walls)
            or border_hint(maze.walls)
        )
    if "pattern" in report.counts:
        hopeless = not _MODE_FREE_RULES.isdisjoint(report.counts)
        report.hints += pattern_hint(ctx, None if hopeless else passes)
    if "path" in report.counts:
        report.hints += path_hint(ctx)
    return report


def _rule_ids(name: str, ids: Iterable[str]) -> set[str]:
    """The rule ids of ``skip`` or ``select`` as a set; ValueError for an unknown one."""
    if isinstance(ids, str):
        raise TypeError(f"{name} must be a list of rule ids, got str {ids!r}")
    chosen = set(ids)
    unknown = chosen - set(RULE_IDS)
    if unknown:
        raise ValueError(f"unknown rule id(s): {', '.join(sorted(unknown))}")
    return chosen
