"""generate(): every algorithm's mazes obey every rule, the "42" and the boards, byte for byte.

The board properties of imperfect mazes are counted here with plain loops, independently of
mazekit.pacman and mazekit.rules, so that a bug in one cannot hide a bug in the other.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import pattern
from mazekit.analysis import Analysis
from mazekit.braiding import braid
from mazekit.errors import BoardError, ConfigError
from mazekit.generators import (
    ALGORITHMS,
    Request,
    backtracker,
    build,
    check,
    generate,
    load_algorithm,
)
from mazekit.generators.grid import Grid
from mazekit.model import ALL_WALLS, DIRECTIONS, Maze
from mazekit.rng import make_rng
from mazekit.rules import validate
from mazekit.textformat import dump

PERFECT_ALGORITHMS = [name for name in ALGORITHMS if name != "flood"]


# --- independent counts, plain Python --------------------------------------------------------


def _open(maze: Maze, x: int, y: int, letter: str) -> bool:
    """Whether one can step from (x, y) towards ``letter``: inside, and open on both sides."""
    d = next(d for d in DIRECTIONS if d.letter == letter)
    nx, ny = x + d.dx, y + d.dy
    if not (0 <= nx < maze.width and 0 <= ny < maze.height):
        return False
    return not maze.walls[y, x] & d.bit and not maze.walls[ny, nx] & d.opposite


def _reachable(maze: Maze) -> set[tuple[int, int]]:
    seen = {maze.entry}
    queue = deque([maze.entry])
    while queue:
        x, y = queue.popleft()
        for d in DIRECTIONS:
            nxt = (x + d.dx, y + d.dy)
            if nxt not in seen and _open(maze, x, y, d.letter):
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _board_counts(maze: Maze) -> tuple[int, int, list[tuple[int, int]]]:
    """(loops, real dead ends, enclosed dead ends) by the definitions of specs/dead-ends.md."""
    reach = _reachable(maze)
    glyph = set(pattern.pattern_cells(maze.width, maze.height))
    edges = sum(
        1
        for x, y in reach
        for letter in "ES"
        if _open(maze, x, y, letter) and (x + (letter == "E"), y + (letter == "S")) in reach
    )
    loops = edges - len(reach) + 1
    real = 0
    enclosed = []
    for x, y in reach - glyph:
        exits = [d for d in DIRECTIONS if _open(maze, x, y, d.letter)]
        if len(exits) != 1:
            continue
        openable = [
            d
            for d in DIRECTIONS
            if d not in exits
            and 0 <= x + d.dx < maze.width
            and 0 <= y + d.dy < maze.height
            and (x + d.dx, y + d.dy) not in glyph
        ]
        if openable:
            real += 1
        else:
            enclosed.append((x, y))
    return loops, real, sorted(enclosed)


def _open_areas(maze: Maze) -> int:
    count = 0
    for top in range(maze.height - 2):
        for left in range(maze.width - 2):
            inner = [(x, y, "E") for y in range(top, top + 3) for x in range(left, left + 2)]
            inner += [(x, y, "S") for y in range(top, top + 2) for x in range(left, left + 3)]
            count += all(_open(maze, x, y, letter) for x, y, letter in inner)
    return count


def _too_small_for_loops(width: int, height: int) -> bool:
    return min(width, height) < 2 or width * height < 6


# --- the main property -----------------------------------------------------------------------


@given(
    width=st.integers(1, 60),
    height=st.integers(1, 60),
    seed=st.integers(-(2**40), 2**40),
    algorithm=st.sampled_from(list(ALGORITHMS)),
    perfect=st.booleans(),
    max_dead_ends=st.integers(0, 4),
)
def test_every_generated_maze_is_valid(
    width: int, height: int, seed: int, algorithm: str, perfect: bool, max_dead_ends: int
) -> None:
    def make() -> Maze:
        return generate(
            width,
            height,
            seed=seed,
            algorithm=algorithm,
            perfect=perfect,
            max_dead_ends=max_dead_ends,
        )

    refused = (
        width * height == 1
        or (perfect and algorithm == "flood")
        or (not perfect and _too_small_for_loops(width, height))
    )
    if refused:
        with pytest.raises(ConfigError):
            make()
        return
    maze = make()
    assert (maze.width, maze.height) == (width, height)
    assert maze.entry == (0, 0) and maze.exit == (width - 1, height - 1)
    report = validate(maze, perfect=perfect)
    assert report.valid, report.violations[:3]
    assert dump(make()) == dump(maze)  # same inputs, same bytes
    if not perfect:
        loops, real, _ = _board_counts(maze)
        assert loops >= 2
        assert real <= max_dead_ends
        assert _open_areas(maze) == 0
        reach = _reachable(maze)
        corners = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
        assert set(corners) | {((width - 1) // 2, (height - 1) // 2)} <= reach


@pytest.mark.parametrize("algorithm", PERFECT_ALGORITHMS)
@pytest.mark.parametrize("size", [(2, 1), (1, 7), (9, 7), (20, 15), (33, 21)])
def test_perfect_mazes_are_spanning_trees(algorithm: str, size: tuple[int, int]) -> None:
    width, height = size
    for seed in range(5):
        maze = generate(width, height, seed=seed, algorithm=algorithm)
        assert validate(maze, perfect=True).valid
        loops, _, _ = _board_counts(maze)
        assert loops == 0
        cells = width * height - len(pattern.pattern_cells(width, height))
        assert len(_reachable(maze)) == cells


@given(
    width=st.integers(2, 40),
    height=st.integers(3, 40),
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from(list(ALGORITHMS)),
)
def test_braiding_takes_the_facts_the_carve_vouches_for(
    width: int, height: int, seed: int, algorithm: str
) -> None:
    """build() hands braiding "every free cell reached" (and no loop after a perfect carve)
    instead of labelling the grid: the same board as braiding with every fact computed."""
    rng = make_rng(seed)
    grid = Grid(width, height, (0, 0), (width - 1, height - 1))
    load_algorithm(algorithm).carve(grid, rng)
    carved = Maze(grid.array(), grid.cell(grid.entry), grid.cell(grid.exit))
    facts = Analysis(carved)
    assert (facts.reachable == grid.free_mask()[1:-1, 1:-1]).all()
    assert (facts.reachable == ~facts.pattern).all()  # what build() hands over
    assert facts.loops == 0 or not load_algorithm(algorithm).PERFECT
    request = Request(width, height, (0, 0), (width - 1, height - 1), False, seed, algorithm)
    outcomes = []
    for run in (
        lambda: braid(carved, max_dead_ends=2, min_loops=2, rng=rng),
        lambda: build(request),
    ):
        try:
            outcomes.append(dump(run()))
        except BoardError as error:  # a board too small for its loops: the same error
            outcomes.append(error.message)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_imperfect_boards_meet_the_board_rules(algorithm: str) -> None:
    for seed in range(4):
        for max_dead_ends in (0, 2):
            maze = generate(
                30, 20, seed=seed, algorithm=algorithm, perfect=False, max_dead_ends=max_dead_ends
            )
            assert validate(maze).valid
            loops, real, enclosed = _board_counts(maze)
            assert loops >= 2 and real <= max_dead_ends
            assert enclosed == sorted(pattern.trapped_cells(30, 20))


# --- the "42" ----------------------------------------------------------------------------------


def test_the_42_is_the_same_for_every_algorithm_and_run() -> None:
    expected = pattern.pattern_mask(20, 15)
    for algorithm in ALGORITHMS:
        for perfect in (True, False):
            if algorithm == "flood" and perfect:
                continue
            for seed in (1, 2):
                maze = generate(20, 15, seed=seed, algorithm=algorithm, perfect=perfect)
                assert np.array_equal(maze.walls == ALL_WALLS, expected), (algorithm, perfect)


def test_the_42_sits_where_seed_004_puts_it() -> None:
    maze = generate(20, 15, seed=0)
    closed = {(x, y) for y in range(15) for x in range(20) if maze.walls[y, x] == ALL_WALLS}
    assert (6, 5) in closed and (12, 9) in closed
    assert len(closed) == 18


def test_the_two_trapped_cells_are_enclosed_dead_ends() -> None:
    for algorithm in ALGORITHMS:
        maze = generate(20, 15, seed=3, algorithm=algorithm, perfect=False, max_dead_ends=0)
        _, real, enclosed = _board_counts(maze)
        assert enclosed == [(11, 6), (11, 8)]
        assert real == 0
        assert maze.walls[6, 11] == ALL_WALLS ^ 8  # open to the west only
        assert maze.walls[8, 11] == ALL_WALLS ^ 2  # open to the east only


def test_no_42_when_the_grid_is_too_small() -> None:
    maze = generate(8, 7, seed=1)
    assert not (maze.walls == ALL_WALLS).any()
    assert validate(maze, perfect=True).valid


# --- determinism and the API ------------------------------------------------------------------


def test_known_bytes_for_a_seed() -> None:
    """A change of output for the same seed is a breaking change: specs/generate.md."""
    maze = generate(9, 7, seed=42)
    assert dump(maze) == (
        "BD1155553\n"
        "AFAC3FFFA\n"
        "AFC7857FA\n"
        "AFFFAFFFA\n"
        "A93FAFD52\n"
        "C6AFAFFFA\n"
        "D5456D556\n"
        "\n0,0\n8,6\nSSSSSENESSEENNNNNWNEEEEESSSSSS\n"
    )


def test_different_seeds_and_algorithms_give_different_mazes() -> None:
    seen = {
        dump(generate(20, 15, seed=seed, algorithm=name))
        for seed in range(3)
        for name in PERFECT_ALGORITHMS
    }
    assert len(seen) == 3 * len(PERFECT_ALGORITHMS)


def test_negative_seeds_have_their_own_mazes() -> None:
    assert dump(generate(20, 15, seed=-5)) != dump(generate(20, 15, seed=5))


def test_no_seed_draws_one() -> None:
    mazes = {dump(generate(20, 15)) for _ in range(3)}
    assert len(mazes) > 1


def test_imperfect_braids_the_perfect_maze_of_the_same_seed() -> None:
    for seed in range(5):
        perfect = generate(20, 15, seed=seed)
        board = generate(20, 15, seed=seed, perfect=False)
        assert not (board.walls & ~perfect.walls).any()  # no wall closed...
        assert (perfect.walls & ~board.walls).any()  # ...and some opened


def test_entry_and_exit_are_kept_and_the_path_is_shortest() -> None:
    for algorithm in ALGORITHMS:
        perfect = algorithm != "flood"
        maze = generate(
            25, 18, entry=(3, 17), exit=(24, 0), seed=1, algorithm=algorithm, perfect=perfect
        )
        assert (maze.entry, maze.exit) == ((3, 17), (24, 0))
        assert validate(maze).valid  # the path rule checks it is a shortest path


def test_backtracker_path_comes_from_its_stack() -> None:
    request = Request(40, 30, (0, 0), (39, 29), True, 5)
    grid = Grid(40, 30, (0, 0), (39, 29))
    backtracker.carve(grid, make_rng(5))
    assert grid.path is not None
    assert build(request).path == grid.path
    assert validate(build(request), perfect=True).valid


ALGORITHM_LIST = "backtracker, prim, kruskal, wilson, hunt-and-kill, flood"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"width": 0, "height": 5}, "width must be a positive integer, got '0'"),
        (
            {"width": 5, "height": 5, "max_dead_ends": -1},
            "max_dead_ends must be a non-negative integer, got '-1'",
        ),
        ({"width": 20, "height": 15, "entry": (6, 5)}, 'entry=6,5 lies on the "42" pattern'),
        ({"width": 20, "height": 15, "exit": (20, 3)}, "exit=20,3 is outside the 20x15 maze"),
        (
            {"width": 20, "height": 15, "entry": (19, 14)},
            "entry=19,14 and the default exit 19,14 are the same cell",
        ),
        (
            {"width": 1, "height": 1},
            "the default entry 0,0 and the default exit 0,0 are the same cell",
        ),
        (
            {"width": 9, "height": 9, "algorithm": "nope"},
            f"algorithm must be one of {ALGORITHM_LIST}, got 'nope'",
        ),
        (
            {"width": 9, "height": 9, "algorithm": "flood"},
            "algorithm=flood leaves loops, so it cannot make a perfect maze",
        ),
        (
            {"width": 2, "height": 2, "perfect": False},
            "perfect=False needs 2 loops, which a 2x2 maze cannot hold "
            "(use at least 2x3 or 3x2 cells)",
        ),
        (
            {"width": 5000, "height": 5000},
            "width=5000 and height=5000 make 25,000,000 cells, over the limit of 16,000,000",
        ),
    ],
)
def test_impossible_requests_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        generate(**kwargs)  # type: ignore[arg-type]
    assert caught.value.message == message
    assert caught.value.source is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"width": 1.5}, "width must be a positive integer, got float 1.5"),
        ({"width": 20.0}, "width must be a positive integer, got float 20.0"),
        ({"width": True}, "width must be a positive integer, got bool True"),
        ({"height": "15"}, "height must be a positive integer, got str '15'"),
        ({"entry": (1.5, 2)}, "entry must be two integers x,y, got tuple (1.5, 2)"),
        ({"entry": (1, 2, 3)}, "entry must be two integers x,y, got tuple (1, 2, 3)"),
        ({"exit": "6,5"}, "exit must be two integers x,y, got str '6,5'"),
        ({"exit": 7}, "exit must be two integers x,y, got int 7"),
        ({"exit": (True, 1)}, "exit must be two integers x,y, got tuple (True, 1)"),
        ({"seed": "abc"}, "seed must be an integer, got str 'abc'"),
        ({"seed": 1.0}, "seed must be an integer, got float 1.0"),
        ({"perfect": "False"}, "perfect must be True or False, got str 'False'"),
        ({"perfect": 0}, "perfect must be True or False, got int 0"),
        ({"algorithm": 3}, f"algorithm must be one of {ALGORITHM_LIST}, got int 3"),
        ({"algorithm": None}, f"algorithm must be one of {ALGORITHM_LIST}, got NoneType None"),
        ({"max_dead_ends": 2.5}, "max_dead_ends must be a non-negative integer, got float 2.5"),
        ({"seed": "x" * 50}, f"seed must be an integer, got str '{'x' * 39}..."),
        # right type, out of range: the config's checks, with the config's quoting
        (
            {"width": 10**5000},
            f"width must be at most 16,000,000 (the cell limit), got '1{'0' * 39}...'",
        ),
        (
            {"seed": -(10**40)},
            f"seed must be an integer of at most 40 digits, got '-1{'0' * 38}...'",
        ),
        ({"entry": (10**5000, 0)}, f"entry=1{'0' * 39}... is outside the 20x15 maze"),
        (
            {"max_dead_ends": 16_000_001},
            "max_dead_ends must be at most 16,000,000 (the cell limit), got '16000001'",
        ),
    ],
)
def test_arguments_of_the_wrong_type_are_refused(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"width": 20, "height": 15, **kwargs}
    with pytest.raises(ConfigError) as caught:
        generate(**arguments)  # type: ignore[arg-type]
    assert caught.value.message == message
    assert caught.value.source is None


def test_integer_like_arguments_are_accepted() -> None:
    plain = dump(generate(20, 15, entry=(1, 2), exit=(18, 13), seed=5, max_dead_ends=1))
    numpy_ints = generate(
        np.int64(20),  # type: ignore[arg-type]
        np.int32(15),  # type: ignore[arg-type]
        entry=np.array([1, 2]),  # type: ignore[arg-type]
        exit=[18, np.uint8(13)],  # type: ignore[arg-type]
        seed=np.int64(5),  # type: ignore[arg-type]
        max_dead_ends=np.int16(1),  # type: ignore[arg-type]
    )
    assert dump(numpy_ints) == plain
    assert numpy_ints.entry == (1, 2) and type(numpy_ints.entry[0]) is int
    assert generate(20, 15, seed=10**40 - 1).width == 20  # 40 digits: the longest seed


def test_check_accepts_the_smallest_boards() -> None:
    for width, height in ((2, 3), (3, 2)):
        check(Request(width, height, (0, 0), (width - 1, height - 1), False, 1))
        maze = generate(width, height, seed=1, perfect=False, max_dead_ends=0)
        assert validate(maze).valid
        assert _board_counts(maze)[:2] == (2, 0)
