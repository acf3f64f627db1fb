"""Changing walls of a maze and keeping it well formed: the core of ``mazekit edit``.

specs/edit.md defines it. Steps: open the walls asked for, then close those asked for (each on
both sides; border walls and "42" cells only when forced), then close the busiest passages
that can go without cutting the graph in two, then relieve: close, one at a time, the
passage whose closing lowers the betweenness peak the most (both keep a Pac-Man board one:
_board_guard, over rules.py's own rules); finally write the canonical
shortest path
(mazekit.solvers.solve, the one ``mazekit solve`` writes) on the path line, refusing an edit
that cuts the exit off from the entry unless that is allowed. The page's "Close the busiest
passage" and "Relieve" are JavaScript twins (src/mazekit/drawing/page/graph.js).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import MazeError, NoPathError
from .model import BY_LETTER, Cell, Maze
from .pattern import pattern_cells
from .search import distance_between

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    import numpy as np
    import numpy.typing as npt

    from .graph import Betweenness

__all__ = [
    "RELIEVE",
    "RELIEVE_TOP",
    "Closure",
    "Load",
    "WallChange",
    "close_bottlenecks",
    "edit",
    "relieve",
]

# Relieve (``edit --relieve`` and the page's button): the candidates are the TOP busiest
# closable passages and those of the peak cell. ``edit`` measures each as ``stats --graph``
# does; the page measures each exactly up to EXACT reachable cells, else by Brandes from
# SAMPLES sources drawn with SEED (the same sources for every candidate, so that they compare
# alike). specs/edit.md, "Relieve", and specs/html.md, "Relieve".
RELIEVE: dict[str, int] = {"top": 8, "exact": 2000, "samples": 256, "seed": 0}
RELIEVE_TOP = RELIEVE["top"]  # passages of the betweenness ranking tried, with the peak cell's


@dataclass(frozen=True)
class WallChange:
    """One wall to open or close: the wall of cell (x, y) on side ``letter`` (N, E, S, W)."""

    x: int
    y: int
    letter: str
    close: bool

    @property
    def option(self) -> str:
        """How the user wrote it: ``--close 3,4,E``."""
        return f"--{'close' if self.close else 'open'} {self.x},{self.y},{self.letter}"

    @property
    def wall(self) -> str:
        """``the east wall of (3,4)``."""
        return f"the {BY_LETTER[self.letter].name} wall of ({self.x},{self.y})"


@dataclass(frozen=True)
class Load:
    """How the traffic of a maze is spread: its betweenness peak (share and cell) and Gini, as
    ``stats --graph`` reports them (``exact`` False for an estimate, marked ``~``)."""

    peak: float
    cell: Cell
    gini: float
    exact: bool

    @property
    def peak_text(self) -> str:
        """``30.49% at (11,19)``, ``~`` before an estimate."""
        from .graph.figures import percent  # as stats --graph writes a share

        mark = "" if self.exact else "~"
        return f"{mark}{percent(self.peak)} at ({self.cell[0]},{self.cell[1]})"

    @property
    def gini_text(self) -> str:
        """``0.493``, ``~`` before an estimate."""
        return f"{'' if self.exact else '~'}{self.gini:.3f}"


@dataclass(frozen=True)
class Closure:
    """Walls one option closed, and the load before and after (None: no reachable cell)."""

    option: str
    walls: tuple[WallChange, ...]
    before: Load | None
    after: Load | None
    board: bool = False  # a Pac-Man board, kept one (_board_guard)

    @property
    def line(self) -> str:
        """The report on stderr: ``closed the east wall of (11,19) (--relieve): betweenness
        peak 30.49% at (11,19) -> 27.82% at (12,17), Gini 0.493 -> 0.488``; on a Pac-Man
        board ``(--relieve, still a Pac-Man board)``."""
        walls = ", ".join(change.wall for change in self.walls) or "nothing"
        kept = ", still a Pac-Man board" if self.board else ""
        text = f"closed {walls} ({self.option}{kept})"
        if self.before is None or self.after is None:
            return text
        return (
            f"{text}: betweenness peak {self.before.peak_text} -> {self.after.peak_text}, "
            f"Gini {self.before.gini_text} -> {self.after.gini_text}"
        )


def _load(found: Betweenness) -> Load | None:
    """The peak and Gini of a betweenness (the peak by graph.ranking's rule: ties by (y, x))."""
    from .graph import gini

    top = found.top_cells(1)
    if not top:
        return None
    cell, peak = top[0]
    return Load(peak, cell, gini(found.cells[found.reachable]), found.exact)


def _loop_passages(
    face: npt.NDArray[np.int32],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """(east, south) H x W masks of the walls whose closing cuts nothing, from the corners'
    faces (graph.faces): the two corners at its ends lie in different faces, so an open
    passage there is on a loop."""
    # the corners at the ends of the wall each passage crosses: (y, x+1)-(y+1, x+1) for an
    # east passage, (y+1, x)-(y+1, x+1) for a south one
    return face[:-1, 1:] != face[1:, 1:], face[1:, :-1] != face[1:, 1:]


def _already(maze: Maze, change: WallChange) -> bool:
    """Whether the wall ``change`` names is already as it asks (a cell outside the grid is
    left for _apply to refuse)."""
    if not maze.contains((change.x, change.y)):
        return False
    closed = bool(maze.walls[change.y, change.x] & BY_LETTER[change.letter].bit)
    return closed == change.close


def _apply(maze: Maze, change: WallChange, force: bool, pattern: frozenset[Cell]) -> None:
    """Set one wall on both sides, in place; MazeError for a refused change."""
    cell = (change.x, change.y)
    if not maze.contains(cell):
        raise MazeError(
            f"{change.option}: cell ({change.x},{change.y}) is outside the "
            f"{maze.width}x{maze.height} grid"
        )
    direction = BY_LETTER[change.letter]
    beyond = (change.x + direction.dx, change.y + direction.dy)
    inside = maze.contains(beyond)
    if not force:
        if not inside:
            raise MazeError(
                f"{change.option}: {change.wall} is on the border (--force to change it anyway)"
            )
        for end in (cell, beyond):
            if end in pattern:
                raise MazeError(
                    f'{change.option}: ({end[0]},{end[1]}) is a cell of the "42" '
                    "(--force to change it anyway)"
                )
    walls = maze.walls
    if change.close:
        walls[change.y, change.x] |= direction.bit
        if inside:
            walls[beyond[1], beyond[0]] |= direction.opposite
    else:
        walls[change.y, change.x] &= ~direction.bit & 0xF
        if inside:
            walls[beyond[1], beyond[0]] &= ~direction.opposite & 0xF


def _connected(maze: Maze) -> bool:
    """Whether the exit can be reached from the entry (both inside the grid)."""
    if not (maze.contains(maze.entry) and maze.contains(maze.exit)):
        return False
    return distance_between(maze.walls, maze.entry, maze.exit) >= 0


def _canonical_path(maze: Maze) -> str | None:
    """The path ``mazekit solve`` writes, or None when the exit cannot be reached from the
    entry (or either lies outside): the one search tells both."""
    from .solvers import solve

    if not (maze.contains(maze.entry) and maze.contains(maze.exit)):
        return None
    try:
        return solve(maze)
    except NoPathError:
        return None


Guard = Callable[[Maze], bool]


def _board_guard(maze: Maze) -> Guard | None:
    """When ``maze`` is a Pac-Man board (it passes every rule of ``validate --pacman`` but
    ``path``, the line edit rewrites), the test a closure must pass to be made: the maze
    after it still passes them all, with no more real dead ends than ``maze`` has (none
    made: pacmanize's arcade grade is kept). None for any other maze. The rules are
    rules.py's own; specs/edit.md, "Pac-Man boards". The page's twin: graph.js, keepsBoard."""
    from .rules import Context, evaluate

    ctx = Context(maze)
    if not evaluate(ctx, pacman=True, skip=("path",), limit=1).valid:
        return None
    real = int(ctx.dead_ends[0].sum())

    def keeps(trial: Maze) -> bool:
        after = Context(trial, max_dead_ends=real)
        return evaluate(after, pacman=True, skip=("path",), limit=1).valid

    return keeps


def _closed(maze: Maze, change: WallChange) -> Maze:
    """A copy of ``maze`` with ``change`` made (on both sides, forced)."""
    trial = maze.copy()
    _apply(trial, change, force=True, pattern=frozenset())
    return trial


def _ranked(
    found: Betweenness, among: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]], first: int
) -> Iterator[WallChange]:
    """The closures of the open passages of ``among`` in order of edge betweenness (ties as
    stats --graph ranks them), asked of the ranking ``first`` at a time, then 4 times more:
    a caller that skips some reads on without ranking them all."""
    import numpy as np

    total = sum(
        int(np.count_nonzero(opened & mask))
        for opened, mask in zip((found.east_open, found.south_open), among, strict=True)
    )
    looked, wanted = 0, max(first, 1)
    while looked < total:
        wanted = min(total, max(wanted, 4 * looked))
        ranked = found.top_passages(wanted, among=among)  # a total order: its first ones
        for (x, y), letter, _ in ranked[looked:]:  # stay the first ones
            looked += 1
            yield WallChange(x, y, letter, close=True)


