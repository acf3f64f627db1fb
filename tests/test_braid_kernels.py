"""The compiled braiding and flood loops (mazekit._cbraid) against their pure-Python reference:
the same walls, the same errors, and the random source left in the same state
(specs/performance.md, "Tests")."""

from __future__ import annotations

import importlib
import random
import re
from contextlib import nullcontext

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mazekit.analysis import Analysis
from mazekit.braiding import braid
from mazekit.errors import BoardError, ConfigError
from mazekit.generators import ALGORITHMS, flood, generate
from mazekit.generators.grid import Grid
from mazekit.model import Maze
from mazekit.search import open_bits, passages
from tests.conftest import closed_grid, open_3x3_but_one
from tests.kernels import reference_only, require_kernel

# The module, not the function mazekit re-exports under the same name.
braiding = importlib.import_module("mazekit.braiding")
Outcome = tuple[object, ...]


def _maze(width: int, height: int, seed: int, source: str, flips: int, density: float) -> Maze:
    """A maze to braid: generated (perfect or not) with some walls flipped, or random walls.

    Flipped and random walls may be incoherent (one side open) and may cut cells off.
    """
    noise = np.random.default_rng(seed)
    if source == "random":
        walls = (noise.random((height, width, 4)) < density) @ np.array([1, 2, 4, 8])
        walls = walls.astype(np.uint8)
    elif width * height == 1:  # no maze has one cell: entry and exit would be the same
        walls = closed_grid(1, 1)
    else:
        algorithm = sorted(ALGORITHMS)[seed % len(ALGORITHMS)]
        try:  # an imperfect maze where one fits, else a perfect one
            if source != "imperfect":
                raise BoardError("perfect asked")
            walls = generate(width, height, seed=seed, algorithm=algorithm, perfect=False).walls
        except (BoardError, ConfigError):
            algorithm = "backtracker" if algorithm == "flood" else algorithm
            walls = generate(width, height, seed=seed, algorithm=algorithm).walls
    walls = walls.copy()
    for _ in range(flips):
        y, x, bit = noise.integers(height), noise.integers(width), 1 << int(noise.integers(4))
        walls[y, x] ^= np.uint8(bit)
    entry = (int(noise.integers(width)), int(noise.integers(height)))
    exit = (int(noise.integers(width)), int(noise.integers(height)))
    return Maze(walls, entry, exit)


def _braided(maze: Maze, seed: int, options: dict[str, int | None], pattern: bool) -> Outcome:
    """Braid ``maze`` and say what came out: walls and path, or the error; and the rng state."""
    rng = random.Random(seed)
    mask = None
    if pattern:  # a random set of cells never opened, instead of the "42"
        mask = np.random.default_rng(seed + 1).random(maze.walls.shape) < 0.1
    try:
        board = braid(maze, rng=rng, pattern=mask, **options)  # type: ignore[arg-type]
        outcome: Outcome = ("board", board.walls.tobytes(), board.path)
    except BoardError as error:
        outcome = ("error", error.message)
    return outcome, rng.getstate(), maze.walls.tobytes()


@given(
    width=st.integers(1, 14),
    height=st.integers(1, 14),
    seed=st.integers(0, 2**32),
    source=st.sampled_from(["perfect", "imperfect", "random"]),
    flips=st.integers(0, 12),
    density=st.floats(0.0, 1.0),
    max_dead_ends=st.integers(0, 4),
    min_loops=st.integers(0, 40),
    target=st.none() | st.integers(0, 4),
    pattern=st.booleans(),
)
@example(  # a 1xN corridor: nothing to open without a loop, and no room for 2 loops
    width=1, height=7, seed=3, source="perfect", flips=0, density=0.5, max_dead_ends=2,
    min_loops=2, target=None, pattern=False,
)  # fmt: skip
def test_braiding_is_the_same_through_the_kernel(
    width: int,
    height: int,
    seed: int,
    source: str,
    flips: int,
    density: float,
    max_dead_ends: int,
    min_loops: int,
    target: int | None,
    pattern: bool,
) -> None:
    require_kernel(braiding)
    maze = _maze(width, height, seed, source, flips, density)
    options = {"max_dead_ends": max_dead_ends, "min_loops": min_loops, "target": target}
    fast = _braided(maze, seed, options, pattern)
    with reference_only(braiding):
        slow = _braided(maze, seed, options, pattern)
    assert fast == slow


