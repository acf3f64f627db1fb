"""The measures a reviewer wants of a maze, and one verdict: the core of ``mazekit stats``.

specs/stats.md defines each measure. Everything is whole-grid numpy work over the facts of one
mazekit.analysis.Analysis (passages, components, loops, degrees, dead ends), except the two
walks that must be sequential: the shortest path (mazekit.search) and the peeling of dead-end
branches, a linear queue. The module is not named ``stats`` so that ``mazekit.stats`` stays
the function once it is loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .analysis import PATTERN_MODES, Analysis, PatternMode
from .kernels import load
from .model import ALL_WALLS, EAST, NORTH, SOUTH, WEST, Maze
from .rules import Context, check_coherence, check_key_cells, check_loops, evaluate
from .search import UNREACHED, distance_between

if TYPE_CHECKING:
    from .graph import GraphStats

__all__ = ["VERDICTS", "Stats", "longest_branch", "stats", "stats_with_graph"]

_KERNEL = load("measures")

VERDICTS: tuple[str, ...] = (
    "INCOHERENT",
    "DEGENERATE",
    "DISCONNECTED",
    "PERFECT",
    "NOT-PACMAN-READY",
    "PACMAN-USABLE",
    "PACMAN-ARCADE",
)


@dataclass(frozen=True)
class Stats:
    """Every measure of specs/stats.md for one maze, and its verdict (with a reason or None)."""

    width: int
    height: int
    reachable_cells: int
    pattern_cells: int
    incoherent_walls: int
    loops: int
    real_dead_ends: int
    enclosed_dead_ends: int
    three_way: int
    four_way: int
    straight: int
    turning: int
    longest_dead_end_branch: int
    shortest_path: int | None
    tortuosity: float | None
    perfect: bool
    verdict: str
    reason: str | None

    @property
    def cells(self) -> int:
        """W x H."""
        return self.width * self.height

    @property
    def longest_branch(self) -> int:
        """The name of ``longest_dead_end_branch`` before 0.2 (the JSON key is the new one)."""
        return self.longest_dead_end_branch

    @property
    def path_length(self) -> int | None:
        """The name of ``shortest_path`` before 0.2 (the JSON key is the new one)."""
        return self.shortest_path

    @property
    def junction_share(self) -> float:
        """Junctions (3- and 4-way) over reachable cells; 0 when nothing is reachable."""
        junctions = self.three_way + self.four_way
        return junctions / self.reachable_cells if self.reachable_cells else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The measures as plain JSON-ready values, in the layout of specs/stats.md."""
        share = round(self.junction_share, 4)
        tortuosity = None if self.tortuosity is None else round(self.tortuosity, 4)
        return {
            "width": self.width,
            "height": self.height,
            "cells": self.cells,
            "reachable_cells": self.reachable_cells,
            "pattern_cells": self.pattern_cells,
            "incoherent_walls": self.incoherent_walls,
            "loops": self.loops,
            "dead_ends": {"real": self.real_dead_ends, "enclosed": self.enclosed_dead_ends},
            "junctions": {"three_way": self.three_way, "four_way": self.four_way, "share": share},
            "corridors": {"straight": self.straight, "turning": self.turning},
            "longest_dead_end_branch": self.longest_dead_end_branch,
            "shortest_path": self.shortest_path,
            "tortuosity": tortuosity,
            "perfect": self.perfect,
            "verdict": self.verdict,
            "reason": self.reason,
        }


def longest_branch(facts: Analysis, pins: list[int]) -> int:
    """Cells of the longest dead-end branch: peel leaves level by level, never a pinned cell.

    A reachable cell with one open wall is a leaf; removing it may make its neighbour one. A
    cell's level is one more than the highest level of the cells peeled into it, so the last
    cell of a branch peeled has the branch's depth. One queue pass: linear in the cells.
    """
    return _peel(facts, pins)[0]


def _peel(facts: Analysis, pins: list[int]) -> tuple[int, int]:
    """(longest dead-end branch, cells peeled): on a tree pinned at the entry and the exit,
    every reachable cell is peeled but the path between the two."""
    left = facts.degree.ravel().copy()  # a fresh buffer: the walk consumes it
    for pin in pins:
        left[pin] = 255  # never reaches 1: a pinned cell stays
    if _KERNEL is None:
        return _peel_reference(facts.moves, left)
    queue = np.empty(left.size, dtype=np.int32)
    level = np.empty(left.size, dtype=np.int32)
    width = facts.moves.shape[1]
    # A pinned cell among the walked ones (the reachable cells): no two leaves ever meet, so
    # the kernel may peel in its faster order, with the same results (src/c/measures.c).
    chains = any(facts.reachable.flat[pin] for pin in pins)
    deepest, peeled = _KERNEL.peel_branches(facts.moves, left, queue, level, width, chains)
    return int(deepest), int(peeled)


