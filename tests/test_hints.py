"""validate's one-line hints for systematic faults (specs/validate.md, Hints): each fixture is a
generated maze changed the way a student's writer gets it wrong in every cell."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from mazekit import generate, pattern, rules, validate
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


@st.composite
def generated_mazes(draw: st.DrawFn) -> Maze:
    """A maze generate() makes, 1x2 to 30x30, perfect or not (no example where none of that
    size exists: an imperfect 1x2)."""
    width, height = draw(st.integers(1, 30)), draw(st.integers(2, 30))
    seed, perfect = draw(st.integers(0, 2**32)), draw(st.booleans())
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


@given(maze=generated_mazes())
def test_every_generated_maze_inverted_gets_the_inverted_hint(maze: Maze) -> None:
    """And the maze as generated gets none; its open border alone is not called inverted,
    though read inverted it is coherent and closed too (it is the maze's complement)."""
    assert validate(dump(maze).encode()).hints == []
    inverted = validate(_written(maze, maze.walls ^ np.uint8(15)).encode())
    assert inverted.hints == [INVERTED]
    assert INVERTED not in validate(_written(maze, _open_border(maze.walls)).encode()).hints


# --- a "42" elsewhere or in another glyph -------------------------------------------------------

SUBJECT_GLYPH = ("X...XXX", "X.....X", "XXX.XXX", "..X.X..", "..X.XXX")
OTHER_GLYPH = ("X.X..XXX", "X.X....X", "XXXX.XXX", "..X..X..", "..X..XXX")  # "4" closed on top
THREE_ROWS = ("X.X.XX.", "XXX..X.", "..X.XXX")  # another program's small font: no known "42"
ELSEWHERE = (
    'the "42" is drawn with its top-left cell at (1,1), not at (6,5) where --pattern strict '
    "(the default) wants it: the subject lets it be anywhere, and --pattern subject accepts it "
    "there"
)
ANOTHER_GLYPH = (
    'the "42" is drawn in another glyph, its top-left cell at (6,5): the subject accepts any '
    '"42" of fully closed cells, and --pattern subject accepts it'
)
ANY_ONLY = (
    'no "42" of a shape the subject\'s rule knows, but the file is valid with --pattern any '
    '(every fully closed cell counts as the "42")'
)


def student_maze(
    width: int, height: int, rows: tuple[str, ...], corner: tuple[int, int], seed: int = 1
) -> Maze:
    """What a student's generator writes: a depth-first carve from the first free cell in
    reading order (the entry) around the cells ``rows`` marks X at ``corner`` (its "42"),
    exit at the last free cell, the BFS path."""
    import random
    from collections import deque

    moves = {"N": (0, -1, 1, 4), "E": (1, 0, 2, 8), "S": (0, 1, 4, 1), "W": (-1, 0, 8, 2)}
    closed = {
        (corner[0] + dx, corner[1] + dy)
        for dy, row in enumerate(rows)
        for dx, mark in enumerate(row)
        if mark == "X"
    }
    free_cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in closed]
    entry, exit_cell = free_cells[0], free_cells[-1]
    walls = np.full((height, width), 15, dtype=np.uint8)
    chooser = random.Random(seed)
    seen, stack = {*closed, entry}, [entry]
    while stack:
        x, y = stack[-1]
        free = [
            (x + dx, y + dy, bit, back)
            for dx, dy, bit, back in moves.values()
            if 0 <= x + dx < width and 0 <= y + dy < height and (x + dx, y + dy) not in seen
        ]
        if not free:
            stack.pop()
            continue
        nx, ny, bit, back = chooser.choice(free)
        walls[y, x] &= ~np.uint8(bit)
        walls[ny, nx] &= ~np.uint8(back)
        seen.add((nx, ny))
        stack.append((nx, ny))
    came: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {entry: None}
    queue = deque([entry])
    while queue:
        x, y = queue.popleft()
        for letter, (dx, dy, bit, _) in moves.items():
            if not walls[y, x] & bit and (x + dx, y + dy) not in came:
                came[(x + dx, y + dy)] = ((x, y), letter)
                queue.append((x + dx, y + dy))
    path, cell = "", exit_cell
    while (step := came[cell]) is not None:
        cell, letter = step
        path = letter + path
    return Maze(walls, entry, exit_cell, path)


