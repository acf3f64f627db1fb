"""A maze read as a graph: betweenness of cells and passages, its Gini, and the cop number.

specs/stats.md ("Graph measures") defines every figure. The graph is the reachable cells
(connected to the entry) joined by open walls, read as every search reads them
(mazekit.search.open_bits). Steps:

1. Number the reachable cells in flat order and build an n x 4 neighbour table (N, E, S, W).
2. Betweenness: on a tree, from subtree sizes in O(n); otherwise Brandes' algorithm run for a
   batch of sources at once, layer by layer in numpy (exact up to EXACT_LIMIT cells, else from
   a seeded sample of sources, scaled up: an estimate). When few cells are junctions or dead
   ends (key cells), only the key cells are searched and the corridor cells between them are
   counted by formula (the chain method), with the same result.
3. Gini of the cells' values; the busiest cells and passages, ties by (y, x).
4. Cop number: 1 for a tree; else the two-cop game solved on bit sets of all states (cops'
   cells, robber's cell) up to COP_LIMIT grid cells; else 2-3, the planar bound.

JavaScript twins in the page: betweenness and Gini in src/mazekit/drawing/page/graph.js, the
cop number in src/mazekit/drawing/page/cops.js (the browser tests compare them).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from .analysis import Analysis
from .kernels import load
from .model import ALL_WALLS, DIRECTIONS, EAST, NORTH, SOUTH, WEST, Cell, Maze
from .search import bfs_flat, open_bits

__all__ = [
    "COP_LIMIT",
    "EXACT_LIMIT",
    "SAMPLE_PAIRS",
    "Betweenness",
    "CopNumber",
    "GraphStats",
    "betweenness",
    "cop_number",
    "default_samples",
    "faces",
    "gini",
    "graph_figures",
    "graph_stats",
    "tree_walk",
]

_KERNEL = load("measures")

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

EXACT_LIMIT = 10_000  # reachable cells up to which a graph with loops gets exact Brandes
SAMPLE_PAIRS = 20_000_000  # default estimate: about this many (source, cell) pairs
COP_LIMIT = 400  # grid cells (W x H) up to which the two-cop game is solved
_BATCH_ENTRIES = 2_000_000  # sources x cells per Brandes batch: about 90 MB of arrays
_KEY_SHARE = 0.25  # the chain method runs when at most this share of the cells are key cells
_THREADS = 2  # Brandes' sources shared among this many threads (at most the usable cores)


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
        """The ``count`` busiest reachable cells, highest first, ties by (y, x)."""
        flat, values = _top_members(self.cells, self.reachable, count)
        order = np.lexsort((flat, -values))[:count]
        width = self.cells.shape[1]
        return [((int(flat[i]) % width, int(flat[i]) // width), float(values[i])) for i in order]

    def top_passages(
        self,
        count: int,
        among: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None = None,
    ) -> list[tuple[Cell, str, float]]:
        """The ``count`` busiest open passages as (west or north cell, ``E`` or ``S``, value).

        Highest first; ties by (y, x) of the first cell, then E before S. ``among``: east and
        south masks (shaped as ``east`` and ``south``) that narrow the passages looked at.
        """
        width = self.cells.shape[1]
        east_open, south_open = self.east_open, self.south_open
        if among is not None:
            east_open, south_open = east_open & among[0], south_open & among[1]
        # The leaders of each direction hold the leaders of both (a direction's count-th
        # largest is at most both's): no array of both directions is ever made.
        cells, kinds, values = [], [], []
        for letter, (found, open_) in enumerate(((self.east, east_open), (self.south, south_open))):
            index, value = _top_members(found, open_, count)
            cells.append(index)
            kinds.append(np.full(index.size, letter))
            values.append(value)
        cell, kind, value = (np.concatenate(parts) for parts in (cells, kinds, values))
        keep = _leaders(value, count)
        cell, kind, value = cell[keep], kind[keep], value[keep]
        order = np.lexsort((kind, cell, -value))[:count]
        return [
            (
                (int(cell[i]) % width, int(cell[i]) // width),
                "ES"[int(kind[i])],
                float(value[i]),
            )
            for i in order
        ]


_HEAP_LIMIT = 1024  # kth_largest's heap up to this count; np.partition's selection above


def _top_members(
    values: FloatArray, members: npt.NDArray[np.bool_], count: int
) -> tuple[IntArray, FloatArray]:
    """Flat indices (ascending) and values of the ``members`` whose value is at least the
    ``count``-th largest member value: the top ``count`` members and their ties.

    The kernel finds the ``count``-th largest of all values in one pass (outside the members
    they are 0); the members at least that high hold the top ``count`` members whenever they
    number ``count`` or more. Otherwise, and as the reference, every member is looked at.
    """
    flat_values, flat_members = values.ravel(), members.ravel()
    fast = flat_values.dtype == np.float64 and count <= _HEAP_LIMIT and count < flat_values.size
    if _KERNEL is not None and fast:  # the heap reads float64
        threshold = _KERNEL.kth_largest(np.ascontiguousarray(flat_values), count)
        index = np.flatnonzero(flat_values >= threshold)  # none when the threshold is NaN
        index = index[flat_members[index]]
        if index.size >= count:
            found = flat_values[index]
            keep = _leaders(found, count)
            return index[keep], found[keep]
    index = np.flatnonzero(flat_members)
    found = flat_values[index]
    keep = _leaders(found, count)
    return index[keep], found[keep]


def _leaders(values: FloatArray, count: int) -> IntArray:
    """Indices of every value at least the ``count``-th largest: the top ``count`` and ties.

    A partial partition, so that listing the top 5 of a million cells needs no full sort.
    """
    if count >= values.size:
        return np.arange(values.size, dtype=np.int64)
    threshold = np.partition(values, values.size - count)[values.size - count]
    return np.flatnonzero(values >= threshold)


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


@dataclass(frozen=True)
class GraphStats:
    """The graph figures of ``stats --graph``: betweenness, its Gini, top cells and passages."""

    betweenness: Betweenness
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
            f"  betweenness: peak {mark}{_pct(peak)} at ({x},{y}), Gini {mark}{self.gini:.3f} "
            f"({method})",
            "  bottlenecks: "
            + ", ".join(f"({cx},{cy}) {mark}{_pct(value)}" for (cx, cy), value in cells),
            "  busiest passages: "
            + (
                ", ".join(
                    f"({cx},{cy}) {letter} {mark}{_pct(value)}"
                    for (cx, cy), letter, value in passages
                )
                or "none"
            ),
            f"  cop number: {cop}",
        ]


def faces(walls: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """The face of the passage graph around each corner of the grid, as (H+1) x (W+1) labels.

    Drawn in the plane, the open passages split it into faces; two corners lie in the same
    face exactly when closed walls (an incoherent wall is closed, the border always) join
    them. A passage is a bridge, the only link between two parts, exactly when the corners at
    the two ends of the wall it crosses lie in the same face (planar duality): every bridge
    of the maze in one labelling, not one search per passage. Closing a passage that is no
    bridge merges its two faces.
    """
    from .search import component_labels, passages

    height, width = walls.shape
    east, south = passages(walls)
    across = np.ones((height + 1, width), dtype=np.bool_)  # corner (r, c) to (r, c + 1)
    across[1:height] = ~south
    down = np.ones((height, width + 1), dtype=np.bool_)  # corner (r, c) to (r + 1, c)
    down[:, 1:width] = ~east
    links = np.zeros((height + 1, width + 1), dtype=np.uint8)
    across_bits, down_bits = across.view(np.uint8), down.view(np.uint8)  # 0 or 1, a byte each
    links[:, :-1] |= across_bits * np.uint8(EAST)  # bytes: no int64 np.where of every corner
    links[:, 1:] |= across_bits * np.uint8(WEST)
    links[:-1, :] |= down_bits * np.uint8(SOUTH)
    links[1:, :] |= down_bits * np.uint8(NORTH)
    return component_labels(links ^ np.uint8(ALL_WALLS), bits=links)


def _pct(value: float) -> str:
    """A share as a percentage with two decimals."""
    return f"{100 * value:.2f}%"


def _r(value: float) -> float:
    """Six decimals: enough for the small shares of a large maze."""
    return round(value, 6)


def _beyond(cell: Cell, letter: str) -> Cell:
    """The cell across the passage ``letter`` (E or S) of ``cell``."""
    return (cell[0] + 1, cell[1]) if letter == "E" else (cell[0], cell[1] + 1)


def _graph(
    maze: Maze,
) -> tuple[npt.NDArray[np.bool_], IntArray, npt.NDArray[np.int32], IntArray]:
    """Reachable mask, node -> flat cell, the n x 4 neighbour table (N, E, S, W; -1 none),
    and each node's breadth-first distance from the entry (one search gives all four)."""
    walls = maze.walls
    width = maze.width
    moves = open_bits(walls).ravel()
    if maze.contains(maze.entry):
        found, _ = bfs_flat(moves, width, maze.entry[1] * width + maze.entry[0])
        dist = np.asarray(found, dtype=np.int64)
    else:
        dist = np.full(walls.size, -1, dtype=np.int64)
    flat = np.flatnonzero(dist >= 0)
    reach = (dist >= 0).reshape(walls.shape)
    node = np.full(walls.size, -1, dtype=np.int32)
    node[flat] = np.arange(flat.size, dtype=np.int32)
    bits = moves[flat]
    table = np.full((flat.size, 4), -1, dtype=np.int32)
    for column, direction in enumerate(DIRECTIONS):
        has = (bits & direction.bit) != 0
        table[has, column] = node[flat[has] + direction.dy * width + direction.dx]
    return reach, flat.astype(np.int64), table, dist[flat]


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


