"""Betweenness of a maze's reachable cells and passages: how many shortest paths cross each.

specs/stats.md ("Graph measures") defines it. Steps:

1. A tree (Analysis.tree): from subtree sizes in O(n), by the kernel's one leaf walk pinned
   at the entry (the reference sums the sizes over the neighbour table).
2. With a loop, up to EXACT_LIMIT reachable cells: Brandes' algorithm from every source
   (mazekit.graph.brandes), or only from the key cells when few cells are junctions or dead
   ends (mazekit.graph.chains), with the same result.
3. Above EXACT_LIMIT: an estimate from a seeded sample of sources, scaled up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ..analysis import Analysis
from ..kernels import load
from ..model import EAST, SOUTH, Cell, Maze
from .brandes import brandes_cells, brandes_threads, split_sources
from .chains import brandes_by_chains
from .ranking import leaders, ranked, top_members
from .table import FloatArray, IntArray, Sums, reachable_graph

__all__ = [
    "EXACT_LIMIT",
    "SAMPLE_PAIRS",
    "Betweenness",
    "betweenness",
    "default_samples",
    "tree_walk",
]

_KERNEL = load("measures")
EXACT_LIMIT = 10_000  # reachable cells up to which a graph with loops gets exact Brandes
SAMPLE_PAIRS = 20_000_000  # default estimate: about this many (source, cell) pairs


@dataclass(frozen=True)
class Betweenness:
    """Normalised betweenness of every cell and passage (0 where unreachable or closed).

    ``cells`` is H x W; ``east[y, x]`` is the passage (x,y)-(x+1,y), ``south[y, x]`` the passage
    (x,y)-(x,y+1). ``method`` is ``tree``, ``brandes`` or ``sampled`` (then an estimate from
    ``samples`` sources drawn with ``seed``).
    """

    cells: FloatArray
    east: FloatArray
    south: FloatArray
    reachable: npt.NDArray[np.bool_]
    east_open: npt.NDArray[np.bool_]
    south_open: npt.NDArray[np.bool_]
    method: str
    samples: int | None = None
    seed: int | None = None

    @property
    def exact(self) -> bool:
        """False for an estimate from sampled sources."""
        return self.method != "sampled"

    @cached_property
    def nodes(self) -> int:
        """Reachable cells: the vertices of the graph."""
        return int(np.count_nonzero(self.reachable))

    def top_cells(self, count: int) -> list[tuple[Cell, float]]:
        """The ``count`` busiest reachable cells, highest first, ties by (y, x) (ranking.ranked)."""
        flat, values = top_members(self.cells, self.reachable, count)
        order = ranked(values, count, (flat,))  # flat: the (y, x) order
        width = self.cells.shape[1]
        return [((int(flat[i]) % width, int(flat[i]) // width), float(values[i])) for i in order]

    def top_passages(
        self,
        count: int,
        among: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None = None,
    ) -> list[tuple[Cell, str, float]]:
        """The ``count`` busiest open passages as (west or north cell, ``E`` or ``S``, value).

        Highest first; ties by (y, x) of the first cell, then E before S (ranking.ranked).
        ``among``: east and south masks (shaped as ``east`` and ``south``) that narrow the
        passages looked at.
        """
        width = self.cells.shape[1]
        east_open, south_open = self.east_open, self.south_open
        if among is not None:
            east_open, south_open = east_open & among[0], south_open & among[1]
        # The leaders of each direction hold the leaders of both (a direction's count-th
        # largest is at most both's): no array of both directions is ever made.
        cells, kinds, values = [], [], []
        for letter, (found, open_) in enumerate(((self.east, east_open), (self.south, south_open))):
            index, value = top_members(found, open_, count)
            cells.append(index)
            kinds.append(np.full(index.size, letter))
            values.append(value)
        cell, kind, value = (np.concatenate(parts) for parts in (cells, kinds, values))
        keep = leaders(value, count)
        cell, kind, value = cell[keep], kind[keep], value[keep]
        order = ranked(value, count, (cell, kind))
        return [
            (
                (int(cell[i]) % width, int(cell[i]) // width),
                "ES"[int(kind[i])],
                float(value[i]),
            )
            for i in order
        ]


def _tree_betweenness(
    table: npt.NDArray[np.int32], dist: IntArray
) -> tuple[FloatArray, FloatArray, IntArray]:
    """Raw unordered-pair counts of a tree: per node, and per node's edge to its parent.

    Rooted at the entry (``dist``: distances from it): a node with subtree size a splits the
    others into its children's subtrees and the n - a cells beyond its parent, so it lies on
    ((n-1)^2 - sum of squares)/2 paths, and its parent edge on a(n - a). Sizes are summed from
    the deepest nodes up, in one pass.
    """
    n = table.shape[0]
    parent = np.full(n, -1, dtype=np.int64)
    for column in range(4):
        near = table[:, column].astype(np.int64)
        ok = near >= 0
        ok[ok] = dist[near[ok]] == dist[ok] - 1
        parent[ok] = near[ok]
    order = np.argsort(-dist, kind="stable")[:-1]  # deepest first; the root (last) has none
    size_list = [1] * n
    for v, p in zip(order.tolist(), parent[order].tolist(), strict=True):
        size_list[p] += size_list[v]
    size = np.asarray(size_list, dtype=np.float64)
    has_parent = parent >= 0
    squares = np.bincount(parent[has_parent], weights=size[has_parent] ** 2, minlength=n)
    squares = squares.astype(np.float64)  # an int array when nothing has a parent (n = 1)
    squares += np.where(has_parent, (n - size) ** 2, 0.0)
    nodes = ((n - 1) ** 2 - squares) / 2
    edges = np.where(has_parent, size * (n - size), 0.0)
    return nodes, edges, parent


def default_samples(n: int) -> int:
    """Sources of an estimate when none are asked for: SAMPLE_PAIRS / n, at least 16."""
    return min(n, max(16, SAMPLE_PAIRS // max(n, 1)))


def betweenness(
    maze: Maze,
    samples: int | None = None,
    seed: int = 0,
    facts: Analysis | None = None,
    threads: int | None = None,
) -> Betweenness:
    """Normalised betweenness of the reachable cells and their passages (specs/stats.md).

    ``facts``: the Analysis of ``maze`` when the caller has one (its components are reused).
    ``threads``: at most this many run the searches (None: every core); the figures are the
    same for any number.

    Exact on a tree (subtree sizes) and up to EXACT_LIMIT cells (Brandes); above it an
    estimate from ``samples`` sources (default_samples when None) drawn with ``seed``, scaled up.
    """
    height, width = maze.walls.shape
    facts = facts or Analysis(maze, "none")
    if _KERNEL is not None:
        tree = _tree_kernel(maze, facts)
        if tree is not None:
            return tree
        if np.count_nonzero(facts.reachable) > EXACT_LIMIT:  # with a loop: the walk takes trees
            return _estimate_cells(maze, facts, samples, seed, threads)
    reach, flat, table, dist = reachable_graph(maze)
    n = flat.size
    east_open = np.zeros(height * width, dtype=bool)
    south_open = np.zeros(height * width, dtype=bool)
    east_open[flat[table[:, 1] >= 0]] = True
    south_open[flat[table[:, 2] >= 0]] = True
    used: int | None = None
    drawn: int | None = None
    if facts.tree:
        method = "tree"
        cells = np.zeros(height * width)
        east = np.zeros(height * width)
        south = np.zeros(height * width)
        raw, up, parent = _tree_betweenness(table, dist)
        node_scale = 2.0 / ((n - 1) * (n - 2)) if n > 2 else 0.0
        edge_scale = 2.0 / (n * (n - 1)) if n > 1 else 0.0
        cells[flat] = raw * node_scale
        child = np.flatnonzero(parent >= 0)
        top = flat[parent[child]]
        low = flat[child]
        first = np.minimum(top, low)
        horizontal = top // width == low // width  # same row (W may be 1)
        east[first[horizontal]] = up[child[horizontal]] * edge_scale
        south[first[~horizontal]] = up[child[~horizontal]] * edge_scale
    elif n:
        if n <= EXACT_LIMIT:
            method = "brandes"
            sources = np.arange(n, dtype=np.int64)
            factor = 1.0
        else:
            method = "sampled"
            used, drawn = min(samples or default_samples(n), n), seed
            sources = _draw(n, used, seed)
            factor = n / used
        found = brandes_by_chains(table, flat, width, threads) if method == "brandes" else None
        sums = brandes_threads(table, sources, threads=threads) if found is None else found
        cells, east, south = _spread(flat, height * width, sums)
        _scale((cells, east, south), n, factor)
        if used is not None:
            method, used, drawn = _labels(n, used, seed)
    else:
        method = "tree"
        cells, east, south = (np.zeros(height * width) for _ in range(3))
    return Betweenness(
        cells=cells.reshape(height, width),
        east=east.reshape(height, width),
        south=south.reshape(height, width),
        reachable=reach,
        east_open=east_open.reshape(height, width),
        south_open=south_open.reshape(height, width),
        method=method,
        samples=used,
        seed=drawn,
    )


def _draw(n: int, used: int, seed: int) -> IntArray:
    """The sources of an estimate: ``used`` of the ``n`` nodes drawn with ``seed``, ascending."""
    generator = np.random.default_rng(seed)
    return np.sort(generator.choice(n, size=used, replace=False)).astype(np.int64)


def _spread(flat: IntArray, size: int, sums: Sums) -> Sums:
    """Brandes' sums per node (its own, its E and its S passage's) laid out over the ``size``
    grid cells: node v's at flat[v], 0 off the graph."""
    result = np.zeros(size), np.zeros(size), np.zeros(size)
    for grid, part in zip(result, sums, strict=True):
        grid[flat] = part
    return result


