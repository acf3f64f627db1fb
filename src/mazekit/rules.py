"""The rules of a valid maze, one function each; ``validate`` runs them and never prints.

Each rule takes a Context (the maze's facts, an Analysis computed once, and the options)
and a limit, and returns its first ``limit`` violations in reading order
with the total count. specs/rules.md documents every rule id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice

import numpy as np
import numpy.typing as npt

from . import board
from . import pattern as glyph
from .analysis import PATTERN_MODES, Analysis, PatternMode, cells_of_mask
from .config import Config
from .model import ALL_WALLS, BY_BIT, DIRECTIONS, EAST, NORTH, SOUTH, WEST, Cell, Maze
from .search import UNREACHED, distance_between, distances
from .textformat import Problem, scan

__all__ = [
    "PACMAN_RULES",
    "PATTERN_MODES",
    "RULES",
    "RULE_IDS",
    "Context",
    "PatternMode",
    "Report",
    "Rule",
    "Violation",
    "evaluate",
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

    @property
    def entry_line(self) -> int:
        return self.maze.height + 2

    @property
    def exit_line(self) -> int:
        return self.maze.height + 3

    @property
    def path_line(self) -> int:
        return self.maze.height + 4


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
    return found[:limit], int(across.sum() + down.sum())


def check_border(ctx: Context, limit: int) -> Findings:
    """Every wall on the outside of the grid is closed."""
    walls = ctx.maze.walls
    height, width = walls.shape
    open_out = np.zeros(walls.shape, dtype=np.uint8)  # at most 4 open outer walls a cell
    open_out[0, :] += (walls[0, :] & NORTH) == 0
    open_out[:, 0] += (walls[:, 0] & WEST) == 0
    open_out[:, -1] += (walls[:, -1] & EAST) == 0
    open_out[-1, :] += (walls[-1, :] & SOUTH) == 0

    def found() -> Iterable[Violation]:
        for x, y in cells_of_mask(open_out > 0, limit):
            for name, bit, on_side in (
                ("north", NORTH, y == 0),
                ("west", WEST, x == 0),
                ("east", EAST, x == width - 1),
                ("south", SOUTH, y == height - 1),
            ):
                if on_side and not walls[y, x] & bit:
                    yield _at("border", f"{name} wall of ({x},{y}) is open on the border", (x, y))

    return _capped(found(), limit, int(open_out.sum()))


def check_entry_exit(ctx: Context, limit: int) -> Findings:
    """Entry and exit lie inside the grid, differ, and are not cells of the pattern."""
    maze = ctx.maze
    found: list[Violation] = []
    for name, cell, line in (
        ("entry", maze.entry, ctx.entry_line),
        ("exit", maze.exit, ctx.exit_line),
    ):
        x, y = cell
        if not maze.contains(cell):
            found.append(
                Violation(
                    "entry-exit",
                    f"{name} ({x},{y}) is outside the {maze.width}x{maze.height} grid",
                    line,
                    1,
                    cell,
                )
            )
        elif ctx.pattern[y, x]:  # the 42 (strict) or any fully closed cell (any)
            found.append(
                Violation("entry-exit", f'{name} ({x},{y}) lies on the "42" pattern', line, 1, cell)
            )
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


def check_pattern(ctx: Context, limit: int) -> Findings:
    """The "42" is there: its 18 cells are F (strict), or some F cell exists (any)."""
    maze = ctx.maze
    if ctx.pattern_mode == "none" or not glyph.fits(maze.width, maze.height):
        return [], 0
    if ctx.pattern_mode == "any":
        if (maze.walls == ALL_WALLS).any():
            return [], 0
        return [Violation("pattern", 'no fully closed cell: the "42" pattern is missing', 1, 1)], 1
    broken = [
        (x, y)
        for x, y in glyph.pattern_cells(maze.width, maze.height)
        if maze.walls[y, x] != ALL_WALLS
    ]
    found = (
        _at(
            "pattern",
            f'cell ({x},{y}) of the "42" pattern is {int(maze.walls[y, x]):X}, not F',
            (x, y),
        )
        for x, y in broken
    )
    return _capped(found, limit, len(broken))


def check_connectivity(ctx: Context, limit: int) -> Findings:
    """Every cell but the pattern's is reachable from the entry."""
    if not ctx.entry_ok:
        return [], 0
    lost = ~ctx.reachable & ~ctx.pattern
    entry = ctx.maze.entry
    found = (
        _at("connectivity", f"cell ({x},{y}) is not reachable from the entry {_pt(entry)}", (x, y))
        for x, y in cells_of_mask(lost, limit)
    )
    return _capped(found, limit, int(lost.sum()))


