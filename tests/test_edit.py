"""``mazekit edit``: walls set on both sides, refusals with their exact messages and exit
codes, the bottleneck rule, and the canonical path line; plus the seed's two experiments."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazekit
from mazekit import dead_ends
from mazekit.edit import RELIEVE_TOP, Closure, WallChange, _board_guard, _relief_candidates, edit
from mazekit.errors import MazeError
from mazekit.generators import generate
from mazekit.graph import betweenness, cop_number, gini
from mazekit.model import BY_LETTER, Maze
from mazekit.rules import validate
from mazekit.search import distance_between
from mazekit.solvers import solve
from mazekit.textformat import dump, parse
from tests.conftest import Invoke, closed_grid, relief_board, ring, scaled, serpentine
from tests.test_graph import _with_loops

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PERFECT = SAMPLES / "valid-20x15-perfect.txt"
BOARD = SAMPLES / "valid-30x20-board.txt"


def _edit(invoke: Invoke, args: list[str], maze: Maze | Path) -> tuple[int, str, str]:
    text = dump(maze) if isinstance(maze, Maze) else maze.read_text()
    result = invoke(["edit", *args, "-"], input=text)
    return result.exit_code, result.stdout, result.stderr


def test_open_and_close_set_both_sides_and_rewrite_the_path(invoke: Invoke) -> None:
    maze = parse(PERFECT.read_text())
    cells = [maze.entry]
    for letter in maze.path:
        step = BY_LETTER[letter]
        cells.append((cells[-1][0] + step.dx, cells[-1][1] + step.dy))
    on_path = set(pairwise(cells))
    x, y = next(
        (x, y)
        for y in range(15)
        for x in range(19)
        if not maze.walls[y, x] & 2
        and ((x, y), (x + 1, y)) not in on_path
        and ((x + 1, y), (x, y)) not in on_path
    )
    code, out, err = _edit(invoke, ["--open", "0,0,s", "--close", f"{x},{y},E"], maze)
    assert code == 0, err
    edited = parse(out)
    assert not edited.walls[0, 0] & 4 and not edited.walls[1, 0] & 1  # open on both sides
    assert edited.walls[y, x] & 2 and edited.walls[y, x + 1] & 8  # closed on both sides
    assert edited.path == solve(edited)
    assert validate(edited, skip=("perfect", "open-area", "connectivity")).valid


def test_a_wall_already_as_asked_is_said_and_the_maze_is_written_unchanged(
    invoke: Invoke,
) -> None:
    """A typo in a coordinate often names a wall that is already open: said, never silent."""
    maze = parse(PERFECT.read_text())
    letter = maze.path[0]  # the entry's first step: an open wall
    side = {"N": "north", "E": "east", "S": "south", "W": "west"}[letter]
    x, y = maze.entry
    args = ["--open", f"{x},{y},{letter}", "--close", "0,0,N", "--force"]
    code, out, err = _edit(invoke, args, maze)
    assert code == 0
    assert err.splitlines() == [
        f"note: --open {x},{y},{letter}: the {side} wall of ({x},{y}) is already open",
        "note: --close 0,0,N: the north wall of (0,0) is already closed",
    ]
    assert out == dump(maze)


def test_no_change_writes_the_canonical_path(invoke: Invoke) -> None:
    maze = parse(PERFECT.read_text())
    maze.path = "N"
    code, out, _ = _edit(invoke, [], maze)
    assert code == 0
    assert out == dump(Maze(maze.walls, maze.entry, maze.exit, solve(maze)))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--close", "0,0,N"],
            "--close 0,0,N: the north wall of (0,0) is on the border (--force to change it anyway)",
        ),
        (
            ["--open", "5,5,E"],
            '--open 5,5,E: (6,5) is a cell of the "42" (--force to change it anyway)',
        ),
        (["--open", "25,3,s"], "--open 25,3,S: cell (25,3) is outside the 20x15 grid"),
    ],
)
def test_refusals(invoke: Invoke, args: list[str], message: str) -> None:
    code, out, err = _edit(invoke, args, PERFECT)
    assert (code, out, err) == (1, "", f"Error: <stdin>: {message}\n")


def test_force_changes_a_border_wall_on_its_one_side(invoke: Invoke) -> None:
    code, out, err = _edit(invoke, ["--force", "--open", "0,0,N"], PERFECT)
    assert code == 0, err
    assert not parse(out).walls[0, 0] & 1


def test_a_close_that_cuts_the_exit_off_is_refused_or_allowed(invoke: Invoke) -> None:
    corridor = serpentine(4, 1)  # (0,0) .. (3,0)
    code, out, err = _edit(invoke, ["--close", "1,0,E"], corridor)
    assert (code, out) == (1, "")
    assert err == (
        "Error: <stdin>: --close 1,0,E: closing the east wall of (1,0) cuts the exit off "
        "from the entry (--allow-disconnect to write it anyway)\n"
    )
    code, out, err = _edit(invoke, ["--allow-disconnect", "--close", "1,0,E"], corridor)
    assert code == 0, err
    assert parse(out).path == ""


def test_a_cut_input_is_refused(invoke: Invoke) -> None:
    maze = Maze(closed_grid(3, 1), (0, 0), (2, 0))
    code, _, err = _edit(invoke, [], maze)
    assert code == 1
    assert err == (
        "Error: <stdin>: the exit cannot be reached from the entry "
        "(--allow-disconnect to write it anyway)\n"
    )


def test_an_entry_or_exit_outside_the_grid_is_named(invoke: Invoke) -> None:
    """It said "the exit cannot be reached from the entry", naming neither the entry nor the
    grid; solve, render and chase say where the entry is."""
    for entry, exit_, message in (
        ((25, 3), (19, 14), "entry (25,3) is outside the 20x15 grid"),
        ((0, 0), (0, 15), "exit (0,15) is outside the 20x15 grid"),
    ):
        maze = parse(PERFECT.read_text())
        code, out, err = _edit(invoke, [], Maze(maze.walls, entry, exit_, ""))
        assert (code, out) == (1, "")
        assert err == f"Error: <stdin>: {message} (--allow-disconnect to write it anyway)\n"
        code, out, _ = _edit(invoke, ["--allow-disconnect"], Maze(maze.walls, entry, exit_, ""))
        assert code == 0 and parse(out).entry == entry


@pytest.mark.parametrize(
    "value", ["3,4", "3,4,X", "a,b,N", "3,4,NE", "3,,4,N", "+3,4,N", "3,4,5,N"]
)
def test_malformed_wall_is_a_usage_error(invoke: Invoke, value: str) -> None:
    result = invoke(["edit", "--close", value, str(PERFECT)])
    assert result.exit_code == 2
    assert (
        f"Invalid value for '--close': expected X,Y,D with D one of N, E, S, W, got {value!r}"
        in result.stderr
    )


@pytest.mark.parametrize(
    ("value", "cell"),
    [("-1,0,N", "-1,0"), ("0,1234567890,s", "0,1234567890"), (" 25 , 3 , e ", "25,3")],
)
def test_a_cell_outside_is_the_inputs_problem_however_it_is_spelled(
    invoke: Invoke, value: str, cell: str
) -> None:
    """The X,Y of X,Y,D is read as solve's --from reads a cell: a negative or long coordinate
    is a cell outside the grid (exit 1), not a malformed option (it was exit 2 before)."""
    code, out, err = _edit(invoke, ["--close", value], PERFECT)
    letter = value.strip()[-1].upper()
    assert (code, out) == (1, "")
    assert err == (
        f"Error: <stdin>: --close {cell},{letter}: cell ({cell}) is outside the 20x15 grid\n"
    )


def test_a_coordinate_of_more_than_40_digits_is_outside_every_maze(invoke: Invoke) -> None:
    result = invoke(["edit", "--open", "1" * 41 + ",0,N", str(PERFECT)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith(f"\n\nError: --open={'1' * 40}... is outside every maze\n")


def test_close_bottleneck_closes_the_busiest_passage_that_is_no_bridge() -> None:
    board = parse(BOARD.read_text())
    before = betweenness(board)
    edited, done = edit(board, close_bottleneck=2)
    assert len(done) == 2 and all(change.close for change in done)
    ranked = [(cell, letter) for cell, letter, _ in before.top_passages(10_000)]
    first = ranked.index(((done[0].x, done[0].y), done[0].letter))
    # every busier passage is a bridge (closing it alone would cut the graph) or, this being
    # a Pac-Man board, would break it
    limit = _board_limit(board)
    assert limit is not None
    for (x, y), letter in ranked[:first]:
        alone, _ = edit(board, [WallChange(x, y, letter, close=True)], allow_disconnect=True)
        assert betweenness(alone).nodes < before.nodes or not _still_a_board(alone, limit)
    after = betweenness(edited)
    assert after.nodes == before.nodes  # nothing was cut off
    assert edited.path == solve(edited)


def _board_limit(maze: Maze) -> int | None:
    """The real dead ends of ``maze`` when it is a Pac-Man board (validate --pacman passes,
    the path line aside), else None: the guard of specs/edit.md by the public API."""
    if not validate(maze, pacman=True, skip=("path",)).valid:
        return None
    return len(dead_ends(maze)[0])


def _still_a_board(maze: Maze, limit: int | None) -> bool:
    """Whether ``maze`` passes validate --pacman with no more than ``limit`` real dead ends
    (always, for None: the input was no board)."""
    if limit is None:
        return True
    return validate(maze, pacman=True, skip=("path",), max_dead_ends=limit).valid


def _close_by_search(maze: Maze, count: int) -> list[WallChange]:
    """The rule of specs/edit.md spelt out: passages in betweenness order, each closed unless
    a search then finds its two cells apart, or (on a Pac-Man board) validate refuses it."""
    found = betweenness(maze)
    limit = _board_limit(maze)
    closed: list[WallChange] = []
    for (x, y), letter, _ in found.top_passages(10**9):
        if len(closed) == count:
            break
        step = BY_LETTER[letter]
        trial, _ = edit(maze, [WallChange(x, y, letter, close=True)], allow_disconnect=True)
        apart = distance_between(trial.walls, (x, y), (x + step.dx, y + step.dy)) < 0
        if not apart and _still_a_board(trial, limit):
            maze = trial
            closed.append(WallChange(x, y, letter, close=True))
    return closed


@settings(max_examples=scaled(30))
@given(
    width=st.integers(3, 12),
    height=st.integers(3, 10),
    seed=st.integers(0, 10_000),
    loops=st.integers(1, 30),
    count=st.integers(1, 12),
)
def test_close_bottleneck_closes_what_a_search_per_passage_would(
    width: int, height: int, seed: int, loops: int, count: int
) -> None:
    maze = _with_loops(generate(width, height, seed=seed), np.random.default_rng(seed), loops)
    expected = _close_by_search(maze, count)
    if len(expected) < count:
        why = "leaving a Pac-Man board" if _board_limit(maze) is not None else "without cutting"
        with pytest.raises(MazeError, match=f"only {len(expected)} passages? can be closed {why}"):
            edit(maze, close_bottleneck=count)
        return
    edited, done = edit(maze, close_bottleneck=count)
    assert done == expected
    assert betweenness(edited).nodes == betweenness(maze).nodes


def test_close_bottleneck_on_a_tree_fails(invoke: Invoke) -> None:
    code, _, err = _edit(invoke, ["--close-bottleneck", "1"], PERFECT)
    assert code == 1
    assert err == (
        "Error: <stdin>: --close-bottleneck 1: only 0 passages can be closed without cutting "
        "the maze in two\n"
    )
    code, _, err = _edit(invoke, ["--close-bottleneck", "2"], ring(3, 3))
    assert err.endswith("only 1 passage can be closed without cutting the maze in two\n")


def _peak(maze: Maze) -> float:
    found = betweenness(maze)
    return max(value for _, value in found.top_cells(1))


def _board(invoke: Invoke, seed: int) -> str:
    """generate --width 30 --height 20 --seed S --imperfect | pacmanize --min-loops 30."""
    return relief_board(invoke, seed)


def test_relieve_lowers_the_peak_on_pac_man_boards(invoke: Invoke) -> None:
    """The issue's measure: at least 5 of the 6 boards of seeds 1-6 (here all 6), each report
    line naming the wall closed and stats' own figures before and after."""
    lowered = 0
    for seed in range(1, 7):
        text = _board(invoke, seed)
        result = invoke(["edit", "--relieve", "1"], input=text)
        assert result.exit_code == 0, result.stderr
        before, after = parse(text), parse(result.stdout)
        closed = [
            (x, y, letter)
            for y in range(before.height)
            for x in range(before.width)
            for letter in "ES"
            if not before.walls[y, x] & BY_LETTER[letter].bit
            and after.walls[y, x] & BY_LETTER[letter].bit
        ]
        assert len(closed) == 1
        x, y, letter = closed[0]
        assert betweenness(after).nodes == betweenness(before).nodes  # nothing cut off
        lowered += _peak(after) < _peak(before)
        stats = [
            json.loads(invoke(["stats", "--graph", "--format", "json"], input=maze).stdout)
            for maze in (text, result.stdout)
        ]
        figures = [entry["files"][0]["graph"] for entry in stats]
        name = {"E": "east", "S": "south"}[letter]
        assert result.stderr == (
            f"closed the {name} wall of ({x},{y}) (--relieve, still a Pac-Man board): "
            "betweenness peak "
            f"{100 * figures[0]['peak']['value']:.2f}% at ({figures[0]['peak']['cell'][0]},"
            f"{figures[0]['peak']['cell'][1]}) -> {100 * figures[1]['peak']['value']:.2f}% at "
            f"({figures[1]['peak']['cell'][0]},{figures[1]['peak']['cell'][1]}), Gini "
            f"{figures[0]['gini']:.3f} -> {figures[1]['gini']:.3f}\n"
        )
    assert lowered >= 5
    assert lowered == 6  # what it does today: a change here is worth a look


