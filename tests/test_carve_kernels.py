"""The carving kernel (mazekit._ccarve) against the pure-Python carving loops it copies: the
same walls, the same path and the same random state after, for every perfect algorithm on
random grids (specs/performance.md, "Carving kernels")."""

from __future__ import annotations

import random
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import pattern
from mazekit.generators import (
    ALGORITHMS,
    Request,
    backtracker,
    build,
    grid,
    hunt_and_kill,
    kruskal,
    load_algorithm,
    prim,
    wilson,
)
from mazekit.generators.grid import Grid
from mazekit.model import Cell
from mazekit.rng import make_rng
from tests.kernels import reference_only, require_kernel

PERFECT = [name for name in ALGORITHMS if load_algorithm(name).PERFECT]
MODULES: tuple[ModuleType, ...] = (backtracker, prim, kruskal, wilson, hunt_and_kill)

State = tuple[object, ...]


@st.composite
def grids(draw: st.DrawFn) -> tuple[int, int, Cell, Cell]:
    """A size (1xN, Nx1, with and without room for the "42") and two distinct free cells."""
    width = draw(st.integers(1, 24))
    height = draw(st.integers(1 if width > 1 else 2, 24))
    glyph = set(pattern.pattern_cells(width, height))
    free = [(x, y) for y in range(height) for x in range(width) if (x, y) not in glyph]
    entry, exit = draw(st.lists(st.sampled_from(free), min_size=2, max_size=2, unique=True))
    return width, height, entry, exit


def _carve(name: str, size: tuple[int, int, Cell, Cell], seed: int) -> tuple[bytes, str, State]:
    """Carve with ``name`` as build() does: the walls of the frame, the path, the rng state."""
    width, height, entry, exit = size
    rng = make_rng(seed)
    frame = Grid(width, height, entry, exit)
    load_algorithm(name).carve(frame, rng)
    path = frame.path if frame.path is not None else frame.tree_path()
    assert path is not None  # a perfect maze reaches every free cell
    return bytes(frame.walls), path, rng.getstate()


@pytest.mark.parametrize("name", PERFECT)
@given(size=grids(), seed=st.integers(-(2**40), 2**40))
def test_the_kernel_carves_as_the_reference(
    name: str, size: tuple[int, int, Cell, Cell], seed: int
) -> None:
    require_kernel(grid)
    fast = _carve(name, size, seed)
    with reference_only(*MODULES, grid):
        slow = _carve(name, size, seed)
    assert fast == slow


def _kruskal_in_bands(
    size: tuple[int, int, Cell, Cell], seed: int, band: int, cells: int
) -> tuple[tuple[bytes, str, State], tuple[bytes, str, State]]:
    """kruskal carved by the kernel in bands of ``band`` rows and at most ``cells`` cells,
    and by the reference."""
    require_kernel(kruskal)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kruskal, "BAND", band)
        patch.setattr(kruskal, "BAND_CELLS", cells)
        fast = _carve("kruskal", size, seed)
    with reference_only(kruskal, grid):
        slow = _carve("kruskal", size, seed)
    return fast, slow


@given(
    size=grids(),
    seed=st.integers(-(2**40), 2**40),
    band=st.integers(1, 3),
    cells=st.sampled_from([1, 40, kruskal.BAND_CELLS]),
)
def test_kruskal_in_bands_of_few_rows_carves_as_the_reference(
    size: tuple[int, int, Cell, Cell], seed: int, band: int, cells: int
) -> None:
    """Bands of 1-3 rows put band edges on every other row of a small grid: the pieces that
    wait at an edge, the walls across it and those a band opens all come to the walls the
    reference opens, with the same random state after; so do rows longer than a band may
    hold (``cells``), which leave their walls to the rounds."""
    fast, slow = _kruskal_in_bands(size, seed, band, cells)
    assert fast == slow


