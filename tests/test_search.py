"""The shared graph primitives agree with each other and with a plain reference search."""

from __future__ import annotations

from collections import deque

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mazekit.search import (
    UNREACHED,
    component_labels,
    distance_between,
    distances,
    open_bits,
    shortest_path,
)
from mazekit.solvers.paths import cells_of


@st.composite
def grids(draw: st.DrawFn) -> np.ndarray:
    """Random wall digits, coherent or not: the primitives must cope with both."""
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    cells = draw(st.lists(st.integers(0, 15), min_size=width * height, max_size=width * height))
    return np.array(cells, dtype=np.uint8).reshape(height, width)


def reference_distances(walls: np.ndarray, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """BFS over (x, y) tuples, moving only where both cells' walls are open."""
    height, width = walls.shape
    steps = {1: (0, -1, 4), 2: (1, 0, 8), 4: (0, 1, 1), 8: (-1, 0, 2)}
    seen = {start: 0}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for bit, (dx, dy, back) in steps.items():
            nx, ny = x + dx, y + dy
            if not (0 <= nx < width and 0 <= ny < height) or (nx, ny) in seen:
                continue
            if walls[y, x] & bit or walls[ny, nx] & back:
                continue
            seen[(nx, ny)] = seen[(x, y)] + 1
            queue.append((nx, ny))
    return seen


@given(grids(), st.data())
def test_distances_match_a_reference_bfs(walls: np.ndarray, data: st.DataObject) -> None:
    height, width = walls.shape
    start = (data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    goal = (data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    expected = reference_distances(walls, start)
    dist = distances(walls, start)
    for y in range(height):
        for x in range(width):
            assert dist[y * width + x] == expected.get((x, y), UNREACHED)
    assert distance_between(walls, start, goal) == expected.get(goal, UNREACHED)
    path = shortest_path(walls, start, goal)
    if goal in expected:
        assert path is not None and len(path) == expected[goal]
        cells = cells_of(start, path)
        assert cells[-1] == goal
        assert all(b in expected for b in cells)
    else:
        assert path is None


@given(grids())
def test_component_labels_match_reachability(walls: np.ndarray) -> None:
    labels = component_labels(walls)
    height, width = walls.shape
    for y in range(height):
        for x in range(width):
            reach = reference_distances(walls, (x, y))
            same = {
                (cx, cy)
                for cy in range(height)
                for cx in range(width)
                if labels[cy, cx] == labels[y, x]
            }
            assert same == set(reach)
            assert labels[y, x] == min(cy * width + cx for cx, cy in reach)


def test_open_bits_never_point_outside() -> None:
    walls = np.zeros((3, 4), dtype=np.uint8)  # every wall open, even the border
    bits = open_bits(walls)
    assert not (bits[0, :] & 1).any() and not (bits[-1, :] & 4).any()
    assert not (bits[:, 0] & 8).any() and not (bits[:, -1] & 2).any()
    assert bits[1, 1] == 15
