"""The measures' compiled kernel (mazekit._cmeasures) against its pure-Python reference: leaf
peeling (longest branch, cells peeled), stats, and a tree's betweenness give identical
results on random grids (specs/performance.md, "Measure kernels")."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit import graph, measures
from mazekit.analysis import Analysis
from mazekit.drawing import RenderOptions, render_bytes, svg
from mazekit.generators import generate
from mazekit.graph import brandes, centrality, ranking
from mazekit.graph import chains as chain_method
from mazekit.graph import table as graph_table
from mazekit.model import DIRECTIONS, EAST, NORTH, SOUTH, WEST, Maze
from mazekit.search import UNREACHED, distance_between, open_bits
from tests.conftest import open_wall, ring, scaled
from tests.kernels import reference_only, require_kernel

# The graph modules that bind the measures kernel (tests.kernels.reference_only).
_GRAPH = (brandes, centrality, chain_method, ranking)
_OPPOSITE = {NORTH: SOUTH, EAST: WEST, SOUTH: NORTH, WEST: EAST}
_STEP = {NORTH: (0, -1), EAST: (1, 0), SOUTH: (0, 1), WEST: (-1, 0)}


@st.composite
def grids(draw: st.DrawFn) -> Maze:
    """A random grid, 1xN and Nx1 included: a perfect maze, the same with loops opened, or
    random wall digits (incoherent walls); entry and exit anywhere inside."""
    width, height = draw(st.integers(1, 14)), draw(st.integers(1, 14))
    kind = draw(st.sampled_from(["perfect", "loops", "random"]))
    if kind == "random" or width * height == 1:  # generate needs two cells
        digits = draw(
            st.lists(st.integers(0, 15), min_size=width * height, max_size=width * height)
        )
        walls = np.array(digits, dtype=np.uint8).reshape(height, width)
    else:
        seed = draw(st.integers(0, 2**32))
        walls = generate(width, height, seed=seed).walls.copy()
    if kind == "loops":
        for _ in range(draw(st.integers(1, 6))):
            x, y = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
            bit = draw(st.sampled_from(list(_STEP)))
            dx, dy = _STEP[bit]
            if 0 <= x + dx < width and 0 <= y + dy < height:
                walls[y, x] &= 15 ^ bit
                walls[y + dy, x + dx] &= 15 ^ _OPPOSITE[bit]
    entry = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    exit_ = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    return Maze(walls, entry, exit_)


@given(maze=grids(), pins=st.lists(st.integers(0, 195), max_size=3))
def test_peeling_matches_the_reference(maze: Maze, pins: list[int]) -> None:
    require_kernel(measures)
    facts = Analysis(maze)
    pins = [pin % maze.walls.size for pin in pins]
    fast = measures._peel(facts, pins)
    with reference_only(measures):
        assert fast == measures._peel(facts, pins)


@given(grids())
def test_stats_match_the_reference(maze: Maze) -> None:
    require_kernel(measures)
    fast = measures.stats(maze)
    with reference_only(measures):
        assert fast == measures.stats(maze)


@given(grids())
def test_the_path_of_a_tree_is_what_the_peeling_leaves(maze: Maze) -> None:
    """On a tree the shortest path is read off the peeling: it is the searched one."""
    found = measures.stats(maze).shortest_path
    expected = distance_between(maze.walls, maze.entry, maze.exit)
    assert found == (None if expected == UNREACHED else expected)


@given(grids())
def test_tree_betweenness_matches_the_reference(maze: Maze) -> None:
    require_kernel(centrality)
    fast = graph.betweenness(maze)
    with reference_only(*_GRAPH):
        slow = graph.betweenness(maze)
    assert (fast.method, fast.samples, fast.seed) == (slow.method, slow.samples, slow.seed)
    for name in ("cells", "east", "south", "reachable", "east_open", "south_open"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


@given(
    maze=grids(),
    cell=st.integers(2, 9),
    wall=st.integers(1, 4),
    margin=st.integers(0, 3),
    theme=st.sampled_from(["light", "pacman"]),
    path=st.sampled_from([None, True, False]),
)
def test_svg_text_matches_the_reference(
    maze: Maze, cell: int, wall: int, margin: int, theme: str, path: bool | None
) -> None:
    """The compiled writer of rectangles and path runs gives the reference's very bytes, half
    pixels of the path's centre line included."""
    require_kernel(svg)
    if wall >= cell:
        wall = cell - 1
    if path is True and distance_between(maze.walls, maze.entry, maze.exit) == UNREACHED:
        path = None
    options = RenderOptions(
        format="svg", cell=cell, wall=wall, margin=margin, theme=theme, path=path
    )
    fast = render_bytes(maze, options)
    with reference_only(svg):
        assert fast == render_bytes(maze, options)


