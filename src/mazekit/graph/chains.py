"""Brandes' sums over every source, with searches only from the key cells: the chain method.

specs/stats.md ("Chains") derives it. A key cell is a junction or a dead end (not 2 open
walls); a chain is a corridor a, c1, ..., c(L-1), b between key cells (a == b for a loop). A
source inside a chain reaches every cell outside it through a or b, so its pairs become
target weights of the searches from a and b, plus sums along the chain; pairs inside one
chain are counted by formula. Steps:

1. Find the key cells and the chains (find_chains).
2. Search from every key cell: distances and path counts (search_keys, a KeyPaths).
3. Per chain, the sums its inner sources add along it (chain_sums), and the target weights
   they add to the searches from its ends (KeyPaths.through, and the stretch around a..b).
4. Brandes' backward pass from the key cells with those weights, plus the chains' sums.

The kernel (measures.c, chain_sums) does steps 2 to 4 in one walk over the key cells, with
the same floats in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..kernels import load
from . import brandes
from .table import FloatArray, IntArray, Sums

__all__ = ["KEY_SHARE", "KeyPaths", "brandes_by_chains", "chain_sums", "find_chains", "search_keys"]

_KERNEL = load("measures")
KEY_SHARE = 0.25  # the chain method runs when at most this share of the cells are key cells

Chain = list[int]  # node numbers: a, the inner cells, b


def find_chains(table: npt.NDArray[np.int32], key: npt.NDArray[np.bool_]) -> list[list[int]]:
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


def brandes_by_chains(
    table: npt.NDArray[np.int32], flat: IntArray, width: int, threads: int | None = None
) -> Sums | None:
    """Brandes' sums over every source (per node, its E and its S passage), running the
    searches only from the key cells; ``flat``: each node's flat cell, on a grid ``width`` wide;
    ``threads``: at most this many (None: every core).

    None when it would not pay (no key cell, or more than KEY_SHARE of the cells are key).
    """
    n = table.shape[0]
    degree = (table >= 0).sum(axis=1)
    key = degree != 2
    keys = np.flatnonzero(key).astype(np.int64)
    if keys.size == 0 or keys.size > n * KEY_SHARE or n >= 2**15:
        return None
    chains = find_chains(table, key)
    row = np.full(n, -1, dtype=np.int64)
    row[keys] = np.arange(keys.size)
    if _KERNEL is not None:
        return _chain_kernel(table, keys, chains, row)
    paths = search_keys(table, keys, row, threads)
    nodes, east, south = np.zeros(n), np.zeros(n), np.zeros(n)
    ends: dict[int, list[tuple[int, int]]] = {}  # key cell -> (chain, which end)
    around: dict[int, list[tuple[int, float]]] = {}  # a -> (b, weight of target b)
    for number, chain in enumerate(chains):
        ends.setdefault(chain[0], []).append((number, 0))
        ends.setdefault(chain[-1], []).append((number, 1))
        inner_add, edge_add, around_total = chain_sums(paths, chain)
        if chain[0] != chain[-1] and around_total:  # the stretch a..b: a target weight at a
            around.setdefault(chain[0], []).append((chain[-1], around_total))
        _lay_along(chain, inner_add, edge_add, flat, width, (nodes, east, south))

    def weights(chunk: IntArray) -> FloatArray:
        """Per key source: 1 for every target, plus what its chains route through it."""
        return _key_weights(paths, chains, ends, around, chunk)

    raw, key_east, key_south = brandes.brandes_threads(table, keys, weights, paths.stored, threads)
    return raw + nodes, key_east + east, key_south + south


@dataclass(frozen=True)
class KeyPaths:
    """Distances and shortest-path counts from every key cell: ``row[v]`` is key cell v's row
    of ``dist`` and ``sigma`` (keys x n), -1 for the other nodes."""

    dist: npt.NDArray[np.int16]
    sigma: FloatArray
    row: IntArray

    @property
    def stored(self) -> brandes.Stored:
        """The forward results as brandes.brandes_sums takes them, to run only backward."""
        return self.dist, self.sigma, self.row

    def route(self, chain: Chain) -> tuple[IntArray, FloatArray, npt.NDArray[np.bool_]]:
        """Per target t: x = L + d(b,t) - d(a,t), the share of a's paths when both ends are
        as near, and whether t lies outside the chain's inner cells."""
        a, b = chain[0], chain[-1]
        da, sa = self.dist[self.row[a]], self.sigma[self.row[a]]
        x = (len(chain) - 1) + self.dist[self.row[b]].astype(np.int64) - da
        outside = np.ones(self.dist.shape[1], dtype=bool)
        outside[chain[1:-1]] = False
        return x, sa / (sa + self.sigma[self.row[b]]), outside

    def through(self, chain: Chain, end: int) -> FloatArray:
        """Target weights the chain's inner sources add to the search from its end ``end``
        (0: a, 1: b): for each target outside, how many of them leave through that end."""
        x, share, outside = self.route(chain)
        length = len(chain) - 1
        via_a = np.clip((x + 1) // 2 - 1, 0, length - 1).astype(np.float64)
        tie = (x % 2 == 0) & (x >= 2) & (x <= 2 * length - 2)
        via_a += np.where(tie, share, 0.0)
        result = via_a if end == 0 else (length - 1) - via_a
        result[~outside] = 0.0
        return result


def search_keys(
    table: npt.NDArray[np.int32], keys: IntArray, row: IntArray, threads: int | None = None
) -> KeyPaths:
    """Distances and path counts from every key cell, batches of them shared among up to
    ``threads`` threads (None: every core; each thread fills its own rows)."""
    n = table.shape[0]
    columns = brandes.padded_columns(table)
    kdist = np.empty((keys.size, n), dtype=np.int16)  # n <= EXACT_LIMIT < 2**15
    ksigma = np.empty((keys.size, n))
    batch = max(1, brandes.BATCH_ENTRIES // (n + 1))

    def search(start: int) -> None:
        """Fill the rows of one batch of key cells."""
        chunk = keys[start : start + batch].astype(np.int32)
        dist, sigma, _ = brandes.forward(columns, n, chunk, layered=False)
        kdist[start : start + chunk.size] = dist.reshape(chunk.size, n + 1)[:, :n]
        ksigma[start : start + chunk.size] = sigma.reshape(chunk.size, n + 1)[:, :n]

    from concurrent.futures import ThreadPoolExecutor

    workers = min(brandes.usable_threads(threads), brandes.share_count(keys.size, n))
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(search, range(0, keys.size, batch)))
    return KeyPaths(kdist, ksigma, row)


def chain_sums(paths: KeyPaths, chain: Chain) -> tuple[FloatArray, FloatArray, float]:
    """What the pairs with an inner source of ``chain`` add along it: per position 0..L (the
    ends included), per edge k (positions k and k + 1), and the weight of the stretch around
    through a ... b (pairs of inner cells whose shortest paths go the other way round)."""
    a, b = chain[0], chain[-1]
    length = len(chain) - 1
    n = paths.dist.shape[1]
    x, share, outside = paths.route(chain)
    da, sa = paths.dist[paths.row[a]], paths.sigma[paths.row[a]]
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
    reach = length + d_ab if a != b else length
    paths_ab = s_ab if a != b else 1.0
    around_total = _inner_pairs(inner_add, edge_add, reach, paths_ab, a == b)
    if a == b:
        inner_add[0] += inner_add[length]
        inner_add[length] = 0.0
    return inner_add, edge_add, around_total


def _inner_pairs(
    inner_add: FloatArray, edge_add: FloatArray, reach: int, paths_ab: float, loop: bool
) -> float:
    """Add, in place, what the pairs of two inner cells of a chain add along it: their paths
    go along the chain, or around through a ... b (``reach``: the length of the way round,
    ``paths_ab`` its shortest paths; ``loop`` when a == b). Returns the stretch's weight."""
    length = edge_add.size
    k = np.arange(1, length)
    edges = np.arange(length)
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
                2 * around * (np.maximum(0, length - 1 - gap - edges) + np.maximum(0, edges - gap))
            )
            inner_add[0] += 2 * around * pairs
            if not loop:
                inner_add[length] += 2 * around * pairs
            around_total += 2 * around * pairs
    return around_total


