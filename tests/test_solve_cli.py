"""``mazekit solve`` as a user runs it: every option, every message, exit codes, pipelines."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mazekit.model import Maze
from mazekit.rules import validate
from mazekit.textformat import dump, parse
from tests.conftest import SMALL_MAZE, Invoke, serpentine
from tests.solve_helpers import brute_force_shortest, reference_distance, tree_maze

# 20 x 15 perfect maze, entry (0,0), exit (19,14), no path line at all
MAZE = tree_maze(random.Random(42), 20, 15)
MAZE_TEXT = dump(MAZE)[:-1]  # drop the empty path line


def loopy(width: int = 8, height: int = 6) -> Maze:
    """An 8 x 6 maze with loops: several shortest paths between the corners."""
    return tree_maze(random.Random(7), width, height, loops=14)  # 5 shortest paths


def islands() -> Maze:
    """MAZE with the exit (19,14) walled in: its north and west walls closed on both sides."""
    walls = MAZE.walls.copy()
    walls[14, 19] |= 1 | 8
    walls[13, 19] |= 4
    walls[14, 18] |= 2
    return Maze(walls, (0, 0), (19, 14))


@pytest.fixture
def maze_file(tmp_path: Path) -> Path:
    path = tmp_path / "maze.txt"
    path.write_text(MAZE_TEXT)
    return path


# --- the default output ----------------------------------------------------------------------


def test_writes_the_same_maze_with_the_first_shortest_path(invoke: Invoke, maze_file: Path) -> None:
    result = invoke(["solve", str(maze_file)])
    assert (result.exit_code, result.stderr) == (0, "")
    solved = parse(result.stdout)
    assert np.array_equal(solved.walls, MAZE.walls)
    assert (solved.entry, solved.exit) == (MAZE.entry, MAZE.exit)
    assert len(solved.path) == reference_distance(MAZE, MAZE.entry, MAZE.exit)
    assert result.stdout == dump(solved)  # canonical bytes
    assert validate(result.stdout_bytes, pattern="none").valid


@pytest.mark.parametrize(
    "path_line",
    ["", "\n", "EEEE\n", "NOPE\n", "EEX\n", "SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS\n"],
)
def test_any_path_line_is_replaced_and_the_output_is_the_same(
    invoke: Invoke, maze_file: Path, path_line: str
) -> None:
    reference = invoke(["solve", str(maze_file)]).stdout
    result = invoke(["solve"], input=MAZE_TEXT + path_line)
    assert (result.exit_code, result.stdout) == (0, reference)


def test_solving_twice_changes_nothing(invoke: Invoke) -> None:
    maze = loopy()
    once = invoke(["solve", "-"], input=dump(maze)).stdout
    twice = invoke(["solve"], input=once).stdout
    assert once == twice
    assert once.splitlines()[:-1] == dump(maze).splitlines()[:-1]


def test_lenient_input_is_written_back_canonical(invoke: Invoke) -> None:
    messy = "\ufeff" + SMALL_MAZE.lower().replace("eeeswww", "").replace("\n", " \r\n")
    result = invoke(["solve"], input=messy.encode())
    assert (result.exit_code, result.stdout) == (0, SMALL_MAZE)


def test_every_algorithm_writes_the_same_bytes(invoke: Invoke) -> None:
    text = dump(loopy())
    outputs = {
        name: invoke(["solve", "--algorithm", name], input=text).stdout
        for name in ("bfs", "astar", "dead-end-fill")
    }
    assert len(set(outputs.values())) == 1
    expected = brute_force_shortest(loopy(), (0, 0), (7, 5))
    assert expected is not None
    assert outputs["bfs"].endswith(f"\n{expected[1]}\n")


def test_output_option_writes_a_file(invoke: Invoke, maze_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "solved.txt"
    result = invoke(["solve", str(maze_file), "-o", str(target)])
    assert (result.exit_code, result.stdout) == (0, "")
    assert target.read_text() == invoke(["solve", str(maze_file)]).stdout
    in_place = invoke(["solve", str(maze_file), "-o", str(maze_file)])
    assert in_place.exit_code == 0
    assert maze_file.read_text() == target.read_text()


# --- path only, other cells, count, json -----------------------------------------------------


def test_path_only_prints_the_path_line(invoke: Invoke) -> None:
    result = invoke(["solve", "--path-only"], input=SMALL_MAZE)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "EEESWWW\n", "")


def test_from_and_to_solve_between_other_cells(invoke: Invoke) -> None:
    maze = serpentine(4, 3)  # row 0 east, row 1 west, row 2 east
    text = dump(maze)
    assert invoke(["solve", "--from", "3,0", "--to", "0,0"], input=text).stdout == "WWW\n"
    assert invoke(["solve", "--from", " 1 , 1 "], input=text).stdout == "WSEEE\n"
    assert invoke(["solve", "--to", "3,1"], input=text).stdout == "EEES\n"
    assert invoke(["solve", "--from", "2,2", "--to", "2,2"], input=text).stdout == "\n"


def test_count_prints_the_number_of_shortest_paths(invoke: Invoke) -> None:
    maze = loopy()
    expected = brute_force_shortest(maze, maze.entry, maze.exit)
    assert expected is not None
    count = expected[0]
    assert count > 1  # the fixture has real choices
    for name in ("bfs", "astar", "dead-end-fill"):
        result = invoke(["solve", "--count", "--algorithm", name], input=dump(maze))
        assert (result.exit_code, result.stdout) == (0, f"{count}\n")
    assert invoke(["solve", "--count"], input=SMALL_MAZE).stdout == "1\n"


def test_json_has_length_path_cells_and_visited(invoke: Invoke) -> None:
    result = invoke(["solve", "--format", "json"], input=SMALL_MAZE)
    assert result.exit_code == 0
    assert result.stdout.count("\n") == 1
    assert json.loads(result.stdout) == {
        "algorithm": "bfs",
        "moves": "NESW",
        "from": [0, 0],
        "to": [0, 1],
        "length": 7,
        "path": "EEESWWW",
        "cells": [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [2, 1], [1, 1], [0, 1]],
        "visited": 7,
        "count": None,
    }


def test_json_reports_each_algorithms_visited_cells_and_the_count(invoke: Invoke) -> None:
    maze = loopy()
    documents = [
        json.loads(
            invoke(
                ["solve", "--format", "json", "--count", "--algorithm", name], input=dump(maze)
            ).stdout
        )
        for name in ("bfs", "astar", "dead-end-fill")
    ]
    assert [d["algorithm"] for d in documents] == ["bfs", "astar", "dead-end-fill"]
    assert len({(d["path"], d["count"], d["length"]) for d in documents}) == 1
    assert all(d["count"] > 1 and d["visited"] > 0 for d in documents)
    assert len({d["visited"] for d in documents}) > 1  # they do different work


# --- --moves ---------------------------------------------------------------------------------


def test_moves_restrict_the_steps(invoke: Invoke) -> None:
    maze = serpentine(4, 3)
    text = dump(maze)
    result = invoke(["solve", "--moves", "es", "--to", "3,1", "--format", "json"], input=text)
    document = json.loads(result.stdout)
    assert (document["path"], document["moves"], document["algorithm"]) == (
        "EEES",
        "ES",
        "restricted",
    )
    # (3,1) is reached with E and S steps from the top row (east, then south) and from the
    # rest of its own row (east): 8 cells; the bottom row is marked
    assert document["visited"] == 8
    assert invoke(["solve", "--moves", "NESW"], input=text).stdout == dump(maze)


def test_no_path_with_the_moves_is_an_error(invoke: Invoke) -> None:
    result = invoke(["solve", "--moves", "ES"], input=dump(serpentine(4, 3)))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: <stdin>: exit (3,2) is not reachable from entry (0,0) with moves ES\n"
    )


# --- every message ---------------------------------------------------------------------------


def test_unreachable_exit(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    path.write_text(dump(islands()))
    result = invoke(["solve", str(path)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"Error: {path}: exit (19,14) is not reachable from entry (0,0)\n"


def test_unreachable_other_cells_name_them(invoke: Invoke) -> None:
    text = dump(islands())
    for options, message in (
        (["--from", "3,3", "--to", "19,14"], "cell (19,14) is not reachable from cell (3,3)"),
        (["--from", "3,3"], "exit (19,14) is not reachable from cell (3,3)"),
        (["--to", "19,14"], "cell (19,14) is not reachable from entry (0,0)"),
    ):
        result = invoke(["solve", *options], input=text)
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr == f"Error: <stdin>: {message}\n"


@pytest.mark.parametrize(
    ("entry", "exit_", "message"),
    [
        ("20,0", "19,14", "entry (20,0) is outside the 20x15 grid"),
        ("0,0", "3,15", "exit (3,15) is outside the 20x15 grid"),
    ],
)
def test_entry_or_exit_outside_the_grid(
    invoke: Invoke, entry: str, exit_: str, message: str
) -> None:
    text = MAZE_TEXT.replace("\n0,0\n19,14\n", f"\n{entry}\n{exit_}\n")
    result = invoke(["solve"], input=text)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"Error: <stdin>: {message}\n",
    )


def test_entry_outside_does_not_matter_when_from_replaces_it(invoke: Invoke) -> None:
    text = MAZE_TEXT.replace("\n0,0\n", "\n99,99\n")
    result = invoke(["solve", "--from", "0,0"], input=text)
    assert result.exit_code == 0
    assert len(result.stdout) - 1 == reference_distance(MAZE, (0, 0), (19, 14))


@pytest.mark.parametrize("option", ["--from", "--to"])
def test_from_or_to_outside_the_grid(invoke: Invoke, maze_file: Path, option: str) -> None:
    result = invoke(["solve", option, "20,3", str(maze_file)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: {option}: cell (20,3) is outside the 20x15 grid of {maze_file}\n"
    )


@pytest.mark.parametrize(
    "value", ["3", "a,b", "1,2,3", "", "1.5,2", "+1,2", "\u00b2,1", "\u0663,1"]
)
def test_malformed_from_is_a_usage_error(invoke: Invoke, value: str) -> None:
    result = invoke(["solve", "--from", value], input=SMALL_MAZE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith(f"Error: --from must be two integers x,y, got '{value}'\n")


def test_malformed_to_is_a_usage_error(invoke: Invoke) -> None:
    result = invoke(["solve", "--to", "x"], input=SMALL_MAZE)
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --to must be two integers x,y, got 'x'\n")


def test_a_negative_cell_is_outside_the_grid(invoke: Invoke) -> None:
    result = invoke(["solve", "--from", "-1,2"], input=SMALL_MAZE)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: --from: cell (-1,2) is outside the 4x2 grid of <stdin>\n"


@pytest.mark.parametrize("value", ["EX", "", "north", "\u00df", "E S"])
def test_malformed_moves_is_a_usage_error(invoke: Invoke, value: str) -> None:
    result = invoke(["solve", "--moves", value], input=SMALL_MAZE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith(
        f"Error: Invalid value for '--moves': expected letters from N, E, S, W, got {value!r}\n"
    )


@pytest.mark.parametrize("algorithm", ["astar", "dead-end-fill"])
def test_moves_with_another_algorithm_is_a_usage_error(invoke: Invoke, algorithm: str) -> None:
    result = invoke(["solve", "--moves", "ES", "--algorithm", algorithm], input=SMALL_MAZE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith(
        f"Error: --moves cannot be combined with --algorithm {algorithm}: "
        "it has its own search (mark, then walk)\n"
    )


def test_unknown_algorithm_is_clicks_usage_error(invoke: Invoke) -> None:
    result = invoke(["solve", "--algorithm", "dijkstra"], input=SMALL_MAZE)
    assert result.exit_code == 2
    assert "Invalid value for '--algorithm': 'dijkstra' is not one of 'bfs', 'astar', " in (
        result.stderr
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "1:1: empty input: no grid rows"),
        (
            "D5x3\nD556\n\n0,0\n0,1\n",
            "1:3: invalid 'x' in the grid: expected a hex digit 0-9 or A-F",
        ),
        ("D553\nD556\n\n0,0\n", "5:1: missing the exit line (x,y)"),
        ("D553\nD556\n\n0,0\n0,1\nEEE\nmore\n", "7:1: unexpected content after the path line"),
    ],
)
def test_malformed_input_gives_the_readers_message(invoke: Invoke, text: str, message: str) -> None:
    result = invoke(["solve"], input=text)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"Error: <stdin>:{message}\n",
    )


def test_unreadable_file(invoke: Invoke, tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    result = invoke(["solve", str(missing)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"Error: {missing}: cannot read: No such file or directory\n"


def test_unwritable_output(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir.txt"
    result = invoke(["solve", "-o", str(target)], input=SMALL_MAZE)
    assert result.exit_code == 1
    assert result.stderr == f"Error: {target}: cannot write: No such file or directory\n"


def test_help_has_examples(invoke: Invoke) -> None:
    for flag in ("--help", "-h"):
        result = invoke(["solve", flag])
        assert result.exit_code == 0
        assert "Examples:" in result.stdout
        assert "mazekit solve --moves ES --from 6,3 samples/unsolved-10x6.txt" in result.stdout


# --- real processes --------------------------------------------------------------------------

MAZEKIT = [sys.executable, "-m", "mazekit"]


def test_pipeline_solve_into_validate(maze_file: Path) -> None:
    with maze_file.open("rb") as stdin:
        solve = subprocess.Popen([*MAZEKIT, "solve"], stdin=stdin, stdout=subprocess.PIPE)
        check = subprocess.run(
            [*MAZEKIT, "validate", "--pattern", "none", "--perfect"],
            stdin=solve.stdout,
            capture_output=True,
            text=True,
            check=False,
        )
        solve.wait()
    assert (solve.returncode, check.returncode, check.stdout) == (0, 0, "<stdin>: ok\n")


def test_pipeline_solve_twice_is_idempotent(maze_file: Path) -> None:
    once = subprocess.run(
        [*MAZEKIT, "solve", str(maze_file)], capture_output=True, check=True
    ).stdout
    twice = subprocess.run(
        [*MAZEKIT, "solve", "-"], input=once, capture_output=True, check=True
    ).stdout
    assert once == twice


def test_errors_in_a_real_process_have_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    path.write_text(dump(islands()))
    result = subprocess.run([*MAZEKIT, "solve", str(path)], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"Error: {path}: exit (19,14) is not reachable from entry (0,0)\n"


def test_solve_loads_neither_pillow_nor_json_unless_asked(maze_file: Path) -> None:
    probe = (
        "import sys; from mazekit.cli import main\n"
        "try:\n    main(['solve', '--path-only', sys.argv[1]])\n"
        "except SystemExit:\n    pass\n"
        "print('PIL' in sys.modules, 'json' in sys.modules, file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe, str(maze_file)], capture_output=True, text=True, check=True
    )
    assert result.stderr == "False False\n"


def test_a_huge_coordinate_is_a_usage_error_with_a_short_echo(invoke: Invoke) -> None:
    result = invoke(["solve", "--from", "9" * 5000 + ",0"], input="F\n\n0,0\n0,0\n\n")
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --from=" + "9" * 40 + "... is outside every maze\n")
