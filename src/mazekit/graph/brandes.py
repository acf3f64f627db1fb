"""Brandes' betweenness sums from a set of sources, the searches shared among threads.

For each source, a breadth-first search counts the shortest paths to every node (forward),
then the dependencies are added back from the farthest layer (backward). The numpy reference
runs a batch of sources at once, layer by layer; the kernel (measures.c) runs one search a
source with the same float operations in the same order. Threads take interleaved shares of
the sources (numpy and the kernels let go of the interpreter lock) and their sums are added
in a fixed order, so the result does not depend on timing.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..config import every_core
from ..kernels import load
from .table import FloatArray, IntArray, Sums

__all__ = [
    "BATCH_ENTRIES",
    "SHARES",
    "SPLIT_PAIRS",
    "SPLIT_SOURCES",
    "Layers",
    "ShareSearch",
    "Stored",
    "Turn",
    "TurnSearch",
    "Weights",
    "add_into",
    "batch_size",
    "brandes_cells",
    "brandes_cells_in_turn",
    "brandes_sums",
    "brandes_threads",
    "forward",
    "one_addition",
    "padded_columns",
    "share_count",
    "split_sources",
    "usable_threads",
]

_KERNEL = load("measures")
BATCH_ENTRIES = 2_000_000  # sources x cells per Brandes batch: about 90 MB of arrays
SHARES = 2  # fixed shares of the sources a search is split into, each a thread's work
SPLIT_SOURCES = 128  # sources from which a search is split into SHARES,
SPLIT_PAIRS = 1 << 24  # or (source, node) pairs (a 1000x1000 estimate: 20 sources, 20 M)


Weights = Callable[[IntArray], FloatArray]


def padded_columns(table: npt.NDArray[np.int32]) -> list[npt.NDArray[np.int32]]:
    """The neighbour table by direction, with node n as the spare standing for none."""
    n = table.shape[0]
    padded = np.where(table >= 0, table, n).astype(np.int32)
    return [np.append(padded[:, c], np.int32(n)) for c in range(4)]


Layers = list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]]


def forward(
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


def brandes_sums(
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
    batch = batch_size(n, sources.size)
    if _KERNEL is not None and weights is None and stored is None:
        # one search a source, with these very float operations and sums (measures.c)
        sums = np.empty(n), np.empty(n), np.empty(n)
        table32 = np.ascontiguousarray(table, dtype=np.int32)
        _KERNEL.brandes(table32, np.ascontiguousarray(sources, dtype=np.int64), batch, *sums)
        return sums
    columns = padded_columns(table)
    nodes = np.zeros(n)
    east = np.zeros(n)
    south = np.zeros(n)
    for start in range(0, sources.size, batch):
        chunk = sources[start : start + batch].astype(np.int32)
        size = chunk.size
        if stored is None:
            sigma, layers = forward(columns, n, chunk)[1:]
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


def share_count(sources: int, nodes: int) -> int:
    """The fixed shares the ``sources`` of a search over ``nodes`` nodes are split into: SHARES
    when threads pay (at least SPLIT_SOURCES sources, or SPLIT_PAIRS (source, node) pairs),
    else 1. It depends on the search only, never on -j or the cores: the shares' sums are
    added in one fixed order, so the bytes are the same however many threads run them."""
    if sources < 2 or (sources < SPLIT_SOURCES and sources * nodes < SPLIT_PAIRS):
        return 1
    return SHARES


def usable_threads(threads: int | None) -> int:
    """``threads``, or every core this process may use when None or 0 (as ``-j 0``)."""
    return threads or every_core()


def brandes_threads(
    table: npt.NDArray[np.int32],
    sources: IntArray,
    weights: Weights | None = None,
    stored: Stored | None = None,
    threads: int | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``brandes_sums`` on the fixed shares of the sources, summed in order (split_sources)."""

    def search(share: IntArray, into: Sums | None) -> Sums:
        """One share's sums, added into ``into`` when given."""
        return add_into(into, brandes_sums(table, share, weights, stored))

    return split_sources(sources, table.shape[0], search, threads)


# A share's search: its sums, or (given the sums of the shares before) those plus its own.
ShareSearch = Callable[[IntArray, Sums | None], Sums]
# The turn of share k among threads adding into one set of sums: (a shared int64, k).
Turn = tuple[npt.NDArray[np.int64], int]
# A share's search adding into shared sums when its turn comes (brandes_cells with a turn).
TurnSearch = Callable[[IntArray, Sums, Turn], object]