def test_a_long_corridor_peels_the_same() -> None:
    """A 1x400 corridor pinned at one end: one branch of 399 cells on both paths."""
    walls = np.full((1, 400), NORTH | SOUTH, dtype=np.uint8)
    walls[0, 0] |= WEST
    walls[0, -1] |= EAST
    maze = Maze(walls, (0, 0), (0, 0))
    require_kernel(measures)
    fast = measures.stats(maze)
    with reference_only(measures):
        assert fast == measures.stats(maze)
    assert fast.longest_dead_end_branch == 399


def test_the_kernel_refuses_bad_buffers() -> None:
    """Wrong sizes and open bits pointing out of the grid raise ValueError, never a crash."""
    require_kernel(measures)
    kernel = measures._KERNEL
    moves = np.zeros((3, 4), dtype=np.uint8)
    left = np.zeros(12, dtype=np.uint8)
    scratch = np.zeros(12, dtype=np.int32)
    with pytest.raises(ValueError):
        kernel.peel_branches(moves, left, scratch, np.zeros(11, dtype=np.int32), 4, False)
    with pytest.raises(ValueError):
        kernel.peel_branches(moves, left, scratch, scratch.copy(), 5, True)
    for bit, cell in ((NORTH, (0, 1)), (SOUTH, (2, 1)), (WEST, (1, 0)), (EAST, (1, 3))):
        wrong = moves.copy()
        wrong[cell] = bit
        with pytest.raises(ValueError):
            kernel.peel_branches(wrong, left, scratch, scratch.copy(), 4, True)
    floats = np.zeros(12)
    for root, exit_, width, cells in (
        (12, -1, 4, floats),
        (0, 0, 4, floats),
        (0, 12, 4, floats),
        (0, -1, 4, floats[:11]),
        (0, -1, 5, floats),
    ):
        with pytest.raises(ValueError):
            kernel.tree_betweenness(
                moves, left, root, exit_, width, 1, 0.0, 0.0, cells, floats, floats, left, left
            )
    wrong = moves.copy()
    wrong[0, 1] = NORTH
    with pytest.raises(ValueError):
        kernel.tree_betweenness(
            wrong, left, 0, -1, 4, 1, 0.0, 0.0, floats, floats, floats, left, left
        )
    with pytest.raises(ValueError):
        kernel.tree_betweenness(
            moves, left, 0, -1, 4, 1, 0.0, 0.0, floats, floats, floats, left, left[:11]
        )
    numbers = np.zeros(3, dtype=np.int64)
    with pytest.raises(ValueError):
        kernel.svg_boxes(numbers, numbers, numbers, numbers[:2])
    with pytest.raises(ValueError):
        kernel.svg_runs(numbers, numbers, numbers, numbers.astype(np.int32))


@given(grids())
def test_stats_and_graph_sharing_one_analysis_give_the_same_figures(maze: Maze) -> None:
    """stats --graph computes the components once for both steps: nothing else changes."""
    facts = Analysis(maze)
    assert measures.stats(maze, facts=facts) == measures.stats(maze)
    shared = graph.graph_stats(maze, facts=facts).to_dict()
    assert shared == graph.graph_stats(maze).to_dict()


