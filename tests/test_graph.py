"""mazekit.graph against oracles: networkx for betweenness (cells and passages), a plain
formula for the Gini, and a plain retrograde game for the cop number, on random small mazes
with and without loops and on hand-made boards."""

from __future__ import annotations

from contextlib import nullcontext
from itertools import product

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit import graph
from mazekit.analysis import Analysis
from mazekit.generators import generate
from mazekit.graph import betweenness, brandes, centrality, cop_number, gini, graph_stats
from mazekit.graph import chains as chain_method
from mazekit.graph import table as graph_table
from mazekit.model import Maze
from tests import brute
from tests.conftest import closed_grid, open_wall, ring, scaled, serpentine
from tests.kernels import reference_only


def _nx_graph(maze: Maze) -> nx.Graph:
    """The reachable cells and their open passages, built from the brute-force neighbours."""
    g = nx.Graph()
    cells = brute.reachable(maze)
    g.add_nodes_from(cells)
    for cell in cells:
        for near in brute.neighbours(maze, cell):
            g.add_edge(cell, near)
    return g


def _with_loops(maze: Maze, rng: np.random.Generator, count: int) -> Maze:
    """Open ``count`` random inner walls between two cells that are not "42" cells."""
    walls = maze.walls
    for _ in range(count if maze.width > 1 else 0):
        x = int(rng.integers(0, maze.width - 1))
        y = int(rng.integers(0, maze.height))
        if walls[y, x] != 15 and walls[y, x + 1] != 15:
            open_wall(walls, x, y, "E")
    return maze


def _assert_like_networkx(maze: Maze) -> None:
    found = betweenness(maze)
    g = _nx_graph(maze)
    expected = nx.betweenness_centrality(g, normalized=True, endpoints=False)
    for (x, y), value in expected.items():
        assert found.cells[y, x] == pytest.approx(value, abs=1e-12)
    unreachable = ~found.reachable
    assert not found.cells[unreachable].any()
    for ((x1, y1), (x2, y2)), value in nx.edge_betweenness_centrality(g).items():
        x, y = min(x1, x2), min(y1, y2)
        grid = found.east if y1 == y2 else found.south
        assert grid[y, x] == pytest.approx(value, abs=1e-12)
    assert int(found.east_open.sum() + found.south_open.sum()) == g.number_of_edges()


@settings(max_examples=scaled(25))
@given(
    width=st.integers(1, 11),
    height=st.integers(1, 9),
    seed=st.integers(0, 10_000),
    loops=st.integers(0, 12),
)
def test_betweenness_matches_networkx(width: int, height: int, seed: int, loops: int) -> None:
    if width * height == 1:  # generate needs two cells; one cell is a maze all the same
        maze = Maze(closed_grid(1, 1), (0, 0), (0, 0))
    else:
        maze = generate(width, height, seed=seed)
    _with_loops(maze, np.random.default_rng(seed), loops)
    _assert_like_networkx(maze)


@settings(max_examples=scaled(25))
@given(
    width=st.integers(2, 9),
    height=st.integers(1, 7),
    seed=st.integers(0, 10_000),
    loops=st.integers(0, 2),
)
def test_one_tree_test_for_the_betweenness_the_cops_and_the_analysis(
    width: int, height: int, seed: int, loops: int
) -> None:
    """Analysis.tree is the one tree test: the betweenness takes the tree method and the cop
    number is 1 exactly when networkx finds the reachable cells a tree, kernel or not."""
    maze = _with_loops(generate(width, height, seed=seed), np.random.default_rng(seed), loops)
    is_tree = nx.is_tree(_nx_graph(maze))
    assert Analysis(maze).tree == is_tree
    assert (betweenness(maze).method == "tree") == is_tree
    with reference_only(brandes, centrality, chain_method):
        assert (betweenness(maze).method == "tree") == is_tree
    cop = cop_number(maze)
    assert cop is not None
    assert (cop.text == "1") == is_tree


def test_tree_formula_matches_brandes() -> None:
    maze = generate(15, 11, seed=3)
    tree = betweenness(maze)
    assert tree.method == "tree"
    _, flat, table, _ = graph_table.reachable_graph(maze)
    n = flat.size
    nodes, east, south = brandes.brandes_sums(table, np.arange(n))
    assert np.allclose(tree.cells.ravel()[flat], nodes / ((n - 1) * (n - 2)), atol=1e-12)
    assert np.allclose(tree.east.ravel()[flat], east / (n * (n - 1)), atol=1e-12)
    assert np.allclose(tree.south.ravel()[flat], south / (n * (n - 1)), atol=1e-12)


