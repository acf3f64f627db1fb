"""The search kernel (mazekit._csearch) against its pure-Python reference: the same open bits,
labels, distances, cells expanded, paths, A* and dead-end filling on random grids
(specs/performance.md, "Search kernels")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import search
from mazekit.model import ALL_WALLS, DIRECTIONS, Maze
from mazekit.solvers import ALGORITHMS, SearchGrid, astar, dead_end_fill, find_path
from tests.kernels import reference_only, require_kernel
from tests.solve_helpers import tree_maze

Walls = npt.NDArray[np.uint8]


@contextmanager
def python_only() -> Iterator[None]:
    """Every module with a search kernel runs its pure-Python reference."""
    with reference_only(search, astar, dead_end_fill):
        yield


@contextmanager
def python_only_if(flag: bool) -> Iterator[None]:
    """python_only when ``flag``, else nothing."""
    if flag:
        with python_only():
            yield
    else:
        yield


@st.composite
def wall_grids(draw: st.DrawFn) -> Walls:
    """Walls of 1..12 x 1..12 cells: random nibbles (mostly incoherent, border open too),
    a perfect maze, or a maze with loops and a few walls made incoherent."""
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    kind = draw(st.sampled_from(["nibbles", "tree", "loops"]))
    if kind == "nibbles":
        return np.random.default_rng(seed).integers(0, 16, (height, width), dtype=np.uint8)
    rng = random.Random(seed)
    walls = tree_maze(rng, width, height, loops=0 if kind == "tree" else width * height // 3).walls
    if kind == "loops":
        for _ in range(rng.randrange(4)):  # one side of a wall disagrees with the other
            walls[rng.randrange(height), rng.randrange(width)] ^= 1 << rng.randrange(4)
    return walls


def cell_of(walls: Walls) -> st.SearchStrategy[int]:
    """A flat cell index of ``walls``."""
    return st.integers(0, walls.size - 1)


def directed_bits(walls: Walls) -> npt.NDArray[np.uint8]:
    """Flat open bits taken straight from the nibbles, minus those pointing out of the grid:
    passages one way only (what no maze has, and the kernels must still agree on)."""
    bits = (~walls & ALL_WALLS).astype(np.uint8)
    bits[0, :] &= ~np.uint8(1)
    bits[-1, :] &= ~np.uint8(4)
    bits[:, 0] &= ~np.uint8(8)
    bits[:, -1] &= ~np.uint8(2)
    return bits.ravel()


@given(wall_grids())
def test_open_bits_and_labels_match_the_reference(walls: Walls) -> None:
    require_kernel(search)
    bits, labels = search.open_bits(walls), search.component_labels(walls)
    with python_only():
        assert np.array_equal(bits, search.open_bits(walls))
        assert np.array_equal(labels, search.component_labels(walls))
    assert (bits.dtype, labels.dtype, labels.shape) == (np.uint8, np.int32, walls.shape)


@given(st.data(), wall_grids(), st.booleans(), st.integers(1, ALL_WALLS), st.booleans())
def test_bfs_matches_the_reference(
    data: st.DataObject, walls: Walls, stop: bool, moves: int, directed: bool
) -> None:
    """Same distances and cells expanded, with or without a target, on any moves mask."""
    require_kernel(search)
    bits = directed_bits(walls) if directed else search.open_bits(walls).ravel()
    width = walls.shape[1]
    source = data.draw(cell_of(walls))
    target = data.draw(cell_of(walls)) if stop else -1
    dist, expanded = search.bfs_flat(bits, width, source, target, moves)
    with python_only():
        expected, expected_expanded = search.bfs_flat(bits, width, source, target, moves)
        from_list = search.bfs_flat(bits.tolist(), width, source, target, moves)
    assert dist.tolist() == expected.tolist() == from_list[0].tolist()
    assert expanded == expected_expanded == from_list[1]


@given(st.data(), st.integers(30, 90), st.integers(30, 90), st.floats(0, 0.3), st.booleans())
def test_bfs_matches_the_reference_when_its_queue_grows(
    data: st.DataObject, width: int, height: int, closed: float, stop: bool
) -> None:
    """A wide open grid (a few walls closed): layers of a hundred cells and more, so that the
    kernel's ring of queued cells (64 at first) doubles, once or twice, while it wraps."""
    require_kernel(search)
    noise = np.random.default_rng(width * height)
    walls = np.zeros((height, width), dtype=np.uint8)
    walls[0, :] |= 1
    walls[-1, :] |= 4
    walls[:, -1] |= 2
    walls[:, 0] |= 8
    walls |= ((noise.random(walls.shape) < closed) * 6).astype(np.uint8)  # east and south
    walls[:, 1:] |= (walls[:, :-1] & 2) << 2  # the same walls seen from the other side
    walls[1:, :] |= (walls[:-1, :] & 4) >> 2
    bits = search.open_bits(walls).ravel()
    source = data.draw(cell_of(walls))
    target = data.draw(cell_of(walls)) if stop else -1
    dist, expanded = search.bfs_flat(bits, width, source, target)
    with python_only():
        expected, expected_expanded = search.bfs_flat(bits, width, source, target)
    assert dist.tolist() == expected.tolist()
    assert expanded == expected_expanded


