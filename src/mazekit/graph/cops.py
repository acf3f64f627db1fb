"""The cop number of a maze's reachable cells: how many cops catch a robber there.

1 for a tree (a graph without triangles is cop-win only when it is a tree); with a loop, the
two-cop game solved on bit sets of all states (cops' cells, robber's cell) up to COP_LIMIT
grid cells, which gives 2 or 3; above it the bounds 2-3 (3 suffice on a planar graph).
The page's twin is src/mazekit/drawing/page/cops.js.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..analysis import Analysis
from ..model import DIRECTIONS, Maze
from ..search import open_bits

__all__ = ["COP_LIMIT", "TREE_COP", "CopNumber", "cop_number", "cop_with_loop"]

COP_LIMIT = 400  # grid cells (W x H) up to which the two-cop game is solved


@dataclass(frozen=True)
class CopNumber:
    """How many cops catch the robber on the reachable graph: ``low`` to ``high`` and why.

    Exact when ``low == high``; 0 when nothing is reachable.
    """

    low: int
    high: int
    reason: str

    @property
    def exact(self) -> bool:
        """Whether the number is known, not only its bounds."""
        return self.low == self.high

    @property
    def text(self) -> str:
        """``1``, ``2`` or ``2-3``."""
        return str(self.low) if self.exact else f"{self.low}-{self.high}"


def _bits(mask: npt.NDArray[np.bool_]) -> int:
    """A boolean array as one integer whose bit i is ``mask.flat[i]``."""
    packed = np.packbits(mask.ravel().astype(np.uint8), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


def _two_cops_win(maze: Maze, reach: npt.NDArray[np.bool_]) -> bool:
    """Whether two cops catch the robber on the reachable cells, both playing perfectly.

    The states (cop 1, cop 2, robber) over all N grid cells are the bits of one integer,
    index (c1 * N + c2) * N + r; a move is a shift by the step's flat offset times the
    axis' stride, masked by the cells where that wall is open. Starting from the captures,
    cops-to-move wins are the states where some joint move (each cop steps or stays) reaches a
    robber-to-move win, and robber-to-move wins those where every move (or staying) reaches
    a cops-to-move win; repeated until nothing changes. Cops place first, then the robber.
    """
    size = maze.walls.size
    width = maze.width
    bits = open_bits(maze.walls).ravel() & np.where(reach.ravel(), 15, 0).astype(np.uint8)
    cells = np.arange(size)
    capture = (cells[:, None, None] == cells[None, None, :]) | (
        cells[None, :, None] == cells[None, None, :]
    )
    caught = _bits(np.broadcast_to(capture, (size, size, size)))
    everything = (1 << size**3) - 1
    robber_moves: list[tuple[int, int]] = []
    cop2_moves: list[tuple[int, int]] = []
    cop1_moves: list[tuple[int, int]] = []
    for direction in DIRECTIONS:
        has = (bits & direction.bit) != 0
        offset = direction.dy * width + direction.dx
        robber_moves.append((offset, everything ^ _bits(np.tile(has, size * size))))
        cop2_moves.append((offset * size, _bits(np.tile(np.repeat(has, size), size))))
        cop1_moves.append((offset * size * size, _bits(np.repeat(has, size * size))))

    def shift(value: int, offset: int) -> int:
        """Bit i of the result is bit i + offset of ``value``."""
        return value >> offset if offset >= 0 else value << -offset

    def cops_win(cops: int) -> bool:
        """Whether some pair of reachable cells already wins against every reachable robber."""
        won = np.unpackbits(
            np.frombuffer(cops.to_bytes((size**3 + 7) // 8, "little"), dtype=np.uint8),
            bitorder="little",
        )[: size**3].reshape(size, size, size)
        flat = reach.ravel()
        start = np.all(won[np.ix_(flat, flat, flat)], axis=2)
        return bool(start.any())

    robber = caught
    rounds = 0
    while True:
        one = robber
        for offset, mask in cop1_moves:
            one |= shift(robber, offset) & mask
        cops = one
        for offset, mask in cop2_moves:
            cops |= shift(one, offset) & mask
        rounds += 1
        if rounds % 16 == 0 and cops_win(cops):
            return True  # the answer is known before the whole game is solved
        following = cops
        for offset, closed in robber_moves:
            following &= shift(cops, offset) | closed
        following = (following | caught) & everything
        if following == robber:
            return cops_win(cops)
        robber = following


TREE_COP = CopNumber(1, 1, "the reachable cells form a tree")


def cop_number(maze: Maze, facts: Analysis | None = None) -> CopNumber | None:
    """The cop number of the reachable graph (specs/stats.md), or None when nothing is.

    1 exactly for a tree (a graph without triangles is cop-win only when it is a tree);
    else 2 or 3 by the two-cop game up to COP_LIMIT grid cells, else the bounds 2-3.
    ``facts``: the Analysis of ``maze`` when the caller has one (its tree test is reused).
    """
    facts = facts or Analysis(maze, "none")
    if not facts.entry_ok:
        return None
    if facts.tree:
        return TREE_COP
    return cop_with_loop(maze, facts.reachable)


def cop_with_loop(maze: Maze, reach: npt.NDArray[np.bool_]) -> CopNumber:
    """cop_number() of reachable cells known to hold a loop: 2 or 3 by the two-cop game up to
    COP_LIMIT grid cells, else the bounds 2-3."""
    if maze.walls.size > COP_LIMIT:
        return CopNumber(
            2,
            3,
            f"the game is solved only up to {COP_LIMIT} grid cells; a loop needs 2, "
            "and 3 suffice on every connected planar graph, by Aigner and Fromme",
        )
    if _two_cops_win(maze, reach):
        return CopNumber(2, 2, "solved: two cops win, one cannot on a graph with a loop")
    return CopNumber(3, 3, "solved: the robber escapes two cops; 3 suffice on a planar graph")