def test_sampled_estimate_is_seeded_and_scaled(monkeypatch: pytest.MonkeyPatch) -> None:
    maze = _with_loops(generate(12, 10, seed=5), np.random.default_rng(5), 15)
    exact = betweenness(maze)
    monkeypatch.setattr(centrality, "EXACT_LIMIT", 10)
    first = betweenness(maze, samples=40, seed=7)
    assert (first.method, first.exact, first.samples, first.seed) == ("sampled", False, 40, 7)
    assert np.array_equal(first.cells, betweenness(maze, samples=40, seed=7).cells)
    assert not np.array_equal(first.cells, betweenness(maze, samples=40, seed=8).cells)
    # every source sampled: the estimate is the exact value
    every = betweenness(maze, samples=exact.nodes, seed=1)
    assert np.allclose(every.cells, exact.cells, atol=1e-12)
    assert np.allclose(every.east, exact.east, atol=1e-12)


def test_gini_matches_the_pairwise_definition() -> None:
    rng = np.random.default_rng(2)
    for size in (1, 2, 7, 40):
        values = rng.random(size)
        pairs = sum(abs(a - b) for a, b in product(values, values))
        expected = pairs / (2 * size * size * values.mean())
        assert gini(values) == pytest.approx(expected, abs=1e-12)
    assert gini([0.0, 0.0, 0.0]) == 0.0
    assert gini([]) == 0.0
    assert gini([0, 0, 0, 1]) == pytest.approx(0.75)


def test_gini_ranks_a_block_at_a_time_as_one_array_of_ranks() -> None:
    """Multiplying each sorted value by its rank a block of ranks at a time (no array of n
    floats) gives the very products, so the very Gini of the whole-array formula."""
    rng = np.random.default_rng(3)
    for size in (3, 65_535, 65_536, 65_537, 200_001):
        values = np.sort(rng.random(size) * rng.integers(0, 3, size))
        weighted = np.arange(1, size + 1, dtype=np.float64) * values
        whole = 2.0 * weighted.sum() / (size * values.sum()) - (size + 1) / size
        assert gini(values) == whole


def test_top_cells_and_passages_are_ordered_with_ties_by_row() -> None:
    corridor = serpentine(5, 1)  # (0,0)-(4,0): the middle carries most
    found = graph_stats(corridor, top=3)
    assert [cell for cell, _ in found.betweenness.top_cells(3)] == [(2, 0), (1, 0), (3, 0)]
    passages = found.betweenness.top_passages(5)
    assert [(cell, letter) for cell, letter, _ in passages] == [
        ((1, 0), "E"),
        ((2, 0), "E"),
        ((0, 0), "E"),
        ((3, 0), "E"),
    ]
    # 5 cells: (1,0)-(2,0) splits 2 | 3: 2*2*3 / (5*4)
    assert passages[0][2] == pytest.approx(0.6)
    entry = found.to_dict()
    assert entry["peak"] == {"cell": [2, 0], "value": pytest.approx(4 / 6)}
    assert entry["passages"][0]["to"] == [2, 0]
    assert entry["cop_number"]["value"] == 1


def _open_grid(width: int, height: int) -> Maze:
    walls = closed_grid(width, height)
    for x, y in product(range(width), range(height)):
        if x < width - 1:
            open_wall(walls, x, y, "E")
        if y < height - 1:
            open_wall(walls, x, y, "S")
    return Maze(walls, (0, 0), (width - 1, height - 1))


def _cops_win_brute(g: nx.Graph, cops: int) -> bool:
    """The k-cop game by plain retrograde analysis over tuples of cells (small graphs only)."""
    nodes = list(g.nodes)
    closed = {v: [v, *g.neighbors(v)] for v in nodes}
    places = list(product(nodes, repeat=cops))
    cop_turn = {(c, r): r in c for c in places for r in nodes}
    robber_turn = dict(cop_turn)
    changed = True
    while changed:
        changed = False
        for c, r in cop_turn:
            if not cop_turn[(c, r)] and any(
                robber_turn[(moved, r)] for moved in product(*(closed[x] for x in c))
            ):
                cop_turn[(c, r)] = changed = True
        for c, r in robber_turn:
            if not robber_turn[(c, r)] and all(cop_turn[(c, s)] for s in closed[r]):
                robber_turn[(c, r)] = changed = True
    return any(all(cop_turn[(c, r)] for r in nodes) for c in places)


def test_cop_number_of_hand_made_boards() -> None:
    assert cop_number(serpentine(6, 3)).text == "1"  # a path
    assert cop_number(generate(9, 7, seed=1)).low == 1  # a tree
    single = Maze(closed_grid(1, 1), (0, 0), (0, 0))
    assert cop_number(single).text == "1"
    assert cop_number(ring(2, 2)).text == "2"  # a ring of 4
    assert cop_number(ring(6, 5)).text == "2"  # a ring of 18
    assert cop_number(_open_grid(5, 4)).text == "2"  # a grid
    outside = Maze(closed_grid(3, 3), (5, 5), (0, 0))
    assert cop_number(outside) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cop_number_matches_the_plain_game(seed: int) -> None:
    maze = _with_loops(generate(4, 3, seed=seed), np.random.default_rng(seed), 4)
    g = _nx_graph(maze)
    expected = 1 if nx.is_tree(g) else (2 if _cops_win_brute(g, 2) else 3)
    assert cop_number(maze).text == str(expected)


