"""Graph work on the grid shared by every command: passages, components, BFS, loops, the walk.

A wall counts as open only when both cells agree it is open (an incoherent wall is closed),
so a search never leaves the grid and never trusts half a passage. Whole-grid work is numpy;
the sequential loops (labels, breadth-first search, the walk) run in the compiled kernel
mazekit._csearch over numpy arrays, or in the pure-Python reference below over flat lists.
The page's JavaScript twin of the search, the canonical path and the loop count is
src/mazekit/drawing/page/board.js.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .kernels import large_empty, load
from .model import (
    ALL_WALLS,
    DIRECTIONS,
    EAST,
    LETTER_BIT,
    LETTER_DX,
    LETTER_DY,
    NORTH,
    SOUTH,
    WEST,
    Cell,
    Walls,
)

__all__ = [
    "UNREACHED",
    "bfs_flat",
    "closed_groups",
    "component_labels",
    "count_loops",
    "distance_between",
    "distances",
    "flat_open_bits",
    "open_bits",
    "passages",
    "path_positions",
    "reachable_mask",
    "shortest_path",
    "step_offsets",
    "step_table",
    "trace_path",
    "walk_shortest",
]

_KERNEL = load("search")

UNREACHED = -1
BoolGrid = npt.NDArray[np.bool_]
# Flat open bits (index y * W + x): a uint8 array (the kernel's form) or a list of ints.
Bits = Sequence[int] | npt.NDArray[np.uint8]
# Flat step counts, -1 where not reached: what bfs_flat fills and walk_shortest reads.
Dist = Sequence[int] | npt.NDArray[np.int32]


def passages(walls: Walls) -> tuple[BoolGrid, BoolGrid]:
    """Open passages: ``east[y, x]`` joins (x,y)-(x+1,y); ``south[y, x]`` joins (x,y)-(x,y+1)."""
    east = ((walls[:, :-1] & EAST) == 0) & ((walls[:, 1:] & WEST) == 0)
    south = ((walls[:-1, :] & SOUTH) == 0) & ((walls[1:, :] & NORTH) == 0)
    return east, south


def open_bits(walls: Walls) -> npt.NDArray[np.uint8]:
    """Per cell, the bits of the directions one can actually move in (coherent and inside)."""
    if _KERNEL is not None and walls.size:
        walls = np.ascontiguousarray(walls, dtype=np.uint8)
        bits = np.empty(walls.shape, dtype=np.uint8)
        _KERNEL.open_bits(walls, walls.shape[1], bits)
        return bits
    east, south = passages(walls)
    bits = np.zeros(walls.shape, dtype=np.uint8)
    bits[:, :-1] |= east.astype(np.uint8) * EAST
    bits[:, 1:] |= east.astype(np.uint8) * WEST
    bits[:-1, :] |= south.astype(np.uint8) * SOUTH
    bits[1:, :] |= south.astype(np.uint8) * NORTH
    return bits


def component_labels(
    walls: Walls, bits: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.int32]:
    """Label each cell with the smallest flat index (y * W + x) of its component, as H x W.

    ``bits``: the maze's open_bits when the caller has them already (Analysis.moves).

    The kernel is a union-find in two scans (each root hooked under the smaller one, then
    labels read off in index order); the reference is a union-find in whole-array steps:
    each root hooks onto a smaller root it touches, then pointer jumping flattens the trees;
    a few rounds suffice even for one long corridor.
    """
    height, width = walls.shape
    if _KERNEL is not None and walls.size:
        labels = large_empty(walls.size, np.int32).reshape(walls.shape)  # huge pages
        _KERNEL.labels(open_bits(walls) if bits is None else bits, width, labels)
        return labels
    east, south = passages(walls)
    edges = int(east.sum()) + int(south.sum())
    first = np.empty(edges, dtype=np.int32)  # int32 and filled in place: memory is the limit
    split = int(east.sum())
    first[:split] = np.flatnonzero(east)
    if width > 1:
        first[:split] += first[:split] // (width - 1)  # H x (W-1) index -> flat cell index
    first[split:] = np.flatnonzero(south)
    del east, south
    second = first + 1
    second[split:] += width - 1
    parent = np.arange(height * width, dtype=np.int32)
    while first.size:
        root_a = parent[first]
        root_b = parent[second]
        apart = root_a != root_b
        if not apart.any():
            break
        first, second = first[apart], second[apart]
        root_a, root_b = root_a[apart], root_b[apart]
        del apart
        higher = np.maximum(root_a, root_b)
        np.minimum(root_a, root_b, out=root_a)
        del root_b
        # Any smaller root will do: parent[x] < x keeps the forest acyclic; losers retry.
        parent[higher] = root_a
        del higher, root_a
        while True:
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
    return parent.reshape(height, width)


def count_loops(east: BoolGrid, south: BoolGrid, within: BoolGrid, components: int = 1) -> int:
    """Independent loops (the cycle rank) among the ``within`` cells: open walls between two of
    them, minus their number, plus the ``components`` they form (1 for the cells reached from
    one cell); 0 when there are no cells. The one way mazekit counts loops."""
    cells = int(np.count_nonzero(within))
    if cells == 0:
        return 0
    edges = int(np.count_nonzero(east & within[:, :-1] & within[:, 1:]))
    edges += int(np.count_nonzero(south & within[:-1, :] & within[1:, :]))
    return edges - cells + components


def reachable_mask(walls: Walls, start: Cell) -> BoolGrid:
    """H x W booleans: the cells connected to ``start`` (which must lie inside the grid)."""
    labels = component_labels(walls)
    x, y = start
    return np.asarray(labels == labels[y, x])


def flat_open_bits(walls: Walls) -> list[int]:
    """``open_bits`` as a flat Python list (index y * W + x), for loops in Python over a few
    cells; the searches take ``open_bits(walls).ravel()`` (1 byte a cell, not 36)."""
    result: list[int] = open_bits(walls).ravel().tolist()
    return result


def step_table(width: int, moves: int = ALL_WALLS) -> list[tuple[tuple[int, str], ...]]:
    """For each set of open bits 0..15, its steps allowed by ``moves`` as (flat offset,
    letter), in N, E, S, W order: a table lookup per cell replaces four bit tests."""
    return [
        tuple((d.dy * width + d.dx, d.letter) for d in DIRECTIONS if bits & moves & d.bit)
        for bits in range(ALL_WALLS + 1)
    ]


def step_offsets(width: int, moves: int = ALL_WALLS) -> list[tuple[int, ...]]:
    """step_table without the letters: the flat offsets only, as the searches loop over them."""
    return [tuple(offset for offset, _ in steps) for steps in step_table(width, moves)]


def path_positions(start: Cell, path: str) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The x and y of every cell a path of letters visits from ``start`` (len(path) + 1 each).

    Bounds and walls are not looked at: callers decide what a step outside means. int32, so
    that a path of millions of steps stays small.
    """
    steps = np.frombuffer(path.encode("ascii"), dtype=np.uint8)
    xs = np.empty(len(steps) + 1, dtype=np.int32)
    ys = np.empty(len(steps) + 1, dtype=np.int32)
    xs[0], ys[0] = start
    np.cumsum(LETTER_DX[steps], out=xs[1:])
    np.cumsum(LETTER_DY[steps], out=ys[1:])
    xs[1:] += start[0]
    ys[1:] += start[1]
    return xs, ys