@given(
    width=st.integers(2, 24),
    height=st.integers(2, 24),
    seed=st.integers(0, 2**32),
    source=st.sampled_from(["perfect", "random"]),
    block=st.integers(1, 9),
    target=st.none() | st.integers(0, 30),
)
def test_braiding_a_block_at_a_time_is_the_same_through_the_kernel(
    width: int, height: int, seed: int, source: str, block: int, target: int | None
) -> None:
    """With more real dead ends than braiding.BLOCK (as at 4000x4000), the blocks come in a
    random order, each shuffled in its turn: the kernel draws and fixes as the reference."""
    require_kernel(braiding)
    maze = _maze(width, height, seed, source, 0, 0.5)
    options = {"max_dead_ends": 2, "min_loops": 2, "target": target}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(braiding, "BLOCK", block)
        fast = _braided(maze, seed, options, False)
        with reference_only(braiding):
            slow = _braided(maze, seed, options, False)
    assert fast == slow


def test_braiding_in_blocks_changes_the_board() -> None:
    """The blocks decide the order: with blocks of 4 dead ends a board comes out otherwise
    than from one shuffle of all of them (so the test above compares two real orders)."""
    maze = _maze(30, 20, 7, "perfect", 0, 0.5)
    whole = _braided(maze, 7, {}, False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(braiding, "BLOCK", 4)
        blocks = _braided(maze, 7, {}, False)
    assert blocks[0] != whole[0]


def _frames(facts: Analysis) -> Outcome:
    """The state a _Board starts from: its frames, block counts, dead ends and loops."""
    board = braiding._Board(facts, random.Random(0))
    frames = (board.frame, board.moves, board.usable, board.real, board.openable, board.blocks)
    return (*(bytes(frame) for frame in frames), board.remaining, board.loops)


@given(
    width=st.integers(1, 14),
    height=st.integers(1, 14),
    seed=st.integers(0, 2**32),
    source=st.sampled_from(["perfect", "imperfect", "random"]),
    flips=st.integers(0, 12),
    density=st.floats(0.0, 1.0),
    pattern=st.sampled_from(["strict", "random", "none"]),
    reach=st.sampled_from(["computed", "random", "all"]),
)
def test_a_board_starts_from_the_same_frames_through_the_kernel(
    width: int,
    height: int,
    seed: int,
    source: str,
    flips: int,
    density: float,
    pattern: str,
    reach: str,
) -> None:
    """The kernel's one pass (board) against the reference's numpy facts and framing: any
    walls, any pattern, and reachable cells computed or handed over (as generate does)."""
    require_kernel(braiding)
    maze = _maze(width, height, seed, source, flips, density)
    noise = np.random.default_rng(seed + 2)
    mask = {
        "strict": None,
        "random": noise.random(maze.walls.shape) < 0.2,
        "none": np.zeros(maze.walls.shape, dtype=bool),
    }[pattern]
    known = {"random": noise.random(maze.walls.shape) < 0.7, "all": maze.walls >= 0}.get(reach)

    def facts() -> Analysis:
        analysis = Analysis(maze, pattern_mask=mask)
        return analysis if known is None else analysis.know_reachable(known)

    fast = _frames(facts())
    with reference_only(braiding):
        slow = _frames(facts())
    assert fast == slow


@given(
    width=st.integers(2, 14),
    height=st.integers(2, 14),
    seed=st.integers(0, 2**32),
    source=st.sampled_from(["perfect", "imperfect", "random"]),
    flips=st.integers(0, 12),
    density=st.floats(0.0, 1.0),
    min_loops=st.integers(0, 30),
    kernel=st.booleans(),
)
def test_a_braided_board_hands_over_the_open_bits_of_its_walls(
    width: int,
    height: int,
    seed: int,
    source: str,
    flips: int,
    density: float,
    min_loops: int,
    kernel: bool,
) -> None:
    """braid() writes the new path from the board's moves instead of a new open_bits pass:
    they must be the open bits of the braided walls, incoherent input walls included."""
    maze = _maze(width, height, seed, source, flips, density)
    with reference_only(braiding) if not kernel else nullcontext():
        try:
            board = braiding._braided(Analysis(maze), 4, min_loops, 0, random.Random(seed), None)
        except BoardError:
            return
        assert (board.open_bits() == open_bits(board.walls())).all()


AT_MOST = re.compile(r"cannot make \d+ loops: at most (\d+) fit without a 3x3 open area")


@given(
    width=st.integers(3, 9),
    height=st.integers(3, 8),
    seed=st.integers(0, 2**32),
    slack=st.integers(0, 3),
    perfect=st.booleans(),
)
def test_swapping_walls_for_loops_is_the_same_through_the_kernel(
    width: int, height: int, seed: int, slack: int, perfect: bool
) -> None:
    """Asking for nearly as many loops as fit: random opening falls short, walls are swapped."""
    require_kernel(braiding)
    algorithm = sorted(ALGORITHMS)[seed % len(ALGORITHMS)]
    if perfect and algorithm == "flood":
        algorithm = "backtracker"
    maze = generate(width, height, seed=seed, algorithm=algorithm, perfect=perfect)
    with pytest.raises(BoardError) as caught:
        braid(maze, min_loops=10**6)
    bound = AT_MOST.fullmatch(caught.value.message)
    assert bound is not None
    options = {"min_loops": max(int(bound.group(1)) - slack, 0)}
    fast = _braided(maze, seed, options, False)
    with reference_only(braiding):
        slow = _braided(maze, seed, options, False)
    assert fast == slow


def test_the_kernel_swaps_a_wall_as_the_reference_does() -> None:
    """The 3x3 case whose only openable wall completes an open area: the swap's draw."""
    require_kernel(braiding)
    walls = open_3x3_but_one()
    maze = Maze(walls, (0, 0), (2, 2))
    for seed in range(8):
        fast = _braided(maze, seed, {"max_dead_ends": 0}, False)
        with reference_only(braiding):
            slow = _braided(maze, seed, {"max_dead_ends": 0}, False)
        assert fast == slow
        assert fast[0][0] == "board" and fast[0][1] != walls.tobytes()


def _flooded(width: int, height: int, entry: tuple[int, int], seed: int) -> Outcome:
    """Carve a Grid by flood: its walls and the rng state after."""
    grid = Grid(width, height, entry, (width - 1, height - 1))
    rng = random.Random(seed)
    rng.random()  # start anywhere but at the beginning of the stream
    flood.carve(grid, rng)
    return bytes(grid.walls), rng.getstate()


@given(
    width=st.integers(1, 40),
    height=st.integers(1, 30),
    seed=st.integers(0, 2**32),
    where=st.tuples(st.floats(0, 0.999), st.floats(0, 0.999)),
)
def test_flood_carves_the_same_through_the_kernel(
    width: int, height: int, seed: int, where: tuple[float, float]
) -> None:
    require_kernel(flood)
    entry = (int(where[0] * width), int(where[1] * height))  # a "42" cell too, now and then
    fast = _flooded(width, height, entry, seed)
    with reference_only(flood):
        slow = _flooded(width, height, entry, seed)
    assert fast == slow


@pytest.mark.parametrize("seed", [3, 29])
def test_flood_breaks_open_blocks_as_the_reference_does(seed: int) -> None:
    """A grid big enough for fully open 3x3 blocks after the coin flips, some of them side by
    side (the kernel looks again only at blocks open before the step; breaking one may close
    its neighbour's wall first)."""
    require_kernel(flood)
    grid = Grid(240, 200, (0, 0), (239, 199))
    rng = random.Random(seed)
    rng.random()  # as _flooded draws
    flood._random_walls(grid, rng)  # the blocks step 2 will find open
    east, south = passages(grid.array())
    rows = east[:, :-1] & east[:, 1:]
    cols = south[:-1, :] & south[1:, :]
    blocks = rows[:-2] & rows[1:-1] & rows[2:] & cols[:, :-2] & cols[:, 1:-1] & cols[:, 2:]
    assert (blocks[:, 1:] & blocks[:, :-1]).any() and (blocks[1:] & blocks[:-1]).any()
    fast = _flooded(240, 200, (0, 0), seed)
    with reference_only(flood):
        slow = _flooded(240, 200, (0, 0), seed)
    assert fast == slow


@pytest.mark.parametrize(("size", "seed"), [((300, 200), 5), ((200, 300), 11)])
def test_flood_takes_recent_candidates_as_the_reference_does(
    size: tuple[int, int], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On grids that list more candidates than flood.WINDOW, step 4 picks among the last WINDOW
    only, in the kernel as in the reference (over the whole bag the walls would differ)."""
    require_kernel(flood)
    width, height = size
    entry = (width // 2, height // 3)
    fast = _flooded(width, height, entry, seed)
    with reference_only(flood):
        slow = _flooded(width, height, entry, seed)
        monkeypatch.setattr(flood, "WINDOW", None)
        whole_bag = _flooded(width, height, entry, seed)
    assert fast == slow
    assert whole_bag[0] != fast[0]