def test_relieve_refuses_on_a_tree_and_on_a_ring(invoke: Invoke) -> None:
    peak = _peak(parse(PERFECT.read_text()))
    code, out, err = _edit(invoke, ["--relieve", "1"], PERFECT)
    assert (code, out) == (1, "")
    assert err == (
        f"Error: <stdin>: --relieve 1: no single closure lowers the peak below {100 * peak:.2f}%\n"
    )
    # closing a passage of a ring leaves a path, whose middle carries more than any ring cell
    code, out, err = _edit(invoke, ["--relieve", "2"], ring(4, 3))
    assert (code, out) == (1, "")
    assert err.startswith("Error: <stdin>: --relieve 2: no single closure lowers the peak below ")


def test_relieve_gives_a_pac_man_board_back_or_says_why_not(invoke: Invoke) -> None:
    """The planner's pipeline, pacmanize | edit --relieve 3 | validate --pacman, on two of
    the issue's boards: what edit writes is still a board, at pacmanize's arcade grade (no
    real dead end made), or edit refuses, naming the peak it could not lower with such a
    closure. (Seeds 3 and 5 of 1-6 are written, the others refused; the property test below
    holds the rest.)"""
    written = refused = 0
    for seed in (1, 3):
        text = _board(invoke, seed)
        result = invoke(["edit", "--relieve", "3"], input=text)
        if result.exit_code == 0:
            written += 1
            checked = invoke(["validate", "--pacman", "--max-dead-ends", "0"], input=result.stdout)
            assert (checked.exit_code, checked.stdout) == (0, "<stdin>: ok\n")
            lines = result.stderr.splitlines()
            assert len(lines) == 3
            assert all(" (--relieve, still a Pac-Man board): " in line for line in lines)
            continue
        refused += 1
        assert (result.exit_code, result.stdout) == (1, "")
        # as many closures as it could make, then the peak there, as stats --graph says it
        counted = re.fullmatch(
            r"Error: <stdin>: --relieve 3: after (\d) closures?, .*\n", result.stderr
        )
        assert counted is not None, result.stderr
        done = int(counted[1])
        partial = invoke(["edit", "--relieve", str(done)], input=text)
        assert partial.exit_code == 0
        peak = _peak(parse(partial.stdout))
        noun = "closure" if done == 1 else "closures"
        assert result.stderr == (
            f"Error: <stdin>: --relieve 3: after {done} {noun}, no single closure that leaves "
            f"a Pac-Man board lowers the peak below {100 * peak:.2f}%\n"
        )
    assert written and refused  # one of each