def _peel_reference(moves: npt.NDArray[np.uint8], start: npt.NDArray[np.uint8]) -> tuple[int, int]:
    """The readable reference of _peel (the kernel is its copy): a FIFO queue of leaves, whose
    order decides which of two leaves meeting last goes first, and so the depths."""
    width = moves.shape[1]
    left = bytearray(start.tobytes())
    queue: list[int] = np.flatnonzero(start == 1).tolist()
    if not queue:
        return 0, 0
    bits = moves.ravel().tolist()
    level = [0] * moves.size
    deepest = 0
    north, south = -width, width
    for cell in queue:
        depth = level[cell] + 1
        left[cell] = 0
        open_ = bits[cell]
        # the one neighbour still there (none when two leaves meet last)
        if open_ & NORTH and left[cell + north]:
            near = cell + north
        elif open_ & EAST and left[cell + 1]:
            near = cell + 1
        elif open_ & SOUTH and left[cell + south]:
            near = cell + south
        elif open_ & WEST and left[cell - 1]:
            near = cell - 1
        else:
            if depth > deepest:
                deepest = depth
            continue
        if level[near] < depth:
            level[near] = depth
        left[near] -= 1
        if left[near] == 1:
            queue.append(near)
        elif depth > deepest:
            deepest = depth  # a branch ends here, on the core or a pinned cell
    return deepest, len(queue)


def stats(maze: Maze, *, pattern: PatternMode = "strict", facts: Analysis | None = None) -> Stats:
    """Measure ``maze`` (specs/stats.md) and give the first verdict of VERDICTS that applies.

    ``pattern`` says where the "42" is looked for, as validate's ``--pattern``; the measures
    take the cells as they are: only the fully closed cells of that "42" count as pattern.
    ``facts``: an Analysis of ``maze`` that a later step reuses (``stats --graph``): its
    components, passages and loops are computed there, once for both.
    """
    _check_pattern(pattern)
    return _stats(maze, pattern, facts, _peel)


def stats_with_graph(
    maze: Maze,
    *,
    pattern: PatternMode = "strict",
    top: int = 5,
    samples: int | None = None,
    seed: int = 0,
    threads: int | None = None,
) -> tuple[Stats, GraphStats]:
    """stats() and graph.graph_stats() of ``maze`` (``stats --graph``), computed together: one
    Analysis for both, and on a tree one leaf walk for the longest branch and the betweenness
    (graph.tree_walk), where each would walk the whole maze. ``threads``: at most this many
    run the betweenness' searches (None: every core); the figures are the same for any."""
    from .graph import Betweenness, graph_figures, graph_stats, tree_walk  # only --graph

    _check_pattern(pattern)
    facts = Analysis(maze)
    trees: list[Betweenness] = []

    def peel(ctx: Analysis, pins: list[int]) -> tuple[int, int]:
        """The tree walk's peeling when it can walk (a tree, the kernel), else _peel's."""
        exit_pin = pins[1] if len(pins) == 2 and pins[1] != pins[0] else None
        walked = tree_walk(maze, ctx, exit_pin) if pins else None
        if walked is None:  # no kernel, a loop, or the entry outside
            return _peel(ctx, pins)
        trees.append(walked[0])
        return walked[1]

    found = _stats(maze, pattern, facts, peel)
    if not trees:
        figures = graph_stats(
            maze, top=top, samples=samples, seed=seed, facts=facts, threads=threads
        )
        return found, figures
    del facts  # the labels and passages go before the figures' sorted copy comes
    return found, graph_figures(maze, trees[0], top)


def _check_pattern(pattern: str) -> None:
    """A ValueError unless ``pattern`` is one of PATTERN_MODES."""
    if pattern not in PATTERN_MODES:
        raise ValueError(f"pattern must be one of {', '.join(PATTERN_MODES)}")


def _pins(maze: Maze, reach: npt.NDArray[np.bool_]) -> list[int]:
    """The flat cells the peeling keeps: the entry, then the exit, each if reachable."""
    width = maze.width
    pins = [y * width + x for x, y in (maze.entry, maze.exit) if maze.contains((x, y))]
    return [pin for pin in pins if reach.flat[pin]]