def _scale(grids: Sums, n: int, factor: float) -> None:
    """Brandes' sums over ordered pairs, laid out on the grid, times ``factor`` and normalised
    in place: ``raw * factor / pairs`` cell by cell (0 stays 0 off the graph); the cells' 0
    when none can lie between two others (n <= 2)."""
    pairs = ((n - 1) * (n - 2), n * (n - 1), n * (n - 1))
    for index, (grid, count) in enumerate(zip(grids, pairs, strict=True)):
        if index == 0 and n <= 2:
            grid[:] = 0.0
            continue
        grid *= factor
        grid /= count


def _estimate_cells(
    maze: Maze, facts: Analysis, samples: int | None, seed: int, threads: int | None
) -> Betweenness:
    """betweenness()'s estimate (above EXACT_LIMIT cells, with a loop) by the kernel, straight
    from the Analysis' reachable cells and open bits: no search from the entry and no
    neighbour table (reachable_graph), the sums added on the grid and scaled there; the same nodes,
    sources and floats."""
    height, width = maze.walls.shape
    reach, moves = facts.reachable, facts.moves
    flat = np.flatnonzero(reach)
    n = flat.size
    used = min(samples or default_samples(n), n)
    sources = _draw(n, used, seed)
    cells, east, south = split_sources(
        sources, n, lambda share, into: brandes_cells(moves, flat, width, share, into), threads
    )
    _scale((cells, east, south), n, n / used)
    method, reported, drawn = _labels(n, used, seed)
    return Betweenness(
        cells=cells.reshape(height, width),
        east=east.reshape(height, width),
        south=south.reshape(height, width),
        reachable=reach,
        east_open=reach & ((moves & EAST) != 0),
        south_open=reach & ((moves & SOUTH) != 0),
        method=method,
        samples=reported,
        seed=drawn,
    )