# Path steps the reference checks at a time (specs/errors.md, Memory: 20 bytes per path step).
_STEP_BLOCK = 1 << 20


def trace_path(bits: npt.NDArray[np.uint8], start: Cell, path: str) -> tuple[int, Cell, bool]:
    """Follow ``path`` (letters) from ``start`` over the H x W open bits: the validator's walk.

    Returns (the index of the first step no open wall allows, the cell it starts from, False),
    or, when every step is allowed, (-1, the cell the path ends on, whether it enters some
    cell twice). A step out of the grid, or a byte that is no letter, is never allowed.
    """
    height, width = bits.shape
    if _KERNEL is not None:
        flat = np.ascontiguousarray(bits, dtype=np.uint8)
        found = _KERNEL.trace(flat, width, start[1] * width + start[0], path.encode("ascii"))
        bad, cell, repeats = found
        return int(bad), (int(cell) % width, int(cell) // width), bool(repeats)
    steps = np.frombuffer(path.encode("ascii"), dtype=np.uint8)
    xs, ys = path_positions(start, path)
    # Step i goes from (xs[i], ys[i]) to (xs[i+1], ys[i+1]). Every step before the first bad
    # one stays inside, so clipping only touches steps that are never reported. A block of
    # steps at a time: the temporaries of a 60-million-step path would cost 30 bytes a step.
    for first in range(0, steps.size, _STEP_BLOCK):
        x, y = xs[first : first + _STEP_BLOCK + 1], ys[first : first + _STEP_BLOCK + 1]
        lands_inside = (x[1:] >= 0) & (x[1:] < width) & (y[1:] >= 0) & (y[1:] < height)
        moves = bits[np.clip(y[:-1], 0, height - 1), np.clip(x[:-1], 0, width - 1)]
        allowed = LETTER_BIT[steps[first : first + _STEP_BLOCK]].astype(np.uint8)
        bad = ~lands_inside | ((moves & allowed) == 0)
        if bad.any():
            index = first + int(np.argmax(bad))
            return index, (int(xs[index]), int(ys[index])), False
    visited = ys * np.int32(width) + xs
    visited.sort()
    return -1, (int(xs[-1]), int(ys[-1])), bool((visited[1:] == visited[:-1]).any())


def bfs_flat(
    bits: Bits, width: int, source: int, target: int = -1, moves: int = ALL_WALLS
) -> tuple[npt.NDArray[np.int32], int]:
    """Breadth-first step counts from ``source`` over flat open bits, and the cells expanded.

    Steps go only in the directions of ``moves``. With a ``target`` the search stops after the
    layer that reaches it: every cell nearer than the target then has its exact count, any
    count set is exact, and the cells expanded are exactly those nearer than the target.
    The counts come as a flat int32 array (-1 where not reached): 4 bytes a cell.
    """
    if _KERNEL is not None:
        flat = np.ascontiguousarray(bits, dtype=np.uint8)
        dist = large_empty(flat.size, np.int32)
        expanded = _KERNEL.bfs(flat, width, source, target, moves, dist)
        return dist, int(expanded)
    found, expanded = _bfs_reference(_as_list(bits), width, source, target, moves)
    return np.array(found, dtype=np.int32), expanded


def _as_view(values: Bits | Dist) -> Sequence[int]:
    """Values a reference reads a few of: an array as a memoryview (its items come out as
    Python ints, and no list of every cell is built)."""
    if isinstance(values, np.ndarray):
        return np.ascontiguousarray(values).ravel().data
    return values


def _as_list(values: Bits | Dist) -> Sequence[int]:
    """Values the reference loops over: a list (an array's items are slow to index one by one)."""
    if isinstance(values, np.ndarray):
        result: list[int] = values.tolist()
        return result
    return values


def _bfs_reference(
    bits: Sequence[int], width: int, source: int, target: int, moves: int
) -> tuple[list[int], int]:
    """bfs_flat in pure Python, over lists: the reference the kernel is checked against.

    Layer by layer, one constant depth per layer (twice as fast as a FIFO queue); while a
    layer is a single cell (a corridor) it steps along without building lists.
    """
    table = step_offsets(width, moves)
    dist = [UNREACHED] * len(bits)
    dist[source] = 0
    if source == target:
        return dist, 0
    frontier = [source]
    depth = 0
    expanded = 0
    while frontier:
        if len(frontier) > 1:
            depth += 1
            reached: list[int] = []
            push = reached.append
            for cell in frontier:
                for offset in table[bits[cell]]:
                    neighbour = cell + offset
                    if dist[neighbour] < 0:
                        dist[neighbour] = depth
                        push(neighbour)
            expanded += len(frontier)
            frontier = reached
        else:
            cell = frontier[0]
            while True:
                depth += 1
                expanded += 1
                following = -1  # the one cell reached, -1 for none, -2 for several
                for offset in table[bits[cell]]:
                    neighbour = cell + offset
                    if dist[neighbour] < 0:
                        dist[neighbour] = depth
                        following = neighbour if following == -1 else -2
                if following < 0 or following == target:
                    break
                cell = following
            if following == -2:
                frontier = [cell + step for step in table[bits[cell]] if dist[cell + step] == depth]
            else:
                frontier = [following] if following >= 0 else []
        if target >= 0 and dist[target] >= 0:
            break
    return dist, expanded


def distances(
    walls: Walls,
    start: Cell,
    goal: Cell | None = None,
    bits: npt.NDArray[np.uint8] | None = None,
) -> npt.NDArray[np.int32]:
    """Breadth-first step counts from ``start`` to every cell, flat (y * W + x), -1 unreached.

    Stops early once ``goal`` is reached, leaving farther cells at -1. ``bits``: the maze's
    open_bits when the caller has them already (Analysis.moves), so they are not made again.
    """
    width = walls.shape[1]
    target = -1 if goal is None else goal[1] * width + goal[0]
    flat = open_bits(walls).ravel() if bits is None else bits.ravel()
    return bfs_flat(flat, width, start[1] * width + start[0], target)[0]


def walk_shortest(bits: Bits, width: int, dist: Dist, start: int, moves: int = ALL_WALLS) -> str:
    """The first shortest path from ``start`` in N, E, S, W order, as letters: THE walker.

    ``dist`` holds steps to the goal (exact on every cell of every shortest path, -1 or no
    lower elsewhere). At each cell the walk takes the first allowed open move, in N, E, S, W
    order, that gets one step nearer the goal; of all shortest paths this picks the one whose
    letters come first in that order (specs/solve.md, "Tie-breaking"). Every command that
    writes a path (generate, solve, pacmanize, render --path) walks with it.
    """
    if _KERNEL is not None and isinstance(bits, np.ndarray) and isinstance(dist, np.ndarray):
        flat = np.ascontiguousarray(bits, dtype=np.uint8)
        path: str = _KERNEL.walk(flat, width, np.ascontiguousarray(dist, np.int32), start, moves)
        return path
    return _walk_reference(_as_view(bits), width, _as_view(dist), start, moves)


def _walk_reference(
    bits: Sequence[int], width: int, dist: Sequence[int], start: int, moves: int
) -> str:
    """walk_shortest in pure Python, over lists: the reference the kernel is checked against."""
    table = step_table(width, moves)
    letters: list[str] = []
    cell = start
    remaining = dist[start]
    while remaining > 0:
        remaining -= 1
        for offset, letter in table[bits[cell]]:
            if dist[cell + offset] == remaining:
                letters.append(letter)
                cell += offset
                break
        else:  # only distances breaking the contract above can get here
            raise RuntimeError(f"no step from cell {cell} gets nearer the goal")
    return "".join(letters)


def shortest_path(
    walls: Walls, start: Cell, goal: Cell, bits: npt.NDArray[np.uint8] | None = None
) -> str | None:
    """The letters of the first shortest path (walk_shortest) from ``start`` to ``goal``, or
    None when unreachable. Distances are counted from the goal, which the walk reads.

    ``bits``: the walls' open_bits when the caller has them already, as for distances.
    """
    width = walls.shape[1]
    bits = open_bits(walls).ravel() if bits is None else bits.ravel()
    origin = start[1] * width + start[0]
    dist = bfs_flat(bits, width, goal[1] * width + goal[0], origin)[0]
    if dist[origin] < 0:
        return None
    return walk_shortest(bits, width, dist, origin)


def distance_between(
    walls: Walls, start: Cell, goal: Cell, bits: npt.NDArray[np.uint8] | None = None
) -> int:
    """Steps of a shortest path from ``start`` to ``goal``, or -1 when there is none.

    ``bits``: the maze's open_bits when the caller has them already, as for distances.
    """
    width = int(walls.shape[1])
    target = goal[1] * width + goal[0]
    return int(distances(walls, start, goal, bits)[target])


def closed_groups(walls: Walls) -> npt.NDArray[np.int32]:
    """Label the fully closed cells by the groups they form side by side, as a picture (a "4",
    a "2"): component_labels over the walls between neighbouring closed cells opened. Closed
    cells have no passages, so these are groups of the drawing, not of the maze; every other
    cell is a group of its own."""
    closed = walls == ALL_WALLS
    joined = np.full(walls.shape, ALL_WALLS, dtype=np.uint8)
    east = (closed[:, :-1] & closed[:, 1:]).astype(np.uint8)
    south = (closed[:-1, :] & closed[1:, :]).astype(np.uint8)
    joined[:, :-1] -= east * EAST
    joined[:, 1:] -= east * WEST
    joined[:-1, :] -= south * SOUTH
    joined[1:, :] -= south * NORTH
    return component_labels(joined)
