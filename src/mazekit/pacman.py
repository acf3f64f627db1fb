"""``pacmanize()``: a valid maze braided into a Pac-Man board (specs/pacman.md).

Validate first (every rule but ``path``: a new path is written), then braid with the same
facts, so the maze is analysed once. The board's vocabulary lives in mazekit.board, the
braiding engine in mazekit.braiding; their names are re-exported here for callers of 0.1.
"""

from __future__ import annotations

from .analysis import dead_ends
from .board import CORNER_NAMES, MAX_DEAD_ENDS, MIN_LOOPS, DeadEnds, centre, corners, middle_cells
from .braiding import braid
from .errors import BoardError, ConfigError, InvalidMazeError
from .model import Maze
from .rng import make_rng
from .rules import Context, evaluate

__all__ = [
    "CORNER_NAMES",
    "MAX_DEAD_ENDS",
    "MIN_LOOPS",
    "BoardError",
    "DeadEnds",
    "InvalidMazeError",
    "braid",
    "centre",
    "corners",
    "dead_ends",
    "middle_cells",
    "pacmanize",
]


def _count(name: str, value: int, source: str | None) -> int:
    """A limit given to pacmanize: a non-negative integer, or ConfigError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{name} must be a non-negative integer, got '{value}'", source)
    return value


def pacmanize(
    maze: Maze,
    *,
    max_dead_ends: int = MAX_DEAD_ENDS,
    min_loops: int = MIN_LOOPS,
    seed: int | None = None,
    source: str | None = None,
) -> Maze:
    """``maze`` braided into a Pac-Man board (specs/pacman.md), aiming for 0 real dead ends.

    InvalidMazeError when ``maze`` breaks a rule of validate (the path aside: a new one is
    written), BoardError when the limits cannot be met. Without a seed, seed 0: deterministic.
    ``source`` names the maze in those errors (a file name).
    """
    limit = _count("max_dead_ends", max_dead_ends, source)
    loops = _count("min_loops", min_loops, source)
    facts = Context(maze)
    report = evaluate(facts, skip=("path",), limit=1)
    if not report.valid:
        first = report.violations[0]
        more = report.count() - 1
        tail = (
            f" (and {more} more violation{'s' if more > 1 else ''}: mazekit validate lists them)"
            if more
            else ""
        )
        raise InvalidMazeError(
            f"not a valid maze: {first.rule}: {first.message}{tail}",
            first.line,
            first.column,
            source,
        )
    rng = make_rng(0 if seed is None else seed)
    return braid(
        maze,
        max_dead_ends=limit,
        min_loops=loops,
        target=0,
        rng=rng,
        facts=facts,
        source=source,
    )