@pytest.mark.parametrize(
    ("band", "cells"),
    [
        (1, 10**9),
        (2, 10**9),
        (3, 10**9),
        (7, 10**9),
        (kruskal.BAND, kruskal.BAND_CELLS),
        (10**9, 10**9),
        (kruskal.BAND, 100),
    ],
)
@pytest.mark.parametrize(
    ("size", "seed"),
    [
        ((160, 120, (0, 0), (159, 119)), 3),  # a dozen rounds, runs of walls between two pieces
        ((1, 6000, (0, 0), (0, 5999)), -8),  # one column: every wall a south wall
        ((6000, 1, (0, 0), (5999, 0)), 5),  # one row: every wall an east wall
        ((97, 43, (5, 40), (90, 2)), 11),  # an odd shape around the "42"
    ],
)
def test_kruskal_rounds_open_the_reference_walls(
    size: tuple[int, int, Cell, Cell], seed: int, band: int, cells: int
) -> None:
    """Bigger than the hypothesis grids, so the kernel's bands and Boruvka's rounds after them
    run many times over pieces of every size (bands of one row, of a few, the default, one
    band of the whole grid, and rows longer than a band may hold, left to the rounds): the
    walls they open are those the reference's sorted union-find opens, and the generator
    ends in the same state."""
    fast, slow = _kruskal_in_bands(size, seed, band, cells)
    assert fast == slow


@st.composite
def ends(draw: st.DrawFn) -> tuple[int, int, Cell, Cell]:
    """A size (1-row and 1-column ones often) and an entry and exit that may be the same cell
    or neighbours, as well as any two free cells."""
    width = draw(st.sampled_from([1, 2, 3]) | st.integers(1, 40))
    height = draw(st.sampled_from([1, 2, 3]) | st.integers(1, 40))
    glyph = set(pattern.pattern_cells(width, height))
    free = [(x, y) for y in range(height) for x in range(width) if (x, y) not in glyph]
    entry = draw(st.sampled_from(free))
    x, y = entry
    near = [cell for cell in ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)) if cell in free]
    exit = draw(st.sampled_from([entry, *near]) | st.sampled_from(free))
    return width, height, entry, exit


@given(size=ends(), seed=st.integers(-(2**40), 2**40), band=st.integers(1, 4))
def test_kruskal_path_is_the_walk_of_the_tree(
    size: tuple[int, int, Cell, Cell], seed: int, band: int
) -> None:
    """kruskal's kernel finds the path from the pieces it joined (kruskal_path in carve.c),
    not by a walk of the whole maze: on the tree it carved, it is the path Grid.tree_path
    walks, for an exit at the entry, next to it or anywhere, on 1-row and 1-column grids,
    with band edges every few rows."""
    require_kernel(kruskal)
    width, height, entry, exit = size
    frame = Grid(width, height, entry, exit)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kruskal, "BAND", band)
        kruskal.carve(frame, make_rng(seed))
    assert frame.path is not None
    assert frame.path == frame.tree_path()
    assert (frame.path == "") == (entry == exit)


def test_kruskal_path_with_no_way_through_or_loops() -> None:
    """Where the exit is out of reach the kernel's path is None, as the reference's; on a
    frame whose walls were all open before the carve (loops: the pieces' walk would never
    end) it still ends, with letters that walk from the entry to the exit."""
    require_kernel(kruskal)
    results = []
    for module in (kruskal, None):
        frame = Grid(7, 3, (0, 0), (6, 2))
        for y in range(3):
            frame.blocked[frame.index(3, y)] = 1  # a blocked column: two halves
        if module is None:
            with reference_only(kruskal, grid):
                kruskal.carve(frame, make_rng(4))
                path = frame.tree_path()
        else:
            kruskal.carve(frame, make_rng(4))
            path = frame.path
        results.append((bytes(frame.walls), path))
    assert results[0] == results[1]
    assert results[0][1] is None
    step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    for entry, exit in (((1, 1), (8, 5)), ((8, 5), (1, 1))):  # the second walks in circles
        frame = Grid(9, 6, entry, exit)
        for cell in range(len(frame.walls)):
            frame.walls[cell] = 0
        kruskal.carve(frame, make_rng(0))
        assert frame.path is not None
        x, y = entry
        for letter in frame.path:
            x, y = x + step[letter][0], y + step[letter][1]
            assert 0 <= x < 9 and 0 <= y < 6
        assert (x, y) == exit


