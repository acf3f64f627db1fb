"""``mazekit stats`` and ``mazekit.stats``: every measure against a brute-force count, every
verdict, and the command's output, options and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazekit
from mazekit.analysis import Analysis
from mazekit.generators import ALGORITHMS, generate
from mazekit.measures import VERDICTS, Stats, longest_branch, stats
from mazekit.model import Maze
from mazekit.pacman import pacmanize
from mazekit.pattern import pattern_cells
from mazekit.rules import validate
from mazekit.textformat import dump, parse
from tests import brute
from tests.conftest import Invoke, closed_grid, open_room, open_wall, serpentine

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PERFECT = SAMPLES / "valid-20x15-perfect.txt"


def _assert_matches_brute_force(maze: Maze) -> Stats:
    found = stats(maze)
    closed_42 = {
        (x, y) for x, y in pattern_cells(maze.width, maze.height) if maze.walls[y, x] == 15
    }
    real, enclosed = brute.dead_ends(maze, closed_42)  # the cells as they are
    reach = brute.reachable(maze)
    kinds = brute.degrees(maze)
    assert (found.width, found.height) == (maze.width, maze.height)
    assert found.reachable_cells == len(reach)
    assert found.pattern_cells == len(closed_42)
    assert found.incoherent_walls == brute.incoherent_walls(maze)
    assert found.loops == brute.grid_loops(maze)
    assert (found.real_dead_ends, found.enclosed_dead_ends) == (len(real), len(enclosed))
    assert (found.three_way, found.four_way) == (kinds["three_way"], kinds["four_way"])
    assert (found.straight, found.turning) == (kinds["straight"], kinds["turning"])
    assert found.longest_dead_end_branch == brute.longest_branch(maze)
    assert found.shortest_path == brute.distance(maze, maze.entry, maze.exit)
    if found.shortest_path is not None and maze.entry != maze.exit:
        (ex, ey), (xx, xy) = maze.entry, maze.exit
        assert found.tortuosity == found.shortest_path / (abs(xx - ex) + abs(xy - ey))
    else:
        assert found.tortuosity is None
    return found


@st.composite
def any_grid(draw: st.DrawFn) -> Maze:
    """Random wall digits, coherent or not, with any entry and exit inside."""
    width, height = draw(st.integers(1, 10)), draw(st.integers(1, 10))
    cells = draw(st.lists(st.integers(0, 15), min_size=width * height, max_size=width * height))
    walls = np.array(cells, dtype=np.uint8).reshape(height, width)
    entry = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    exit_ = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    return Maze(walls, entry, exit_)


@given(any_grid())
def test_measures_of_any_grid_match_a_brute_force_count(maze: Maze) -> None:
    found = _assert_matches_brute_force(maze)
    assert found.verdict in VERDICTS


@given(
    width=st.integers(1, 24),
    height=st.integers(1, 24),
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from(sorted(ALGORITHMS)),
    board=st.sampled_from(["perfect", "imperfect", "pacmanized"]),
)
def test_measures_of_generated_mazes_match_a_brute_force_count(
    width: int, height: int, seed: int, algorithm: str, board: str
) -> None:
    perfect = board == "perfect"
    if (
        width * height == 1
        or (perfect and algorithm == "flood")
        or (not perfect and (min(width, height) < 2 or width * height < 6))
    ):
        return
    maze = generate(width, height, seed=seed, algorithm=algorithm, perfect=perfect)
    if board == "pacmanized":
        maze = pacmanize(maze)
    found = _assert_matches_brute_force(maze)
    assert found.perfect == perfect
    expected = {
        "perfect": {"PERFECT"},
        "imperfect": {"PACMAN-USABLE", "PACMAN-ARCADE"},
        "pacmanized": {"PACMAN-ARCADE"},
    }[board]
    assert found.verdict in expected


def test_the_longest_branch_is_the_deepest_dead_end_walk() -> None:
    # a comb: a corridor along the top row from the entry to the exit, teeth hanging down
    walls = closed_grid(5, 4)
    for x in range(4):
        open_wall(walls, x, 0, "E")
    for y in range(3):
        open_wall(walls, 1, y, "S")  # a tooth of 3 cells under (1,0)
    open_wall(walls, 3, 0, "S")  # a tooth of 1 cell under (3,0)
    open_wall(walls, 1, 2, "E")  # and a side branch off the long tooth
    maze = Maze(walls, (0, 0), (4, 0), "EEEE")
    assert longest_branch(Analysis(maze), [0, 4]) == 3
    assert stats(maze).longest_dead_end_branch == 3
    # without pins the whole tree is peeled: its longest walk from a centre
    assert longest_branch(Analysis(maze), []) > 3


def test_no_leaf_no_branch() -> None:
    ring = closed_grid(3, 3)
    for x, y, letter in ((0, 0, "E"), (1, 0, "E"), (2, 0, "S"), (2, 1, "S")):
        open_wall(ring, x, y, letter)
    for x, y, letter in ((0, 0, "S"), (0, 1, "S"), (0, 2, "E"), (1, 2, "E")):
        open_wall(ring, x, y, letter)
    assert stats(Maze(ring, (0, 0), (2, 2), "EESS")).longest_dead_end_branch == 0


# --- verdicts, in their order ------------------------------------------------------------------


def _verdict(maze: Maze) -> tuple[str, str | None]:
    found = stats(maze)
    return found.verdict, found.reason


def test_incoherent_comes_first() -> None:
    maze = parse((SAMPLES / "invalid-coherence-half-open-wall.txt").read_text())
    assert _verdict(maze) == ("INCOHERENT", None)
    assert stats(maze).incoherent_walls == 1


def test_degenerate_at_most_one_reachable_cell() -> None:
    walled_in = Maze(closed_grid(3, 2), (0, 0), (2, 1), "")
    assert _verdict(walled_in) == ("DEGENERATE", None)
    outside = serpentine(3, 2)
    outside.entry = (7, 7)
    found = stats(outside)
    assert (found.verdict, found.reachable_cells, found.shortest_path) == ("DEGENERATE", 0, None)
    assert found.longest_dead_end_branch == 0 and not found.perfect


def test_disconnected() -> None:
    maze = parse((SAMPLES / "invalid-connectivity-walled-off-cell.txt").read_text())
    assert _verdict(maze) == ("DISCONNECTED", None)
    assert not stats(maze).perfect


def test_perfect() -> None:
    found = stats(parse(PERFECT.read_text()))
    assert (found.verdict, found.loops, found.perfect) == ("PERFECT", 0, True)


def test_not_pacman_ready_says_why() -> None:
    imperfect = parse((SAMPLES / "valid-20x15-imperfect.txt").read_text())
    assert _verdict(imperfect) == (
        "NOT-PACMAN-READY",
        "22 real dead ends, more than the 2 allowed",
    )
    one_loop = closed_grid(3, 2)  # a ring of 6 cells: 1 loop, no dead end
    for x, y, letter in ((0, 0, "E"), (1, 0, "E"), (2, 0, "S"), (1, 1, "E"), (0, 1, "E")):
        open_wall(one_loop, x, y, letter)
    open_wall(one_loop, 0, 0, "S")
    assert _verdict(Maze(one_loop, (0, 0), (2, 1), "EES")) == (
        "NOT-PACMAN-READY",
        "1 loop, fewer than the 2 a board needs",
    )


def _open_grid(width: int, height: int) -> Maze:
    """Every inner wall open: a W x H room, entry top-left, exit bottom-right, and a path."""
    maze = open_room(width, height)
    maze.path = "E" * (width - 1) + "S" * (height - 1)
    return maze


def test_a_room_is_not_a_board() -> None:
    # many loops, no dead end, every key cell reached: only validity stops it being arcade
    for width, height in ((4, 3), (4, 4), (3, 3)):
        found = stats(_open_grid(width, height))
        assert (found.real_dead_ends, found.loops >= 2) == (0, True)
        assert (found.verdict, found.reason) == (
            "NOT-PACMAN-READY",
            "open-area: 3x3 open area with its top-left cell at (0,0)",
        )


def test_an_open_border_wall_is_not_a_board() -> None:
    board = pacmanize(parse(PERFECT.read_text()))
    assert _verdict(board) == ("PACMAN-ARCADE", None)
    board.walls[0, 3] &= ~np.uint8(1)  # the north wall of (3,0)
    assert _verdict(board) == (
        "NOT-PACMAN-READY",
        "border: north wall of (3,0) is open on the border",
    )


def test_a_board_that_breaks_a_rule_lists_it_first() -> None:
    room = parse((SAMPLES / "invalid-open-area-3x3-room.txt").read_text())
    assert _verdict(room) == (
        "NOT-PACMAN-READY",
        "open-area: 3x3 open area with its top-left cell at (3,0); "
        "32 real dead ends, more than the 2 allowed",
    )
    # the path line is not used: a board with a wrong path is still a board
    board = pacmanize(parse(PERFECT.read_text()))
    board.path = "N"
    assert _verdict(board) == ("PACMAN-ARCADE", None)


def test_usable_and_arcade_boards() -> None:
    usable = generate(30, 20, seed=2, perfect=False, max_dead_ends=2)
    assert stats(usable).real_dead_ends == 2
    assert _verdict(usable) == ("PACMAN-USABLE", None)
    assert _verdict(pacmanize(usable)) == ("PACMAN-ARCADE", None)


def _holds(maze: Maze) -> list[str]:
    """Every verdict whose condition holds, each computed on its own, in the order of VERDICTS."""
    reach = brute.reachable(maze)
    # the cells as they are: a "42" cell that is not F is measured like any other cell
    pattern = {(x, y) for x, y in pattern_cells(maze.width, maze.height) if maze.walls[y, x] == 15}
    cells = {(x, y) for y in range(maze.height) for x in range(maze.width)}
    real = len(brute.dead_ends(maze, pattern)[0])
    conditions = {
        "INCOHERENT": brute.incoherent_walls(maze) > 0,
        "DEGENERATE": len(reach) <= 1,
        "DISCONNECTED": bool(cells - pattern - reach),
        "PERFECT": brute.reachable_loops(maze) == 0,
        "NOT-PACMAN-READY": not validate(maze, skip=("path",), pacman=True).valid,
        "PACMAN-USABLE": 1 <= real <= 2,
        "PACMAN-ARCADE": real == 0,
    }
    return [verdict for verdict in VERDICTS if conditions[verdict]]


def _half_open(maze: Maze, x: int, y: int, bit: int) -> Maze:
    maze.walls[y, x] &= ~np.uint8(bit)
    return maze


def _usable_board() -> Maze:
    board = generate(30, 20, seed=2, perfect=False, max_dead_ends=2)
    assert len(brute.dead_ends(board)[0]) == 2
    return board


PAIRS = {
    # one half-open wall, and nothing else reachable from the entry
    ("INCOHERENT", "DEGENERATE"): lambda: _half_open(
        Maze(closed_grid(3, 2), (0, 0), (2, 1)), 0, 0, 2
    ),
    ("DEGENERATE", "DISCONNECTED"): lambda: Maze(closed_grid(3, 2), (0, 0), (2, 1)),
    ("DISCONNECTED", "PERFECT"): lambda: parse(
        (SAMPLES / "invalid-connectivity-walled-off-cell.txt").read_text()
    ),
    ("PERFECT", "NOT-PACMAN-READY"): lambda: _half_open(serpentine(5, 4), 2, 0, 1),
    ("NOT-PACMAN-READY", "PACMAN-USABLE"): lambda: _half_open(_usable_board(), 3, 0, 1),
    ("NOT-PACMAN-READY", "PACMAN-ARCADE"): lambda: _open_grid(4, 4),
}


def test_when_two_verdicts_apply_the_earlier_wins() -> None:
    # every pair of neighbours in VERDICTS, both conditions true at once (PACMAN-USABLE and
    # PACMAN-ARCADE exclude each other: 1 or 2 real dead ends, or 0)
    neighbours = set(pairwise(VERDICTS)) - {("PACMAN-USABLE", "PACMAN-ARCADE")}
    assert neighbours <= set(PAIRS)
    for (first, second), make in PAIRS.items():
        maze = make()
        holding = _holds(maze)
        assert first in holding and second in holding, (first, second, holding)
        assert holding[0] == first, holding
        assert stats(maze).verdict == first, (first, second)


@st.composite
def mutated_maze(draw: st.DrawFn) -> Maze:
    """A generated maze, perfect, imperfect or pacmanized, with a few walls toggled: on both
    sides (coherent, border walls too) or on one side only (incoherent)."""
    width, height = draw(st.integers(2, 12)), draw(st.integers(2, 12))
    kind = draw(st.sampled_from(["perfect", "imperfect", "pacmanized"]))
    if width * height < 6:
        kind = "perfect"
    maze = generate(width, height, seed=draw(st.integers(0, 2**16)), perfect=kind == "perfect")
    if kind == "pacmanized":
        maze = pacmanize(maze)
    for _ in range(draw(st.integers(0, 3))):
        x, y = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
        bit, dx, dy, opposite = draw(st.sampled_from(brute.SIDES))
        one_side = draw(st.integers(0, 4)) == 0
        maze.walls[y, x] ^= np.uint8(bit)
        near = (x + dx, y + dy)
        if maze.contains(near) and not one_side:
            maze.walls[near[1], near[0]] ^= np.uint8(opposite)
    return maze


@given(mutated_maze())
def test_the_verdict_is_the_first_that_holds(maze: Maze) -> None:
    found = stats(maze)
    assert found.verdict == _holds(maze)[0]
    if found.verdict == "NOT-PACMAN-READY":
        report = validate(maze, skip=("path",))
        assert found.reason is not None
        if not report.valid:
            first = report.violations[0]
            assert found.reason.startswith(f"{first.rule}: {first.message}")
    else:
        assert found.reason is None


def test_the_api_is_a_function_that_stays_one() -> None:
    assert mazekit.stats is stats and mazekit.Stats is Stats
    code = "import mazekit.measures, mazekit.cli.stats, mazekit\nprint(callable(mazekit.stats))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout == "True\n", result.stderr


# --- the command -------------------------------------------------------------------------------

PERFECT_TEXT = f"""\
{PERFECT}:
  size: 20x15 (300 cells)
  reachable cells: 282
  pattern cells: 18
  incoherent walls: 0
  loops: 0
  dead ends: 32 real, 2 enclosed
  junctions: 30 3-way, 1 4-way (11.0% of reachable cells)
  corridor cells: 97 straight, 120 turning
  longest dead-end branch: 121 cells
  shortest path: 65 steps, tortuosity 1.97
  perfect: yes
  verdict: PERFECT
