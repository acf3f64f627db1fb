"""Changing walls of a maze and keeping it well formed: the core of ``mazekit edit``.

specs/edit.md defines it. Steps: open the walls asked for, then close those asked for (each on
both sides; border walls and "42" cells only when forced), then close the busiest passages
that can go without cutting the graph in two; finally write the canonical shortest path
(mazekit.solvers.solve, the one ``mazekit solve`` writes) on the path line, refusing an edit
that cuts the exit off from the entry unless that is allowed. The page's "Close the busiest
passage" and "Relieve" are JavaScript twins (src/mazekit/drawing/page/graph.js).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import MazeError, NoPathError
from .model import BY_LETTER, Cell, Maze
from .pattern import pattern_cells
from .search import distance_between

__all__ = ["RELIEVE", "WallChange", "close_bottlenecks", "edit"]

# Relieve (the page's button, and ``edit --relieve`` to come): the candidates are the TOP
# busiest closable passages and those of the peak cell; each is measured exactly up to EXACT
# reachable cells, else by Brandes from SAMPLES sources drawn with SEED (the same sources for
# every candidate, so that they compare alike). specs/html.md, "Relieve".
RELIEVE: dict[str, int] = {"top": 8, "exact": 2000, "samples": 256, "seed": 0}

_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}


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
        return f"the {_NAMES[self.letter]} wall of ({self.x},{self.y})"


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


def close_bottlenecks(maze: Maze, count: int) -> list[WallChange]:
    """Close, in place, the ``count`` busiest passages that do not cut the graph in two.

    Passages in order of edge betweenness on ``maze`` as given (ties as in stats --graph);
    one is skipped when closing it would leave its two cells unconnected (a bridge) at that
    point. MazeError when fewer than ``count`` can be closed.

    Bridges come from the faces of the graph (graph.faces), not from a search per passage:
    a bridge stays one as passages close, so only passages on a loop are taken in order, and
    closing one merges its two faces (a union-find over face labels).
    """
    import numpy as np

    from .graph import betweenness, faces  # numpy-heavy, and only this option needs it

    found = betweenness(maze)
    face = faces(maze.walls)
    # the corners at the ends of the wall each passage crosses: (y, x+1)-(y+1, x+1) for an
    # east passage, (y+1, x)-(y+1, x+1) for a south one
    east_loop = face[:-1, 1:] != face[1:, 1:]  # H x W, as found.east_open
    south_loop = face[1:, :-1] != face[1:, 1:]
    candidates = int(np.count_nonzero(found.east_open & east_loop)) + int(
        np.count_nonzero(found.south_open & south_loop)
    )
    merged: dict[int, int] = {}  # face label -> the face it was merged into

    def root(label: int) -> int:
        while label in merged:
            label = merged[label]
        return label

    closed: list[WallChange] = []
    looked = 0  # passages of the ranking taken so far
    wanted = count  # how many of the ranking to ask for: more, 4 times over, when short
    while len(closed) < count and looked < candidates:
        wanted = min(candidates, max(wanted, 4 * looked))
        ranked = found.top_passages(wanted, among=(east_loop, south_loop))  # a total order:
        for (x, y), letter, _ in ranked[looked:]:  # its first ones stay the first ones
            looked += 1
            ends = ((y, x + 1), (y + 1, x + 1)) if letter == "E" else ((y + 1, x), (y + 1, x + 1))
            first, second = (root(int(face[corner])) for corner in ends)
            if first == second:
                continue  # a bridge now: closing it would cut the maze in two
            merged[second] = first
            change = WallChange(x, y, letter, close=True)
            _apply(maze, change, force=True, pattern=frozenset())
            closed.append(change)
            if len(closed) == count:
                break
    if len(closed) < count:
        noun = "passage" if len(closed) == 1 else "passages"
        raise MazeError(
            f"--close-bottleneck {count}: only {len(closed)} {noun} can be closed without "
            "cutting the maze in two"
        )
    return closed


def edit(
    maze: Maze,
    changes: Sequence[WallChange] = (),
    *,
    close_bottleneck: int = 0,
    force: bool = False,
    allow_disconnect: bool = False,
) -> tuple[Maze, list[WallChange]]:
    """A copy of ``maze`` with the changes made, and every wall change done, in order.

    Opens first, then closes, each in the order given, then ``close_bottleneck`` passages.
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
        _apply(result, change, force, pattern)
        done.append(change)
        if change.close and was_connected and not allow_disconnect and not _connected(result):
            raise MazeError(
                f"{change.option}: closing {change.wall} cuts the exit off from the entry "
                "(--allow-disconnect to write it anyway)"
            )
    if close_bottleneck:
        done += close_bottlenecks(result, close_bottleneck)
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
