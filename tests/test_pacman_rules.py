"""``validate --pacman``: the board rules dead-ends, loops and key-cells, their exact messages,
their options, and the promise that every board mazekit makes passes them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit.board import centre, corners, middle_cells
from mazekit.generators import ALGORITHMS, generate
from mazekit.model import Maze
from mazekit.pacman import pacmanize
from mazekit.rules import validate
from mazekit.textformat import dump
from tests import brute
from tests.conftest import Invoke, closed_grid, open_wall, serpentine

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SMALL_42 = SAMPLES / "valid-9x7-smallest-42.txt"


def _ring(width: int, height: int, closed: set[tuple[int, int]]) -> Maze:
    """Every wall open but those of the ``closed`` cells and the border; a path to the exit."""
    walls = closed_grid(width, height)
    for y in range(height):
        for x in range(width):
            if (x, y) in closed:
                continue
            if x + 1 < width and (x + 1, y) not in closed:
                open_wall(walls, x, y, "E")
            if y + 1 < height and (x, y + 1) not in closed:
                open_wall(walls, x, y, "S")
    maze = Maze(walls, (0, 0), (width - 1, height - 1))
    from mazekit.search import shortest_path

    maze.path = shortest_path(walls, maze.entry, maze.exit) or ""
    return maze


def _pacman_lines(invoke: Invoke, maze: Maze, *options: str) -> tuple[int, list[str]]:
    result = invoke(["validate", "--pacman", *options], input=dump(maze))
    return result.exit_code, result.stdout.splitlines()


def test_the_key_cells_follow_the_board_definition() -> None:
    assert corners(20, 15) == ((0, 0), (19, 0), (0, 14), (19, 14))
    assert centre(20, 15) == (9, 7)  # the free column between the "4" and the "2"
    assert middle_cells(20, 15) == ((9, 7), (10, 7))
    assert middle_cells(21, 15) == ((10, 7),)
    assert middle_cells(20, 16) == ((9, 7), (10, 7), (9, 8), (10, 8))
    assert middle_cells(1, 1) == ((0, 0),)


def test_dead_ends_lists_each_real_dead_end_at_its_cell(invoke: Invoke) -> None:
    code, lines = _pacman_lines(
        invoke, serpentine(5, 3), "--min-loops", "0", "--max-dead-ends", "1"
    )
    assert code == 1
    assert lines == [
        "<stdin>:1:1: dead-ends: real dead end at (0,0): 2 in all, more than the 1 allowed",
        "<stdin>:3:5: dead-ends: real dead end at (4,2): 2 in all, more than the 1 allowed",
        "<stdin>: 2 violations (dead-ends 2)",
    ]
    assert _pacman_lines(invoke, serpentine(5, 3), "--min-loops", "0")[0] == 0


def test_enclosed_dead_ends_never_count(invoke: Invoke) -> None:
    board = pacmanize(generate(20, 15, seed=3))
    real, enclosed = brute.dead_ends(board)
    assert real == set() and enclosed == {(11, 6), (11, 8)}  # specs/dead-ends.md
    assert _pacman_lines(invoke, board, "--max-dead-ends", "0") == (0, ["<stdin>: ok"])


def test_loops_reports_the_count_when_too_low(invoke: Invoke) -> None:
    assert _pacman_lines(invoke, serpentine(4, 3), "--max-dead-ends", "2") == (
        1,
        [
            "<stdin>:1:1: loops: 0 loops, fewer than the 2 a board needs",
            "<stdin>: 1 violation (loops 1)",
        ],
    )
    one_loop = _ring(3, 3, {(1, 1)})  # with --pattern any, (1,1) is the "42"
    assert _pacman_lines(invoke, one_loop, "--pattern", "any", "--skip", "key-cells") == (
        1,
        [
            "<stdin>:1:1: loops: 1 loop, fewer than the 2 a board needs",
            "<stdin>: 1 violation (loops 1)",
        ],
    )
    assert _pacman_lines(
        invoke, one_loop, "--pattern", "any", "--skip", "key-cells", "--min-loops", "1"
    ) == (0, ["<stdin>: ok"])


def test_a_corner_on_the_pattern_or_unreachable_is_named(invoke: Invoke) -> None:
    maze = _ring(4, 4, {(0, 0), (3, 3)})
    maze.entry, maze.exit = (1, 0), (2, 3)
    from mazekit.search import shortest_path

    maze.path = shortest_path(maze.walls, maze.entry, maze.exit) or ""
    code, lines = _pacman_lines(invoke, maze, "--pattern", "any", "--skip", "open-area")
    assert code == 1
    assert lines == [
        '<stdin>:1:1: key-cells: north-west corner (0,0) lies on the "42" pattern',
        '<stdin>:4:4: key-cells: south-east corner (3,3) lies on the "42" pattern',
        "<stdin>: 2 violations (key-cells 2)",
    ]
    _, lines = _pacman_lines(
        invoke, maze, "--pattern", "none", "--skip", "connectivity", "--skip", "open-area"
    )
    assert lines == [
        "<stdin>:1:1: key-cells: north-west corner (0,0) is not reachable from the entry (1,0)",
        "<stdin>:4:4: key-cells: south-east corner (3,3) is not reachable from the entry (1,0)",
        "<stdin>: 2 violations (key-cells 2)",
    ]


def test_the_centre_of_an_odd_grid_is_one_cell(invoke: Invoke) -> None:
    maze = _ring(5, 3, {(2, 1)})
    code, lines = _pacman_lines(invoke, maze, "--pattern", "any", "--min-loops", "1")
    assert (code, lines) == (
        1,
        [
            '<stdin>:2:3: key-cells: centre (2,1) lies on the "42" pattern',
            "<stdin>: 1 violation (key-cells 1)",
        ],
    )
    code, lines = _pacman_lines(
        invoke, maze, "--pattern", "none", "--skip", "connectivity", "--min-loops", "1"
    )
    assert lines[0] == "<stdin>:2:3: key-cells: centre (2,1) is not reachable from the entry (0,0)"


def test_an_even_grid_accepts_any_free_middle_cell(invoke: Invoke) -> None:
    # 4 x 4: the middle cells are (1,1), (2,1), (1,2), (2,2)
    three_closed = _ring(4, 4, {(1, 1), (2, 1), (1, 2)})
    assert _pacman_lines(invoke, three_closed, "--pattern", "any", "--min-loops", "0")[0] == 0
    all_closed = _ring(4, 4, {(1, 1), (2, 1), (1, 2), (2, 2)})
    code, lines = _pacman_lines(invoke, all_closed, "--pattern", "any", "--min-loops", "0")
    assert (code, lines) == (
        1,
        [
            "<stdin>:2:2: key-cells: no middle cell is free for the player: each of (1,1), "
            '(2,1), (1,2), (2,2) is on the "42" pattern or not reachable from the entry (0,0)',
            "<stdin>: 1 violation (key-cells 1)",
        ],
    )


def test_corners_of_a_one_cell_wide_grid_are_named_once(invoke: Invoke) -> None:
    walls = closed_grid(1, 3)
    open_wall(walls, 0, 0, "S")  # (0,2) is cut off: the south corners, one cell
    maze = Maze(walls, (0, 0), (0, 1), "S")
    _, lines = _pacman_lines(invoke, maze, "--skip", "connectivity", "--min-loops", "0")
    assert lines == [
        "<stdin>:3:1: key-cells: south-west corner (0,2) is not reachable from the entry (0,0)",
        "<stdin>: 1 violation (key-cells 1)",
    ]


def test_board_rules_are_off_without_pacman(invoke: Invoke) -> None:
    result = invoke(["validate", str(SMALL_42)])
    assert (result.exit_code, result.stdout) == (0, f"{SMALL_42}: ok\n")
    result = invoke(
        ["validate", "--pacman", "--skip", "dead-ends", "--skip", "loops", str(SMALL_42)]
    )
    assert (result.exit_code, result.stdout) == (0, f"{SMALL_42}: ok\n")


@pytest.mark.parametrize("option", ["--min-loops", "--max-dead-ends"])
def test_limits_need_pacman(invoke: Invoke, option: str) -> None:
    result = invoke(["validate", option, "1", str(SMALL_42)])
    assert result.exit_code == 2
    assert result.stderr.endswith(f"Error: {option} needs --pacman\n")
    negative = invoke(["validate", "--pacman", option, "-1", str(SMALL_42)])
    assert negative.exit_code == 2
    assert negative.stderr.endswith(f"Error: {option} must be a non-negative integer, got '-1'\n")


def test_config_max_dead_ends_is_the_default_limit(invoke: Invoke, tmp_path: Path) -> None:
    maze = generate(20, 15, seed=5, perfect=False, max_dead_ends=3)
    real = len(brute.dead_ends(maze)[0])
    assert real == 3
    config = tmp_path / "config.txt"
    base = "WIDTH=20\nHEIGHT=15\nENTRY=0,0\nEXIT=19,14\nOUTPUT_FILE=m.txt\nPERFECT=False\n"
    config.write_text(base + "MAX_DEAD_ENDS=3\n")
    args = ["validate", "--pacman", "--config", str(config)]
    assert invoke(args, input=dump(maze)).exit_code == 0
    config.write_text(base)
    result = invoke(args, input=dump(maze))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "<stdin>: 3 violations (dead-ends 3)"
    assert invoke([*args, "--max-dead-ends", "3"], input=dump(maze)).exit_code == 0


def test_json_output_carries_the_board_rules(invoke: Invoke) -> None:
    result = invoke(["validate", "--pacman", "--format", "json", str(SMALL_42)])
    (entry,) = json.loads(result.stdout)["files"]
    assert entry["violations"][0] == {
        "rule": "dead-ends",
        "message": "real dead end at (0,0): 5 in all, more than the 2 allowed",
        "line": 1,
        "column": 1,
        "cell": [0, 0],
    }
    assert {v["rule"] for v in entry["violations"]} == {"dead-ends", "loops"}


def test_the_rules_skip_a_maze_whose_entry_is_outside() -> None:
    maze = serpentine(4, 3)
    maze.entry = (9, 9)
    report = validate(maze, pacman=True, limit=None)
    assert {v.rule for v in report.violations} == {"entry-exit"}


def test_the_api_takes_the_limits() -> None:
    maze = serpentine(5, 3)
    assert validate(maze, pacman=True, min_loops=0).valid
    assert validate(maze, pacman=True, min_loops=0, max_dead_ends=1).rules_broken() == ["dead-ends"]
    assert not validate(maze, pacman=True, min_loops=1).valid


# --- every board mazekit makes passes, counted independently ---------------------------------


def _assert_board(maze: Maze, max_dead_ends: int, min_loops: int) -> None:
    report = validate(maze, pacman=True, max_dead_ends=max_dead_ends, min_loops=min_loops)
    assert report.valid, report.violations
    real, _ = brute.dead_ends(maze)
    assert len(real) <= max_dead_ends
    assert brute.reachable_loops(maze) >= min_loops
    for cell in (*corners(maze.width, maze.height), centre(maze.width, maze.height)):
        assert cell in brute.reachable(maze)


@given(
    width=st.integers(2, 28),
    height=st.integers(2, 28),
    seed=st.integers(-(2**40), 2**40),
    algorithm=st.sampled_from(sorted(ALGORITHMS)),
    perfect=st.booleans(),
    max_dead_ends=st.integers(0, 3),
    min_loops=st.integers(0, 2),
)
def test_every_pacmanize_and_imperfect_generate_output_passes(
    width: int,
    height: int,
    seed: int,
    algorithm: str,
    perfect: bool,
    max_dead_ends: int,
    min_loops: int,
) -> None:
    if width * height < 6 or (perfect and algorithm == "flood"):
        return
    maze = generate(
        width, height, seed=seed, algorithm=algorithm, perfect=perfect, max_dead_ends=max_dead_ends
    )
    if not perfect:
        _assert_board(maze, max_dead_ends, 2)
    board = pacmanize(maze, max_dead_ends=max_dead_ends, min_loops=min_loops, seed=seed)
    _assert_board(board, 0, min_loops)
    assert (board.entry, board.exit) == (maze.entry, maze.exit)
    assert len(board.path) == brute.distance(board, board.entry, board.exit)
    keep = np.zeros(maze.walls.shape, dtype=np.uint8)  # border walls and "42" cells
    keep[0, :] |= 1
    keep[:, -1] |= 2
    keep[-1, :] |= 4
    keep[:, 0] |= 8
    keep[maze.walls == 15] = 15
    assert np.array_equal(board.walls & keep, keep)