"""


def test_text_output(invoke: Invoke) -> None:
    result = invoke(["stats", str(PERFECT)])
    assert (result.exit_code, result.stdout, result.stderr) == (0, PERFECT_TEXT, "")


def test_stdin_and_several_files(invoke: Invoke) -> None:
    text = PERFECT.read_text()
    from_stdin = PERFECT_TEXT.replace(str(PERFECT), "<stdin>")
    assert invoke(["stats"], input=text).stdout == from_stdin
    both = invoke(["stats", str(PERFECT), "-"], input=text)
    assert both.stdout == PERFECT_TEXT + "\n" + from_stdin


def test_unusual_paths_are_spelled_out(invoke: Invoke) -> None:
    walls = closed_grid(3, 1)
    open_wall(walls, 0, 0, "E")
    cut = invoke(["stats"], input=dump(Maze(walls, (0, 0), (2, 0), "")))
    assert "  shortest path: none (the exit cannot be reached from the entry)\n" in cut.stdout
    assert "  verdict: DISCONNECTED\n" in cut.stdout
    same = invoke(["stats"], input=dump(Maze(walls, (0, 0), (0, 0), "")))
    assert "  shortest path: 0 steps (the entry is the exit)\n" in same.stdout


def test_not_ready_shows_the_reason(invoke: Invoke) -> None:
    result = invoke(["stats", str(SAMPLES / "valid-20x15-imperfect.txt")])
    assert result.stdout.splitlines()[-1] == (
        "  verdict: NOT-PACMAN-READY (22 real dead ends, more than the 2 allowed)"
    )
    assert result.exit_code == 0


def test_one_cell_and_one_step_are_singular(invoke: Invoke) -> None:
    walls = closed_grid(3, 1)  # (0,0) - (1,0) - (2,0): from the entry to the exit one step,
    open_wall(walls, 0, 0, "E")  # and (2,0) a branch of one cell
    open_wall(walls, 1, 0, "E")
    lines = invoke(["stats"], input=dump(Maze(walls, (0, 0), (1, 0), "E"))).stdout.splitlines()
    assert "  longest dead-end branch: 1 cell" in lines
    assert "  shortest path: 1 step, tortuosity 1.00" in lines
    one = invoke(["stats"], input=dump(Maze(closed_grid(1, 1), (0, 0), (0, 0), "")))
    assert "  size: 1x1 (1 cell)\n" in one.stdout
    assert "  shortest path: 0 steps (the entry is the exit)\n" in one.stdout
    assert "  longest dead-end branch: 0 cells\n" in one.stdout


def test_json_gives_the_reason(invoke: Invoke) -> None:
    imperfect = SAMPLES / "valid-20x15-imperfect.txt"
    (entry,) = json.loads(invoke(["stats", "--format", "json", str(imperfect)]).stdout)["files"]
    assert (entry["verdict"], entry["reason"]) == (
        "NOT-PACMAN-READY",
        "22 real dead ends, more than the 2 allowed",
    )
    room = invoke(["stats", "--format", "json"], input=dump(_open_grid(4, 3)))
    (entry,) = json.loads(room.stdout)["files"]
    assert (room.exit_code, entry["verdict"], entry["reason"]) == (
        0,
        "NOT-PACMAN-READY",
        "open-area: 3x3 open area with its top-left cell at (0,0)",
    )
    text = invoke(["stats"], input=dump(_open_grid(4, 3)))
    assert text.stdout.splitlines()[-1] == (
        "  verdict: NOT-PACMAN-READY (open-area: 3x3 open area with its top-left cell at (0,0))"
    )


def test_json_output(invoke: Invoke) -> None:
    result = invoke(["stats", "--format", "json", str(PERFECT)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "files": [
            {
                "file": str(PERFECT),
                "error": None,
                "width": 20,
                "height": 15,
                "cells": 300,
                "reachable_cells": 282,
                "pattern_cells": 18,
                "incoherent_walls": 0,
                "loops": 0,
                "dead_ends": {"real": 32, "enclosed": 2},
                "junctions": {"three_way": 30, "four_way": 1, "share": 0.1099},
                "corridors": {"straight": 97, "turning": 120},
                "longest_dead_end_branch": 121,
                "shortest_path": 65,
                "tortuosity": 1.9697,
                "perfect": True,
                "verdict": "PERFECT",
                "reason": None,
            }
        ]
    }


def test_expect_checks_the_verdict(invoke: Invoke) -> None:
    assert invoke(["stats", "--expect", "PERFECT", str(PERFECT)]).exit_code == 0
    assert invoke(["stats", "--expect", "perfect", str(PERFECT)]).exit_code == 0
    result = invoke(["stats", "--expect", "PACMAN-ARCADE", str(PERFECT)])
    assert (result.exit_code, result.stdout) == (1, PERFECT_TEXT)
    assert result.stderr == f"Error: {PERFECT}: verdict PERFECT, expected PACMAN-ARCADE\n"
    bad = invoke(["stats", "--expect", "GOOD", str(PERFECT)])
    assert bad.exit_code == 2
    assert bad.stderr.endswith(
        "Error: Invalid value for '--expect': 'GOOD' is not a verdict: use one of INCOHERENT, "
        "DEGENERATE, DISCONNECTED, PERFECT, NOT-PACMAN-READY, PACMAN-USABLE, PACMAN-ARCADE\n"
    )


def test_every_verdict_exits_0_without_expect(invoke: Invoke) -> None:
    for name in (
        "invalid-coherence-half-open-wall.txt",
        "invalid-connectivity-walled-off-cell.txt",
        "valid-2x1-tiny.txt",
        "invalid-open-area-3x3-room.txt",
    ):
        assert invoke(["stats", str(SAMPLES / name)]).exit_code == 0, name


def test_malformed_and_unreadable_files(invoke: Invoke, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("D5G3\nD556\n\n0,0\n0,1\n")
    missing = tmp_path / "missing.txt"
    result = invoke(["stats", str(bad), str(missing), str(PERFECT)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {bad}:1:3: invalid 'G' in the grid: expected a hex digit 0-9 or A-F\n"
        f"Error: {missing}: cannot read: No such file or directory\n"
    )
    assert result.stdout == PERFECT_TEXT  # the readable file is still measured
    as_json = invoke(["stats", "--format", "json", str(bad)])
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout) == {
        "files": [
            {
                "file": str(bad),
                "error": "1:3: invalid 'G' in the grid: expected a hex digit 0-9 or A-F",
            }
        ]
    }
    only_bad = invoke(["stats", str(bad)])
    assert (only_bad.exit_code, only_bad.stdout) == (1, "")


def test_a_board_made_by_pacmanize_is_arcade_grade(invoke: Invoke) -> None:
    board = invoke(["pacmanize", str(PERFECT)]).stdout
    result = invoke(["stats", "--expect", "PACMAN-ARCADE"], input=board)
    assert (result.exit_code, result.stderr) == (0, "")


@pytest.mark.parametrize(
    ("footer", "notes"),
    [
        (
            "\n\n\n0,0\n1,1\nEE\n",
            ["<stdin>:4:1: 3 empty lines after the grid: read the entry after them"],
        ),
        (
            "\n0,0\n1,1\nES\nprint(path)\n",
            ["<stdin>:7:1: unexpected content after the path line: ignored"],
        ),
        (
            "\nEx\n1,1\nES\n",
            [
                "<stdin>:4:1: entry must be two non-negative integers x,y, got 'Ex': not read",
                "<stdin>: no entry to read: reachability is judged from the corner cell, "
                "the entry 0,0",
            ],
        ),
        (
            "\n0,0\n",
            ["<stdin>: no exit to read: reachability is judged from the corner cell, the exit 1,1"],
        ),
    ],
    ids=["extra-empty-lines", "after-the-path", "entry-unreadable", "no-exit-line"],
)
def test_stats_reads_past_a_footer_with_a_note(
    invoke: Invoke, footer: str, notes: list[str]
) -> None:
    """A 2x2 ring whose footer a student's program got wrong: measured, exit 0, one note per
    thing read past, on stderr and in JSON."""
    text = invoke(["stats"], input="93\nC6\n" + footer)
    assert (text.exit_code, text.stderr) == (0, "".join(f"note: {n}\n" for n in notes))
    assert "  reachable cells: 4" in text.stdout.splitlines()
    document = json.loads(invoke(["stats", "--format", "json"], input="93\nC6\n" + footer).stdout)
    assert document["files"][0]["notes"] == notes


def test_an_entry_outside_the_grid_says_why_nothing_is_reachable(invoke: Invoke) -> None:
    """A student's program that wrote ENTRY as the grid's size (20,15 in a 20x15 maze): the
    verdict DEGENERATE with 0 reachable cells comes with validate's reason, on stderr and in
    JSON; an exit outside is already the reason of NOT-PACMAN-READY, so it gets no note."""
    message = (
        "<stdin>: entry (2,2) is outside the 2x2 grid: connectivity and the path cannot be "
        "checked from it"
    )
    text = invoke(["stats"], input="93\nC6\n\n2,2\n1,1\nES\n")
    assert (text.exit_code, text.stderr) == (0, f"note: {message}\n")
    assert "  verdict: DEGENERATE" in text.stdout.splitlines()
    document = json.loads(
        invoke(["stats", "--format", "json"], input="93\nC6\n\n2,2\n1,1\nES\n").stdout
    )
    assert document["files"][0]["notes"] == [message]
    exit_outside = invoke(["stats"], input="93\nC6\n\n0,0\n2,2\nES\n")
    assert (exit_outside.exit_code, exit_outside.stderr) == (0, "")
    both_there = invoke(["stats"], input="93\nC6\n\n2,2\n2,2\nES\n")  # one note, the entry's
    assert (both_there.exit_code, both_there.stderr) == (0, f"note: {message}\n")
