"""The cop number of a maze's reachable cells: how many cops catch a robber there.

1 for a tree (a graph without triangles is cop-win only when it is a tree). With a loop, the
steps of specs/stats.md: peel the dead ends (the number stays); a core of treewidth at most
2 (the series-parallel test) needs exactly 2; else the two-cop game on the core, up to
COP_LIMIT core cells, gives 2 or 3; above it the bounds 2-3 (3 suffice on a planar graph).
The game runs in the compiled kernel mazekit._ccops when built, else in _two_cops_win, the
plain reference it copies. The page's twin is src/mazekit/drawing/page/cops.js.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..analysis import Analysis
from ..kernels import load
from ..model import DEGREE, DIRECTIONS, Maze
from ..search import open_bits

__all__ = ["COP_LIMIT", "TREE_COP", "CopNumber", "cop_number", "cop_with_loop", "core_of"]

COP_LIMIT = 400  # cells of the core (dead ends peeled) up to which the number is settled

_KERNEL: Any = load("cops")


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


def core_of(moves: npt.NDArray[np.uint8], reach: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The core of the reachable cells: what is left when cells with one open wall are
    removed, one by one, until none is (empty for a tree). ``moves``: open bits (H x W)."""
    left = np.where(reach, DEGREE[moves], 0).astype(np.uint8).ravel()
    width = moves.shape[1]
    peel = load("measures")
    if peel is not None:
        scratch = np.empty(left.size, dtype=np.int32)
        peel.peel_branches(moves, left, scratch, np.empty_like(scratch), width, False)
        return (left > 0).reshape(moves.shape)
    bits = moves.ravel().tolist()
    steps = [(d.bit, d.dy * width + d.dx) for d in DIRECTIONS]
    queue: list[int] = np.flatnonzero(left == 1).tolist()
    for cell in queue:
        left[cell] = 0
        for bit, offset in steps:
            near = cell + offset
            if bits[cell] & bit and left[near]:
                left[near] -= 1
                if left[near] == 1:
                    queue.append(near)
    return (left > 0).reshape(moves.shape)