def test_relieve_and_close_bottleneck_on_a_pac_man_board_make_no_dead_end(
    invoke: Invoke,
) -> None:
    """On every relief board a single relieving closure and --close-bottleneck 3 leave a
    board with as many real dead ends as before (none), where they made up to 4 before."""
    for seed in (1, 5):
        board = parse(_board(invoke, seed))
        for relieve_count, close_bottleneck in ((1, 0), (0, 3)):
            closures: list[Closure] = []
            edited, _ = edit(
                board,
                relieve_count=relieve_count,
                close_bottleneck=close_bottleneck,
                closures=closures,
            )
            assert validate(edited, pacman=True, max_dead_ends=0).valid, seed
            assert dead_ends(edited) == dead_ends(board)
            assert all(closure.board for closure in closures)


@settings(max_examples=scaled(20))
@given(
    width=st.integers(9, 16),
    height=st.integers(7, 12),
    seed=st.integers(0, 10_000),
    loops=st.integers(2, 12),
    relieve=st.integers(0, 3),
    bottlenecks=st.integers(0, 3),
)
def test_an_edited_pac_man_board_is_still_one(
    width: int, height: int, seed: int, loops: int, relieve: int, bottlenecks: int
) -> None:
    """Whatever the board and the counts, edit's closures leave a board with no more real
    dead ends (by validate, the public rules), or edit refuses."""
    try:
        board = mazekit.pacmanize(generate(width, height, seed=seed), min_loops=loops, seed=seed)
    except MazeError:
        return  # more loops than fit
    real = len(dead_ends(board)[0])
    closures: list[Closure] = []
    try:
        edited, done = edit(
            board, relieve_count=relieve, close_bottleneck=bottlenecks, closures=closures
        )
    except MazeError as error:
        assert "Pac-Man board" in str(error)
        return
    assert validate(edited, pacman=True, max_dead_ends=real).valid
    assert len(done) == relieve + bottlenecks
    assert all(closure.board for closure in closures)