Weights = Callable[[IntArray], FloatArray]


def _columns(table: npt.NDArray[np.int32]) -> list[npt.NDArray[np.int32]]:
    """The neighbour table by direction, with node n as the spare standing for none."""
    n = table.shape[0]
    padded = np.where(table >= 0, table, n).astype(np.int32)
    return [np.append(padded[:, c], np.int32(n)) for c in range(4)]


Layers = list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]]


def _forward(
    columns: list[npt.NDArray[np.int32]],
    n: int,
    chunk: npt.NDArray[np.int32],
    layered: bool = True,
) -> tuple[npt.NDArray[np.int32], FloatArray, Layers]:
    """Breadth-first layers from each source of ``chunk`` at once: distances, path counts and
    the (source offset, node) pairs of each layer; arrays are sources x (n + 1), flat.
    Without ``layered``, no layers (an empty list): the chain method's reference keeps only
    the distances and counts."""
    stride = n + 1
    size = chunk.size
    dist = np.full(size * stride, -1, dtype=np.int32)
    dist[n::stride] = np.iinfo(np.int32).max  # the spare: never new
    sigma = np.zeros(size * stride)
    base = np.arange(size, dtype=np.int32) * np.int32(stride)
    here = chunk
    dist[base + here] = 0
    sigma[base + here] = 1.0
    layers: Layers = [(base, here)]
    depth = 0
    while True:
        depth += 1
        parts_base = []
        parts_node = []
        for column in columns:
            near = column.take(here)
            index = base + near
            new = dist.take(index) < 0
            dist[index[new]] = depth
            parts_base.append(base[new])
            parts_node.append(near[new])
        base = np.concatenate(parts_base)
        if not base.size:
            break
        here = np.concatenate(parts_node)
        paths = sigma.take(base + columns[0].take(here))
        for column in columns[1:]:
            paths += sigma.take(base + column.take(here))
        sigma[base + here] = paths
        layers.append((base, here))
    return dist, sigma, layers


