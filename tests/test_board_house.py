"""The chasers' house (mazekit.board.house): the reachable cell nearest the grid's centre."""

from __future__ import annotations

from mazekit.board import house
from mazekit.generators import generate_from_config
from mazekit.model import Maze
from tests.conftest import closed_grid, open_room, open_wall


def test_the_house_of_the_subjects_maze_is_between_the_4_and_the_2() -> None:
    """20x15 with the "42": the free column between the digits, (9,7), whatever the seed."""
    for seed in range(1, 5):
        for perfect in (True, False):
            maze = generate_from_config("samples/config.txt", seed=seed, perfect=perfect)
            assert house(maze) == (9, 7)


def test_an_odd_room_has_its_exact_centre() -> None:
    assert house(open_room(5, 5, (0, 0), (4, 4))) == (2, 2)


def test_even_sides_tie_and_the_tie_goes_to_the_lower_y_then_x() -> None:
    """On 4x4 the four middle cells are equally near (1.5, 1.5): (1,1) comes first by (y, x)."""
    assert house(open_room(4, 4, (0, 0), (3, 3))) == (1, 1)


def test_the_house_is_never_the_entry_nor_the_exit() -> None:
    """A centre cell that is the entry is passed over for the next nearest."""
    assert house(open_room(5, 5, (2, 2), (4, 4))) == (2, 1)
    assert house(open_room(5, 5, (0, 0), (2, 2))) == (2, 1)


def test_only_cells_reachable_from_the_entry_count() -> None:
    """A walled-off centre is skipped: the chasers must be able to reach the runner."""
    walls = closed_grid(3, 1)
    open_wall(walls, 0, 0, "E")
    assert house(Maze(walls, (0, 0), (2, 0))) == (1, 0)
    lone = closed_grid(3, 3)
    open_wall(lone, 0, 0, "E")
    assert house(Maze(lone, (0, 0), (1, 0))) is None


def test_an_entry_outside_the_grid_has_no_house() -> None:
    assert house(open_room(3, 3, (7, 0), (2, 2))) is None