def _labels(n: int, used: int, seed: int) -> tuple[str, int | None, int | None]:
    """The method, samples and seed that a search from ``used`` of the ``n`` sources reports:
    an estimate, or Brandes' exact figures (no sample, no seed) when it took every source."""
    return ("brandes", None, None) if used == n else ("sampled", used, seed)


def _tree_kernel(maze: Maze, facts: Analysis) -> Betweenness | None:
    """betweenness() of a tree by the compiled kernel, or None when the reachable cells hold
    a loop (or none is reachable). The same figures as the reference's subtree sizes, from
    one leaf peeling pinned at the entry, without the reference's search and node table."""
    walked = tree_walk(maze, facts)
    return None if walked is None else walked[0]


def tree_walk(
    maze: Maze, facts: Analysis, exit_pin: int | None = None
) -> tuple[Betweenness, tuple[int, int]] | None:
    """The betweenness of a tree by the kernel's one leaf walk, pinned at the entry, and what
    the same walk peels pinned at the exit too (flat index ``exit_pin``: reachable, not the
    entry): (longest dead-end branch, cells peeled), measures._peel's figures for the two pins.
    None without the kernel, when the reachable cells hold a loop, or when none is reachable.
    """
    if _KERNEL is None or not facts.tree:
        return None
    height, width = maze.walls.shape
    reach, moves = facts.reachable, facts.moves
    n = int(np.count_nonzero(reach))
    root = maze.entry[1] * width + maze.entry[0]
    left = facts.degree.ravel().copy()  # the walk consumes it
    cells = np.empty(height * width)  # the kernel's scratch, then every cell's value
    east, south = np.zeros(height * width), np.zeros(height * width)
    east_open, south_open = (np.empty(height * width, dtype=bool) for _ in range(2))
    node_scale = 2.0 / ((n - 1) * (n - 2)) if n > 2 else 0.0
    edge_scale = 2.0 / (n * (n - 1)) if n > 1 else 0.0
    pin = -1 if exit_pin is None else exit_pin
    peeled, deepest, branch_peeled = _KERNEL.tree_betweenness(
        moves,
        left,
        root,
        pin,
        width,
        n,
        node_scale,
        edge_scale,
        cells,
        east,
        south,
        east_open,
        south_open,
    )
    if peeled != n - 1:  # only a kernel breaking its contract can get here
        raise RuntimeError(f"peeled {peeled} of a tree of {n} cells")
    found = Betweenness(
        cells=cells.reshape(height, width),
        east=east.reshape(height, width),
        south=south.reshape(height, width),
        reachable=reach,
        east_open=east_open.reshape(height, width),
        south_open=south_open.reshape(height, width),
        method="tree",
    )
    return found, (int(deepest), int(branch_peeled))
