"""Targets, not speed, make the chasers' personalities: two chasers on one cell part ways only
by their targets, and only at a junction (specs/chase.md, "Parting ways"); and the fast kernel
moves them exactly as the plain oracle of tests/chase_oracle.py does."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given
from hypothesis import strategies as st

import mazekit
from mazekit.chasers import NAMES, STARTS, ChaseOptions, Simulation
from mazekit.model import Maze
from mazekit.search import open_bits
from tests import chase_oracle as oracle

DEGREE = [bin(bits).count("1") for bits in range(16)]


@lru_cache(maxsize=64)
def board(width: int, height: int, seed: int) -> Maze:
    """A Pac-Man board, entry mid-bottom and exit mid-top, away from the chasers' corners."""
    maze = mazekit.generate(
        width, height, seed=seed, entry=(width // 2, height - 1), exit=(width // 2, 0)
    )
    return mazekit.pacmanize(maze)


def degrees(maze: Maze) -> list[list[int]]:
    """The number of possible steps from each cell, as rows."""
    return [[DEGREE[int(bits)] for bits in row] for row in open_bits(maze.walls)]


boards = st.builds(board, st.integers(9, 16), st.integers(7, 12), st.integers(0, 2**16))


@given(
    maze=boards,
    pair=st.sampled_from([(a, b) for a in NAMES for b in NAMES if a < b]),
    data=st.data(),
)
def test_two_chasers_on_one_cell_part_only_at_a_junction(
    maze: Maze, pair: tuple[str, str], data: st.DataObject
) -> None:
    degree = degrees(maze)
    cells = [
        (x, y)
        for y in range(maze.height)
        for x in range(maze.width)
        if degree[y][x] >= 2 and (x, y) != maze.entry
    ]
    start = data.draw(st.sampled_from(cells))
    first, second = pair
    simulation = Simulation(
        maze,
        ChaseOptions(runner="patrol", only=pair, places={first: start, second: start}, ticks=300),
    )
    shared = start
    for tick in simulation.ticks():
        a, b = tick.chasers
        if (a.x, a.y) != (b.x, b.y):
            # they part where there is a choice: a junction, or the first move of all
            x, y = shared
            assert degree[y][x] >= 3 or tick.tick == 1
            return
        assert a.heading == b.heading  # together, they move as one
        shared = (a.x, a.y)


@given(maze=boards, pair=st.sampled_from([("pinky", "inky"), ("blinky", "clyde")]), data=st.data())
def test_opposite_corners_part_on_the_first_move_from_a_junction(
    maze: Maze, pair: tuple[str, str], data: st.DataObject
) -> None:
    degree = degrees(maze)
    junctions = [
        (x, y)
        for y in range(maze.height)
        for x in range(maze.width)
        if degree[y][x] >= 3 and (x, y) != maze.entry
    ]
    start = data.draw(st.sampled_from(junctions))
    first, second = pair
    simulation = Simulation(
        maze, ChaseOptions(mode="scatter", only=pair, places={first: start, second: start})
    )
    a, b = simulation.step().chasers
    assert (a.x, a.y) != (b.x, b.y)


@given(
    maze=boards,
    runner=st.sampled_from(["path", "patrol"]),
    mode=st.sampled_from([None, None, "chase", "scatter"]),
    schedule=st.lists(st.integers(1, 30), min_size=0, max_size=5).map(tuple),
    only=st.sets(st.sampled_from(NAMES)).map(lambda names: tuple(sorted(names))),
    pass_through=st.booleans(),
    starts=st.sampled_from(STARTS),
    data=st.data(),
)
def test_the_kernel_agrees_with_the_plain_oracle(
    maze: Maze,
    runner: str,
    mode: str | None,
    schedule: tuple[int, ...],
    only: tuple[str, ...],
    pass_through: bool,
    starts: str,
    data: st.DataObject,
) -> None:
    degree = degrees(maze)
    open_cells = [(x, y) for y in range(maze.height) for x in range(maze.width) if degree[y][x] > 0]
    places = data.draw(st.dictionaries(st.sampled_from(NAMES), st.sampled_from(open_cells)))
    options = dict(
        runner=runner,
        mode=mode,
        schedule=schedule,
        places=places,
        only=only,
        pass_through=pass_through,
        ticks=400,
        starts=starts,
    )
    _, ticks = mazekit.chase(maze, **options)
    assert [tick.to_dict() for tick in ticks] == oracle.trace(maze, **options)
