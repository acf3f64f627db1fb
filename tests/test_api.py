"""The Python API: what ``from mazekit import ...`` promises, and the core's own guarantees."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import mazekit
from mazekit import Maze, read_maze, validate, write_maze
from mazekit.errors import MazeError
from mazekit.outfile import atomic_write
from mazekit.pattern import pattern_cells, trapped_cells
from tests.conftest import SMALL_MAZE, serpentine


def test_public_names_resolve() -> None:
    for name in mazekit.__all__:
        assert getattr(mazekit, name) is not None
    with pytest.raises(AttributeError):
        mazekit.no_such_thing  # noqa: B018


def test_api_functions_stay_functions_after_their_packages_load() -> None:
    code = (
        "import mazekit.generators.prim, mazekit.drawing.svg, mazekit\n"
        "print(callable(mazekit.generate), callable(mazekit.render))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout == "True True\n", result.stderr


# Every public function, called in a fresh interpreter after every submodule was imported in a
# given order: a submodule named like a public function would replace it on import (issue 27).
_CALL_EVERY_PUBLIC_FUNCTION = r"""
import importlib, inspect, pkgutil, random, sys, tempfile
from pathlib import Path

import mazekit

order = sys.argv[1]
names = sorted(m.name for m in pkgutil.walk_packages(mazekit.__path__, "mazekit."))
if order == "reversed":
    names.reverse()
elif order.startswith("shuffled"):
    random.Random(order).shuffle(names)
if order != "none":
    for name in names:
        importlib.import_module(name)

m = mazekit
folder = Path(tempfile.mkdtemp())
config = folder / "config.txt"
config.write_text("WIDTH=12\nHEIGHT=9\nENTRY=0,0\nEXIT=11,8\nOUTPUT_FILE=maze.txt\nPERFECT=True\nSEED=3\n")
perfect = m.generate(12, 9, seed=3)
board = m.pacmanize(perfect, seed=1)
results = {
    "generate": isinstance(perfect, m.Maze) and perfect.walls.shape == (9, 12),
    "generate_from_config": m.generate_from_config(config).walls.shape == (9, 12),
    "load_config": m.load_config(config).width == 12,
    "braid": isinstance(m.braid(perfect, max_dead_ends=0, min_loops=2), m.Maze),
    "pacmanize": isinstance(board, m.Maze) and m.validate(board, pacman=True).valid,
    "chase": m.chase(board, ticks=5).result.result in ("caught", "escaped", "running"),
    "dead_ends": isinstance(m.dead_ends(perfect), m.DeadEnds),
    "dump_maze": m.parse_maze(m.dump_maze(perfect)).path == perfect.path,
    "parse_maze": isinstance(m.parse_maze(m.dump_maze(board)), m.Maze),
    "write_maze": m.write_maze(perfect, folder / "maze.txt") is None,
    "read_maze": m.read_maze(folder / "maze.txt").path == perfect.path,
    "render": m.render(perfect, folder / "maze.svg") is None and (folder / "maze.svg").exists(),
    "render_bytes": m.render_bytes(perfect, "svg").startswith(b"<"),
    "solve": m.solve(perfect) == perfect.path,
    "stats": isinstance(m.stats(perfect), m.Stats),
    "validate": isinstance(m.validate(perfect), m.Report),
}
public = [n for n in m.__all__ if inspect.isfunction(getattr(m, n))]
classes = [n for n in m.__all__ if inspect.isclass(getattr(m, n))]
print(sorted(public) == sorted(results), all(results.values()), len(public) + len(classes) + 1 == len(m.__all__))
print(sorted(n for n, ok in results.items() if not ok))
"""


@pytest.mark.parametrize("order", ["none", "sorted", "reversed", "shuffled-1", "shuffled-2"])
def test_every_public_function_runs_whatever_was_imported_first(order: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _CALL_EVERY_PUBLIC_FUNCTION, order], capture_output=True, text=True
    )
    assert result.stdout == "True True True\n[]\n", result.stderr


def test_read_validate_write_round_trip(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text(SMALL_MAZE)
    maze = read_maze(source)
    assert isinstance(maze, Maze)
    assert (maze.width, maze.height, maze.entry, maze.exit) == (4, 2, (0, 0), (0, 1))
    report = validate(maze, perfect=True)
    assert report.valid and report.violations == []
    target = tmp_path / "out.txt"
    write_maze(maze, target)
    assert target.read_text() == SMALL_MAZE


def test_report_counts_and_limits() -> None:
    maze = serpentine(30, 2)
    maze.walls[0, :] &= ~np.uint8(1)
    capped = validate(maze, skip=["path"], limit=5)
    assert len(capped.violations) == 5
    assert capped.omitted == {"border": 25}
    assert capped.count("border") == 30
    assert capped.rules_broken() == ["border"]
    full = validate(maze, skip=["path"], limit=None)
    assert len(full.violations) == 30 and full.omitted == {}


def test_bad_options_are_value_errors() -> None:
    maze = serpentine(3, 3)
    with pytest.raises(ValueError, match="unknown rule"):
        validate(maze, skip=["nope"])
    with pytest.raises(ValueError, match="pattern must be one of"):
        validate(maze, pattern="loose")  # type: ignore[arg-type]


def test_maze_rejects_impossible_walls() -> None:
    with pytest.raises(ValueError, match="non-empty 2-D"):
        Maze(np.zeros((0, 3), dtype=np.uint8), (0, 0), (1, 0))
    with pytest.raises(ValueError, match=r"0\.\.15"):
        Maze(np.full((2, 2), 16), (0, 0), (1, 0))


def test_the_42_sits_where_seed_004_says() -> None:
    cells = pattern_cells(20, 15)
    assert len(cells) == 18
    assert cells[0] == (6, 5)  # the corner X of the block
    assert {(6, 5), (6, 6), (6, 7), (7, 7), (8, 7), (8, 8), (8, 9)} <= set(cells)  # the "4"
    assert {(10, 5), (11, 5), (12, 5), (12, 6), (10, 7), (10, 9), (12, 9)} <= set(cells)  # the "2"
    assert trapped_cells(20, 15) == ((11, 6), (11, 8))
    assert pattern_cells(8, 15) == () and pattern_cells(20, 6) == ()
    assert len(pattern_cells(9, 7)) == 18


def test_atomic_write_replaces_and_keeps_permissions(tmp_path: Path) -> None:
    target = tmp_path / "maze.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["maze.txt"]


def test_atomic_write_failure_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "maze.txt"
    with pytest.raises(MazeError, match="cannot write: No such file or directory"):
        atomic_write(target, b"new")
    existing = tmp_path / "keep.txt"
    existing.write_text("precious")
    with pytest.raises(TypeError):
        atomic_write(existing, "not bytes")  # type: ignore[arg-type]
    assert existing.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_atomic_write_follows_a_symlink_and_keeps_it(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "maze.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(Path("real") / "maze.txt")
    atomic_write(link, b"new")
    assert link.is_symlink()
    assert real.read_bytes() == b"new"


def test_atomic_write_writes_a_fifo_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    atomic_write(fifo, b"through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still a FIFO: nothing was renamed over it