def close_bottlenecks(maze: Maze, count: int, found: Betweenness | None = None) -> list[WallChange]:
    """Close, in place, the ``count`` busiest passages that do not cut the graph in two (nor,
    on a Pac-Man board, break it: _board_guard).

    Passages in order of edge betweenness on ``maze`` as given (ties as in stats --graph);
    one is skipped when closing it would leave its two cells unconnected (a bridge) at that
    point, or break the board. MazeError when fewer than ``count`` can be closed.
    ``found``: the betweenness of ``maze`` when the caller has it.

    Bridges come from the faces of the graph (graph.faces), not from a search per passage:
    a bridge stays one as passages close, so only passages on a loop are taken in order, and
    closing one merges its two faces (a union-find over face labels).
    """
    from .graph import betweenness

    return _close_bottlenecks(maze, count, found or betweenness(maze), _board_guard(maze))


def _close_bottlenecks(
    maze: Maze, count: int, found: Betweenness, keeps: Guard | None
) -> list[WallChange]:
    """close_bottlenecks with the board's guard (None: no Pac-Man board) given."""
    from .graph import faces  # numpy-heavy, and only this option needs it

    face = faces(maze.walls)
    merged: dict[int, int] = {}  # face label -> the face it was merged into

    def root(label: int) -> int:
        while label in merged:
            label = merged[label]
        return label

    closed: list[WallChange] = []
    if count:
        for change in _ranked(found, _loop_passages(face), count):
            x, y = change.x, change.y
            ends = (
                ((y, x + 1), (y + 1, x + 1))
                if change.letter == "E"
                else ((y + 1, x), (y + 1, x + 1))
            )
            first, second = (root(int(face[corner])) for corner in ends)
            if first == second:
                continue  # a bridge now: closing it would cut the maze in two
            if keeps is not None and not keeps(_closed(maze, change)):
                continue  # it would break the Pac-Man board
            merged[second] = first
            _apply(maze, change, force=True, pattern=frozenset())
            closed.append(change)
            if len(closed) == count:
                break
    if len(closed) < count:
        noun = "passage" if len(closed) == 1 else "passages"
        why = "leaving a Pac-Man board" if keeps else "without cutting the maze in two"
        raise MazeError(
            f"--close-bottleneck {count}: only {len(closed)} {noun} can be closed {why}"
        )
    return closed