def test_cop_number_above_the_limit_gives_the_bounds() -> None:
    big = generate(30, 20, seed=4, perfect=False)  # loops everywhere: a core of 500+ cells
    found = cop_number(big)
    assert (found.low, found.high, found.exact, found.text) == (2, 3, False, "2-3")
    assert "400 core cells" in found.reason and "Aigner and Fromme" in found.reason


@settings(max_examples=scaled(30))
@given(
    width=st.integers(2, 10),
    height=st.integers(2, 8),
    seed=st.integers(0, 10_000),
    loops=st.integers(1, 10),
)
def test_chain_method_matches_networkx(width: int, height: int, seed: int, loops: int) -> None:
    """The searches from key cells only, forced on every maze with a key cell."""
    maze = _with_loops(generate(width, height, seed=seed), np.random.default_rng(seed), loops)
    saved = chain_method.KEY_SHARE
    chain_method.KEY_SHARE = 1.0
    try:
        _assert_like_networkx(maze)
    finally:
        chain_method.KEY_SHARE = saved


def test_chain_method_on_a_loop_hanging_off_one_cell() -> None:
    """A ring whose one key cell has a spur: the chain leaves and returns to the same cell."""
    maze = ring(5, 4)
    open_wall(maze.walls, 1, 0, "S")  # a spur into the middle
    _, flat, table, _ = graph_table.reachable_graph(maze)
    found = chain_method.brandes_by_chains(table, flat, maze.width)
    assert found is not None
    plain = brandes.brandes_sums(table, np.arange(flat.size))
    for mine, theirs in zip(found, plain, strict=True):
        assert np.allclose(mine, theirs, atol=1e-9)
    _assert_like_networkx(maze)


def _nx_all_passages(walls: np.ndarray) -> nx.Graph:
    """Every cell and every coherent open passage (the whole grid, not only the reachable)."""
    height, width = walls.shape
    g = nx.Graph()
    g.add_nodes_from((x, y) for y in range(height) for x in range(width))
    for y in range(height):
        for x in range(width):
            if x + 1 < width and not walls[y, x] & 2 and not walls[y, x + 1] & 8:
                g.add_edge((x, y), (x + 1, y))
            if y + 1 < height and not walls[y, x] & 4 and not walls[y + 1, x] & 1:
                g.add_edge((x, y), (x, y + 1))
    return g


@settings(max_examples=scaled(60))
@given(
    width=st.integers(1, 9),
    height=st.integers(1, 8),
    digits=st.lists(st.integers(0, 15), min_size=72, max_size=72),
)
def test_faces_tell_the_bridges_like_networkx(width: int, height: int, digits: list[int]) -> None:
    """A passage is a bridge exactly when the two corners of the wall it crosses share a face;
    random digits give incoherent walls, open borders, several components."""
    walls = np.array(digits[: width * height], dtype=np.uint8).reshape(height, width)
    g = _nx_all_passages(walls)
    bridges = {frozenset(edge) for edge in nx.bridges(g)}
    face = graph.faces(walls)
    assert face.shape == (height + 1, width + 1)
    for (x1, y1), (x2, y2) in g.edges:
        x, y = min(x1, x2), min(y1, y2)
        if y1 == y2:  # east passage: the wall from corner (y, x+1) down to (y+1, x+1)
            same = face[y, x + 1] == face[y + 1, x + 1]
        else:  # south passage: the wall from corner (y+1, x) across to (y+1, x+1)
            same = face[y + 1, x] == face[y + 1, x + 1]
        assert same == (frozenset({(x1, y1), (x2, y2)}) in bridges)


# Ties by the rule (specs/stats.md, "Ties"): exact ties rank by (y, x), whatever the floats.


def _by_the_rule(values: dict[tuple[int, ...], float]) -> list[tuple[int, ...]]:
    """The keys of ``values`` in the documented order, written plainly: from the highest down,
    a value within 1e-9 (relative) of its group's first joins the group; a group by its keys."""
    rest = sorted(values, key=lambda key: -values[key])
    order: list[tuple[int, ...]] = []
    while rest:
        head = values[rest[0]]
        group = [key for key in rest if values[key] >= head - head * 1e-9]
        order += sorted(group)
        rest = [key for key in rest if key not in group]
    return order


