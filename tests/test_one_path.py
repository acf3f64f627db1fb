"""One shortest path everywhere: what generate, pacmanize and braid write, solve leaves alone.

Every command that writes a path walks with mazekit.search.walk_shortest (the first shortest
path in N, E, S, W order, specs/solve.md), so solving a maze mazekit made changes no byte.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mazekit.generators import ALGORITHMS, generate
from mazekit.pacman import pacmanize
from mazekit.solvers import ALGORITHMS as SOLVERS
from mazekit.solvers import solve
from tests.conftest import Invoke

sizes = st.tuples(st.integers(3, 24), st.integers(3, 18))


@given(
    size=sizes,
    seed=st.integers(-(2**40), 2**40),
    algorithm=st.sampled_from(sorted(ALGORITHMS)),
    perfect=st.booleans(),
)
def test_solve_keeps_the_path_generate_wrote(
    size: tuple[int, int], seed: int, algorithm: str, perfect: bool
) -> None:
    if perfect and algorithm == "flood":
        perfect = False  # flood only makes imperfect mazes
    width, height = size
    maze = generate(width, height, seed=seed, algorithm=algorithm, perfect=perfect)
    for solver in SOLVERS:
        assert solve(maze, algorithm=solver) == maze.path


@given(size=sizes, seed=st.integers(0, 2**32), pacman_seed=st.integers(0, 2**32))
def test_solve_keeps_the_path_pacmanize_wrote(
    size: tuple[int, int], seed: int, pacman_seed: int
) -> None:
    width, height = size
    board = pacmanize(generate(width, height, seed=seed), seed=pacman_seed)
    assert solve(board) == board.path


def test_the_pipeline_of_the_issue_keeps_its_bytes(invoke: Invoke) -> None:
    # `generate --imperfect | solve` once rewrote the path line: generate walked back from the
    # exit, solve forward from the entry, and they broke ties apart.
    for seed in range(1, 7):
        made = invoke(["generate", "--imperfect", "--seed", str(seed), "--width", "30"])
        assert made.exit_code == 0
        solved = invoke(["solve"], input=made.stdout)
        assert (solved.exit_code, solved.stdout) == (0, made.stdout), seed
        board = invoke(["pacmanize"], input=made.stdout)
        assert invoke(["solve"], input=board.stdout).stdout == board.stdout, seed
