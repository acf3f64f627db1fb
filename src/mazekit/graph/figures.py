"""The graph figures of ``stats --graph``: the betweenness peak, its Gini, the busiest cells
and passages, and the cop number, as text lines and as the JSON entry (specs/stats.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from ..analysis import Analysis
from ..model import Cell, Maze
from .brandes import usable_threads
from .centrality import Betweenness, TreeRanking, TreeSizes, betweenness
from .cops import TREE_COP, CopNumber, cop_with_loop
from .table import FloatArray

__all__ = [
    "SORT_ASIDE",
    "GraphStats",
    "gini",
    "graph_figures",
    "graph_stats",
    "percent",
    "tree_figures",
]

SORT_ASIDE = 1 << 22  # values from which graph_figures sorts them beside the cop number


@dataclass(frozen=True)
class GraphStats:
    """The graph figures of ``stats --graph``: betweenness, its Gini, top cells and passages
    (``betweenness``: the grids, or only the top ``top`` of a tree, TreeRanking)."""

    betweenness: Betweenness | TreeRanking
    gini: float
    top: int
    cop: CopNumber | None

    @cached_property
    def _cells(self) -> list[tuple[Cell, float]]:
        """The top cells, found once for the JSON and the text alike."""
        return self.betweenness.top_cells(self.top)

    @cached_property
    def _passages(self) -> list[tuple[Cell, str, float]]:
        """The top passages, found once for the JSON and the text alike."""
        return self.betweenness.top_passages(self.top)

    def to_dict(self) -> dict[str, Any]:
        """The ``graph`` entry of the stats JSON (specs/stats.md); values to 6 decimals."""
        found = self.betweenness
        cells = self._cells
        peak = cells[0] if cells else None
        return {
            "nodes": found.nodes,
            "method": found.method,
            "exact": found.exact,
            "samples": found.samples,
            "seed": found.seed,
            "peak": None if peak is None else {"cell": list(peak[0]), "value": _r(peak[1])},
            "gini": _r(self.gini),
            "bottlenecks": [{"cell": list(cell), "value": _r(value)} for cell, value in cells],
            "passages": [
                {
                    "cell": list(cell),
                    "direction": letter,
                    "to": list(_beyond(cell, letter)),
                    "value": _r(value),
                }
                for cell, letter, value in self._passages
            ],
            "cop_number": None
            if self.cop is None
            else {
                "value": self.cop.low if self.cop.exact else None,
                "low": self.cop.low,
                "high": self.cop.high,
                "exact": self.cop.exact,
                "reason": self.cop.reason,
            },
        }

    def text_lines(self) -> list[str]:
        """The lines ``stats --graph`` adds to a file's text block (specs/stats.md), indented."""
        found = self.betweenness
        cop = (
            "none (no reachable cell)"
            if self.cop is None
            else f"{self.cop.text} ({self.cop.reason})"
        )
        cells = self._cells
        if not cells:
            return ["  betweenness: none (no reachable cell)", f"  cop number: {cop}"]
        mark = "" if found.exact else "~"
        if found.exact:
            method = "exact, tree" if found.method == "tree" else "exact, Brandes"
        else:
            method = f"estimated from {found.samples} of {found.nodes} sources, seed {found.seed}"
        (x, y), peak = cells[0]
        passages = self._passages
        return [
            f"  betweenness: peak {mark}{percent(peak)} at ({x},{y}), Gini {mark}{self.gini:.3f} "
            f"({method})",
            "  bottlenecks: "
            + ", ".join(f"({cx},{cy}) {mark}{percent(value)}" for (cx, cy), value in cells),
            "  busiest passages: "
            + (
                ", ".join(
                    f"({cx},{cy}) {letter} {mark}{percent(value)}"
                    for (cx, cy), letter, value in passages
                )
                or "none"
            ),
            f"  cop number: {cop}",
        ]


def percent(value: float) -> str:
    """A share as a percentage with two decimals; never ``-0.00%`` (a float's noise below 0
    rounds to 0)."""
    return f"{round(100 * value, 2) + 0.0:.2f}%"  # + 0.0: -0.0 becomes 0.0