@pytest.mark.parametrize("name", ["kruskal", "wilson"])
def test_draws_in_blocks_from_a_generator_at_an_odd_word(name: str) -> None:
    """The kernels draw a block of the generator's 624 words at a time; one that has used
    an odd number of words puts a float across two blocks, and still draws as the reference."""
    require_kernel(grid)
    states = []
    for modules in ((), (*MODULES, grid)):
        rng = make_rng(7)
        rng.getrandbits(32)  # one word
        frame = Grid(40, 30, (0, 0), (39, 29))
        with reference_only(*modules):
            load_algorithm(name).carve(frame, rng)
        states.append((bytes(frame.walls), rng.getstate()))
    assert states[0] == states[1]


@pytest.mark.parametrize("seed", [1, 5])  # one batch, three batches
def test_wilson_leaves_the_random_state_of_whole_batches(seed: int) -> None:
    """Big enough for several batches of 65,536 directions: the kernel consumes the rest of
    the last batch as rng.floats did, so an imperfect maze braids on from the same state."""
    require_kernel(wilson)
    size = (90, 70, (0, 0), (89, 69))
    fast = _carve("wilson", size, seed)
    with reference_only(wilson, grid):
        slow = _carve("wilson", size, seed)
    assert fast == slow


@pytest.mark.parametrize("name", ["kruskal", "wilson", "prim"])
def test_an_imperfect_maze_braids_on_from_the_same_state(name: str) -> None:
    require_kernel(grid)
    request = Request(
        width=23, height=17, entry=(3, 0), exit=(20, 16), perfect=False, seed=42, algorithm=name
    )
    fast = build(request)
    with reference_only(*MODULES, grid):
        slow = build(request)
    assert (fast.walls.tobytes(), fast.path) == (slow.walls.tobytes(), slow.path)


def test_tree_path_ends_on_a_maze_with_loops_or_no_way_through() -> None:
    """tree_path is for trees, yet on any frame it ends: with every wall open (loops
    everywhere) its letters still walk from the entry to the exit, and with every wall
    closed it says None."""
    require_kernel(grid)
    frame = Grid(6, 4, (1, 1), (5, 3))  # no room for the "42"
    for cell in range(len(frame.walls)):
        frame.walls[cell] = 0
    path = frame.tree_path()
    assert path is not None
    step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    x, y = 1, 1
    for letter in path:
        x, y = x + step[letter][0], y + step[letter][1]
        assert 0 <= x < 6 and 0 <= y < 4
    assert (x, y) == (5, 3)
    assert Grid(6, 4, (1, 1), (5, 3)).tree_path() is None


def test_a_frame_without_its_blocked_ring_is_refused() -> None:
    """The kernel steps to neighbours without bounds checks: a frame whose outer ring is not
    blocked would be read outside its buffer, so it is a ValueError, never a crash."""
    require_kernel(grid)
    frame = Grid(5, 4, (0, 0), (4, 3))
    frame.blocked[1] = 0
    with pytest.raises(ValueError, match="outer ring"):
        grid._KERNEL.prim(
            frame.walls, frame.blocked, frame.stride, frame.entry, frame.exit, random.Random(1)
        )
    with pytest.raises(ValueError, match="same length"):
        kruskal_args = (frame.stride, frame.entry, frame.exit, random.Random(1), 1, 1)
        grid._KERNEL.kruskal(frame.walls, frame.blocked[:-1], *kruskal_args)
    frame = Grid(5, 4, (0, 0), (4, 3))
    with pytest.raises(ValueError, match="at least one row and one cell"):
        kruskal_args = (frame.stride, frame.entry, frame.exit, random.Random(1), 0, 9)
        grid._KERNEL.kruskal(frame.walls, frame.blocked, *kruskal_args)
    with pytest.raises(ValueError, match="free cells"):
        kruskal_args = (frame.stride, 0, frame.exit, random.Random(1), 1, 1)
        grid._KERNEL.kruskal(frame.walls, frame.blocked, *kruskal_args)
    with pytest.raises(ValueError, match="bytes"):
        wide = np.ones(len(frame.walls), dtype=np.int32)
        grid._KERNEL.wilson(wide, wide, frame.stride, 0, 1, random.Random(1))
    with pytest.raises(ValueError, match="free cells"):
        frame = Grid(5, 4, (0, 0), (4, 3))
        grid._KERNEL.tree_path(frame.walls, frame.blocked, frame.stride, 0, frame.exit)