def test_stats_refuse_the_facts_of_another_maze() -> None:
    one, other = generate(4, 3, seed=1), generate(4, 3, seed=2)
    with pytest.raises(ValueError, match="same maze"):
        measures.stats(one, facts=Analysis(other))


@given(
    maze=grids(),
    count=st.integers(1, 30),
    levels=st.integers(1, 4),
    seed=st.integers(0, 2**32),
)
def test_busiest_passages_are_the_first_of_all_passages_sorted(
    maze: Maze, count: int, levels: int, seed: int
) -> None:
    """The top passages, found per direction, are the first ``count`` of every open passage
    sorted by value (highest first), then (y, x), then E before S; few distinct values make
    many ties."""
    found = graph.betweenness(maze)
    generator = np.random.default_rng(seed)
    east = generator.integers(0, levels, size=found.east.shape) / levels
    south = generator.integers(0, levels, size=found.south.shape) / levels
    found = replace(found, east=east * found.east_open, south=south * found.south_open)
    every = [
        (-float(values[y, x]), y, x, letter)
        for letter, values, open_ in (("E", east, found.east_open), ("S", south, found.south_open))
        for y, x in np.argwhere(open_).tolist()
    ]
    expected = [((x, y), letter, -value) for value, y, x, letter in sorted(every)[:count]]
    assert found.top_passages(count) == expected


@given(
    values=st.lists(
        st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0, -3.0, 1e300, float("inf"), float("nan")])
        | st.floats(allow_nan=False),
        min_size=1,
        max_size=60,
    ),
    count=st.integers(1, 60),
)
def test_kth_largest_is_numpys_partition(values: list[float], count: int) -> None:
    """The heap's count-th largest is np.partition's, equal values counted apart; NaN when a
    value is NaN (the caller then asks numpy)."""
    require_kernel(centrality)
    array = np.array(values)
    count = min(count, array.size)
    found = centrality._KERNEL.kth_largest(array, count)
    if np.isnan(array).any():
        assert np.isnan(found)
    else:
        assert found == np.partition(array, array.size - count)[array.size - count]


def test_kth_largest_refuses_bad_arguments() -> None:
    require_kernel(centrality)
    with pytest.raises(ValueError):
        centrality._KERNEL.kth_largest(np.zeros(3), 4)
    with pytest.raises(ValueError):
        centrality._KERNEL.kth_largest(np.zeros(3), 0)
    with pytest.raises(ValueError):
        centrality._KERNEL.kth_largest(np.zeros(3, dtype=np.int32), 1)  # 12 bytes


@given(
    maze=grids(),
    count=st.integers(1, 30),
    levels=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    outside=st.booleans(),
    whole=st.booleans(),
)
def test_top_cells_and_passages_match_the_reference(
    maze: Maze, count: int, levels: int, seed: int, outside: bool, whole: bool
) -> None:
    """The one-pass threshold of the kernel finds the reference's top cells and passages,
    ties included, and falls back to it when cells outside the graph hold values too, or
    when the values are not floats (``whole``: integers)."""
    require_kernel(centrality)
    found = graph.betweenness(maze)
    generator = np.random.default_rng(seed)
    values = {
        name: generator.integers(0, levels, size=found.cells.shape) * (1 if whole else 1 / levels)
        for name in ("cells", "east", "south")
    }
    if not outside:  # as betweenness gives them: 0 outside the graph
        values["cells"] *= found.reachable
        values["east"] *= found.east_open
        values["south"] *= found.south_open
    found = replace(found, **values)
    fast = (found.top_cells(count), found.top_passages(count))
    with reference_only(*_GRAPH):
        assert fast == (found.top_cells(count), found.top_passages(count))


@given(grids())
def test_graph_stats_takes_the_tree_from_betweenness(maze: Maze) -> None:
    """stats --graph reads "a tree" off the betweenness, not from a second count of the
    passages, and sorts the values it has: the same cop number and Gini as alone."""
    found = graph.graph_stats(maze)
    assert found.cop == graph.cop_number(maze)
    assert found.gini == graph.gini(found.betweenness.cells[found.betweenness.reachable])


