"""Shortest paths between two cells: the algorithms behind ``mazekit solve``, and its API.

Every algorithm has one job: fill in distances to the goal, exact on every cell of every
shortest path, and count the cells it visited. The path itself is then read off those
distances by the one shared walk (``mazekit.search.walk_shortest``), so every algorithm returns the
same path: the first shortest one in N, E, S, W order (specs/solve.md, "Tie-breaking").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import MazeError, NoPathError
from ..model import ALL_WALLS, BY_LETTER, Cell, Maze
from ..search import open_bits, walk_shortest
from . import astar, bfs, dead_end_fill, restricted
from .grid import Search, SearchFunction, SearchGrid
from .paths import cells_of, count_shortest_paths

__all__ = [
    "ALGORITHMS",
    "Search",
    "SearchFunction",
    "SearchGrid",
    "Solution",
    "find_path",
    "moves_mask",
    "solve",
]

# --algorithm name -> its search; bfs first (the default)
ALGORITHMS: dict[str, SearchFunction] = {
    "bfs": bfs.search,
    "astar": astar.search,
    "dead-end-fill": dead_end_fill.search,
}


@dataclass(frozen=True)
class Solution:
    """A shortest path from ``start`` to ``goal`` and what finding it cost."""

    start: Cell
    goal: Cell
    path: str
    visited: int
    algorithm: str
    moves: str = "NESW"
    count: int | None = None

    @property
    def cells(self) -> list[Cell]:
        """Every cell of the path, ``start`` and ``goal`` included."""
        return cells_of(self.start, self.path)


def moves_mask(letters: str) -> int:
    """The wall bits of a set of step letters such as ``"ES"``; ValueError on anything else."""
    if not letters or any(letter not in BY_LETTER for letter in letters):
        raise ValueError(f"moves must be letters from N, E, S, W, got {letters!r}")
    mask = 0
    for letter in letters:
        mask |= BY_LETTER[letter].bit
    return mask


def _named(role: str, cell: Cell) -> str:
    """A cell as messages name it: ``entry (0,0)``, ``cell (3,4)``."""
    return f"{role} ({cell[0]},{cell[1]})"


def find_path(
    maze: Maze,
    start: Cell | None = None,
    goal: Cell | None = None,
    *,
    algorithm: str = "bfs",
    moves: str | None = None,
    count: bool = False,
    source: str | None = None,
) -> Solution:
    """Solve ``maze`` from ``start`` (default: the entry) to ``goal`` (default: the exit).

    ``moves`` (letters such as ``"ES"``) restricts the steps and selects the restricted
    search, which marks the cells that cannot reach the goal first; ``count`` also counts the
    shortest paths. MazeError when a cell is outside the grid, NoPathError when no path exists;
    ``source`` names the maze in them.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r} (known: {', '.join(ALGORITHMS)})")
    mask = ALL_WALLS if moves is None else moves_mask(moves)
    start_role, goal_role = "entry" if start is None else "cell", "exit" if goal is None else "cell"
    start = maze.entry if start is None else (int(start[0]), int(start[1]))
    goal = maze.exit if goal is None else (int(goal[0]), int(goal[1]))
    for role, cell in ((start_role, start), (goal_role, goal)):
        if not maze.contains(cell):
            raise MazeError(
                f"{_named(role, cell)} is outside the {maze.width}x{maze.height} grid", source
            )

    grid = SearchGrid(open_bits(maze.walls).ravel(), maze.width, maze.height)
    origin, target = grid.flat(start), grid.flat(goal)
    if moves is None:
        found = ALGORITHMS[algorithm](grid, origin, target)
    else:
        found = restricted.mark(grid, target, mask)
    if found.dist[origin] < 0:
        where = f"{_named(goal_role, goal)} is not reachable from {_named(start_role, start)}"
        raise NoPathError(
            where if moves is None else f"{where} with moves {_letters(mask)}", source
        )
    path = walk_shortest(grid.bits, grid.width, found.dist, origin, mask)
    return Solution(
        start=start,
        goal=goal,
        path=path,
        visited=found.visited,
        algorithm=algorithm if moves is None else "restricted",
        moves=_letters(mask),
        count=count_shortest_paths(grid, found.dist, origin, mask) if count else None,
    )


def _letters(mask: int) -> str:
    """The step letters of a mask in N, E, S, W order."""
    return "".join(letter for letter, d in BY_LETTER.items() if mask & d.bit)


def solve(
    maze: Maze, start: Cell | None = None, goal: Cell | None = None, algorithm: str = "bfs"
) -> str:
    """The letters of the first shortest path (N, E, S, W order) from ``start`` to ``goal``.

    Defaults are the maze's entry and exit; NoPathError when the goal cannot be reached.
    """
    return find_path(maze, start, goal, algorithm=algorithm).path
