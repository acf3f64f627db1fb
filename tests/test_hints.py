"""validate's one-line hints for systematic faults (specs/validate.md, Hints): each fixture is a
generated maze changed the way a student's writer gets it wrong in every cell."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, reject
from hypothesis import strategies as st

from mazekit import generate, validate
from mazekit.errors import ConfigError
from mazekit.model import Maze
from mazekit.textformat import dump
from tests.conftest import Invoke

INVERTED = (
    "the walls would be coherent, with a closed border, if every wall bit meant the opposite "
    "(the file writes 1 for an open wall, 0 for a closed one): write 1 for a closed wall, 0 for "
    "an open one"
)


def _written(maze: Maze, walls: np.ndarray) -> str:
    """The file a writer makes of ``maze`` with the grid ``walls``: footer right."""
    return dump(Maze(walls, maze.entry, maze.exit, maze.path))


def _open_border(walls: np.ndarray) -> np.ndarray:
    """Every outer wall open: the writer never sets the bits of the grid's outside."""
    opened = walls.copy()
    opened[0, :] &= np.uint8(0b1110)
    opened[:, -1] &= np.uint8(0b1101)
    opened[-1, :] &= np.uint8(0b1011)
    opened[:, 0] &= np.uint8(0b0111)
    return opened


def _generated(width: int, height: int, seed: int, perfect: bool) -> Maze:
    """generate()'s maze, or no example when none of that size exists (an imperfect 1x2)."""
    try:
        return generate(width, height, seed=seed, perfect=perfect)
    except ConfigError:
        reject()


# --- inverted wall bits ------------------------------------------------------------------------


def test_inverted_wall_bits_get_one_hint_first(invoke: Invoke, tmp_path: Path) -> None:
    """A writer that puts 1 for an open wall: 128 violations, and the hint says why."""
    maze = generate(20, 15, seed=7)
    (tmp_path / "maze.txt").write_text(_written(maze, maze.walls ^ np.uint8(15)))
    result = invoke(["validate", str(tmp_path / "maze.txt")])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"{tmp_path}/maze.txt: hint: {INVERTED}"
    assert result.stdout.splitlines()[1].startswith(f"{tmp_path}/maze.txt:1:1: border: ")
    lines = invoke(["validate", "--format", "jsonl", str(tmp_path / "maze.txt")]).stdout
    assert '"hints": ["' + INVERTED + '"]' in lines


def test_a_valid_file_gets_no_hint(invoke: Invoke) -> None:
    result = invoke(["validate"], input=dump(generate(20, 15, seed=7)))
    assert (result.exit_code, result.stdout) == (0, "<stdin>: ok\n")


@given(
    width=st.integers(1, 30),
    height=st.integers(2, 30),
    seed=st.integers(0, 2**32),
    perfect=st.booleans(),
)
def test_every_generated_maze_inverted_gets_the_inverted_hint(
    width: int, height: int, seed: int, perfect: bool
) -> None:
    """And the maze as generated gets none; its open border alone is not called inverted,
    though read inverted it is coherent and closed too (it is the maze's complement)."""
    maze = _generated(width, height, seed, perfect)
    assert validate(dump(maze).encode()).hints == []
    inverted = validate(_written(maze, maze.walls ^ np.uint8(15)).encode())
    assert inverted.hints == [INVERTED]
    assert INVERTED not in validate(_written(maze, _open_border(maze.walls)).encode()).hints