@given(grids())
def test_stats_with_graph_match_the_two_steps_and_the_reference(maze: Maze) -> None:
    """stats --graph's one walk of a tree (pinned at the entry, and at the exit until only the
    path is left) gives what stats and graph_stats give apart, and what the reference gives."""
    found, figures = measures.stats_with_graph(maze, top=3)
    assert found == measures.stats(maze)
    apart = graph.graph_stats(maze, top=3)
    assert (figures.to_dict(), figures.text_lines()) == (apart.to_dict(), apart.text_lines())
    with reference_only(measures, *_GRAPH):
        slow, slow_figures = measures.stats_with_graph(maze, top=3)
    assert found == slow
    assert figures.to_dict() == slow_figures.to_dict()


@given(maze=grids(), count=st.integers(1, 12))
def test_tree_figures_from_the_sizes_match_the_grids(maze: Maze, count: int) -> None:
    """stats --graph on a tree ranks the passages off the subtree sizes and sorts the cells'
    values in place: the same top cells and passages (ties included, ``count`` of each) and
    the very Gini float as the grids of betweenness() give, kernel and reference."""
    require_kernel(centrality)
    facts = Analysis(maze)
    walked = graph.tree_sizes(maze, facts)
    if walked is None:
        assert not facts.tree
        return
    block = centrality._BLOCK
    centrality._BLOCK = 5  # many blocks: the floor of the passages kept so far rises
    try:
        small = graph.tree_figures(graph.tree_sizes(maze, Analysis(maze))[0], count)  # type: ignore[index]
    finally:
        centrality._BLOCK = block
    figures = graph.tree_figures(walked[0], count)
    assert small.to_dict() == figures.to_dict()
    found = graph.betweenness(maze)
    expected = graph.graph_figures(maze, found, count)
    top = (found.top_cells(count), found.top_passages(count))
    assert (figures.betweenness.top_cells(count), figures.betweenness.top_passages(count)) == top
    assert figures.gini == expected.gini
    assert figures.to_dict() == expected.to_dict()
    with reference_only(*_GRAPH):
        slow = graph.betweenness(maze)
        assert (slow.top_cells(count), slow.top_passages(count)) == top


def test_tree_values_refuses_a_left_that_no_walk_made() -> None:
    """The values pass writes where each cell's parent direction points: a direction that is
    not one of the cell's open walls is refused, never followed out of the grid."""
    require_kernel(centrality)
    kernel = centrality._KERNEL
    assert kernel is not None
    moves = np.zeros(6, dtype=np.uint8)  # 2 x 3 cells, every wall closed
    left = np.full(6, NORTH << 4, dtype=np.uint8)  # "north" from the top row
    with pytest.raises(ValueError, match="finished tree walk"):
        kernel.tree_values(moves, left, 0, 3, 6, 0.1, 0.1, np.zeros(6), None, None, None, None)


@given(maze=grids(), exit_pin=st.booleans())
def test_one_tree_walk_gives_the_peeling_of_both_pins(maze: Maze, exit_pin: bool) -> None:
    """The kernel's tree walk reports the longest branch and the cells peeled of the leaf
    peeling pinned at the entry (and the exit), as measures._peel's reference finds them."""
    require_kernel(centrality)
    facts = Analysis(maze)
    width = maze.width
    entry = maze.entry[1] * width + maze.entry[0]
    exit_ = maze.exit[1] * width + maze.exit[0]
    use_exit = exit_pin and exit_ != entry and bool(facts.reachable.flat[exit_])
    walked = graph.tree_walk(maze, facts, exit_ if use_exit else None)
    if facts.loops:
        assert walked is None
        return
    assert walked is not None
    with reference_only(measures):
        assert walked[1] == measures._peel(facts, [entry, exit_] if use_exit else [entry])