def test_a_42_drawn_elsewhere_names_pattern_subject(invoke: Invoke) -> None:
    """The audit's file: 34 violations (pattern 17, connectivity 17), valid by the subject."""
    text = dump(student_maze(20, 15, SUBJECT_GLYPH, (1, 1)))
    result = invoke(["validate"], input=text)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"<stdin>: hint: {ELSEWHERE}"
    assert result.stdout.splitlines()[-1] == (
        "<stdin>: 34 violations (pattern 17, connectivity 17)"
    )
    assert invoke(["validate", "--pattern", "subject"], input=text).stdout == "<stdin>: ok\n"


def test_a_42_in_another_glyph_names_pattern_subject(invoke: Invoke) -> None:
    text = dump(student_maze(20, 15, OTHER_GLYPH, (6, 5)))
    result = invoke(["validate", "--format", "json"], input=text)
    assert json.loads(result.stdout)["files"][0]["hints"] == [ANOTHER_GLYPH]
    assert invoke(["validate", "--pattern", "subject"], input=text).exit_code == 0


def test_a_42_no_rule_knows_names_pattern_any_when_the_file_passes_it(invoke: Invoke) -> None:
    text = dump(student_maze(20, 15, THREE_ROWS, (7, 6)))
    assert invoke(["validate"], input=text).stdout.splitlines()[0] == f"<stdin>: hint: {ANY_ONLY}"
    assert invoke(["validate", "--pattern", "any"], input=text).exit_code == 0
    # another fault besides: it would not pass with --pattern any, so no hint
    broken = student_maze(20, 15, THREE_ROWS, (7, 6))
    broken.path = broken.path[:-1]
    assert validate(dump(broken).encode()).hints == []