def _r(value: float) -> float:
    """Six decimals: enough for the small shares of a large maze; never -0.0."""
    return round(value, 6) + 0.0  # + 0.0: -0.0 becomes 0.0


def _beyond(cell: Cell, letter: str) -> Cell:
    """The cell across the passage ``letter`` (E or S) of ``cell``."""
    return (cell[0] + 1, cell[1]) if letter == "E" else (cell[0], cell[1] + 1)


def gini(values: npt.ArrayLike) -> float:
    """Gini coefficient: the mean absolute difference of all pairs over twice the mean.

    0 when all values are equal (or there are none); sorted, it is
    2 * sum(i * x_i) / (n * sum(x)) - (n + 1) / n with i from 1.
    """
    return _gini_sorted(np.sort(np.asarray(values, dtype=np.float64).ravel()))


_RANKS = 65_536  # ranks made at a time: a small array, not one of n floats


def _gini_sorted(x: FloatArray) -> float:
    """gini() of values already sorted, ascending (a float64 array it consumes: each value
    is multiplied by its rank in place, a block of ranks at a time; the same products)."""
    total = float(x.sum())
    if x.size == 0 or total <= 0:
        return 0.0
    for start in range(0, x.size, _RANKS):
        part = x[start : start + _RANKS]
        part *= np.arange(start + 1, start + 1 + part.size, dtype=np.float64)
    found = float(2.0 * x.sum() / (x.size * total) - (x.size + 1) / x.size)
    return max(0.0, found)  # equal values can leave -1e-17 (or -0.0): never below 0


def graph_stats(
    maze: Maze,
    top: int = 5,
    samples: int | None = None,
    seed: int = 0,
    facts: Analysis | None = None,
    threads: int | None = None,
) -> GraphStats:
    """Every graph figure of ``stats --graph`` for ``maze`` (``facts``: its Analysis, if the
    caller has one; ``threads``: at most this many search, None for every core)."""
    found = betweenness(maze, samples=samples, seed=seed, facts=facts, threads=threads)
    return graph_figures(maze, found, top, threads)


def graph_figures(
    maze: Maze, found: Betweenness, top: int = 5, threads: int | None = None
) -> GraphStats:
    """The graph figures of ``maze`` from its betweenness ``found``: Gini, top, cop number.
    ``threads``: at most this many sort the values and find the cop number (None: every
    core); the figures are the same for any."""
    values = found.cells[found.reachable]  # a copy: sorted in place
    if usable_threads(threads) < 2 or values.size < SORT_ASIDE:
        values.sort()
        return GraphStats(found, _gini_sorted(values), top, _cop(maze, found))
    from concurrent.futures import ThreadPoolExecutor

    # numpy lets go of the interpreter lock while it sorts: the sort in a thread of its own
    # while this one finds the cop number (at 4000x4000, 1.1 s and 0.35 s of one core)
    with ThreadPoolExecutor(1) as pool:
        done = pool.submit(values.sort)
        cop = _cop(maze, found)
        done.result()
    return GraphStats(found, _gini_sorted(values), top, cop)


def _cop(maze: Maze, found: Betweenness) -> CopNumber | None:
    """The cop number of ``maze`` given its betweenness (whose method tells a tree)."""
    if found.method == "tree":  # betweenness' test is cop_number's: a tree, or no cell at all
        return TREE_COP if found.nodes else None
    return cop_with_loop(maze, found.reachable)  # Brandes runs only on cells with a loop


def tree_figures(walked: TreeSizes, top: int = 5) -> GraphStats:
    """graph_figures() of a tree from its walk (tree_sizes): the same figures, from the
    subtree sizes and one grid of values sorted in place (stats --graph on a perfect maze)."""
    ranking = walked.ranking(top, _gini_sorted)
    return GraphStats(
        betweenness=ranking, gini=ranking.gini, top=top, cop=TREE_COP if ranking.nodes else None
    )