Peel = Callable[[Analysis, list[int]], tuple[int, int]]


def _stats(maze: Maze, pattern: PatternMode, facts: Analysis | None, peel: Peel) -> Stats:
    """stats(), its peeling done by ``peel`` (_peel, or the tree walk of stats_with_graph),
    last: the whole-grid temporaries before it are gone by the time its arrays come."""
    mask = Analysis(maze, pattern).pattern & (maze.walls == ALL_WALLS)
    ctx = Context(maze, pattern, pattern_mask=mask)
    if facts is not None:
        ctx.share_wall_facts(facts)
    width, height = maze.width, maze.height
    reach, closed_42 = ctx.reachable, ctx.pattern
    moves, degree = ctx.moves, ctx.degree
    straight_bits = (moves == (NORTH | SOUTH)) | (moves == (EAST | WEST))
    corridor = degree == 2
    straight = int(np.count_nonzero(corridor & straight_bits))
    turning = int(np.count_nonzero(corridor)) - straight
    del straight_bits, corridor
    real, enclosed = ctx.dead_ends
    reachable_cells = int(np.count_nonzero(reach))
    incoherent = check_coherence(ctx, 0)[1]
    connected = not bool((~reach & ~closed_42).any())
    perfect = ctx.entry_ok and connected and ctx.loops == 0
    real_count = int(np.count_nonzero(real))
    verdict, reason = _verdict(ctx, incoherent, reachable_cells, connected, real_count)
    pattern_cells = int(np.count_nonzero(closed_42))
    enclosed_count = int(np.count_nonzero(enclosed))
    three_way = int(np.count_nonzero(degree == 3))
    four_way = int(np.count_nonzero(degree == 4))

    branch, peeled = peel(ctx, _pins(maze, reach))
    path_length: int | None = None
    tortuosity: float | None = None
    if ctx.entry_ok and maze.contains(maze.exit) and reach[maze.exit[1], maze.exit[0]]:
        if ctx.tree:  # a tree: the peeling left exactly the path, no search needed
            found = reachable_cells - peeled - 1
        else:
            found = distance_between(maze.walls, maze.entry, maze.exit)
        if found != UNREACHED:
            path_length = found
            manhattan = abs(maze.exit[0] - maze.entry[0]) + abs(maze.exit[1] - maze.entry[1])
            tortuosity = found / manhattan if manhattan else None
    return Stats(
        width=width,
        height=height,
        reachable_cells=reachable_cells,
        pattern_cells=pattern_cells,
        incoherent_walls=incoherent,
        loops=ctx.all_loops,
        real_dead_ends=real_count,
        enclosed_dead_ends=enclosed_count,
        three_way=three_way,
        four_way=four_way,
        straight=straight,
        turning=turning,
        longest_dead_end_branch=branch,
        shortest_path=path_length,
        tortuosity=tortuosity,
        perfect=perfect,
        verdict=verdict,
        reason=reason,
    )


def _verdict(
    ctx: Context, incoherent: int, reachable_cells: int, connected: bool, real: int
) -> tuple[str, str | None]:
    """The first verdict that applies, in the order of VERDICTS, and why when not ready.

    A board is a valid maze first (specs/pacman.md, rule 1): the default rules of validate
    but ``path`` (the path line is not used) decide it, and their first violation is the
    first reason; then the board's own limits and key cells.
    """
    if incoherent:
        return "INCOHERENT", None
    if reachable_cells <= 1:
        return "DEGENERATE", None
    if not connected:
        return "DISCONNECTED", None
    if ctx.loops == 0:
        return "PERFECT", None
    reasons: list[str] = []
    report = evaluate(ctx, skip=("path",), limit=1)  # rule 1 of a board: a valid maze
    if not report.valid:
        first = report.violations[0]
        reasons.append(f"{first.rule}: {first.message}")
    reasons += [v.message for v in check_loops(ctx, 1)[0]]
    if real > ctx.max_dead_ends:
        reasons.append(f"{real} real dead ends, more than the {ctx.max_dead_ends} allowed")
    reasons += [v.message for v in check_key_cells(ctx, 5)[0]]
    if reasons:
        return "NOT-PACMAN-READY", "; ".join(reasons)
    return ("PACMAN-ARCADE" if real == 0 else "PACMAN-USABLE"), None