def test_a_fault_no_pattern_mode_clears_skips_the_pattern_any_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An open border (or a wrong path, a half-open wall) fails with --pattern any too: the
    hint is not given, and validate neither searches for a "42" nor runs the rules again
    (a 4000x4000 maze with every bit inverted spent half its time there)."""
    maze = student_maze(20, 15, THREE_ROWS, (7, 6))
    maze.walls[0, 3] &= np.uint8(0b1110)  # the north wall of (3,0), on the border, open
    maze.walls[0, 4] &= np.uint8(0b1110)
    runs: list[str] = []
    every_rule = rules.evaluate
    monkeypatch.setattr(
        rules, "evaluate", lambda *a, **k: runs.append("rules") or every_rule(*a, **k)
    )
    monkeypatch.setattr(pattern, "nearest", lambda walls: runs.append("nearest"))
    report = validate(dump(maze).encode())
    assert (report.counts.keys() >= {"border", "pattern"}, report.hints, runs) == (
        True,
        [],
        ["rules"],
    )
    # the same file with its border closed passes with --pattern any: the check runs, once
    maze.walls[0, 3:5] |= np.uint8(0b0001)
    runs.clear()
    assert validate(dump(maze).encode()).hints == [ANY_ONLY]
    assert runs == ["rules", "nearest", "rules"]


def test_no_42_and_other_pattern_modes_get_no_pattern_hint(invoke: Invoke) -> None:
    """A file with no closed cell, or with the subject's "42" with a cell left open, is not
    told of --pattern any (that cell is its fault); a run that asked for another mode is not
    told of the one it chose."""
    text = dump(student_maze(20, 15, (), (0, 0)))
    assert validate(text.encode()).count("pattern") == 18
    assert validate(text.encode()).hints == []
    left_open = ("X...XXX", "X.....X", "XXX.XXX", "..X.X..", "..X..XX")  # (4,4) open
    assert validate(dump(student_maze(20, 15, left_open, (6, 5))).encode()).hints == []
    elsewhere = dump(student_maze(20, 15, SUBJECT_GLYPH, (1, 1)))
    assert validate(elsewhere.encode(), pattern="subject").hints == []
    assert validate(elsewhere.encode(), pattern="none").hints == []


@given(
    width=st.integers(9, 24),
    height=st.integers(7, 16),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_the_subjects_glyph_anywhere_gets_the_hint_unless_at_mazekits_place(
    width: int, height: int, seed: int, data: st.DataObject
) -> None:
    """Off the border (a glyph on it walls free cells in, and a carve leaves them closed)."""
    x0 = data.draw(st.integers(1, width - 8), label="x0")
    y0 = data.draw(st.integers(1, height - 6), label="y0")
    maze = student_maze(width, height, SUBJECT_GLYPH, (x0, y0), seed)
    report = validate(dump(maze).encode())
    if (x0, y0) == ((width - 7) // 2, (height - 5) // 2):
        assert report.hints == []
    else:
        assert len(report.hints) == 1
        assert report.hints[0].startswith(
            f'the "42" is drawn with its top-left cell at ({x0},{y0}), not at '
        )


# --- entry and exit swapped -------------------------------------------------------------------


def test_entry_and_exit_swapped_get_one_hint(invoke: Invoke) -> None:
    """The audit's file: the footer's two lines the other way round, the path as it was."""
    maze = generate(20, 15, seed=10)
    text = dump(Maze(maze.walls, maze.exit, maze.entry, maze.path))
    result = invoke(["validate"], input=text)
    assert (result.exit_code, result.stdout.splitlines()) == (
        1,
        [
            "<stdin>: hint: the path leads from the exit (0,0) to the entry (19,14): the entry "
            "and the exit are swapped (the entry's line comes first)",
            "<stdin>:19:1: path: step 1 (S) from (19,14) leaves the grid",
            "<stdin>: 1 violation (path 1)",
        ],
    )


def test_a_path_wrong_both_ways_gets_no_hint() -> None:
    maze = generate(20, 15, seed=10)
    short = Maze(maze.walls, maze.exit, maze.entry, maze.path[:-1])
    assert validate(dump(short).encode()).count("path") == 1
    assert validate(dump(short).encode()).hints == []


@given(maze=generated_mazes())
def test_every_generated_maze_with_entry_and_exit_swapped_gets_the_hint(maze: Maze) -> None:
    report = validate(dump(Maze(maze.walls, maze.exit, maze.entry, maze.path)).encode())
    (ex, ey), (xx, xy) = maze.entry, maze.exit
    assert report.hints == [
        f"the path leads from the exit ({ex},{ey}) to the entry ({xx},{xy}): the entry and "
        "the exit are swapped (the entry's line comes first)"
    ]


# --- an open border ---------------------------------------------------------------------------

CLOSE_IT = (
    "the border must be closed, with the bit of the outer wall set in every border cell (N=1 "
    "in the top row, E=2 in the last column, S=4 in the bottom row, W=8 in the first column)"
)


def test_every_outer_wall_open_gets_one_hint_not_seventy_lines(invoke: Invoke) -> None:
    maze = generate(20, 15, seed=16)
    result = invoke(["validate"], input=_written(maze, _open_border(maze.walls)))
    lines = result.stdout.splitlines()
    assert (result.exit_code, lines[0], lines[-1]) == (
        1,
        f"<stdin>: hint: every outer wall is open: {CLOSE_IT}",
        "<stdin>: 70 violations (border 70)",
    )


def test_a_writer_that_forgets_the_last_column_and_row_is_told_which_sides() -> None:
    maze = generate(20, 15, seed=16)
    walls = maze.walls.copy()
    walls[:, -1] &= np.uint8(0b1101)  # no E bit in the last column
    walls[-1, :] &= np.uint8(0b1011)  # no S bit in the bottom row
    assert validate(_written(maze, walls).encode()).hints == [
        f"the border is open along the whole east and south sides: {CLOSE_IT}"
    ]
    walls = maze.walls.copy()
    walls[0, :] &= np.uint8(0b1110)
    assert validate(_written(maze, walls).encode()).hints == [
        f"the border is open along the whole north side: {CLOSE_IT}"
    ]


def test_an_entry_opened_to_the_outside_gets_no_border_hint() -> None:
    maze = generate(20, 15, seed=16)
    walls = maze.walls.copy()
    walls[0, 0] &= np.uint8(0b0111)  # the entry's west wall, a door out
    report = validate(_written(maze, walls).encode())
    assert (report.count("border"), report.hints) == (1, [])


@given(maze=generated_mazes())
def test_every_generated_maze_with_its_border_open_gets_the_border_hint(maze: Maze) -> None:
    report = validate(_written(maze, _open_border(maze.walls)).encode())
    assert report.hints[:1] == [f"every outer wall is open: {CLOSE_IT}"]


# --- walls set in no cell ---------------------------------------------------------------------

NO_EAST_SOUTH = (
    "east and south walls are missing from every cell (no cell has E=2 or S=4 set) while their "
    "neighbours have the matching west and north walls: write each wall in both cells it "
    "separates, and the outer walls of the border"
)
NO_NORTH_WEST = (
    "north and west walls are missing from every cell (no cell has N=1 or W=8 set) while their "
    "neighbours have the matching south and east walls: write each wall in both cells it "
    "separates, and the outer walls of the border"
)


def test_a_writer_that_sets_only_north_and_west_gets_one_hint(invoke: Invoke) -> None:
    """The audit's file: each cell written ``v & 9``, 337 violations."""
    maze = generate(20, 15, seed=60)
    result = invoke(["validate"], input=_written(maze, maze.walls & np.uint8(9)))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"<stdin>: hint: {NO_EAST_SOUTH}"