def _every_cell_table(maze: Maze) -> np.ndarray:
    """graph.table.reachable_graph's n x 4 neighbour table (N, E, S, W; -1 none) over every cell of the grid,
    reachable or not: several components, each searched only from its own sources."""
    width = maze.width
    bits = open_bits(maze.walls).ravel()
    index = np.arange(bits.size)
    table = np.full((bits.size, 4), -1, dtype=np.int32)
    for column, direction in enumerate(DIRECTIONS):
        has = (bits & direction.bit) != 0
        table[has, column] = index[has] + direction.dy * width + direction.dx
    return table


def _same_bits(fast: tuple[np.ndarray, ...], slow: tuple[np.ndarray, ...]) -> None:
    """The kernel's sums are the reference's to the bit (NaN included)."""
    assert [part.tobytes() for part in fast] == [part.tobytes() for part in slow]


def _brandes_both_ways(
    table: np.ndarray, sources: np.ndarray, entries: int
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """_brandes_threads through the kernel and through the reference, in batches of
    ``entries`` (source, node) pairs."""
    saved = brandes.BATCH_ENTRIES
    brandes.BATCH_ENTRIES = entries
    try:
        fast = brandes.brandes_threads(table, sources)
        with reference_only(*_GRAPH):
            slow = brandes.brandes_threads(table, sources)
    finally:
        brandes.BATCH_ENTRIES = saved
    return fast, slow


@settings(max_examples=scaled(60))
@given(
    maze=grids(),
    picks=st.lists(st.integers(0, 195), max_size=150),
    entries=st.integers(1, 600),
)
def test_brandes_sums_are_the_references_to_the_bit(
    maze: Maze, picks: list[int], entries: int
) -> None:
    """graph.brandes.brandes_sums' plain case (no weights, nothing stored): the kernel gives numpy's very
    floats, whatever the sources (repeats included), the batch size and the threads; exact
    equality, since stats prints what rounding would change."""
    require_kernel(centrality)
    table = _every_cell_table(maze)
    sources = np.array([pick % table.shape[0] for pick in picks], dtype=np.int64)
    _same_bits(*_brandes_both_ways(table, sources, entries))  # batches of 1 to hundreds


@settings(max_examples=scaled(4))
@given(seed=st.integers(0, 2**32), samples=st.integers(1, 12), draw=st.integers(0, 2**32))
def test_sampled_betweenness_is_the_references_to_the_bit(
    seed: int, samples: int, draw: int
) -> None:
    """Above EXACT_LIMIT cells (a 110 x 100 maze with loops), the estimate from sampled
    sources is the reference's, float for float."""
    require_kernel(centrality)
    maze = generate(110, 100, perfect=False, seed=seed)
    fast = graph.betweenness(maze, samples=samples, seed=draw)
    assert fast.method == "sampled"
    with reference_only(*_GRAPH):
        slow = graph.betweenness(maze, samples=samples, seed=draw)
    _same_bits((fast.cells, fast.east, fast.south), (slow.cells, slow.east, slow.south))


def test_brandes_on_two_threads_and_in_batches_is_the_references() -> None:
    """130 sources: two threads of 65, each in batches of several sources (a 60 x 50 maze
    with loops), so every sum the reference makes in its order is made."""
    require_kernel(centrality)
    _, _, table, _ = graph_table.reachable_graph(generate(60, 50, perfect=False, seed=4))
    sources = np.sort(np.random.default_rng(1).choice(table.shape[0], 130, replace=False))
    _same_bits(*_brandes_both_ways(table, sources, 20 * (table.shape[0] + 1)))


def test_brandes_keeps_numpys_nan_where_path_counts_overflow() -> None:
    """An open 520 x 520 grid has over 1e308 shortest paths corner to corner: the counts
    become inf, 0 * inf is NaN, and the kernel keeps numpy's NaN exactly where numpy has it."""
    require_kernel(centrality)
    maze = Maze(np.zeros((520, 520), dtype=np.uint8), (0, 0), (519, 519))
    _, _, table, _ = graph_table.reachable_graph(maze)
    sources = np.array([0, 1], dtype=np.int64)
    fast = brandes.brandes_sums(table, sources)
    with reference_only(*_GRAPH), np.errstate(all="ignore"):
        slow = brandes.brandes_sums(table, sources)
    assert np.isnan(slow[1]).any() and not np.isnan(slow[1]).all()
    _same_bits(fast, slow)


def test_the_brandes_kernel_refuses_bad_buffers() -> None:
    """Neighbours or sources outside the table, a ragged table or short outputs: ValueError,
    never a read outside the arrays."""
    require_kernel(centrality)
    kernel = centrality._KERNEL
    table = np.array([[-1, 1, -1, -1], [-1, -1, -1, 0]], dtype=np.int32)
    sources = np.array([0], dtype=np.int64)
    out = [np.empty(2) for _ in range(3)]
    kernel.brandes(table, sources, 1, *out)
    assert [list(part) for part in out] == [[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]]
    bad_table = np.array([[-1, 2, -1, -1], [-1, -1, -1, 0]], dtype=np.int32)
    for args in (
        (bad_table, sources, 1, *out),
        (table, np.array([2], dtype=np.int64), 1, *out),
        (table, np.array([-1], dtype=np.int64), 1, *out),
        (table.ravel()[:7], sources, 1, *out),
        (table, sources, 0, *out),
        (table, sources, 1, np.empty(1), out[1], out[2]),
    ):
        with pytest.raises(ValueError):
            kernel.brandes(*args)


@settings(max_examples=scaled(60))
@given(
    maze=grids(),
    every_cell=st.booleans(),
    picks=st.lists(st.integers(0, 195), max_size=150),
    entries=st.integers(1, 600),
    threads=st.sampled_from([1, 2]),
    tiled=st.sampled_from([None, False, True]),
)
def test_brandes_from_the_open_bits_is_the_tables_to_the_bit(
    maze: Maze, every_cell: bool, picks: list[int], entries: int, threads: int, tiled: bool | None
) -> None:
    """The kernel that reads the neighbours off the open bits (brandes.brandes_cells) gives the
    reference's sums over the neighbour table of the same cells, laid out on the grid (0 off
    the graph): the reachable ones (as _graph numbers them) or every cell (several
    components), any sources, batches, threads, its nodes numbered in flat order or tile by
    tile (as above 128 MB of nodes)."""
    require_kernel(centrality)
    if every_cell:
        flat, table = np.arange(maze.walls.size, dtype=np.int64), _every_cell_table(maze)
    else:
        _, flat, table, _ = graph_table.reachable_graph(maze)
    sources = np.array([pick % flat.size for pick in picks], dtype=np.int64)
    moves = open_bits(maze.walls)
    saved = brandes.BATCH_ENTRIES, brandes.SPLIT_SOURCES
    brandes.BATCH_ENTRIES = entries
    brandes.SPLIT_SOURCES = 2  # two shares: one thread adds the second into the first's grids
    try:
        fast = brandes.split_sources(
            sources,
            flat.size,
            lambda share, into: brandes.brandes_cells(moves, flat, maze.width, share, into, tiled),
            threads,
        )
        with reference_only(*_GRAPH):
            slow = brandes.brandes_threads(table, sources, threads=threads)
    finally:
        brandes.BATCH_ENTRIES, brandes.SPLIT_SOURCES = saved
    laid_out = tuple(np.zeros(maze.walls.size) for _ in slow)
    for grid, part in zip(laid_out, slow, strict=True):
        grid[flat] = part
    _same_bits(fast, laid_out)


def test_brandes_from_the_open_bits_refuses_bad_buffers() -> None:
    """An open direction out of the grid or to a cell not given, cells not ascending or out
    of the grid, sources outside them, short outputs: ValueError, never a read outside."""
    require_kernel(centrality)
    kernel = centrality._KERNEL
    moves = np.array([[EAST, WEST, 0]], dtype=np.uint8)  # cells 0 and 1 joined, 2 alone
    flat, sources = np.array([0, 1], dtype=np.int64), np.array([0], dtype=np.int64)
    out = [np.zeros(3) for _ in range(3)]  # a grid cell each: the sums are added there
    kernel.brandes_cells(moves, 3, flat, sources, 1, *out)
    assert [list(part) for part in out] == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0] * 3]
    for args in (
        (moves, 3, np.array([0, 2], dtype=np.int64), sources, 1, *out),  # 1 is not given
        (moves, 3, np.array([1, 0], dtype=np.int64), sources, 1, *out),
        (moves, 3, np.array([0, 0], dtype=np.int64), sources, 1, *out),
        (moves, 3, np.array([2, 3], dtype=np.int64), sources, 1, *out),
        (moves, 3, flat, np.array([2], dtype=np.int64), 1, *out),
        (moves, 3, flat, np.array([-1], dtype=np.int64), 1, *out),
        (moves, 2, flat, sources, 1, *out),
        (np.array([[WEST, WEST, 0]], dtype=np.uint8), 3, flat, sources, 1, *out),
        (moves, 3, flat, sources, 0, *out),
        (moves, 3, flat, sources, 1, np.empty(1), out[1], out[2]),
    ):
        with pytest.raises(ValueError):
            kernel.brandes_cells(*args)