def test_close_bottleneck_on_a_pac_man_board_counts_what_leaves_a_board(invoke: Invoke) -> None:
    made = invoke(["generate", "--width", "12", "--height", "9", "--seed", "3", "--imperfect"])
    board = invoke(["pacmanize", "--min-loops", "6"], input=made.stdout).stdout
    maze = parse(board)
    can = len(_close_by_search(maze, 100))
    assert _board_limit(maze) == 0 and 0 < can < 100
    code, out, err = _edit(invoke, ["--close-bottleneck", "100"], maze)
    assert (code, out) == (1, "")
    noun = "passage" if can == 1 else "passages"
    assert err == (
        f"Error: <stdin>: --close-bottleneck 100: only {can} {noun} can be closed leaving a "
        "Pac-Man board\n"
    )


def test_relieve_says_how_many_closures_came_before_a_refusal(invoke: Invoke) -> None:
    code, out, err = _edit(invoke, ["--relieve", "500"], BOARD)
    assert (code, out) == (1, "")
    assert re.fullmatch(
        r"Error: <stdin>: --relieve 500: after \d+ closures?, no single closure that leaves a "
        r"Pac-Man board lowers the peak below \d+\.\d\d%\n",
        err,
    )


@settings(max_examples=scaled(15))
@given(
    width=st.integers(3, 9),
    height=st.integers(3, 7),
    seed=st.integers(0, 10_000),
    loops=st.integers(2, 20),
)
def test_relieve_closes_the_candidate_that_lowers_the_peak_most(
    width: int, height: int, seed: int, loops: int
) -> None:
    """Every candidate measured by hand: the one closed lowers the peak, no other lowers it
    more, and the maze stays in one piece."""
    maze = _with_loops(generate(width, height, seed=seed), np.random.default_rng(seed), loops)
    found = betweenness(maze)
    top = found.top_cells(1)
    if not top:
        return
    peak = top[0][1]
    outcomes = {}
    limit = _board_limit(maze)
    for change in _relief_candidates(maze, found, top[0][0], _board_guard(maze)):
        trial, _ = edit(maze, [change], allow_disconnect=True)
        assert betweenness(trial).nodes == found.nodes  # a candidate is never a bridge
        assert _still_a_board(trial, limit)  # nor, on a Pac-Man board, breaks it
        outcomes[change] = _peak(trial)
    assert len(outcomes) <= RELIEVE_TOP + 4
    closures: list[Closure] = []
    if not any(value < peak * (1 - 1e-9) for value in outcomes.values()):
        which = "closure" if limit is None else "closure that leaves a Pac-Man board"
        with pytest.raises(MazeError, match=f"no single {which} lowers the peak below"):
            edit(maze, relieve_count=1)
        return
    edited, done = edit(maze, relieve_count=1, closures=closures)
    assert len(done) == 1 and done[0] in outcomes
    best = min(outcomes.values())
    assert outcomes[done[0]] <= best + best * 1e-9
    assert closures[0].after is not None and closures[0].before is not None
    assert closures[0].after.peak == pytest.approx(outcomes[done[0]])
    assert closures[0].before.gini == pytest.approx(gini(found.cells[found.reachable]))
    assert betweenness(edited).nodes == found.nodes


