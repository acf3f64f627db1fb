"""mazekit.analysis: each fact of a maze is computed once per run, and agrees with brute force."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hypothesis import given

from mazekit import analysis
from mazekit.analysis import Analysis
from mazekit.generators import generate
from mazekit.measures import stats
from mazekit.model import Maze
from mazekit.pacman import pacmanize
from mazekit.rules import validate
from tests import brute
from tests.test_stats import any_grid


@pytest.fixture
def label_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the component labellings made through mazekit.analysis."""
    calls: list[int] = []
    original = analysis.component_labels

    def counted(walls: np.ndarray, bits: np.ndarray | None = None) -> np.ndarray:
        calls.append(1)
        return original(walls, bits)

    monkeypatch.setattr(analysis, "component_labels", counted)
    yield calls


@pytest.mark.parametrize(
    "run",
    [
        lambda maze: pacmanize(maze),  # validate, then braid: one analysis for both
        lambda maze: stats(maze),  # the measures and the verdict's rules
        lambda maze: validate(maze, pacman=True, perfect=True),
    ],
    ids=["pacmanize", "stats", "validate"],
)
def test_components_are_labelled_once_per_run(
    label_calls: list[int], run: Callable[[Maze], object]
) -> None:
    maze = generate(20, 15, seed=3, perfect=False)
    label_calls.clear()  # generating braided it: an analysis of its own
    run(maze)
    assert len(label_calls) == 1


def _closed_in_block(maze: Maze, left: int, top: int) -> int:
    """Closed inner walls of the 3x3 block at (left, top), by walking its 12 walls."""
    closed = 0
    for y in range(top, top + 3):
        for x in range(left, left + 3):
            for dx, dy in ((1, 0), (0, 1)):
                near = (x + dx, y + dy)
                if near[0] < left + 3 and near[1] < top + 3:
                    closed += near not in brute.neighbours(maze, (x, y))
    return closed


@given(any_grid())
def test_closed_walls_per_block_match_a_brute_force_count(maze: Maze) -> None:
    counts = Analysis(maze).closed_in_blocks
    assert counts.shape == (max(maze.height - 2, 0), max(maze.width - 2, 0))
    for top in range(maze.height - 2):
        for left in range(maze.width - 2):
            assert counts[top, left] == _closed_in_block(maze, left, top)


@given(any_grid())
def test_loops_and_dead_ends_match_a_brute_force_count(maze: Maze) -> None:
    facts = Analysis(maze)
    assert facts.loops == brute.reachable_loops(maze)
    assert facts.all_loops == brute.grid_loops(maze)
    real, enclosed = brute.dead_ends(maze)
    found = analysis.dead_ends(maze)
    assert (set(found.real), set(found.enclosed)) == (real, enclosed)