def _lay_along(
    chain: Chain,
    inner_add: FloatArray,
    edge_add: FloatArray,
    flat: IntArray,
    width: int,
    sums: Sums,
) -> None:
    """Add a chain's sums (per position, per edge) to the nodes' ``sums`` in place: each edge
    to the E or S passage of its west or north cell."""
    nodes, east, south = sums
    cells = np.asarray(chain, dtype=np.int64)
    np.add.at(nodes, cells, inner_add)
    first, second = flat[cells[:-1]], flat[cells[1:]]
    low_end = np.where(first < second, cells[:-1], cells[1:])
    horizontal = first // width == second // width  # same row (W may be 1)
    np.add.at(east, low_end[horizontal], edge_add[horizontal])
    np.add.at(south, low_end[~horizontal], edge_add[~horizontal])


def _key_weights(
    paths: KeyPaths,
    chains: list[Chain],
    ends: dict[int, list[tuple[int, int]]],
    around: dict[int, list[tuple[int, float]]],
    chunk: IntArray,
) -> FloatArray:
    """Per key source of ``chunk``: 1 for every target, plus what its chains route through it
    (``ends``: its chains and which end it is), plus the stretches around it (``around``)."""
    result = np.ones((chunk.size, paths.dist.shape[1]))
    for index, a in enumerate(chunk.tolist()):
        for number, end in ends.get(a, ()):
            result[index] += paths.through(chains[number], end)
        for b, weight in around.get(a, ()):
            result[index, b] += weight
    return result


def _chain_kernel(
    table: npt.NDArray[np.int32], keys: IntArray, chains: list[list[int]], row: IntArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """brandes_by_chains by the kernel, in one walk over the key cells (measures.c, chain_sums):
    the sums of its brandes.brandes_threads (the same shares of the sources, batches and
    order), plus its loop over the chains, with the reference's floats. Each key cell's search
    is kept only while a key cell still to come needs it, not in a table of keys x n."""
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
    workers = brandes.share_count(keys.size, n)  # its shares, as brandes_threads splits
    batches = np.array(
        [
            max(1, min(keys[k::workers].size, brandes.BATCH_ENTRIES // (n + 1)))
            for k in range(workers)
        ],
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
    for more in range(1, workers):  # as brandes.brandes_threads adds its threads' sums
        sums = [total + part[more] for total, part in zip(sums, parts, strict=True)]
    return sums[0] + local[0], sums[1] + local[1], sums[2] + local[2]