@settings(max_examples=scaled(5))
@given(
    width=st.integers(6, 24),
    height=st.integers(6, 24),
    seed=st.integers(0, 2**32),
    entries=st.integers(1, 3000),
)
def test_the_chain_method_on_boards_is_the_references(
    width: int, height: int, seed: int, entries: int
) -> None:
    """The chain method on boards without dead ends, as `stats --graph` meets them (its own
    key share): the kernel's exact betweenness is the reference's, to the bit."""
    require_kernel(centrality)
    maze = generate(width, height, perfect=False, seed=seed, max_dead_ends=0)
    _, flat, table, _ = graph_table.reachable_graph(maze)
    saved = brandes.BATCH_ENTRIES
    brandes.BATCH_ENTRIES = entries
    try:
        chains = chain_method.brandes_by_chains(table, flat, width)
        with reference_only(*_GRAPH):
            slow_chains = chain_method.brandes_by_chains(table, flat, width)
    finally:
        brandes.BATCH_ENTRIES = saved
    assert (chains is None) == (slow_chains is None)
    if chains is not None and slow_chains is not None:
        _same_bits(chains, slow_chains)


def _chains_both_ways(
    maze: Maze, workers: int = 0, entries: int = 0
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """chain_method.brandes_by_chains (forced on any maze with a key cell) by the kernel's one walk and
    by the reference, on ``workers`` threads' shares and in batches of ``entries`` (source,
    node) pairs when given."""
    _, flat, table, _ = graph_table.reachable_graph(maze)
    saved = chain_method.KEY_SHARE, brandes.BATCH_ENTRIES, brandes.share_count
    chain_method.KEY_SHARE = 1.0
    brandes.BATCH_ENTRIES = entries or saved[1]
    if workers:
        brandes.share_count = lambda sources, nodes: workers
    try:
        fast = chain_method.brandes_by_chains(table, flat, maze.width)
        with reference_only(*_GRAPH):
            slow = chain_method.brandes_by_chains(table, flat, maze.width)
    finally:
        chain_method.KEY_SHARE, brandes.BATCH_ENTRIES, brandes.share_count = saved
    assert (fast is None) == (slow is None)
    return fast or (), slow or ()


@settings(max_examples=scaled(40))
@given(
    width=st.integers(2, 14),
    height=st.integers(2, 12),
    seed=st.integers(0, 2**32),
    opened=st.integers(1, 40),
    workers=st.integers(1, 3),
    entries=st.integers(1, 400),
)
def test_chain_kernel_is_the_references_to_the_bit(
    width: int, height: int, seed: int, opened: int, workers: int, entries: int
) -> None:
    """The chain method's one kernel walk (searches kept only while needed, weights, backward
    passes, the loop over the chains) gives the reference's very floats: mazes with dead ends,
    junctions and loops, the sources shared among 1 to 3 threads, in batches of any size."""
    require_kernel(centrality)
    maze = generate(width, height, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(opened if width > 1 else 0):  # open walls at random: loops and junctions
        x, y = int(rng.integers(0, width - 1)), int(rng.integers(0, height))
        if maze.walls[y, x] != 15 and maze.walls[y, x + 1] != 15:
            open_wall(maze.walls, x, y, "E")
    _same_bits(*_chains_both_ways(maze, workers, entries * 20))


@pytest.mark.parametrize(("width", "height"), [(6, 5), (40, 34)])
def test_chain_kernel_on_a_long_loop_hanging_off_one_cell(width: int, height: int) -> None:
    """A ring with a spur: its one chain leaves and returns to one cell after 18 and 144 steps,
    so the kernel's copy of numpy's pairwise sum (of 17 and 143 items) runs its blocks of 8
    and its halving."""
    require_kernel(centrality)
    maze = ring(width, height)
    open_wall(maze.walls, 1, 0, "S")  # the spur
    fast, slow = _chains_both_ways(maze)
    assert fast
    _same_bits(fast, slow)


def test_the_chain_kernel_refuses_bad_buffers() -> None:
    """A chain naming a row, node or end outside the arrays, or short outputs: ValueError."""
    require_kernel(centrality)
    kernel = centrality._KERNEL
    # a ring of 4 with a spur: key nodes 0 (degree 3) and 4 (the spur's end)
    table = np.array(
        [[-1, 1, 2, 4], [-1, -1, 3, 0], [0, 3, -1, -1], [1, -1, -1, 2], [-1, 0, -1, -1]],
        dtype=np.int32,
    )
    keys = np.array([0, 4], dtype=np.int64)
    info = np.array([[0, 0, 4, 0]], dtype=np.int64)
    inner = np.array([1, 3, 2], dtype=np.int64)
    ends_start = np.array([0, 2, 2], dtype=np.int64)
    ends = np.array([0, 1], dtype=np.int64)
    batches = np.array([1], dtype=np.int64)
    out = [np.empty(5) for _ in range(6)]
    kernel.chain_sums(table, keys, info, inner, ends_start, ends, batches, *out)
    good = (table, keys, info, inner, ends_start, ends, batches)
    for index, bad in (
        (2, np.array([[0, 2, 4, 0]], dtype=np.int64)),  # b's row beyond the keys
        (2, np.array([[0, 0, 5, 0]], dtype=np.int64)),  # more inner nodes than given
        (3, np.array([1, 3, 9], dtype=np.int64)),  # an inner node beyond n
        (5, np.array([0, 2], dtype=np.int64)),  # an end of a chain that is not there
        (5, np.array([1, 1], dtype=np.int64)),  # one end twice, the other never
        (4, np.array([0, 0, 2], dtype=np.int64)),  # the ends listed at the spur's row
        (4, np.array([0, 1, 1], dtype=np.int64)),  # an end listed at no row
        (6, np.array([0], dtype=np.int64)),  # a batch of 0
        (1, np.array([0, 5], dtype=np.int64)),  # a key beyond n
    ):
        args = list(good)
        args[index] = bad
        with pytest.raises(ValueError):
            kernel.chain_sums(*args, *out)
    with pytest.raises(ValueError):
        kernel.chain_sums(*good, *out[:5], np.empty(4))
    # a chain from row 1 to row 2 whose a-end is listed at row 0, whose search is never made
    # (it crashed the kernel once)
    with pytest.raises(ValueError):
        kernel.chain_sums(
            table,
            np.array([0, 4, 2], dtype=np.int64),
            np.array([[1, 2, 2, 0]], dtype=np.int64),
            np.array([1], dtype=np.int64),
            np.array([0, 1, 1, 1], dtype=np.int64),
            np.array([0], dtype=np.int64),
            batches,
            *out,
        )