def split_sources(
    sources: IntArray,
    nodes: int,
    search: ShareSearch,
    threads: int | None = None,
    in_turn: tuple[TurnSearch, int] | None = None,
) -> Sums:
    """``search`` on the share_count interleaved shares of the sources of a graph of ``nodes``
    nodes, run by up to ``threads`` threads (None: every core), the sums added share by share.

    numpy and the kernels let go of the interpreter lock while they search, so threads use
    the cores; the shares and the order of their sums are fixed, so the result depends on
    neither the timing nor the threads. One thread hands each share the sums of the ones
    before, so only one set of sums is kept. ``in_turn`` (a search, the sums' length): the
    threads too keep one set, each share added into it in share order when its turn comes
    (started in order, a share waits only for earlier ones, which are running or done).
    """
    shares = share_count(sources.size, nodes)
    parts = [sources[k::shares] for k in range(shares)] if shares > 1 else [sources]
    workers = min(usable_threads(threads), shares)
    if workers == 1:
        total = search(parts[0], None)
        for part in parts[1:]:
            total = search(part, total)
        return total
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        if in_turn is not None:
            add, size = in_turn
            sums = (np.zeros(size), np.zeros(size), np.zeros(size))
            turn = np.zeros(1, dtype=np.int64)
            list(pool.map(lambda k: add(parts[k], sums, (turn, k)), range(shares)))
            return sums
        found = list(pool.map(lambda part: search(part, None), parts))
    total = found[0]
    for more in found[1:]:
        total = add_into(total, more)
    return total


def add_into(into: Sums | None, more: Sums) -> Sums:
    """``into`` plus ``more``, added in place (a + b, the same floats), or ``more`` alone."""
    if into is None:
        return more
    for total, part in zip(into, more, strict=True):
        total += part
    return into


def batch_size(n: int, sources: int) -> int:
    """Sources a Brandes batch of a graph of ``n`` nodes searches at once (BATCH_ENTRIES)."""
    return max(1, min(sources, BATCH_ENTRIES // (n + 1)))


def brandes_cells(
    moves: npt.NDArray[np.uint8],
    flat: IntArray,
    width: int,
    sources: IntArray,
    into: Sums | None = None,
    tiled: bool | None = None,
) -> Sums:
    """``brandes_sums(table, sources)`` of the graph of the cells ``flat`` by the kernel, which
    reads each node's neighbours off the open bits ``moves`` (H x W): no n x 4 table. The sums
    come laid out on the grid (flat, a cell each: node v's at flat[v], 0 off the graph), added
    into ``into`` when given (add_into's floats): by the kernel itself when the sources are one
    batch, since it then adds their sums once, at its end (a 4000x4000 maze: no second 384 MB
    of grids). ``tiled``: the kernel numbers its nodes tile by tile (True) or in flat order
    (False); None, the default, as their size asks (measures.c, cells_number). The sums are
    the same bits either way."""
    some = np.ascontiguousarray(sources, dtype=np.int64)  # a thread's share is strided
    batch = batch_size(flat.size, some.size)
    if into is not None and not one_addition(flat.size, some.size):
        return add_into(into, brandes_cells(moves, flat, width, some, tiled=tiled))
    sums = into or (np.zeros(moves.size), np.zeros(moves.size), np.zeros(moves.size))
    order = -1 if tiled is None else int(tiled)
    _KERNEL.brandes_cells(moves, width, flat, some, batch, *sums, None, 0, order)
    return sums


def brandes_cells_in_turn(
    moves: npt.NDArray[np.uint8],
    flat: IntArray,
    width: int,
    sources: IntArray,
    into: Sums,
    turn: Turn,
) -> None:
    """brandes_cells(..., into) in ``turn`` (split_sources' in_turn): the kernel adds the sums
    when the shares before have added theirs, and passes the turn on, also when it fails.
    Only for searches of one addition (one_addition): every share's sums are added at once."""
    some = np.ascontiguousarray(sources, dtype=np.int64)
    if not one_addition(flat.size, some.size):
        raise ValueError("a search in turn adds its sums once: one batch or one source")
    _KERNEL.brandes_cells(
        moves, width, flat, some, batch_size(flat.size, some.size), *into, turn[0], turn[1]
    )


def one_addition(nodes: int, sources: int) -> bool:
    """Whether brandes_cells adds the sums of ``sources`` searches over ``nodes`` nodes into the
    grids once, at its end (one batch a source, or one source)."""
    return batch_size(nodes, sources) == 1 or sources <= 1