def _relief_candidates(
    maze: Maze, found: Betweenness, peak: Cell, keeps: Guard | None = None
) -> list[WallChange]:
    """The passages --relieve tries: the RELIEVE_TOP busiest that are on a loop (graph.ranking's
    order), then the peak cell's own passages on a loop; each once. On a Pac-Man board
    (``keeps``: _board_guard) only those whose closing keeps it one, the top ones counted
    among those."""
    from itertools import islice

    from .graph import faces

    east_loop, south_loop = _loop_passages(faces(maze.walls))
    east, south = found.east_open & east_loop, found.south_open & south_loop

    def kept(change: WallChange) -> bool:
        return keeps is None or keeps(_closed(maze, change))

    top = (c for c in _ranked(found, (east, south), RELIEVE_TOP) if kept(c))  # lazily
    walls = [(c.x, c.y, c.letter) for c in islice(top, RELIEVE_TOP)]
    x, y = peak
    own = [(x, y, "E", east), (x - 1, y, "E", east), (x, y, "S", south), (x, y - 1, "S", south)]
    walls += [
        (px, py, letter)
        for px, py, letter, mask in own
        if px >= 0
        and py >= 0
        and mask[py, px]
        and (px, py, letter) not in walls
        and kept(WallChange(px, py, letter, close=True))
    ]
    unique = dict.fromkeys(walls)  # the first place of each, in order
    return [WallChange(wx, wy, letter, close=True) for wx, wy, letter in unique]