def within(moves: npt.NDArray[np.uint8], cells: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """The open bits of ``moves`` that join two of ``cells``: the graph those cells induce."""
    kept = np.zeros_like(moves)
    for direction in DIRECTIONS:
        # open bits never point out of the grid, so the roll's wrapped edge is never read
        there = np.roll(cells, (-direction.dy, -direction.dx), axis=(0, 1))
        kept |= np.where(cells & there & (moves & direction.bit != 0), direction.bit, 0).astype(
            np.uint8
        )
    return kept


def series_parallel(moves: npt.NDArray[np.uint8]) -> bool:
    """Whether the graph of ``moves`` (open bits joining its cells) has treewidth at most 2:
    it vanishes when vertices of degree 0 or 1 are deleted and each vertex of degree 2 is
    replaced by an edge between its two neighbours, parallel edges merged."""
    width = moves.shape[1]
    flat = moves.ravel()
    adjacent: dict[int, set[int]] = {}
    for cell in np.flatnonzero(flat).tolist():
        bits = int(flat[cell])
        adjacent[cell] = {cell + d.dy * width + d.dx for d in DIRECTIONS if bits & d.bit}
    todo = [v for v, near in adjacent.items() if len(near) <= 2]
    while todo:
        v = todo.pop()
        near = adjacent.get(v)
        if near is None or len(near) > 2:
            continue
        del adjacent[v]
        for u in near:
            adjacent[u].discard(v)
        if len(near) == 2:
            u, w = near
            adjacent[u].add(w)
            adjacent[w].add(u)
        todo.extend(near)
    return not adjacent


def _bits(mask: npt.NDArray[np.bool_]) -> int:
    """A boolean array as one integer whose bit i is ``mask.flat[i]``."""
    packed = np.packbits(mask.ravel().astype(np.uint8), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


def _two_cops_win(moves: npt.NDArray[np.uint8], cells: npt.NDArray[np.bool_]) -> bool:
    """Whether two cops catch the robber on ``cells`` (the graph of ``moves``, whose open bits
    join two of them), both playing perfectly: the plain reference of the game.

    The states (cop 1, cop 2, robber) over all N grid cells are the bits of one integer,
    index (c1 * N + c2) * N + r; a move is a shift by the step's flat offset times the
    axis' stride, masked by the cells where that wall is open. Starting from the captures,
    cops-to-move wins are the states where some joint move (each cop steps or stays) reaches a
    robber-to-move win, and robber-to-move wins those where every move (or staying) reaches
    a cops-to-move win; repeated until nothing changes. Cops place first, then the robber.
    """
    size = moves.size
    width = moves.shape[1]
    bits = moves.ravel()
    grid = np.arange(size)
    capture = (grid[:, None, None] == grid[None, None, :]) | (
        grid[None, :, None] == grid[None, None, :]
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
        """Whether some pair of the cells already wins against every robber on them."""
        won = np.unpackbits(
            np.frombuffer(cops.to_bytes((size**3 + 7) // 8, "little"), dtype=np.uint8),
            bitorder="little",
        )[: size**3].reshape(size, size, size)
        flat = cells.ravel()
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


def _words(mask: npt.NDArray[np.bool_], words: int) -> npt.NDArray[np.uint64]:
    """A flat boolean array as ``words`` little-endian 64-bit words, bit i = ``mask[i]``."""
    packed = np.zeros(words * 8, dtype=np.uint8)
    bytes_ = np.packbits(mask.astype(np.uint8), bitorder="little")
    packed[: bytes_.size] = bytes_
    return packed.view("<u8").astype(np.uint64)


def two_cops_win(moves: npt.NDArray[np.uint8], cells: npt.NDArray[np.bool_]) -> bool:
    """_two_cops_win's answer, from the compiled kernel when built (src/c/cops.c)."""
    if _KERNEL is None:
        return _two_cops_win(moves, cells)
    width = moves.shape[1]
    flat = moves.ravel()
    nodes = np.flatnonzero(cells.ravel())
    index = np.full(flat.size, -1, dtype=np.int64)
    index[nodes] = np.arange(nodes.size)
    start = [0]
    to: list[int] = []
    blocked = np.ones((4, flat.size), dtype=bool)
    for v, cell in enumerate(nodes.tolist()):
        to.append(v)
        for row, direction in enumerate(DIRECTIONS):
            if flat[cell] & direction.bit:
                to.append(int(index[cell + direction.dy * width + direction.dx]))
                blocked[row, cell] = False
        start.append(len(to))
    words = (flat.size + 63) // 64
    return bool(
        _KERNEL.two_cops_win(
            np.asarray(start, dtype=np.int32),
            np.asarray(to, dtype=np.int32),
            nodes.astype(np.int64),
            np.concatenate([_words(row, words) for row in blocked]),
            _words(cells.ravel(), words),
            np.asarray([d.dy * width + d.dx for d in DIRECTIONS], dtype=np.int64),
        )
    )


TREE_COP = CopNumber(1, 1, "the reachable cells form a tree")


TWO_BY_WIDTH = CopNumber(
    2,
    2,
    "two cops win on a core of treewidth at most 2, by Joret, Kaminski and Theis; "
    "one cannot on a graph with a loop",
)
TWO_BY_GAME = CopNumber(2, 2, "solved: two cops win, one cannot on a graph with a loop")
THREE_BY_GAME = CopNumber(3, 3, "solved: the robber escapes two cops; 3 suffice on a planar graph")
BOUNDS = CopNumber(
    2,
    3,
    f"the game is solved only up to {COP_LIMIT} core cells, the cells left when dead ends "
    "are peeled; a loop needs 2, and 3 suffice on every connected planar graph, "
    "by Aigner and Fromme",
)


def cop_number(maze: Maze, facts: Analysis | None = None) -> CopNumber | None:
    """The cop number of the reachable graph (specs/stats.md), or None when nothing is.

    1 exactly for a tree; with a loop, cop_with_loop's steps.
    ``facts``: the Analysis of ``maze`` when the caller has one (its tree test is reused).
    """
    facts = facts or Analysis(maze, "none")
    if not facts.entry_ok:
        return None
    if facts.tree:
        return TREE_COP
    return cop_with_loop(maze, facts.reachable)


def cop_with_loop(maze: Maze, reach: npt.NDArray[np.bool_]) -> CopNumber:
    """cop_number() of reachable cells known to hold a loop (specs/stats.md): peel the dead
    ends; above COP_LIMIT core cells the bounds 2-3; 2 when the core has treewidth at most 2;
    else 2 or 3 by the two-cop game on the core."""
    moves = open_bits(maze.walls)
    core = core_of(moves, reach)
    if int(np.count_nonzero(core)) > COP_LIMIT:
        return BOUNDS
    inner = within(moves, core)
    if series_parallel(inner):
        return TWO_BY_WIDTH
    # the game's rows of bits span the core's bounding box only, not the whole grid
    rows, columns = np.flatnonzero(core.any(axis=1)), np.flatnonzero(core.any(axis=0))
    box = np.s_[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]
    return TWO_BY_GAME if two_cops_win(inner[box], core[box]) else THREE_BY_GAME