def test_close_bottleneck_reports_the_wall_and_the_load(invoke: Invoke) -> None:
    code, _, err = _edit(invoke, ["--close-bottleneck", "1"], BOARD)
    assert code == 0
    assert err == (
        "closed the east wall of (11,19) (--close-bottleneck, still a Pac-Man board): "
        "betweenness peak 30.49% at "
        "(11,19) -> 38.79% at (21,7), Gini 0.493 -> 0.591\n"
    )


def test_opening_a_wall_in_a_tree_steps_the_cop_number_from_1_to_2(invoke: Invoke) -> None:
    maze = generate(9, 7, seed=4)
    assert cop_number(maze).text == "1"
    walls = maze.walls
    # any closed inner wall between two cells outside the "42" makes a loop
    wall = next(
        (x, y)
        for y in range(7)
        for x in range(8)
        if walls[y, x] & 2 and walls[y, x] != 15 and walls[y, x + 1] != 15
    )
    code, out, err = _edit(invoke, ["--open", f"{wall[0]},{wall[1]},E"], maze)
    assert code == 0, err
    result = invoke(["stats", "--graph", "--format", "json", "-"], input=out)
    assert json.loads(result.stdout)["files"][0]["graph"]["cop_number"]["value"] == 2


def test_the_input_maze_is_not_changed() -> None:
    maze = generate(9, 7, seed=2)
    walls = maze.walls.copy()
    edit(maze, [WallChange(0, 0, "S", close=True)], allow_disconnect=True)
    assert np.array_equal(maze.walls, walls)