Stored = tuple[npt.NDArray[np.int16], FloatArray, IntArray]  # distances, counts, row of a cell


def _layers_from(distances: npt.NDArray[np.int16], stride: int) -> Layers:
    """The layers of a batch from its stored distances (sources x n): the (source offset,
    node) pairs of each distance, by one stable radix sort."""
    n = distances.shape[1]
    flat_dist = distances.ravel()
    order = np.argsort(flat_dist, kind="stable")
    bounds = np.flatnonzero(np.diff(flat_dist[order])) + 1
    layers: Layers = []
    for part in np.split(order, bounds):
        source = part // n
        layers.append(((source * stride).astype(np.int32), (part - source * n).astype(np.int32)))
    return layers


def _brandes(
    table: npt.NDArray[np.int32],
    sources: IntArray,
    weights: Weights | None = None,
    stored: Stored | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Brandes' sums over ``sources`` (ordered pairs): per node, and per node's E and S edge.

    A batch of sources runs at once over (source, node) pairs, with one spare node per source
    standing for "no neighbour" (never new, no paths), so no step needs a mask. A grid is
    bipartite: a node's neighbours lie one layer nearer or one farther, never on its own layer.
    So forward, a new node's path count is the plain sum of its neighbours' (the farther ones
    are still 0); backward, its dependency sums (w + delta) / sigma of its neighbours, which
    is still 0 for the nearer ones. ``weights`` gives each target's weight w per source
    (sources x n; default 1: every pair counts once); ``stored`` holds the forward results
    already computed for the sources, so only the backward pass runs. Both serve the chain
    method's reference only (the kernel's chain_sums does its own); the plain case runs in the
    kernel, one search a source with the same sums in the same order.
    """
    n = table.shape[0]
    stride = n + 1  # node n is the spare
    batch = _batch(n, sources.size)
    if _KERNEL is not None and weights is None and stored is None:
        # one search a source, with these very float operations and sums (measures.c)
        sums = np.empty(n), np.empty(n), np.empty(n)
        table32 = np.ascontiguousarray(table, dtype=np.int32)
        _KERNEL.brandes(table32, np.ascontiguousarray(sources, dtype=np.int64), batch, *sums)
        return sums
    columns = _columns(table)
    nodes = np.zeros(n)
    east = np.zeros(n)
    south = np.zeros(n)
    for start in range(0, sources.size, batch):
        chunk = sources[start : start + batch].astype(np.int32)
        size = chunk.size
        if stored is None:
            sigma, layers = _forward(columns, n, chunk)[1:]
        else:
            rows = stored[2][chunk]
            sigma = np.zeros((size, stride))
            sigma[:, :n] = stored[1][rows]
            sigma = sigma.ravel()
            layers = _layers_from(stored[0][rows], stride)
        if weights is None:
            wanted = np.ones(size * stride)
        else:
            wanted = np.zeros((size, stride))
            wanted[:, :n] = weights(chunk.astype(np.int64))
            wanted = wanted.ravel()
        coef = np.zeros(size * stride)  # (w + delta) / sigma, set layer by layer from the end
        delta = np.zeros(size * stride)
        edge_e = np.zeros(size * stride)  # the E and S passages of each node
        edge_s = np.zeros(size * stride)
        for base, here in reversed(layers):
            target = base + here
            weight = sigma.take(target)
            farther = np.zeros(target.size)
            for column, letter in zip(columns, "NESW", strict=True):
                near = base + column.take(here)
                found = coef.take(near)
                farther += found
                found *= weight  # the share of the passage: 0 when ``near`` is nearer
                if letter == "E":
                    edge_e[target] += found
                elif letter == "S":
                    edge_s[target] += found
                elif letter == "W":
                    edge_e[near] += found  # the spare node takes the missing ones
                else:
                    edge_s[near] += found
            found = weight * farther
            delta[target] = found
            coef[target] = (wanted.take(target) + found) / weight
        delta[layers[0][0] + layers[0][1]] = 0.0  # a source is no node between
        nodes += delta.reshape(size, stride)[:, :n].sum(axis=0)
        east += edge_e.reshape(size, stride)[:, :n].sum(axis=0)
        south += edge_s.reshape(size, stride)[:, :n].sum(axis=0)
    return nodes, east, south


def _chains(table: npt.NDArray[np.int32], key: npt.NDArray[np.bool_]) -> list[list[int]]:
    """Every chain once: [a, c1, ..., c(L-1), b] from key node a through cells of degree 2 to
    key node b (a == b for a loop); chains without an inner cell are left out."""
    rows = table.tolist()
    is_key = key.tolist()
    found: list[list[int]] = []
    for a in np.flatnonzero(key).tolist():
        for first in rows[a]:
            if first < 0 or is_key[first]:
                continue
            chain = [a, first]
            previous, current = a, first
            while not is_key[current]:
                step = next(w for w in rows[current] if w >= 0 and w != previous)
                previous, current = current, step
                chain.append(current)
            if (chain[0], chain[1]) < (chain[-1], chain[-2]):  # the other end finds it too
                found.append(chain)
    return found


def _brandes_chains(
    table: npt.NDArray[np.int32], flat: IntArray, width: int
) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """Brandes' sums over every source, running the searches only from the key cells.

    None when it would not pay (no key cell, or more than a quarter of the cells are key).
    specs/stats.md ("Chains") derives it: a source inside a chain a..b reaches every cell
    outside the chain through a or b, so its pairs become target weights of the searches from
    a and b, plus sums along the chain; pairs inside one chain are counted by formula.
    """
    n = table.shape[0]
    degree = (table >= 0).sum(axis=1)
    key = degree != 2
    keys = np.flatnonzero(key).astype(np.int64)
    if keys.size == 0 or keys.size > n * _KEY_SHARE or n >= 2**15:
        return None
    chains = _chains(table, key)
    row = np.full(n, -1, dtype=np.int64)
    row[keys] = np.arange(keys.size)
    if _KERNEL is not None:
        return _chain_kernel(table, keys, chains, row)
    # distances and path counts from every key cell
    columns = _columns(table)
    kdist = np.empty((keys.size, n), dtype=np.int16)  # n <= EXACT_LIMIT < 2**15
    ksigma = np.empty((keys.size, n))
    batch = max(1, _BATCH_ENTRIES // (n + 1))

    def search(start: int) -> None:
        """Fill the rows of one batch of key cells (each thread its own rows)."""
        chunk = keys[start : start + batch].astype(np.int32)
        dist, sigma, _ = _forward(columns, n, chunk, layered=False)
        kdist[start : start + chunk.size] = dist.reshape(chunk.size, n + 1)[:, :n]
        ksigma[start : start + chunk.size] = sigma.reshape(chunk.size, n + 1)[:, :n]

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(_workers(keys.size)) as pool:
        list(pool.map(search, range(0, keys.size, batch)))
    nodes = np.zeros(n)
    edge_value = {"E": np.zeros(n), "S": np.zeros(n)}

    def route(chain: list[int]) -> tuple[IntArray, FloatArray, npt.NDArray[np.bool_]]:
        """Per target t: x = L + d(b,t) - d(a,t), the share of a's paths when both ends are
        as near, and whether t lies outside the chain's inner cells."""
        a, b = chain[0], chain[-1]
        da, sa = kdist[row[a]], ksigma[row[a]]
        x = (len(chain) - 1) + kdist[row[b]].astype(np.int64) - da
        outside = np.ones(n, dtype=bool)
        outside[chain[1:-1]] = False
        return x, sa / (sa + ksigma[row[b]]), outside

    def through(chain: list[int], end: int) -> FloatArray:
        """Target weights the chain's inner sources add to the search from its end ``end``
        (0: a, 1: b): for each target outside, how many of them leave through that end."""
        x, share, outside = route(chain)
        length = len(chain) - 1
        via_a = np.clip((x + 1) // 2 - 1, 0, length - 1).astype(np.float64)
        tie = (x % 2 == 0) & (x >= 2) & (x <= 2 * length - 2)
        via_a += np.where(tie, share, 0.0)
        result = via_a if end == 0 else (length - 1) - via_a
        result[~outside] = 0.0
        return result

    ends: dict[int, list[tuple[int, int]]] = {}  # key cell -> (chain, which end)
    around_weights: dict[int, list[tuple[int, float]]] = {}  # a -> (b, weight of target b)
    for number, chain in enumerate(chains):
        ends.setdefault(chain[0], []).append((number, 0))
        ends.setdefault(chain[-1], []).append((number, 1))
        a, b = chain[0], chain[-1]
        length = len(chain) - 1
        x, share, outside = route(chain)
        da, sa = kdist[row[a]], ksigma[row[a]]
        # A_i: targets outside leaving through a, for each inner source i
        counts = np.bincount(x[outside], minlength=2 * length + 2).astype(np.float64)
        ties = np.bincount(x[outside], weights=share[outside], minlength=2 * length + 2)
        beyond = np.cumsum(counts[::-1])[::-1]  # beyond[k] = #targets with x >= k
        i = np.arange(1, length)
        leave_a = beyond[2 * i + 1] + ties[2 * i]
        leave_b = (n - (length - 1)) - leave_a
        d_ab = int(da[b])
        s_ab = float(sa[b])
        # the end cells themselves as targets: a from source i, b from source i
        at_a = np.where(2 * i < length + d_ab, 1.0, 0.0)
        at_a += np.where(2 * i == length + d_ab, 1.0 / (1.0 + s_ab), 0.0)
        at_b_via_a = np.where(2 * i < length - d_ab, 1.0, 0.0)
        at_b_via_a += np.where(2 * i == length - d_ab, s_ab / (s_ab + 1.0), 0.0)
        inner_add = np.zeros(length + 1)  # by position 0..L along the chain
        edge_add = np.zeros(length)  # edge k joins positions k and k + 1
        after_a = np.cumsum(leave_a[::-1])[::-1]  # sum over i >= k of A_i (index k - 1)
        before_b = np.cumsum(leave_b)  # sum over i <= k of B_i (index k - 1)
        k = np.arange(1, length)
        inner_add[k] += np.append(after_a[1:], 0.0)  # i > k
        inner_add[k] += np.concatenate(([0.0], before_b[:-1]))  # i < k
        inner_add[0] += float((leave_a - at_a).sum())
        inner_add[length] += float((leave_b - (1.0 - at_b_via_a)).sum())
        edges = np.arange(length)
        edge_add += np.where(edges < length - 1, np.append(after_a, 0.0)[edges], 0.0)  # i > k
        edge_add += np.concatenate(([0.0], before_b))[edges]  # i <= k
        # pairs of inner cells: along the chain, or around through a ... b
        reach = length + d_ab if a != b else length
        paths_ab = s_ab if a != b else 1.0
        around_total = 0.0
        for gap in range(1, length - 1):
            if 2 * gap < reach:
                direct, around = 1.0, 0.0
            elif 2 * gap > reach:
                direct, around = 0.0, 1.0
            else:
                direct, around = 1.0 / (1.0 + paths_ab), paths_ab / (1.0 + paths_ab)
            pairs = length - 1 - gap
            if direct:
                low = np.maximum(1, k - gap + 1)
                high = np.minimum(k - 1, length - 1 - gap)
                inner_add[k] += 2 * direct * np.maximum(0, high - low + 1)
                low = np.maximum(1, edges - gap + 1)
                high = np.minimum(edges, length - 1 - gap)
                edge_add += 2 * direct * np.maximum(0, high - low + 1)
            if around:
                inner_add[k] += (
                    2 * around * (np.maximum(0, length - 1 - gap - k) + np.maximum(0, k - gap - 1))
                )
                edge_add += (
                    2
                    * around
                    * (np.maximum(0, length - 1 - gap - edges) + np.maximum(0, edges - gap))
                )
                inner_add[0] += 2 * around * pairs
                if a != b:
                    inner_add[length] += 2 * around * pairs
                around_total += 2 * around * pairs
        if a != b and around_total:  # the stretch between a and b: a target weight at a
            around_weights.setdefault(a, []).append((b, around_total))
        if a == b:
            inner_add[0] += inner_add[length]
            inner_add[length] = 0.0
        cells = np.asarray(chain, dtype=np.int64)
        np.add.at(nodes, cells, inner_add)
        first, second = flat[cells[:-1]], flat[cells[1:]]
        low_end = np.where(first < second, cells[:-1], cells[1:])
        horizontal = first // width == second // width  # same row (W may be 1)
        np.add.at(edge_value["E"], low_end[horizontal], edge_add[horizontal])
        np.add.at(edge_value["S"], low_end[~horizontal], edge_add[~horizontal])

    def weights(chunk: IntArray) -> FloatArray:
        """Per key source: 1 for every target, plus what its chains route through it."""
        result = np.ones((chunk.size, n))
        for index, a in enumerate(chunk.tolist()):
            for number, end in ends.get(a, ()):
                result[index] += through(chains[number], end)
            for b, weight in around_weights.get(a, ()):
                result[index, b] += weight
        return result

    raw, east, south = _brandes_threads(table, keys, weights, (kdist, ksigma, row))
    return raw + nodes, east + edge_value["E"], south + edge_value["S"]


def _chain_kernel(
    table: npt.NDArray[np.int32], keys: IntArray, chains: list[list[int]], row: IntArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """_brandes_chains by the kernel, in one walk over the key cells (measures.c, chain_sums):
    the sums of its _brandes_threads (the same shares of the sources, batches and order), plus
    its loop over the chains, with the reference's floats. Each key cell's search is kept only
    while a key cell still to come needs it, not in a table of keys x n."""
    n = table.shape[0]
    lengths = np.array([len(chain) - 1 for chain in chains], dtype=np.int64)
    info = np.empty((len(chains), 4), dtype=np.int64)  # the chains numbered by a, as found
    info[:, 0] = row[[chain[0] for chain in chains]] if chains else 0
    info[:, 1] = row[[chain[-1] for chain in chains]] if chains else 0
    info[:, 2] = lengths
    info[:, 3] = np.cumsum(lengths - 1) - (lengths - 1)
    inner = np.array([cell for chain in chains for cell in chain[1:-1]], dtype=np.int64)
    ends: list[list[int]] = [[] for _ in range(keys.size)]  # per key row: 2 x chain + end
    for number, (first, last) in enumerate(info[:, :2].tolist()):
        ends[first].append(2 * number)
        ends[last].append(2 * number + 1)
    ends_start = np.zeros(keys.size + 1, dtype=np.int64)
    ends_start[1:] = np.cumsum([len(here) for here in ends])
    flat_ends = np.array([end for here in ends for end in here], dtype=np.int64)
    workers = _workers(keys.size)
    batches = np.array(
        [max(1, min(keys[k::workers].size, _BATCH_ENTRIES // (n + 1))) for k in range(workers)],
        dtype=np.int64,
    )
    parts = np.empty((workers, n)), np.empty((workers, n)), np.empty((workers, n))
    local = np.empty(n), np.empty(n), np.empty(n)
    _KERNEL.chain_sums(
        np.ascontiguousarray(table, dtype=np.int32),
        keys,
        info,
        inner,
        ends_start,
        flat_ends,
        batches,
        *parts,
        *local,
    )
    sums = [part[0] for part in parts]
    for more in range(1, workers):  # as _brandes_threads adds its threads' sums
        sums = [total + part[more] for total, part in zip(sums, parts, strict=True)]
    return sums[0] + local[0], sums[1] + local[1], sums[2] + local[2]


def _workers(sources: int) -> int:
    """Threads for a search from ``sources`` cells: _THREADS, at most the usable cores, and
    one for fewer than 64 sources."""
    return max(1, min(_THREADS, len(os.sched_getaffinity(0)), sources // 64))


def _brandes_threads(
    table: npt.NDArray[np.int32],
    sources: IntArray,
    weights: Weights | None = None,
    stored: Stored | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``_brandes`` on up to _THREADS interleaved shares of the sources, summed in order."""
    return _split(sources, lambda share: _brandes(table, share, weights, stored))


Sums = tuple[FloatArray, FloatArray, FloatArray]  # per node, its E and its S passage


def _split(sources: IntArray, search: Callable[[IntArray], Sums]) -> Sums:
    """``search`` on up to _THREADS interleaved shares of the sources, summed in order.

    numpy and the kernels let go of the interpreter lock while they search, so threads use
    the cores; the sums are added in a fixed order, so the result does not depend on timing.
    """
    workers = _workers(sources.size)
    if workers == 1:
        return search(sources)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(lambda k: search(sources[k::workers]), range(workers)))
    nodes, east, south = parts[0]
    for more in parts[1:]:
        nodes, east, south = nodes + more[0], east + more[1], south + more[2]
    return nodes, east, south


def _batch(n: int, sources: int) -> int:
    """Sources a Brandes batch of a graph of ``n`` nodes searches at once (_BATCH_ENTRIES)."""
    return max(1, min(sources, _BATCH_ENTRIES // (n + 1)))


def _brandes_cells(
    moves: npt.NDArray[np.uint8], flat: IntArray, width: int, sources: IntArray
) -> Sums:
    """``_brandes(table, sources)`` of the graph of the cells ``flat`` by the kernel, which
    reads each node's neighbours off the open bits ``moves`` (H x W): no n x 4 table. The sums
    come laid out on the grid (flat, a cell each: node v's at flat[v], 0 off the graph)."""
    sums = np.zeros(moves.size), np.zeros(moves.size), np.zeros(moves.size)
    some = np.ascontiguousarray(sources, dtype=np.int64)  # a thread's share is strided
    _KERNEL.brandes_cells(moves, width, flat, some, _batch(flat.size, some.size), *sums)
    return sums


def default_samples(n: int) -> int:
    """Sources of an estimate when none are asked for: SAMPLE_PAIRS / n, at least 16."""
    return min(n, max(16, SAMPLE_PAIRS // max(n, 1)))


def betweenness(
    maze: Maze, samples: int | None = None, seed: int = 0, facts: Analysis | None = None
) -> Betweenness:
    """Normalised betweenness of the reachable cells and their passages (specs/stats.md).

    ``facts``: the Analysis of ``maze`` when the caller has one (its components are reused).

    Exact on a tree (subtree sizes) and up to EXACT_LIMIT cells (Brandes); above it an
    estimate from ``samples`` sources (default_samples when None) drawn with ``seed``, scaled up.
    """
    height, width = maze.walls.shape
    if _KERNEL is not None:
        facts = facts or Analysis(maze, "none")
        tree = _tree_kernel(maze, facts)
        if tree is not None:
            return tree
        if np.count_nonzero(facts.reachable) > EXACT_LIMIT:  # with a loop: the walk takes trees
            return _estimate_cells(maze, facts, samples, seed)
    reach, flat, table, dist = _graph(maze)
    n = flat.size
    edges = int((table >= 0).sum()) // 2
    east_open = np.zeros(height * width, dtype=bool)
    south_open = np.zeros(height * width, dtype=bool)
    east_open[flat[table[:, 1] >= 0]] = True
    south_open[flat[table[:, 2] >= 0]] = True
    used: int | None = None
    drawn: int | None = None
    if n and edges == n - 1:
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
        found = _brandes_chains(table, flat, width) if method == "brandes" else None
        sums = _brandes_threads(table, sources) if found is None else found
        cells, east, south = _spread(flat, height * width, sums)
        _scale((cells, east, south), n, factor)
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


def _estimate_cells(maze: Maze, facts: Analysis, samples: int | None, seed: int) -> Betweenness:
    """betweenness()'s estimate (above EXACT_LIMIT cells, with a loop) by the kernel, straight
    from the Analysis' reachable cells and open bits: no search from the entry and no
    neighbour table (_graph), the sums added on the grid and scaled there; the same nodes,
    sources and floats."""
    height, width = maze.walls.shape
    reach, moves = facts.reachable, facts.moves
    flat = np.flatnonzero(reach)
    n = flat.size
    used = min(samples or default_samples(n), n)
    sources = _draw(n, used, seed)
    cells, east, south = _split(sources, lambda share: _brandes_cells(moves, flat, width, share))
    _scale((cells, east, south), n, n / used)
    return Betweenness(
        cells=cells.reshape(height, width),
        east=east.reshape(height, width),
        south=south.reshape(height, width),
        reachable=reach,
        east_open=reach & ((moves & EAST) != 0),
        south_open=reach & ((moves & SOUTH) != 0),
        method="sampled",
        samples=used,
        seed=seed,
    )


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
    if _KERNEL is None or not facts.entry_ok or facts.loops:
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
    return float(2.0 * x.sum() / (x.size * total) - (x.size + 1) / x.size)


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


_TREE_COP = CopNumber(1, 1, "the reachable cells form a tree")


def cop_number(maze: Maze, reach: npt.NDArray[np.bool_] | None = None) -> CopNumber | None:
    """The cop number of the reachable graph (specs/stats.md), or None when nothing is.

    1 exactly for a tree (a graph without triangles is cop-win only when it is a tree);
    else 2 or 3 by the two-cop game up to COP_LIMIT grid cells, else the bounds 2-3.
    """
    if reach is None:
        reach = _graph(maze)[0]
    n = int(reach.sum())
    if n == 0:
        return None
    east, south = _passages_among(maze, reach)
    if east + south == n - 1:
        return _TREE_COP
    return _cop_with_loop(maze, reach)


def _cop_with_loop(maze: Maze, reach: npt.NDArray[np.bool_]) -> CopNumber:
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


def _passages_among(maze: Maze, reach: npt.NDArray[np.bool_]) -> tuple[int, int]:
    """Open east and south passages between reachable cells."""
    bits = open_bits(maze.walls)
    east = int(((bits & EAST) != 0)[reach].sum())
    south = int(((bits & SOUTH) != 0)[reach].sum())
    return east, south


def graph_stats(
    maze: Maze,
    top: int = 5,
    samples: int | None = None,
    seed: int = 0,
    facts: Analysis | None = None,
) -> GraphStats:
    """Every graph figure of ``stats --graph`` for ``maze`` (``facts``: its Analysis, if the
    caller has one)."""
    return graph_figures(maze, betweenness(maze, samples=samples, seed=seed, facts=facts), top)


def graph_figures(maze: Maze, found: Betweenness, top: int = 5) -> GraphStats:
    """The graph figures of ``maze`` from its betweenness ``found``: Gini, top, cop number."""
    values = found.cells[found.reachable]  # a copy: sorted in place
    values.sort()
    cop: CopNumber | None
    if found.method == "tree":  # betweenness' test is cop_number's: a tree, or no cell at all
        cop = _TREE_COP if found.nodes else None
    else:  # Brandes runs only on reachable cells that hold a loop
        cop = _cop_with_loop(maze, found.reachable)
    return GraphStats(betweenness=found, gini=_gini_sorted(values), top=top, cop=cop)