def _tie_mazes() -> dict[str, Maze]:
    """Mazes whose loads tie exactly: an open 15x2 ladder, a ring (every cell the same load),
    open grids with mirror-symmetric loads."""
    return {
        "ladder": _open_grid(15, 2),
        "ring": ring(4, 5),
        "grid 5x5": _open_grid(5, 5),
        "grid 6x4": _open_grid(6, 4),
    }


def _rule_of_networkx(maze: Maze) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The cells as (y, x) and the passages as (y, x, 0 for E or 1 for S), in the rule's order
    over networkx's betweenness values."""
    g = _nx_graph(maze)
    cells = {(y, x): v for (x, y), v in nx.betweenness_centrality(g, normalized=True).items()}
    passages: dict[tuple[int, ...], float] = {}
    for ((x1, y1), (x2, y2)), value in nx.edge_betweenness_centrality(g).items():
        passages[(min(y1, y2), min(x1, x2), 0 if y1 == y2 else 1)] = value
    return _by_the_rule(cells), _by_the_rule(passages)


@pytest.mark.parametrize("name", list(_tie_mazes()))
def test_exact_ties_rank_by_the_rule(name: str) -> None:
    """Every cell and passage ranks as the rule orders networkx's values, kernel or not, and
    any --top is a prefix of that one order."""
    maze = _tie_mazes()[name]
    cells, passages = _rule_of_networkx(maze)
    for kernel in (True, False):
        with nullcontext() if kernel else reference_only(brandes, centrality, chain_method):
            found = betweenness(maze)
        assert [(y, x) for (x, y), _ in found.top_cells(len(cells))] == cells
        ranked = found.top_passages(len(passages))
        assert [(y, x, "ES".index(letter)) for (x, y), letter, _ in ranked] == passages
        for top in (1, 2, 5):
            assert [(y, x) for (x, y), _ in found.top_cells(top)] == cells[:top]


def test_the_ladder_peaks_at_7_0_and_the_heat_map_rings_the_same_cells() -> None:
    from mazekit.drawing.heat import MARKED, heat_for

    ladder = _open_grid(15, 2)
    figures = graph_stats(ladder)
    assert figures.text_lines()[0].startswith("  betweenness: peak 26.50% at (7,0), Gini ")
    cells, _ = _rule_of_networkx(ladder)
    assert heat_for(ladder, "betweenness").marked == tuple((x, y) for y, x in cells[:MARKED])


def test_close_bottleneck_takes_the_first_passage_by_the_rule() -> None:
    """On the ladder every passage lies on a loop: the first by the rule is (6,0) E, tied with
    (7,0) E, (6,1) E and (7,1) E."""
    from mazekit.edit import edit

    ladder = _open_grid(15, 2)
    _, passages = _rule_of_networkx(ladder)
    assert passages[:4] == [(0, 6, 0), (0, 7, 0), (1, 6, 0), (1, 7, 0)]
    _, done = edit(ladder, close_bottleneck=1)
    assert [(c.y, c.x, c.letter) for c in done] == [(0, 6, "E")]


def test_a_gini_of_zero_is_never_negative() -> None:
    """A ring's cells carry equal loads; their sum in floats can leave the formula at -2e-16."""
    values = betweenness(ring(4, 5)).cells[betweenness(ring(4, 5)).reachable]
    assert gini(values) == 0.0 and str(gini(values)) == "0.0"
    figures = graph_stats(ring(4, 5))
    assert ", Gini 0.000 (" in figures.text_lines()[0]
    assert figures.to_dict()["gini"] == 0.0 and repr(figures.to_dict()["gini"]) == "0.0"


def test_sampling_every_source_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    maze = _with_loops(generate(12, 10, seed=5), np.random.default_rng(5), 15)
    exact = betweenness(maze)
    monkeypatch.setattr(centrality, "EXACT_LIMIT", 10)
    for samples in (exact.nodes, exact.nodes + 1, 10**6):
        found = betweenness(maze, samples=samples, seed=3)
        assert (found.method, found.exact, found.samples, found.seed) == (
            "brandes",
            True,
            None,
            None,
        )
        np.testing.assert_allclose(found.cells, exact.cells, rtol=0, atol=1e-12)
    assert betweenness(maze, samples=exact.nodes - 1).method == "sampled"


def test_the_rule_ranks_noise_below_zero_and_nan_too() -> None:
    """A float's noise under 0 heads a group of its own ties; a NaN (an overflowed count)
    ranks last; every index comes once, in the rule's order."""
    from mazekit.graph.ranking import ranked

    values = np.array([-1e-17, -1e-17 * (1 + 1e-12), 0.5, np.nan, 0.5 * (1 - 1e-12), 0.1])
    order = ranked(values, 6, (np.arange(6),))
    assert order.tolist() == [2, 4, 5, 0, 1, 3]
    assert ranked(values, 2, (np.arange(6),)).tolist() == [2, 4]