def relieve(
    maze: Maze, count: int, found: Betweenness | None = None, samples: int | None = None
) -> list[Closure]:
    """Close, in place and one at a time, ``count`` passages: each time the candidate
    (_relief_candidates) whose closing lowers the betweenness peak the most, never a bridge.

    Each candidate is measured by closing it and computing the betweenness again, exactly
    where stats --graph is exact and estimated (``samples`` sources, seed 0) beyond. The best
    lowers the peak most; gains within graph.ranking's tolerance tie, and ties go by (y, x),
    then E before S. MazeError when no candidate lowers the peak (a tree has none).
    ``found``: the betweenness of ``maze`` when the caller has it.
    """
    import numpy as np

    from .graph import betweenness
    from .graph.ranking import ranked, tie_floor

    found = found or betweenness(maze, samples=samples)
    keeps = _board_guard(maze)
    closures: list[Closure] = []
    while len(closures) < count:
        before = _load(found)
        tried: list[tuple[WallChange, Betweenness, Load]] = []
        if before is not None:
            for change in _relief_candidates(maze, found, before.cell, keeps):
                measured = betweenness(_closed(maze, change), samples=samples)
                after = _load(measured)
                if after is not None and after.peak < tie_floor(before.peak):
                    tried.append((change, measured, after))
        if before is None or not tried:
            from .graph.figures import percent

            peak = percent(before.peak if before is not None else 0.0)
            done = len(closures)
            after_some = f"after {done} closure{'' if done == 1 else 's'}, " if done else ""
            which = "closure that leaves a Pac-Man board" if keeps else "closure"
            raise MazeError(
                f"--relieve {count}: {after_some}no single {which} lowers the peak below {peak}"
            )
        gains = np.array([before.peak - after.peak for _, _, after in tried])
        keys = tuple(
            np.array([key(change) for change, _, _ in tried], dtype=np.int64)
            for key in (lambda c: c.y, lambda c: c.x, lambda c: "ES".index(c.letter))
        )
        change, found, after = tried[int(ranked(gains, 1, keys)[0])]
        _apply(maze, change, force=True, pattern=frozenset())
        closures.append(Closure("--relieve", (change,), before, after, keeps is not None))
    return closures


def edit(
    maze: Maze,
    changes: Sequence[WallChange] = (),
    *,
    close_bottleneck: int = 0,
    force: bool = False,
    allow_disconnect: bool = False,
    relieve_count: int = 0,
    closures: list[Closure] | None = None,
    unchanged: list[WallChange] | None = None,
) -> tuple[Maze, list[WallChange]]:
    """A copy of ``maze`` with the changes made, and every wall change done, in order.

    Opens first, then closes, each in the order given, then ``close_bottleneck`` passages,
    then ``relieve_count`` passages by relieve(). ``closures``: a list that receives what
    the last two closed, with the load before and after (edit's report on stderr);
    ``unchanged``: a list that receives the asked changes whose wall was already so.
    The path line is the canonical shortest path, or empty when the exit cannot be reached
    (allowed only with ``allow_disconnect``; else MazeError naming the wall that cut it off).
    """
    result = maze.copy()
    pattern = frozenset(pattern_cells(maze.width, maze.height))
    ordered = [c for c in changes if not c.close] + [c for c in changes if c.close]
    # Whether a close cut the exit off matters only when it was reachable at first: one
    # search, made only when some close must be checked.
    checked = not allow_disconnect and any(change.close for change in ordered)
    was_connected = checked and _connected(result)
    done: list[WallChange] = []
    for change in ordered:
        if unchanged is not None and _already(result, change):
            unchanged.append(change)
        _apply(result, change, force, pattern)
        done.append(change)
        if change.close and was_connected and not allow_disconnect and not _connected(result):
            raise MazeError(
                f"{change.option}: closing {change.wall} cuts the exit off from the entry "
                "(--allow-disconnect to write it anyway)"
            )
    report: list[Closure] = [] if closures is None else closures
    found: Betweenness | None = None
    if close_bottleneck:
        from .graph import betweenness

        found = betweenness(result)
        before = _load(found)
        keeps = _board_guard(result)
        walls = _close_bottlenecks(result, close_bottleneck, found, keeps)
        found = None  # let the first measure go before the second is made (memory at 4000x4000)
        found = betweenness(result)
        after = _load(found)
        report.append(Closure("--close-bottleneck", tuple(walls), before, after, bool(keeps)))
        done += walls
    if relieve_count:
        relieved = relieve(result, relieve_count, found)
        report += relieved
        done += [change for closure in relieved for change in closure.walls]
    path = _canonical_path(result)
    result.path = path or ""
    if path is None and not allow_disconnect:
        for end, cell in (("entry", result.entry), ("exit", result.exit)):
            if not result.contains(cell):  # named as solve, render and chase name it
                raise MazeError(
                    f"{end} ({cell[0]},{cell[1]}) is outside the {result.width}x"
                    f"{result.height} grid (--allow-disconnect to write it anyway)"
                )
        raise MazeError(
            "the exit cannot be reached from the entry (--allow-disconnect to write it anyway)"
        )
    return result, done