def _pt(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def check_open_area(ctx: Context, limit: int) -> Findings:
    """No 3x3 block of cells has all 12 of its inner walls open (corridors at most 2 wide)."""
    east, south = ctx.passages
    if east.shape[0] < 3 or south.shape[1] < 3:
        return [], 0
    rows_open = east[:, :-1] & east[:, 1:]  # (H, W-2): both walls of a 3-cell row open
    cols_open = south[:-1, :] & south[1:, :]  # (H-2, W): both walls of a 3-cell column open
    blocks = (
        rows_open[:-2, :]
        & rows_open[1:-1, :]
        & rows_open[2:, :]
        & cols_open[:, :-2]
        & cols_open[:, 1:-1]
        & cols_open[:, 2:]
    )
    found = (
        _at("open-area", f"3x3 open area with its top-left cell at ({x},{y})", (x, y))
        for x, y in cells_of_mask(blocks, limit)
    )
    return _capped(found, limit, int(blocks.sum()))


def check_path(ctx: Context, limit: int) -> Findings:
    """The path walks from entry to exit through open walls, and no path is shorter."""
    maze = ctx.maze
    if not ctx.path_readable or not ctx.entry_ok:
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
    walls = maze.walls
    height, width = walls.shape
    steps = np.frombuffer(maze.path.encode("ascii"), dtype=np.uint8)
    xs = np.empty(len(steps) + 1, dtype=np.int32)  # int32: a 4M-step path stays small
    ys = np.empty(len(steps) + 1, dtype=np.int32)
    xs[0], ys[0] = maze.entry
    np.cumsum(_STEP_DX[steps], out=xs[1:])
    np.cumsum(_STEP_DY[steps], out=ys[1:])
    xs[1:] += maze.entry[0]
    ys[1:] += maze.entry[1]
    # Step i goes from (xs[i], ys[i]) to (xs[i+1], ys[i+1]). Every step before the first bad
    # one stays inside, so clipping only touches steps that are never reported.
    lands_inside = (xs[1:] >= 0) & (xs[1:] < width) & (ys[1:] >= 0) & (ys[1:] < height)
    moves = ctx.moves[np.clip(ys[:-1], 0, height - 1), np.clip(xs[:-1], 0, width - 1)]
    crosses_open = (moves & _STEP_BIT[steps].astype(np.uint8)) != 0
    bad = ~lands_inside | ~crosses_open
    if bad.any():
        index = int(np.argmax(bad))
        here = (int(xs[index]), int(ys[index]))
        there = (int(xs[index + 1]), int(ys[index + 1]))
        letter = maze.path[index]
        if not lands_inside[index]:
            message = f"step {index + 1} ({letter}) from {_pt(here)} leaves the grid"
        else:
            message = (
                f"step {index + 1} ({letter}) from {_pt(here)} to {_pt(there)} "
                "crosses a closed wall"
            )
        return [Violation("path", message, line, index + 1, here)], 1
    end = (int(xs[-1]), int(ys[-1]))
    if end != maze.exit:
        message = f"path ends at {_pt(end)}, not at the exit {_pt(maze.exit)}"
        return [Violation("path", message, line, len(maze.path), end)], 1
    visited = ys * np.int32(width) + xs
    visited.sort()
    if ctx.loops == 0 and not (visited[1:] == visited[:-1]).any():
        return [], 0  # in a tree a walk that repeats no cell is the one path: no search needed
    shortest = distance_between(walls, maze.entry, maze.exit)
    if shortest != UNREACHED and len(maze.path) > shortest:
        message = f"path has {len(maze.path)} steps but the shortest has {shortest}"
        return [Violation("path", message, line, 1)], 1
    return [], 0


def _step_table(field: str) -> npt.NDArray[np.int32]:
    """Per path letter (as a byte), its dx, dy or wall bit; 0 for any other byte."""
    table = np.zeros(256, dtype=np.int32)
    for direction in DIRECTIONS:
        table[ord(direction.letter)] = getattr(direction, field)
    return table


_STEP_DX, _STEP_DY, _STEP_BIT = (_step_table(name) for name in ("dx", "dy", "bit"))


def check_perfect(ctx: Context, limit: int) -> Findings:
    """The reachable cells form a tree: exactly one path between any two of them."""
    if not ctx.entry_ok or ctx.loops <= 0:
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
    dist = distances(maze.walls, maze.entry)
    depth = np.asarray(dist, dtype=np.int64).reshape(maze.walls.shape)
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
    if not ctx.entry_ok:
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
    if not ctx.entry_ok or ctx.loops >= ctx.min_loops:
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
    if not ctx.entry_ok:
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
RULE_IDS: tuple[str, ...] = tuple(rule.id for rule in RULES)


@dataclass
class Report:
    """The outcome of validating one maze: violations by rule, and how many were left out."""

    violations: list[Violation] = field(default_factory=list)
    omitted: dict[str, int] = field(default_factory=dict)
    source: str | None = None

    @property
    def valid(self) -> bool:
        return not self.violations

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


def _skipped(skip: Iterable[str]) -> set[str]:
    """The rule ids to skip; ValueError names any id that is no rule's."""
    skipped = set(skip)
    unknown = skipped - set(RULE_IDS)
    if unknown:
        raise ValueError(f"unknown rule id(s): {', '.join(sorted(unknown))}")
    return skipped


def evaluate(
    ctx: Context,
    *,
    perfect: bool = False,
    pacman: bool = False,
    skip: Iterable[str] = (),
    limit: int | None = 20,
    report: Report | None = None,
) -> Report:
    """Run every rule but ``format`` over ``ctx``, whose facts the caller may share (pacmanize
    braids with the same Analysis); the options are those of ``validate``."""
    skipped = _skipped(skip)
    cap = limit if limit is not None else 2**62
    report = report if report is not None else Report()
    config = ctx.config
    wanted = {
        "perfect": perfect or (config is not None and config.perfect),
        "config": config is not None,
        **dict.fromkeys(PACMAN_RULES, pacman),
    }
    for rule in RULES[1:]:
        if rule.id in skipped or (rule.opt_in and not wanted.get(rule.id, False)):
            continue
        _record(report, rule.id, rule.check(ctx, cap))
    return report


def validate(
    maze: Maze | bytes | str,
    *,
    pattern: PatternMode = "strict",
    perfect: bool = False,
    config: Config | None = None,
    skip: Iterable[str] = (),
    limit: int | None = 20,
    source: str | None = None,
    pacman: bool = False,
    min_loops: int = board.MIN_LOOPS,
    max_dead_ends: int = board.MAX_DEAD_ENDS,
) -> Report:
    """Check ``maze`` (a Maze, or the bytes or text of a file) against every rule.

    ``perfect`` (or a config with PERFECT=True) adds the perfect rule; ``config`` adds the
    config rule; ``pacman`` adds the board rules with their two limits; ``skip`` turns rules
    off by id. At most ``limit`` violations are kept per rule (None keeps all); the rest are
    counted in ``Report.omitted``.
    """
    if pattern not in PATTERN_MODES:
        raise ValueError(f"pattern must be one of {', '.join(PATTERN_MODES)}")
    skipped = _skipped(skip)
    report = Report(source=source)
    path_readable = True
    if isinstance(maze, (bytes, str)):
        scanned = scan(maze)
        if "format" not in skipped:
            cap = limit if limit is not None else 2**62
            _record(report, "format", _format_findings(scanned.problems, cap))
        path_readable = not any(p.on_path_line for p in scanned.problems)
        if scanned.maze is None:
            return report
        maze = scanned.maze
    ctx = Context(
        maze,
        pattern,
        config=config,
        path_readable=path_readable,
        min_loops=min_loops,
        max_dead_ends=max_dead_ends,
    )
    return evaluate(ctx, perfect=perfect, pacman=pacman, skip=skipped, limit=limit, report=report)
