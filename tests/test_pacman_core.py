"""Real and enclosed dead ends (board, analysis), and braiding under the board's constraints."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import pattern
from mazekit.analysis import Analysis, dead_ends
from mazekit.board import DeadEnds
from mazekit.braiding import braid, braid_walls
from mazekit.errors import BoardError
from mazekit.generators import ALGORITHMS, generate
from mazekit.model import ALL_WALLS, Maze
from mazekit.pacman import pacmanize
from mazekit.rng import make_rng
from mazekit.rules import validate
from mazekit.textformat import dump
from tests import brute
from tests.conftest import closed_grid, open_3x3_but_one, open_wall, serpentine


def test_a_corridor_has_two_real_dead_ends() -> None:
    maze = serpentine(4, 3)
    assert dead_ends(maze) == DeadEnds(real=((0, 0), (3, 2)), enclosed=())


def test_a_dead_end_walled_in_by_border_and_pattern_is_enclosed() -> None:
    # 1 x 3 column: (0,0) - (0,1), and (0,2) is declared a pattern cell
    walls = closed_grid(1, 3)
    open_wall(walls, 0, 0, "S")
    maze = Maze(walls, (0, 0), (0, 1), "S")
    mask = np.array([[False], [False], [True]])
    real, enclosed = dead_ends(maze, pattern=mask)
    assert real == ()
    assert enclosed == ((0, 0), (0, 1))
    assert dead_ends(maze).real == ((0, 1),)  # without the mask (0,2) is an ordinary cell


def test_the_trapped_cells_of_every_42_are_enclosed() -> None:
    for width, height in ((9, 7), (20, 15), (31, 12)):
        maze = generate(width, height, seed=1)
        real, enclosed = dead_ends(maze)
        assert set(pattern.trapped_cells(width, height)) <= set(enclosed)
        assert set(enclosed) == set(pattern.trapped_cells(width, height))
        assert len(real) > 0


def test_unreachable_cells_are_not_dead_ends() -> None:
    walls = closed_grid(3, 1)
    open_wall(walls, 0, 0, "E")  # (2,0) is cut off: a dead end, but not a reachable one
    maze = Maze(walls, (0, 0), (1, 0), "E")
    assert dead_ends(maze) == DeadEnds(real=((1, 0),), enclosed=((0, 0),))


def count_loops(maze: Maze) -> int:
    """Independent loops among the cells reachable from the entry."""
    return Analysis(maze).loops


def test_count_loops() -> None:
    walls = closed_grid(2, 3)
    for x, y, letter in ((0, 0, "E"), (0, 0, "S"), (1, 0, "S"), (0, 1, "E"), (0, 1, "S")):
        open_wall(walls, x, y, letter)
    maze = Maze(walls, (0, 0), (1, 2), "")
    assert count_loops(maze) == 1
    assert count_loops(serpentine(5, 5)) == 0


def _border_and_pattern_walls(maze: Maze) -> np.ndarray:
    """Per cell, the bits that must stay closed: border sides, and every side of a 42 cell."""
    keep = np.zeros(maze.walls.shape, dtype=np.uint8)
    keep[0, :] |= 1
    keep[:, -1] |= 2
    keep[-1, :] |= 4
    keep[:, 0] |= 8
    keep[pattern.pattern_mask(maze.width, maze.height)] = ALL_WALLS
    return keep


@given(
    width=st.integers(3, 30),
    height=st.integers(3, 30),
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from([a for a in ALGORITHMS if a != "flood"]),
    max_dead_ends=st.integers(0, 3),
)
def test_braid_keeps_every_constraint(
    width: int, height: int, seed: int, algorithm: str, max_dead_ends: int
) -> None:
    maze = generate(width, height, seed=seed, algorithm=algorithm)
    before = maze.walls.copy()
    board = braid(maze, max_dead_ends=max_dead_ends, rng=make_rng(seed))
    assert np.array_equal(maze.walls, before)  # the input is not changed
    keep = _border_and_pattern_walls(maze)
    assert np.array_equal(board.walls & keep, keep)  # border and "42" walls stay closed
    assert validate(board).valid  # coherent, connected, no 3x3 area, shortest path
    assert len(dead_ends(board).real) <= max_dead_ends
    assert count_loops(board) >= 2
    again = braid(board, max_dead_ends=max_dead_ends, rng=make_rng(seed + 1))
    assert dump(again) == dump(board)  # a board is a fixed point


def test_braid_prefers_joining_two_dead_ends() -> None:
    # a 3 x 3 tree with three real dead ends, (1,1), (2,1) and (2,2), side by side
    walls = closed_grid(3, 3)
    for x, y, letter in (
        (0, 0, "E"), (1, 0, "E"), (1, 0, "S"), (2, 0, "S"),
        (0, 0, "S"), (0, 1, "S"), (0, 2, "E"), (1, 2, "E"),
    ):  # fmt: skip
        open_wall(walls, x, y, letter)
    maze = Maze(walls, (0, 0), (2, 2), "SSEE")
    assert dead_ends(maze).real == ((1, 1), (2, 1), (2, 2))
    for seed in range(20):
        board = braid(maze, max_dead_ends=1, min_loops=0, rng=make_rng(seed))
        # one opening between two of them is enough; (1,1) opening west or south is not
        changed = np.flatnonzero(board.walls != maze.walls)
        assert changed.size == 2, seed
        assert len(dead_ends(board).real) == 1


def test_braid_swaps_a_wall_rather_than_make_a_3x3_open_area() -> None:
    walls = open_3x3_but_one()
    maze = Maze(walls, (0, 0), (2, 2), "SSEE")
    assert dead_ends(maze).real == ((0, 0),)
    board = braid(maze, max_dead_ends=0)
    assert dead_ends(board).real == ()
    assert not board.walls[0, 0] & 2  # the dead end's wall was opened
    assert count_loops(board) == count_loops(maze) == 3
    centre = board.walls[1, 1]
    assert bin(int(centre)).count("1") == 1  # one wall of the centre was closed instead
    assert validate(board).valid


def test_braid_opens_extra_walls_for_loops() -> None:
    maze = serpentine(6, 2)  # two dead ends, no loop
    board = braid(maze, max_dead_ends=2, min_loops=2)
    assert np.array_equal(board.walls, braid_walls(Analysis(maze), min_loops=2))
    assert count_loops(board) == 2
    assert validate(board).valid


def test_braid_aims_below_the_limit_with_target() -> None:
    maze = generate(30, 20, seed=4)
    limited = braid(maze, max_dead_ends=5)
    assert 0 < len(dead_ends(limited).real) <= 5
    aimed = braid(maze, max_dead_ends=5, target=0)
    assert dead_ends(aimed).real == ()


def test_braid_refuses_a_board_without_room_for_loops() -> None:
    maze = serpentine(5, 1)
    with pytest.raises(BoardError) as caught:
        braid(maze)
    assert caught.value.message == "cannot make 2 loops: at most 0 fit without a 3x3 open area"


def test_braid_refuses_dead_ends_it_cannot_reach() -> None:
    # (0,0)-(1,0) reachable; (2,0) cut off: (1,0) is a real dead end that cannot be opened
    walls = closed_grid(3, 1)
    open_wall(walls, 0, 0, "E")
    maze = Maze(walls, (0, 0), (1, 0), "E")
    with pytest.raises(BoardError) as caught:
        braid(maze, max_dead_ends=0, min_loops=0)
    assert caught.value.message == (
        "1 real dead end remains, more than the 0 allowed "
        "(its walls face cells that cannot be reached)"
    )


AT_MOST = re.compile(r"cannot make (\d+) loops: at most (\d+) fit without a 3x3 open area")
FOUND = re.compile(
    r"cannot make (\d+) loops: braiding found room for (\d+) without a 3x3 open area "
    r"\(another --seed may find more\)"
)


@given(
    width=st.integers(3, 6),
    height=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from(sorted(ALGORITHMS)),
    perfect=st.booleans(),
)
def test_what_the_loop_messages_claim_is_true(
    width: int, height: int, seed: int, algorithm: str, perfect: bool
) -> None:
    """The bound "at most N" holds for every choice of walls; "found room for N" can be made."""
    if width * height < 6 or (perfect and algorithm == "flood"):
        return
    maze = generate(width, height, seed=seed, algorithm=algorithm, perfect=perfect)
    # pacmanize braids with target 0 and this random source before it adds loops
    braided = braid(maze, min_loops=0, target=0, rng=make_rng(seed))
    most = brute.most_loops(braided)
    with pytest.raises(BoardError) as caught:
        pacmanize(maze, min_loops=10**6, seed=seed)
    bound = AT_MOST.fullmatch(caught.value.message)
    assert bound is not None, caught.value.message
    assert most <= int(bound.group(2))
    wanted = most
    try:
        board = pacmanize(maze, min_loops=wanted, seed=seed)
    except BoardError as error:
        found = FOUND.fullmatch(error.message)
        assert found is not None, error.message
        wanted = int(found.group(2))
        assert wanted < most
        board = pacmanize(maze, min_loops=wanted, seed=seed)
    assert most >= brute.reachable_loops(board) >= wanted
    assert brute.dead_ends(board)[0] == set()
    assert validate(board, pacman=True, min_loops=wanted, max_dead_ends=0).valid
    keep = _border_and_pattern_walls(maze)
    assert np.array_equal(board.walls & keep, keep)


def test_swapping_walls_for_loops_brings_back_no_more_dead_ends_than_braiding_left() -> None:
    # braiding stops at 2 real dead ends; walls opened for loops may open them, and swapping
    # walls may close those again: never more than braiding left, counted independently
    for seed in range(30):
        maze = generate(6, 5, seed=seed)
        braided = braid(maze, max_dead_ends=2, min_loops=0, rng=make_rng(seed))
        most = brute.most_loops(braided)
        try:
            board = braid(maze, max_dead_ends=2, min_loops=most, rng=make_rng(seed))
        except BoardError as error:
            assert FOUND.fullmatch(error.message), error.message
            continue
        assert len(brute.dead_ends(board)[0]) <= 2
        assert len(dead_ends(board).real) == len(brute.dead_ends(board)[0])
        assert validate(board).valid