def test_a_few_walls_missing_get_no_such_hint() -> None:
    """One east wall left out is one coherence violation, not a writer's habit."""
    maze = generate(20, 15, seed=60)
    walls = maze.walls.copy()
    y, x = np.argwhere(walls[:, :-1] & 2)[0]  # the first closed east wall inside the grid
    walls[y, x] &= np.uint8(0b1101)
    report = validate(_written(maze, walls).encode())
    assert (report.counts, report.hints) == ({"coherence": 1}, [])


@given(maze=generated_mazes())
def test_every_generated_maze_written_with_only_two_bits_gets_the_hint(maze: Maze) -> None:
    only_north_west = validate(_written(maze, maze.walls & np.uint8(9)).encode())
    assert only_north_west.hints == [NO_EAST_SOUTH]
    only_south_east = validate(_written(maze, maze.walls & np.uint8(6)).encode())
    assert only_south_east.hints == [NO_NORTH_WEST]


def test_two_faults_get_two_hints_in_order(invoke: Invoke) -> None:
    """A "42" elsewhere and the footer the other way round: the "42" first, then the path."""
    maze = student_maze(20, 15, SUBJECT_GLYPH, (1, 1))
    text = dump(Maze(maze.walls, maze.exit, maze.entry, maze.path))
    swapped = (
        "the path leads from the exit (0,0) to the entry (19,14): the entry and the exit are "
        "swapped (the entry's line comes first)"
    )
    lines = invoke(["validate"], input=text).stdout.splitlines()
    assert lines[:2] == [f"<stdin>: hint: {ELSEWHERE}", f"<stdin>: hint: {swapped}"]
    document = json.loads(invoke(["validate", "--format", "json"], input=text).stdout)
    assert document["files"][0]["hints"] == [ELSEWHERE, swapped]
    csv = invoke(["validate", "--format", "csv"], input=text).stdout
    assert "hint" not in csv  # CSV rows are violations only
