"""The cop number's fast steps (peel, series-parallel test, game on the core, compiled game)
against the plain two-cop game over every reachable cell (specs/stats.md, "Cop number")."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.analysis import Analysis
from mazekit.generators import generate
from mazekit.graph import COP_LIMIT, cop_number, cops
from mazekit.model import Maze
from mazekit.search import open_bits
from tests.conftest import closed_grid, open_wall, ring, scaled
from tests.kernels import reference_only, require_kernel
from tests.test_graph import _nx_graph, _open_grid, _with_loops


def _plain(maze: Maze) -> str:
    """The oracle: 1 for a tree, else the plain game on all reachable cells, no reduction."""
    facts = Analysis(maze, "none")
    if facts.tree:
        return "1"
    reach = facts.reachable
    moves = cops.within(open_bits(maze.walls), reach)
    with reference_only(cops):
        return "2" if cops.two_cops_win(moves, reach) else "3"


@settings(max_examples=scaled(40))
@given(
    width=st.integers(2, 7),
    height=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    loops=st.integers(1, 8),
)
def test_the_fast_cop_number_is_the_plain_game(
    width: int, height: int, seed: int, loops: int
) -> None:
    maze = _with_loops(generate(width, height, seed=seed), np.random.default_rng(seed), loops)
    found = cop_number(maze)
    assert found is not None and found.exact
    assert found.text == _plain(maze)


@settings(max_examples=scaled(25))
@given(
    width=st.integers(3, 9),
    height=st.integers(3, 7),
    seed=st.integers(0, 10_000),
    loops=st.integers(3, 20),
)
def test_the_compiled_game_is_the_reference(width: int, height: int, seed: int, loops: int) -> None:
    require_kernel(cops)
    maze = _with_loops(generate(width, height, seed=seed), np.random.default_rng(seed), loops)
    facts = Analysis(maze, "none")
    core = cops.core_of(open_bits(maze.walls), facts.reachable)
    if not core.any():
        return  # a tree: no game
    inner = cops.within(open_bits(maze.walls), core)
    fast = cops.two_cops_win(inner, core)
    with reference_only(cops):
        assert cops.two_cops_win(inner, core) == fast


@settings(max_examples=scaled(30))
@given(width=st.integers(2, 12), height=st.integers(2, 9), seed=st.integers(0, 10_000))
def test_the_core_is_networkx_two_core(width: int, height: int, seed: int) -> None:
    """Peeling cells with one open wall leaves the 2-core (empty for a tree)."""
    maze = _with_loops(generate(width, height, seed=seed), np.random.default_rng(seed), seed % 5)
    core = cops.core_of(open_bits(maze.walls), Analysis(maze, "none").reachable)
    expected = set(nx.k_core(_nx_graph(maze), 2).nodes)
    assert {(int(x), int(y)) for y, x in zip(*np.nonzero(core), strict=True)} == expected


def test_series_parallel_knows_treewidth_two() -> None:
    ladder = _open_grid(2, 5)  # a ladder: treewidth 2
    square = _open_grid(3, 3)  # a 3x3 grid holds a K4 minor: treewidth 3
    loop = ring(4, 3)
    assert cops.series_parallel(open_bits(ladder.walls))
    assert cops.series_parallel(open_bits(loop.walls))
    assert not cops.series_parallel(open_bits(square.walls))
    assert not cops.series_parallel(open_bits(_open_grid(6, 5).walls))


def test_a_core_of_treewidth_two_settles_two_without_the_game() -> None:
    """A ring with long dead ends on it: peeled to the ring, 2 by the treewidth bound."""
    walls = closed_grid(7, 4)
    for x in range(6):
        open_wall(walls, x, 0, "E")
        open_wall(walls, x, 2, "E")
    open_wall(walls, 0, 0, "S")
    open_wall(walls, 0, 1, "S")
    open_wall(walls, 6, 0, "S")
    open_wall(walls, 6, 1, "S")
    for x in range(7):
        open_wall(walls, x, 2, "S")  # a dead end below every cell of the ring's bottom
    found = cop_number(Maze(walls, (0, 0), (6, 3)))
    assert found == cops.TWO_BY_WIDTH
    assert "treewidth at most 2" in found.reason


def test_a_board_with_a_thick_core_plays_the_game() -> None:
    found = cop_number(_open_grid(6, 5))
    assert found == cops.TWO_BY_GAME


def test_every_20x15_maze_is_exact_and_the_limit_counts_core_cells() -> None:
    """20 x 15 = 300 cells, under COP_LIMIT whatever the maze; a 30x20 board with loops
    everywhere has a core of more than COP_LIMIT cells and gets the bounds, naming them."""
    assert COP_LIMIT >= 20 * 15
    board = generate(20, 15, seed=2, perfect=False)
    found = cop_number(board)
    assert found is not None and found.exact and found.text == "2"
    big = generate(30, 20, seed=2, perfect=False)
    core = cops.core_of(open_bits(big.walls), Analysis(big, "none").reachable)
    assert int(core.sum()) > COP_LIMIT
    bounds = cop_number(big)
    assert bounds == cops.BOUNDS
    assert f"{COP_LIMIT} core cells" in bounds.reason


def test_a_big_grid_with_a_small_core_is_exact() -> None:
    """The limit counts the core, not the grid: a 40x30 maze with a few loops is settled."""
    maze = _with_loops(generate(40, 30, seed=3), np.random.default_rng(3), 5)
    core = cops.core_of(open_bits(maze.walls), Analysis(maze, "none").reachable)
    assert maze.walls.size > COP_LIMIT and 0 < int(core.sum()) <= COP_LIMIT
    found = cop_number(maze)
    assert found is not None and found.exact and found.text == "2"