@given(st.data(), wall_grids(), st.integers(1, ALL_WALLS), st.booleans())
def test_the_walk_matches_the_reference(
    data: st.DataObject, walls: Walls, moves: int, directed: bool
) -> None:
    """The same letters from distances to a goal; on distances that allow no walk, the same
    error naming the same cell."""
    require_kernel(search)
    bits = directed_bits(walls) if directed else search.open_bits(walls).ravel()
    width = walls.shape[1]
    start, goal = data.draw(cell_of(walls)), data.draw(cell_of(walls))
    reverse = 0
    for bit, opposite in ((1, 4), (2, 8), (4, 1), (8, 2)):
        reverse |= opposite if moves & bit else 0
    dist, _ = search.bfs_flat(bits, width, goal, start, reverse)
    if data.draw(st.booleans()):  # distances breaking the walk's contract
        dist = np.asarray(
            data.draw(st.lists(st.integers(-1, 6), min_size=dist.size, max_size=dist.size)),
            dtype=np.int32,
        )
    outcomes = []
    for flag in (False, True):
        with python_only_if(flag):
            try:
                outcomes.append(search.walk_shortest(bits, width, dist, start, moves))
            except RuntimeError as error:
                outcomes.append(f"error: {error}")
    assert outcomes[0] == outcomes[1]


@given(st.data(), wall_grids(), st.booleans())
def test_astar_and_dead_end_filling_match_the_reference(
    data: st.DataObject, walls: Walls, directed: bool
) -> None:
    """A* expands the same cells in the same order (the same count, the same distances);
    dead-end filling leaves the same bits after filling as many cells."""
    require_kernel(search)
    bits = directed_bits(walls) if directed else search.open_bits(walls).ravel()
    grid = SearchGrid(bits, walls.shape[1], walls.shape[0])
    start, goal = data.draw(cell_of(walls)), data.draw(cell_of(walls))
    found = astar.search(grid, start, goal)
    left, filled = dead_end_fill.fill(grid, (start, goal))
    with python_only():
        expected = astar.search(grid, start, goal)
        expected_left, expected_filled = dead_end_fill.fill(grid, (start, goal))
    assert found.dist.tolist() == expected.dist.tolist()
    assert found.visited == expected.visited
    assert left.tolist() == expected_left.tolist() and filled == expected_filled
    assert np.array_equal(grid.bits, bits)  # filling works on a copy


@given(wall_grids(), st.sampled_from(list(ALGORITHMS)))
def test_every_algorithm_solves_alike_on_both_paths(walls: Walls, algorithm: str) -> None:
    """find_path end to end: the same path, the same cells visited, the same count."""
    require_kernel(search)
    height, width = walls.shape
    maze = Maze(walls, (0, 0), (width - 1, height - 1))
    outcomes = []
    for flag in (False, True):
        with python_only_if(flag):
            try:
                solution = find_path(maze, algorithm=algorithm, count=True)
                outcomes.append((solution.path, solution.visited, solution.count))
            except Exception as error:  # NoPathError: the same message on both paths
                outcomes.append((type(error).__name__, str(error), None))
    assert outcomes[0] == outcomes[1]


def test_a_kernel_refuses_bits_that_leave_the_grid_or_a_wrong_buffer() -> None:
    """Checked arguments raise, never read or write out of bounds."""
    require_kernel(search)
    kernel = search._KERNEL
    dist = np.empty(6, dtype=np.int32)
    for bits in ([0, 0, 2, 0, 0, 0], [0, 0, 0, 0, 0, 4], [1, 0, 0, 0, 0, 0], [0, 0, 0, 8, 0, 0]):
        with pytest.raises(ValueError, match="opens out of the grid"):
            kernel.bfs(np.array(bits, dtype=np.uint8), 3, 0, -1, ALL_WALLS, dist)
    fine = np.zeros(6, dtype=np.uint8)
    with pytest.raises(ValueError, match="int32 buffer"):
        kernel.bfs(fine, 3, 0, -1, ALL_WALLS, np.empty(5, dtype=np.int32))
    with pytest.raises(ValueError, match="outside the grid"):
        kernel.bfs(fine, 3, 6, -1, ALL_WALLS, dist)
    with pytest.raises(ValueError, match="whole number of rows"):
        kernel.labels(fine, 4, np.empty(6, dtype=np.int32))
    with pytest.raises(TypeError):
        kernel.walk(np.zeros(6, dtype=np.int32), 3, dist, 0, ALL_WALLS)


@given(st.data(), wall_grids(), st.text(alphabet="NESWx", max_size=8), st.integers(0, 80))
def test_tracing_a_path_matches_the_reference(
    data: st.DataObject, walls: Walls, tail: str, length: int
) -> None:
    """The validator's walk: the same first bad step and its cell, or the same end cell and
    the same verdict on cells entered twice. Paths are random walks through open walls (so
    that they go far and come back) with random letters, or a byte that is none, after."""
    require_kernel(search)
    bits = search.open_bits(walls)
    width = walls.shape[1]
    flat = data.draw(cell_of(walls))
    start = (flat % width, flat // width)
    letters, cell = [], flat
    for _ in range(length):
        options = [(d.letter, d.dy * width + d.dx) for d in DIRECTIONS if bits.flat[cell] & d.bit]
        if not options:
            break
        letter, offset = data.draw(st.sampled_from(options))
        letters.append(letter)
        cell += offset
    path = "".join(letters) + tail
    found = search.trace_path(bits, start, path)
    with python_only():
        assert found == search.trace_path(bits, start, path)
